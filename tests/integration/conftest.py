"""The integration tier: the handlers that template.yaml names, against S3 and SQS served by moto
over HTTP on 127.0.0.1, with the notification configuration the template declares."""

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from podpages.catalog.model import Catalog
from podpages.catalog.stored import NEARBY_LINE_SINCE
from podpages.cli.source_folder import read_source_folder
from podpages.local.recorder import Recorder, endpoints_of
from podpages.local.resources import create_resources
from podpages.publish.catalog_store import read_catalog
from podpages.render.whole_site import render_site
from podpages.settings import Settings
from podpages.storage.source_bucket import SourceBucket
from support.clock import Clock
from support.cloudformation import ResponseUrl
from support.events import function_environment
from support.lambda_context import LambdaContext
from support.local_aws import LocalAws
from support.queue import Delivery, deliver
from support.template import load_handler


@pytest.fixture(scope="package")
def local_aws():
    with LocalAws() as aws:
        yield aws


@pytest.fixture(scope="package")
def render_function(local_aws):
    """The handler module, imported once with the environment `sam local invoke` would give it."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in (function_environment("RenderFunction") | local_aws.environment()).items():
            patch.setenv(name, value)
        handler, module = load_handler("RenderFunction")
        yield module


@dataclass
class Stack:
    """The buckets and queue of template.yaml, on the local endpoint."""

    s3: object
    sqs: object
    settings: Settings
    queue_url: str
    handler: object
    rebuild_queue_url: str
    dead_letter_queue_url: str  # the render and rebuild queues'

    @property
    def source(self) -> str:
        return self.settings.source_bucket

    @property
    def site(self) -> str:
        return self.settings.site_bucket

    def upload(self, key: str, body: bytes | str | Path) -> None:
        data = body.read_bytes() if isinstance(body, Path) else body.encode() if isinstance(body, str) else body
        self.s3.put_object(Bucket=self.source, Key=key, Body=data)

    def remove(self, key: str) -> None:
        self.s3.delete_object(Bucket=self.source, Key=key)

    def discard_pending(self) -> None:
        """Drop what S3 queued, so a test can deliver events of its own making instead."""
        while messages := self.sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10).get("Messages"):
            for message in messages:
                self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])

    def send(self, notification: dict) -> None:
        self.sqs.send_message(QueueUrl=self.queue_url, MessageBody=json.dumps(notification))

    def deliver(self, batch_size: int = 10) -> Delivery:
        return deliver(self.sqs, self.queue_url, self.handler, batch_size)

    def keys(self, bucket: str, prefix: str = "") -> set[str]:
        paginator = self.s3.get_paginator("list_objects_v2")
        return {
            item["Key"]
            for page in paginator.paginate(Bucket=bucket, Prefix=prefix)
            for item in page.get("Contents", [])
        }

    def catalog_keys(self) -> set[str]:
        """The shows' catalogs (their indexes) in the source bucket, without the nearby indexes beside
        them or the pages and parts in each show's folder."""
        return {
            key
            for key in self.keys(self.source, "catalog/")
            if not key.endswith(".nearby.json") and "/" not in key.removeprefix("catalog/")
        }

    def catalogs(self) -> dict[str, Catalog]:
        """Every show's whole catalog, as the render function reads it."""
        source = SourceBucket(self.s3, self.source)
        shows = [key.removeprefix("catalog/").removesuffix(".json") for key in self.catalog_keys()]
        return {show: read_catalog(source, show).catalog for show in shows}

    def read(self, bucket: str, key: str) -> bytes:
        return self.s3.get_object(Bucket=bucket, Key=key)["Body"].read()

    def catalog_index(self, show: str) -> dict:
        """The show's catalog index as stored, as JSON (`catalog.layout`): its fields, its pages' slug
        hashes among them, its nearby index, on its first line, as `nearby`, and its head's entries,
        one a line after its fields, as `episodes`; or the one document an earlier podpages wrote."""
        first, *lines = self.read(self.source, f"catalog/{show}.json").splitlines()
        nearby = json.loads(first) if json.loads(first).get("version", 0) >= NEARBY_LINE_SINCE else None
        stored = json.loads(lines.pop(0)) if nearby else json.loads(first)
        if nearby:
            hashes = [page[0] for page in nearby["pages"]]
            stored |= {
                "nearby": nearby,
                "pages": [page | {"slugs": slugs} for page, slugs in zip(stored["pages"], hashes, strict=True)],
            }
        stored.setdefault("episodes", []).extend(json.loads(entry) for entry in lines)
        return stored

    def write_catalog_index(self, show: str, stored: dict) -> None:
        """Store `stored` (as `catalog_index` reads it) as the show's index: its lines; with its nearby
        index first from version 8, and before it as an object of its own (`.nearby.json`)."""
        fields = {name: value for name, value in stored.items() if name not in ("episodes", "nearby")}
        nearby = stored.get("nearby")
        if stored["version"] >= NEARBY_LINE_SINCE:
            fields["pages"] = [
                {name: value for name, value in page.items() if name != "slugs"} for page in fields["pages"]
            ]
            first = [json.dumps(nearby)]
        else:
            first = []
            if nearby:
                key = f"catalog/{show}.nearby.json"
                self.s3.put_object(Bucket=self.source, Key=key, Body=json.dumps(nearby | {"version": 3}).encode())
        lines = [*first, json.dumps(fields), *(json.dumps(entry) for entry in stored["episodes"])]
        self.s3.put_object(Bucket=self.source, Key=f"catalog/{show}.json", Body="".join(f"{line}\n" for line in lines))

    def site_objects(self) -> dict[str, tuple[bytes, str, str]]:
        objects = {}
        for key in self.keys(self.site):
            response = self.s3.get_object(Bucket=self.site, Key=key)
            objects[key] = (response["Body"].read(), response["ContentType"], response["CacheControl"])
        return objects

    def download_uploads(self, folder: Path) -> Path:
        """The source bucket's uploads as a folder, the way `podpages render` reads them."""
        for key in self.keys(self.source, "episodes/") | self.keys(self.source, "shows/"):
            path = folder / key
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(self.read(self.source, key))
        return folder

    def from_scratch(self, folder: Path) -> dict[str, tuple[bytes, str, str]]:
        """What a from-scratch render of the source bucket's uploads publishes."""
        source = read_source_folder(self.download_uploads(folder), self.settings)
        assert not source.problems, source.problems
        return {
            item.key: (item.body, item.content_type, item.cache_control)
            for _label, plan in render_site(source.catalogs, source.transcripts, self.settings)
            for item in plan.puts
        }


@pytest.fixture
def stack(local_aws, render_function) -> Stack:
    local_aws.reset()
    s3, sqs = local_aws.client("s3"), local_aws.client("sqs")
    settings = render_function.settings
    resources = create_resources(s3, sqs, settings.source_bucket, settings.site_bucket)
    return Stack(
        s3,
        sqs,
        settings,
        resources.queue_url,
        render_function.lambda_handler,
        resources.rebuild_queue_url,
        resources.dead_letter_queue_url,
    )


@pytest.fixture
def s3_calls(render_function):
    """Counts the handler's S3 calls by operation and key, with botocore's event hooks."""
    calls: list[tuple[str, str]] = []

    def count(params, model, **_):
        calls.append((model.name, params.get("Key", "")))

    events = render_function.s3.meta.events
    events.register("before-parameter-build.s3", count, unique_id="count-s3-calls")
    yield calls
    events.unregister("before-parameter-build.s3", unique_id="count-s3-calls")


@dataclass
class Nearby:
    """A cold NearbyFunction: the handler template.yaml names, imported afresh with its environment."""

    module: object
    clock: Clock
    gets: list[tuple[str, str | None]]  # each GetObject it sent: key and If-None-Match

    def __call__(self, event: dict, context: LambdaContext | None = None) -> dict:
        return self.module.lambda_handler(event, context or LambdaContext(function_name="NearbyFunction"))


@pytest.fixture
def nearby(local_aws, stack) -> Nearby:
    with pytest.MonkeyPatch.context() as patch:
        for name, value in (function_environment("NearbyFunction") | local_aws.environment()).items():
            patch.setenv(name, value)
        _handler, module = load_handler("NearbyFunction")
    clock = Clock()
    module.catalogs.clock = clock
    gets: list[tuple[str, str | None]] = []
    module.catalogs.source.client.meta.events.register(
        "before-parameter-build.s3.GetObject",
        lambda params, **_: gets.append((params["Key"], params.get("IfNoneMatch"))),
    )
    return Nearby(module, clock, gets)


@pytest.fixture
def rebuild_function(local_aws, stack, monkeypatch):
    """The SiteRebuild custom resource's handler, imported with its environment, as a deploy finds it."""
    environment = function_environment("RebuildFunction") | local_aws.environment()
    for name, value in (environment | {"REBUILD_QUEUE_URL": stack.rebuild_queue_url}).items():
        monkeypatch.setenv(name, value)
    return load_handler("RebuildFunction")[1]


@pytest.fixture
def notify_function(monkeypatch):
    """The notify function's handler, imported with env.json's environment, or with a recorder's
    paths /websub, /ping and /indexnow as its endpoints."""

    def imported(recorder: Recorder | None = None, **variables: str):
        environment = function_environment("NotifyFunction") | variables
        if recorder is not None:
            environment |= endpoints_of(recorder)
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        return load_handler("NotifyFunction")[1]

    return imported


@pytest.fixture
def response_url():
    """CloudFormation's presigned response URL, standing in on 127.0.0.1."""
    with ResponseUrl() as url:
        yield url
