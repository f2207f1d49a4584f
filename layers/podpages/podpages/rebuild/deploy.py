"""The deploy-time rebuild: a CloudFormation custom resource whose properties name what every page is
made of (the layer's version, which holds the code and templates/, and the settings pages are rendered
with). A deploy that changes any of them queues a rebuild of every show, as `podpages rebuild --all` does."""

from typing import Any

from podpages.observability import logger
from podpages.rebuild.cloudformation_response import respond
from podpages.rebuild.queue import RebuildQueue
from podpages.rebuild.request import rebuild_requests
from podpages.storage.source_bucket import SourceBucket

NOT_SETTINGS = {"ServiceToken"}  # a property that says where the request goes, not what pages hold


def handle_deploy_event(event: dict[str, Any], source: SourceBucket, queue: RebuildQueue) -> dict[str, Any]:
    """Queue the rebuild the deploy calls for, then tell CloudFormation how that went."""
    try:
        queued = queue_rebuild(event, source, queue)
    # CloudFormation must hear of any failure, or the deploy hangs for an hour; a failed create or
    # update rolls the stack back, and its rollback rebuilds again with the layer it restores.
    except Exception as error:
        logger.exception("deploy rebuild not queued", request_type=event.get("RequestType"))
        status, reason, data = "FAILED", f"{type(error).__name__}: {error}", {}
    else:
        status, reason, data = "SUCCESS", f"{queued} rebuild requests queued", {"Requests": queued}
        logger.info("deploy rebuild", request_type=event["RequestType"], requests=queued)
    respond(event, status, reason, data)
    return {"Status": status, "Reason": reason, "Data": data}


def queue_rebuild(event: dict[str, Any], source: SourceBucket, queue: RebuildQueue) -> int:
    """How many requests were queued: none for a delete, or for an update that changed nothing pages use."""
    if event["RequestType"] == "Delete":
        return 0
    if event["RequestType"] == "Update" and _settings(event["OldResourceProperties"]) == _settings(
        event["ResourceProperties"]
    ):
        return 0
    return queue.send(rebuild_requests(source))


def _settings(properties: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in properties.items() if name not in NOT_SETTINGS}
