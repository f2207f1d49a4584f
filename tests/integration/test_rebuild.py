"""Rebuilds. After a change to the templates, `podpages rebuild` and the deploy-time custom resource
fan out over the rebuild queue, the render function works through it one request at a time, and the
site is then what `podpages render` makes of the same uploads, byte for byte."""

import json
import shutil

import pytest
from jinja2 import FileSystemLoader

from podpages import templating
from podpages.cli.rebuild import rebuild
from podpages.cli.targets import local_target
from podpages.local import template
from podpages.publish import publisher
from podpages.rebuild import request as rebuild_request
from podpages.rebuild.queue import RebuildQueue
from podpages.rebuild.request import RebuildRequest
from podpages.storage.source_bucket import SourceBucket
from support.events import load_event
from support.lambda_context import LambdaContext
from support.paths import EXAMPLES, ROOT
from support.queue import deliver

SHOWS = ["kernel-notes", "pytorch", "release-radio"]
MARK = '<meta name="generator" content="podpages, rebuilt">'
PAGE = "pytorch/backend-flexibility-revolution/index.html"


@pytest.fixture
def published(stack):
    for path in sorted(EXAMPLES.rglob("*.json")):
        stack.upload(path.relative_to(EXAMPLES).as_posix(), path)
    assert stack.deliver().failed == []
    return stack


@pytest.fixture
def change_templates(tmp_path, monkeypatch):
    """Returns a function that puts a copy of templates/, changed on every page, in place of the real one."""

    def change() -> None:
        folder = tmp_path / "templates"
        shutil.copytree(ROOT / "templates", folder)
        base = folder / "base.html"
        base.write_text(base.read_text().replace("<head>", f"<head>\n{MARK}", 1))
        templating.environment.cache_clear()
        monkeypatch.setattr(templating.environment(), "loader", FileSystemLoader(str(folder)))

    yield change
    templating.environment.cache_clear()


def work_through_rebuilds(stack):
    """The render function's event source mapping on the rebuild queue, with the template's batch size."""
    batch_size = int(template.queue_events("RenderFunction")["RebuildQueue"]["BatchSize"])
    return deliver(stack.sqs, stack.rebuild_queue_url, stack.handler, batch_size)


def deploy_event(url: str, **changes) -> dict:
    event = load_event("cfn-update-site-rebuild.json") | {"ResponseURL": url}
    return event | changes


def test_after_a_template_change_a_rebuild_of_two_shows_equals_podpages_render(
    published, change_templates, local_aws, tmp_path
):
    change_templates()
    expected = published.from_scratch(tmp_path / "uploads")
    assert MARK.encode() in expected[PAGE][0]
    assert published.site_objects() != expected  # nothing follows the change by itself

    summary = rebuild(local_target(local_aws.endpoint), SHOWS, wait=0, progress=False)
    delivery = work_through_rebuilds(published)

    # One request per show for its 3, 16 and 3 pages, one for each show's listings.
    assert (summary.shows, summary.pages, summary.requests) == (3, 22, 6)
    assert (delivery.invocations, delivery.failed, delivery.errors) == (6, [], [])
    assert published.site_objects() == expected
    assert published.keys(published.source, "locks/") == set()


def test_a_large_show_is_rebuilt_in_requests_of_a_bounded_size(published, change_templates, monkeypatch, tmp_path):
    monkeypatch.setattr(rebuild_request, "EPISODES_PER_REQUEST", 5)
    change_templates()

    sent = RebuildQueue(published.sqs, published.rebuild_queue_url).send(
        rebuild_request.rebuild_requests(SourceBucket(published.s3, published.source))
    )
    delivery = work_through_rebuilds(published)

    # kernel-notes: 3 pages in 1 request; pytorch: 16 in 4; release-radio: 3 in 1; a listings request
    # each; the site's files.
    assert sent == delivery.invocations == 1 + 4 + 1 + 3 + 1
    assert delivery.failed == []
    assert published.site_objects() == published.from_scratch(tmp_path / "uploads")


def test_a_deploy_that_changes_the_layer_rebuilds_every_show(
    published, change_templates, rebuild_function, response_url, tmp_path
):
    change_templates()

    result = rebuild_function.lambda_handler(deploy_event(response_url.url), LambdaContext("RebuildFunction"))
    delivery = work_through_rebuilds(published)

    [answer] = response_url.answers
    assert answer["Status"] == result["Status"] == "SUCCESS", answer["Reason"]
    assert answer["Data"] == {"Requests": 7} and response_url.content_types == [""]
    assert answer["PhysicalResourceId"] == load_event("cfn-update-site-rebuild.json")["PhysicalResourceId"]
    assert (delivery.invocations, delivery.failed) == (7, [])
    assert published.site_objects() == published.from_scratch(tmp_path / "uploads")


@pytest.mark.parametrize(
    "changes",
    [
        {"RequestType": "Delete"},
        # Only the function that answers moved: nothing pages are made of changed.
        {
            "ResourceProperties": load_event("cfn-update-site-rebuild.json")["OldResourceProperties"]
            | {"ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:podpages-RebuildFunction-2"}
        },
    ],
    ids=["delete", "update-without-change"],
)
def test_a_deploy_that_changes_nothing_pages_use_queues_nothing(published, rebuild_function, response_url, changes):
    rebuild_function.lambda_handler(deploy_event(response_url.url, **changes), LambdaContext("RebuildFunction"))

    [answer] = response_url.answers
    assert (answer["Status"], answer["Data"]) == ("SUCCESS", {"Requests": 0})
    assert published.sqs.receive_message(QueueUrl=published.rebuild_queue_url).get("Messages") is None


def test_a_rebuild_that_cannot_be_queued_fails_the_deploy_with_its_reason(
    published, rebuild_function, response_url, monkeypatch
):
    missing = published.rebuild_queue_url.rsplit("/", 1)[0] + "/no-such-queue"
    monkeypatch.setattr(rebuild_function, "queue", RebuildQueue(published.sqs, missing))

    rebuild_function.lambda_handler(deploy_event(response_url.url), LambdaContext("RebuildFunction"))

    [answer] = response_url.answers
    assert answer["Status"] == "FAILED"
    assert "NonExistentQueue" in answer["Reason"] or "QueueDoesNotExist" in answer["Reason"]


def test_a_rebuild_of_an_episode_removed_since_takes_its_page_down(published):
    published.remove("episodes/pytorch/backend-flexibility-revolution.json")
    published.discard_pending()  # the removal's own event never arrives
    request = RebuildRequest("pytorch", ("backend-flexibility-revolution",))
    catalog = published.catalog_index("pytorch")
    catalog["episodes"] = [entry for entry in catalog["episodes"] if entry["slug"] != "backend-flexibility-revolution"]
    published.write_catalog_index("pytorch", catalog)
    published.sqs.send_message(QueueUrl=published.rebuild_queue_url, MessageBody=request.message())

    delivery = work_through_rebuilds(published)

    assert delivery.failed == []
    assert PAGE not in published.keys(published.site)


def test_a_malformed_rebuild_request_is_dropped_not_retried(published):
    body = json.dumps({"rebuild": {"show": "../etc", "episodes": ["ok", "Not A Slug"]}})
    published.sqs.send_message(QueueUrl=published.rebuild_queue_url, MessageBody=body)
    before = published.site_objects()

    delivery = work_through_rebuilds(published)

    assert (delivery.delivered, delivery.failed) == (1, [])
    assert published.site_objects() == before


def test_a_site_published_before_nearby_indexes_gets_them_from_the_deploy_rebuild(
    published, rebuild_function, response_url
):
    # Given the site as an earlier podpages left it: catalog indexes without a nearby index
    expected = {show: published.catalog_index(show)["nearby"] for show in SHOWS}
    for show in SHOWS:
        earlier = {name: value for name, value in published.catalog_index(show).items() if name != "nearby"}
        published.write_catalog_index(show, earlier | {"version": 7})
    assert not [key for key in published.keys(published.source, "catalog/") if key.endswith(".nearby.json")]

    # When the deploy that brings them rebuilds every show
    rebuild_function.lambda_handler(deploy_event(response_url.url), LambdaContext("RebuildFunction"))
    assert work_through_rebuilds(published).failed == []

    # Then every show's catalog index begins with its nearby index again, as a publish writes it
    assert {show: published.catalog_index(show).get("nearby") for show in SHOWS} == expected


def test_a_rebuild_reads_each_companion_as_it_renders_it_and_writes_its_files_before_the_next(
    published, change_templates, s3_calls, monkeypatch, tmp_path
):
    # Given a show published with its episodes' two companion transcripts, and a rebuild that may
    # hold no transcript file it has rendered
    companions = ["bonus-listener-questions.srt", "compiler-caches-explained.vtt"]
    for name in companions:
        published.upload(f"episodes/release-radio/{name}", EXAMPLES / "episodes" / "release-radio" / name)
    assert published.deliver().failed == []
    monkeypatch.setattr(publisher, "HELD_TRANSCRIPT_FILES", 0)
    change_templates()
    s3_calls.clear()

    # When its pages are rebuilt
    episodes = ("bonus-listener-questions", "compiler-caches-explained", "trailer")
    RebuildQueue(published.sqs, published.rebuild_queue_url).send([RebuildRequest("release-radio", episodes)])
    assert work_through_rebuilds(published).failed == []

    # Then each companion is read, and its files are all written, before the next companion is read
    companion_calls = [
        (operation, key.removeprefix("episodes/").split("/")[1].split(".")[0])  # the episode's slug
        for operation, key in s3_calls
        if (operation == "GetObject" and key.endswith((".srt", ".vtt")))
        or (operation == "PutObject" and "/transcript" in key)
    ]
    assert companion_calls == [
        ("GetObject", "bonus-listener-questions"),
        *[("PutObject", "bonus-listener-questions")] * 5,
        ("GetObject", "compiler-caches-explained"),
        *[("PutObject", "compiler-caches-explained")] * 5,
    ]
    # And what it wrote, the pages and every transcript file, is what a render of the uploads makes
    written = {key for operation, key in s3_calls if operation == "PutObject" and key.startswith("release-radio/")}
    expected = published.from_scratch(tmp_path / "uploads")
    assert {key: published.site_objects()[key] for key in written} == {key: expected[key] for key in written}
    assert {f"release-radio/{episode}/index.html" for episode in episodes} < written
