"""Events are loaded from events/, the same files `sam local invoke -e` takes."""

import json
from urllib.parse import quote_plus

from support.paths import EVENTS


def load_event(name: str) -> dict:
    return json.loads((EVENTS / name).read_text())


def function_environment(function: str = "RenderFunction") -> dict[str, str]:
    """The environment events/env.json gives a function under `sam local invoke --env-vars`."""
    return load_event("env.json")[function]


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
