"""What the handlers report about themselves on Lambda: the X-Ray subsegments of an invocation, caught
where the UDP emitter would send them to the daemon, and the nearby function's cold-start metric."""

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from types import ModuleType

import botocore.client
import botocore.endpoint
import pytest
from aws_lambda_powertools import Tracer
from aws_lambda_powertools.metrics.provider import cold_start
from aws_xray_sdk import global_sdk_config
from aws_xray_sdk.core import patcher, xray_recorder
from aws_xray_sdk.core.lambda_launcher import LambdaContext as XRayLambdaContext

import podpages
from support.events import function_environment, load_event
from support.lambda_context import LambdaContext
from support.paths import EXAMPLES
from support.template import load_handler

SEED = "backend-flexibility-revolution"
TRACE_ROOT = "1-67a1b2c3-0123456789abcdef01234567"
INVOCATION_SEGMENT = "53995c3f42cd8ad8"
# What Lambda puts in the environment of a sampled invocation; it is the parent of all the function records.
TRACE_HEADER = f"Root={TRACE_ROOT};Parent={INVOCATION_SEGMENT};Sampled=1"


class XRayDaemon:
    """Stands in for the UDP emitter: it keeps each trace document as the daemon would receive it."""

    def __init__(self) -> None:
        self.documents: list[dict] = []

    def send_entity(self, entity) -> None:
        self.documents.append(json.loads(entity.serialize()))

    def set_daemon_address(self, address) -> None:
        """Nothing goes over UDP, so there is no address to set."""

    def subsegments(self) -> list[dict]:
        """Every subsegment sent, streamed alone or nested in another, each with its `parent_id`."""
        found = []

        def walk(document: dict, parent_id: str | None) -> None:
            found.append(document | {"parent_id": document.get("parent_id", parent_id)})
            for child in document.get("subsegments", []):
                walk(child, document["id"])

        for document in self.documents:
            walk(document, None)
        return found

    def named(self, name: str) -> list[dict]:
        return [subsegment for subsegment in self.subsegments() if subsegment["name"] == name]


def operations(calls: list[dict]) -> set[tuple[str, str | None]]:
    """Each call's operation and bucket; the X-Ray SDK names no bucket for some (HeadObject)."""
    return {(call["aws"]["operation"], call["aws"].get("bucket_name")) for call in calls}


@pytest.fixture
def on_lambda(local_aws, monkeypatch) -> Iterator[tuple[Callable[[str], ModuleType], XRayDaemon]]:
    """Imports a handler afresh the way Lambda does with active tracing, observability module and all.

    The Tracer's configuration, the X-Ray recorder and botocore's patched methods are process-wide,
    so each is put back when the test ends and later tests see tracing as disabled as before."""
    daemon = XRayDaemon()
    enabled = global_sdk_config.sdk_enabled()
    # A fresh Lambda process: no Tracer configured yet, and the context the recorder picks on Lambda.
    monkeypatch.setattr(Tracer, "_config", dict(Tracer._default_config))
    monkeypatch.setattr(xray_recorder, "context", XRayLambdaContext())
    monkeypatch.setattr(xray_recorder, "emitter", daemon)
    # What the Tracer and the patching change in place, set to itself so that it is put back.
    monkeypatch.setattr(xray_recorder, "streaming_threshold", xray_recorder.streaming_threshold)
    monkeypatch.setattr(botocore.client.BaseClient, "_make_api_call", botocore.client.BaseClient._make_api_call)
    monkeypatch.setattr(botocore.endpoint.Endpoint, "prepare_request", botocore.endpoint.Endpoint.prepare_request)
    monkeypatch.setattr(botocore.client, "_xray_enabled", True, raising=False)
    monkeypatch.delattr(botocore.client, "_xray_enabled")  # remembered as absent, so undone by deleting it
    monkeypatch.setattr(patcher, "_PATCHED_MODULES", set())
    monkeypatch.setattr(podpages, "observability", podpages.observability)

    def load(function: str) -> ModuleType:
        lambda_environment = {
            "LAMBDA_TASK_ROOT": "/var/task",
            "POWERTOOLS_TRACE_DISABLED": "false",
            "_X_AMZN_TRACE_ID": TRACE_HEADER,
        }
        for name, value in (function_environment(function) | local_aws.environment() | lambda_environment).items():
            monkeypatch.setenv(name, value)
        global_sdk_config.set_sdk_enabled(True)
        monkeypatch.delitem(sys.modules, "podpages.observability")
        _handler, module = load_handler(function)
        return module

    yield load, daemon
    global_sdk_config.set_sdk_enabled(enabled)


def test_a_render_invocation_traces_the_handler_and_each_s3_call(stack, on_lambda):
    stack.upload(f"episodes/pytorch/{SEED}.json", EXAMPLES / "episodes" / "pytorch" / f"{SEED}.json")
    load, daemon = on_lambda
    render = load("RenderFunction")

    delivery = replace(stack, handler=render.lambda_handler).deliver()

    [handler] = daemon.named("## lambda_handler")
    calls = daemon.named("s3")
    assert delivery.failed == [] and f"pytorch/{SEED}/index.html" in stack.keys(stack.site)
    assert handler["parent_id"] == INVOCATION_SEGMENT and handler["trace_id"] == TRACE_ROOT
    assert handler["annotations"]["Service"] == "podpages" and "fault" not in handler
    assert {("GetObject", stack.source), ("PutObject", stack.site)} <= operations(calls)
    assert {call["trace_id"] for call in calls} == {TRACE_ROOT}
    # Calls on the handler's thread nest in its subsegment; the page writes run on a thread pool,
    # which X-Ray's Lambda context does not follow, so they hang off the invocation's segment.
    assert {call["parent_id"] for call in calls} == {handler["id"], INVOCATION_SEGMENT}


def test_a_nearby_request_traces_the_handler_and_its_catalog_read(stack, on_lambda):
    for path in sorted(EXAMPLES.rglob("*.json")):
        stack.upload(path.relative_to(EXAMPLES).as_posix(), path)
    stack.deliver()
    load, daemon = on_lambda
    nearby = load("NearbyFunction")

    response = nearby.lambda_handler(load_event("http-nearby.json"), LambdaContext(function_name="NearbyFunction"))

    [handler] = daemon.named("## lambda_handler")
    calls = daemon.named("s3")
    assert response["statusCode"] == 200
    assert handler["parent_id"] == INVOCATION_SEGMENT and handler["trace_id"] == TRACE_ROOT
    assert operations(calls) == {("GetObject", stack.source)}
    assert {call["parent_id"] for call in calls} == {handler["id"]}


def test_the_nearby_function_counts_its_cold_start_once(stack, nearby, capsys, monkeypatch):
    monkeypatch.setattr(cold_start, "is_cold_start", True)

    first = nearby(load_event("http-nearby.json"))
    second = nearby(load_event("http-nearby.json"))

    emitted = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith('{"_aws"')]
    cold_starts = [document for document in emitted if "ColdStart" in document]
    assert first["statusCode"] == second["statusCode"] == 404
    assert [(item["function_name"], item["service"], item["ColdStart"]) for item in cold_starts] == [
        ("NearbyFunction", "podpages", [1.0])
    ]
