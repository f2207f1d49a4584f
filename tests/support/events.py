"""Events are loaded from events/, the same files `sam local invoke -e` takes."""

import json
from urllib.parse import quote_plus

from podpages.local.template import function_environment
from support.paths import EVENTS

__all__ = ["function_environment", "load_event", "nearby_request", "notification"]


def load_event(name: str) -> dict:
    return json.loads((EVENTS / name).read_text())


def notification(key: str, sequencer: str | None, removed: bool = False, bucket: str | None = None) -> dict:
    """An S3 notification for `key`, shaped like the ones in events/, with the sequencer S3 would give it."""
    event = load_event("s3-delete-episode.json" if removed else "s3-put-episode.json")
    record = event["Records"][0]
    record["s3"]["object"]["key"] = quote_plus(key, safe="/")
    if bucket:
        record["s3"]["bucket"]["name"] = bucket
    if sequencer is None:
        del record["s3"]["object"]["sequencer"]
    else:
        record["s3"]["object"]["sequencer"] = sequencer
    return event


def nearby_request(
    show: str, episode: str, query: dict[str, str] | None = None, headers: dict[str, str] | None = None
) -> dict:
    """An HTTP API request for an episode's nearby listing, shaped like events/http-nearby.json."""
    event = load_event("http-nearby.json")
    path = f"/api/shows/{show}/episodes/{episode}/nearby"
    event["rawPath"] = event["requestContext"]["http"]["path"] = path
    event["pathParameters"] = {"show": show, "episode": episode}
    event["queryStringParameters"] = query or {}
    event["rawQueryString"] = "&".join(f"{name}={value}" for name, value in (query or {}).items())
    if not query:
        del event["queryStringParameters"]
    event["headers"] = {"host": event["headers"]["host"]} | (headers or {})
    return event
