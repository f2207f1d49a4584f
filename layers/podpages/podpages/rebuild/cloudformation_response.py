"""The answer a custom resource owes CloudFormation: a PUT of its outcome to the presigned URL
the request carries. Without it, the stack waits an hour before it gives up."""

import json
from typing import Any
from urllib.parse import urlsplit
from urllib.request import Request, urlopen

MAX_REASON = 1000  # characters; the whole answer must stay under 4 KB


def respond(event: dict[str, Any], status: str, reason: str, data: dict[str, Any] | None = None) -> None:
    """Send `status` (SUCCESS or FAILED), why, and `data` for Fn::GetAtt."""
    url = event["ResponseURL"]
    if urlsplit(url).scheme not in ("https", "http"):
        raise ValueError(f"ResponseURL must be an http(s) URL, got {url!r}")
    body = json.dumps(
        {
            "Status": status,
            "Reason": reason[:MAX_REASON],
            "PhysicalResourceId": physical_resource_id(event),
            "StackId": event["StackId"],
            "RequestId": event["RequestId"],
            "LogicalResourceId": event["LogicalResourceId"],
            "Data": data or {},
        }
    ).encode()
    # The URL is presigned for a PUT with no content type: sending one would break its signature.
    request = Request(url, data=body, method="PUT", headers={"Content-Type": ""})  # scheme checked
    with urlopen(request, timeout=30):  # scheme checked above
        pass


def physical_resource_id(event: dict[str, Any]) -> str:
    """The same id on every update, so that CloudFormation never replaces the resource."""
    return event.get("PhysicalResourceId") or f"{event['LogicalResourceId']}-{event['StackId'].rsplit('/', 1)[-1]}"
