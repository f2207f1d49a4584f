"""API Gateway's HTTP API, on one machine: a request on the template's route becomes a payload
v2.0 event for the nearby handler, and its response becomes HTTP again."""

import base64
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl

from podpages.local import template

NOT_FOUND = b'{"message":"Not Found"}'  # what API Gateway answers for a path no route matches


@dataclass(frozen=True)
class HttpResponse:
    status: int
    headers: dict[str, str]
    body: bytes


def http_api_event(
    method: str, path: str, query: str, headers: dict[str, str], source_ip: str
) -> dict[str, Any] | None:
    """The event API Gateway sends for this request, or None when no route matches it."""
    route_key, pattern = template.api_route()
    matched = pattern.match(path)
    if method != route_key.split(" ")[0] or matched is None:
        return None
    parameters: dict[str, str] = {}
    for name, value in parse_qsl(query, keep_blank_values=True):
        parameters[name] = f"{parameters[name]},{value}" if name in parameters else value  # as API Gateway joins them
    now = datetime.now(UTC)
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": route_key,
        "rawPath": path,
        "rawQueryString": query,
        "headers": {name.lower(): value for name, value in headers.items()},
        "requestContext": {
            "http": {"method": method, "path": path, "protocol": "HTTP/1.1", "sourceIp": source_ip},
            "routeKey": route_key,
            "stage": "$default",
            "time": now.strftime("%d/%b/%Y:%H:%M:%S +0000"),
            "timeEpoch": int(now.timestamp() * 1000),
        },
        "pathParameters": matched.groupdict(),
        "isBase64Encoded": False,
    }
    if parameters:
        event["queryStringParameters"] = parameters
    return event


def http_response(response: dict[str, Any]) -> HttpResponse:
    body = response.get("body") or ""
    data = base64.b64decode(body) if response.get("isBase64Encoded") else body.encode()
    return HttpResponse(int(response["statusCode"]), dict(response.get("headers") or {}), data)


def not_found() -> HttpResponse:
    return HttpResponse(404, {"Content-Type": "application/json"}, NOT_FOUND)
