"""Every file in events/ through SAM's own emulator: `sam local invoke` with the README's commands, the
built layer at /opt, the template's environment resolved with events/env.json, on a Lambda-like image
(tests/support/lambda-image.sh), against S3 and SQS served by moto on 127.0.0.1. Each row below is an
event file, the function it goes to, what the stack holds first, and what the answer and the stack must
show after. `make sam-local` runs this file alone.

Docker needs root and Debian's docker.io, debootstrap and socat: without them the invocations are
skipped with a loud reason, and under CI (PODPAGES_REQUIRE_CHECKERS=1, set by .ci/run) they fail."""

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from support.events import load_event
from support.paths import EVENTS, EXAMPLES, ROOT
from support.sam_local import Invocation, Unavailable, command, sam_local

SEED_KEY = "episodes/pytorch/backend-flexibility-revolution.json"
SEED_PAGE = "pytorch/backend-flexibility-revolution/index.html"
SHOW_PAGE = "pytorch/index.html"
JSON, HTML = "application/json; charset=utf-8", "text/html; charset=utf-8"


def nothing(_stack) -> None:
    pass


def the_seed_upload(stack) -> None:
    stack.upload(SEED_KEY, EXAMPLES / SEED_KEY)


def the_seed_published_then_removed(stack) -> None:
    the_seed_upload(stack)
    stack.deliver()  # the render function, called in this process
    stack.remove(SEED_KEY)


def the_show_upload(stack) -> None:
    stack.upload("shows/pytorch.json", EXAMPLES / "shows" / "pytorch.json")


def the_examples_published(stack) -> None:
    for path in sorted(EXAMPLES.rglob("*.json")):
        stack.upload(path.relative_to(EXAMPLES).as_posix(), path)
    stack.deliver()


@dataclass
class After:
    """What a check sees: the answer, and the site bucket's keys before the invocation."""

    invocation: Invocation
    stack: Any
    site_before: set[str]

    @property
    def answer(self) -> Any:
        return self.invocation.answer


# A check asserts what must hold after an invocation; its name says what, in the report.
type Check = Callable[[After], None]


def answers(expected: Any) -> Check:
    def check(after: After) -> None:
        assert after.answer == expected

    check.__name__ = f"answers {json.dumps(expected)}"
    return check


def writes(key: str) -> Check:
    def check(after: After) -> None:
        assert key not in after.site_before and key in after.stack.keys(after.stack.site), key

    check.__name__ = f"writes {key} to the site bucket"
    return check


def removes(key: str) -> Check:
    def check(after: After) -> None:
        assert key in after.site_before and key not in after.stack.keys(after.stack.site), key

    check.__name__ = f"removes {key} from the site bucket"
    return check


def responds(status: int, content_type: str) -> Check:
    def check(after: After) -> None:
        assert (after.answer["statusCode"], after.answer["headers"]["Content-Type"]) == (status, content_type)

    check.__name__ = f"responds {status} {content_type}"
    return check


def lists_nearby(after: After) -> None:
    listing = json.loads(after.answer["body"])
    assert listing["episode"]["slug"] == "backend-flexibility-revolution"
    assert listing["items"] and all(
        item["url"].startswith("http://127.0.0.1:3000/pytorch/") for item in listing["items"]
    )


lists_nearby.__name__ = "lists the episode's nearby episodes"


def is_the_section(after: After) -> None:
    page = after.stack.read(after.stack.site, SEED_PAGE).decode()
    fragment = after.answer["body"]
    assert fragment.startswith("<section") and fragment.strip() in page


is_the_section.__name__ = "is the nearby section of the episode's page, as published"


def names_it(after: After) -> None:
    assert "no-such-episode" in after.answer["body"]


names_it.__name__ = "names the unknown episode"


def queues_rebuilds(requests: int) -> Check:
    def check(after: After) -> None:
        sqs = after.stack.sqs
        attributes = sqs.get_queue_attributes(
            QueueUrl=after.stack.rebuild_queue_url, AttributeNames=["ApproximateNumberOfMessages"]
        )["Attributes"]
        assert int(attributes["ApproximateNumberOfMessages"]) == requests

    check.__name__ = f"queues {requests} rebuild requests on the rebuild queue"
    return check


def fails_to_answer(after: After) -> None:
    # The event's ResponseURL is a placeholder on AWS, out of the container's reach (README).
    assert after.answer["errorType"] == "URLError", after.answer


fails_to_answer.__name__ = "then fails to PUT to the placeholder ResponseURL (URLError)"


@dataclass
class Row:
    event: str  # a file in events/
    function: str  # its function in template.yaml
    given: Callable[[Any], None]  # what the stack holds before
    then: list[Check] = field(default_factory=list)


# The README's `sam local invoke` section lists these commands, in this order: by hand, against one
# stack, the deletes come last.
NO_FAILURES = answers({"batchItemFailures": []})  # an SQS batch's answer when every message went through
PUT, SQS_PUT = [answers({}), writes(SEED_PAGE)], [NO_FAILURES, writes(SEED_PAGE)]
DELETE, SQS_DELETE = [answers({}), removes(SEED_PAGE)], [NO_FAILURES, removes(SEED_PAGE)]
REBUILD = [queues_rebuilds(7), fails_to_answer]
ROWS = [
    Row("s3-put-show.json", "RenderFunction", the_show_upload, [answers({}), writes(SHOW_PAGE)]),
    Row("s3-put-episode.json", "RenderFunction", the_seed_upload, PUT),
    Row("sqs-put-episode.json", "RenderFunction", the_seed_upload, SQS_PUT),
    Row("http-nearby.json", "NearbyFunction", the_examples_published, [responds(200, JSON), lists_nearby]),
    Row("http-nearby-html.json", "NearbyFunction", the_examples_published, [responds(200, HTML), is_the_section]),
    Row("http-nearby-unknown-episode.json", "NearbyFunction", the_examples_published, [responds(404, JSON), names_it]),
    Row("cfn-update-site-rebuild.json", "RebuildFunction", the_examples_published, REBUILD),
    Row("sqs-notify.json", "NotifyFunction", nothing, [NO_FAILURES]),
    Row("s3-delete-episode.json", "RenderFunction", the_seed_published_then_removed, DELETE),
    Row("sqs-delete-episode.json", "RenderFunction", the_seed_published_then_removed, SQS_DELETE),
]


def test_every_event_file_has_a_row():
    assert sorted(path.name for path in EVENTS.glob("*.json") if path.name != "env.json") == sorted(
        row.event for row in ROWS
    )


def test_every_row_names_a_function_env_json_configures():
    assert {row.function for row in ROWS} <= load_event("env.json").keys()


def test_the_readme_lists_the_commands_make_sam_local_runs():
    readme = (ROOT / "README.md").read_text()
    listed = [line for line in readme.splitlines() if line.startswith("sam local invoke ")]

    assert listed == [" ".join(command(row.function, row.event)) for row in ROWS]


@pytest.fixture(scope="module")
def report(pytestconfig) -> Callable[[str], None]:
    """Lines for `make sam-local` (pytest -v), past pytest's capture, which keeps the functions' logs."""
    capture = pytestconfig.pluginmanager.getplugin("capturemanager")

    def say(line: str) -> None:
        if pytestconfig.get_verbosity() > 0:
            with capture.global_and_fixture_disabled():
                print(line, flush=True)

    return say


@pytest.fixture(scope="module")
def sam(local_aws, report):
    """The engine, the image, `sam build` and the relay, once for the module; stopped after it."""
    try:
        with sam_local(local_aws.port, report) as running:
            yield running
    except Unavailable as missing:
        message = f"SAM LOCAL SKIPPED: no event in events/ went through `sam local invoke`: {missing}"
        if os.environ.get("PODPAGES_REQUIRE_CHECKERS"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.mark.parametrize("row", ROWS, ids=[row.event for row in ROWS])
def test_an_event_through_sam_local_invoke(sam, stack, report, row):
    row.given(stack)
    stack.discard_pending()  # the event under test stands in for what S3 queued
    site_before = stack.keys(stack.site)

    invocation = sam.invoke(row.function, row.event)

    report(f"\n{' '.join(command(row.function, row.event))}")
    report(f"  {invocation.seconds:.1f} s, answer: {brief(invocation.answer)}")
    after = After(invocation, stack, site_before)
    for check in row.then:
        try:
            check(after)
        except AssertionError as failed:
            raise AssertionError(f"{row.event}: {check.__name__}: {failed}\n{tail(invocation.log)}") from None
        report(f"  ok: {check.__name__}")


def brief(answer: Any, limit: int = 300) -> str:
    text = json.dumps(answer)
    text = re.sub(r'"stackTrace": \[.*?\]', '"stackTrace": […]', text)
    return text if len(text) <= limit else text[:limit] + " …"


def tail(log: str, lines: int = 30) -> str:
    return "\n".join(log.splitlines()[-lines:])
