"""Telling the world, on the local stack: the render function queues one notification per batch,
after its commit and listings, and the notify function sends it to a recorder on 127.0.0.1 standing
in for a WebSub hub, a ping endpoint and IndexNow."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from podpages.local.recorder import HANG, Recorder
from podpages.notify.notify_queue import NotifyQueue
from support.paths import EXAMPLES
from support.queue import deliver

SHOW = "pytorch"
EPISODES = sorted((EXAMPLES / "episodes" / SHOW).glob("*.json"))
NEW_KEY = f"episodes/{SHOW}/notified-episode.json"


@pytest.fixture
def notifying(stack, render_function, local_aws, monkeypatch):
    """The stack, with the render function queueing its notifications on the notify queue."""
    queue = stack.sqs.get_queue_url(QueueName="podpages-notify-queue")["QueueUrl"]
    monkeypatch.setattr(render_function.publisher, "notify_queue", NotifyQueue(stack.sqs, queue))
    return queue


def published_show(stack) -> None:
    for path in EPISODES:
        stack.upload(path.relative_to(EXAMPLES).as_posix(), path)
    stack.deliver()


def drain(stack, queue: str) -> list[dict]:
    bodies = []
    while messages := stack.sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10).get("Messages"):
        for message in messages:
            bodies.append(json.loads(message["Body"]))
            stack.sqs.delete_message(QueueUrl=queue, ReceiptHandle=message["ReceiptHandle"])
    return bodies


def new_episode() -> bytes:
    document = json.loads(EPISODES[-1].read_text())
    document |= {"title": "Notified episode", "published": "2031-01-01T09:00:00Z"}
    document.pop("guid", None)
    return json.dumps(document).encode()


def html_pages(stack) -> dict[str, bytes]:
    return {key: body for key, (body, _type, _cache) in stack.site_objects().items() if key.endswith("index.html")}


def page_url(stack, key: str) -> str:
    return f"{stack.settings.site_url}/{key.removesuffix('index.html')}"


def test_one_publish_tells_each_endpoint_once_of_exactly_what_changed(stack, notifying, notify_function):
    published_show(stack)
    drain(stack, notifying)
    before = html_pages(stack)
    stack.upload(NEW_KEY, new_episode())

    stack.deliver()
    after = html_pages(stack)
    with Recorder() as recorder:
        delivery = deliver(stack.sqs, notifying, notify_function(recorder).lambda_handler)

    changed = sorted(page_url(stack, key) for key in after.keys() | before.keys() if after.get(key) != before.get(key))
    feed = f"{stack.settings.site_url}/{SHOW}/feed.xml"
    assert delivery.delivered == 1 and delivery.failed == []
    assert [parse_qs(request.body.decode()) for request in recorder.kinds("websub")] == [
        {"hub.mode": ["publish"], "hub.url": [feed]}
    ]
    assert [parse_qs(urlsplit(request.path).query) for request in recorder.kinds("ping")] == [{"url": [feed]}]
    [indexnow] = recorder.kinds("indexnow")
    assert sorted(json.loads(indexnow.body)["urlList"]) == changed
    # The episode, its neighbours whose nearby lists changed, its year's archive and the show page.
    assert page_url(stack, f"{SHOW}/notified-episode/index.html") in changed
    assert page_url(stack, f"{SHOW}/index.html") in changed
    assert page_url(stack, f"{SHOW}/2031/index.html") in changed
    assert len(changed) > 3


def test_a_batch_queues_one_message_and_a_redelivery_queues_none(stack, notifying):
    published_show(stack)
    drain(stack, notifying)
    stack.upload(NEW_KEY, new_episode())
    [message] = stack.sqs.receive_message(QueueUrl=stack.queue_url, MaxNumberOfMessages=10)["Messages"]
    stack.discard_pending()

    stack.send(json.loads(message["Body"]))
    stack.deliver()
    first = drain(stack, notifying)
    stack.send(json.loads(message["Body"]))  # S3 delivers at least once
    stack.deliver()

    assert len(first) == 1 and first[0]["feeds"] == [f"{stack.settings.site_url}/{SHOW}/feed.xml"]
    assert drain(stack, notifying) == []


def test_a_batch_of_messages_sends_each_url_once(stack, notifying, notify_function):
    feed = f"{stack.settings.site_url}/{SHOW}/feed.xml"
    page = f"{stack.settings.site_url}/{SHOW}/"
    for pages in ([page], [page, f"{page}a/"], [f"{page}a/"]):
        stack.sqs.send_message(QueueUrl=notifying, MessageBody=json.dumps({"feeds": [feed], "pages": pages}))

    with Recorder() as recorder:
        delivery = deliver(stack.sqs, notifying, notify_function(recorder).lambda_handler)

    assert delivery.invocations == 1
    assert len(recorder.kinds("websub")) == len(recorder.kinds("ping")) == 1
    [indexnow] = recorder.kinds("indexnow")
    assert json.loads(indexnow.body)["urlList"] == [page, f"{page}a/"]


def test_an_endpoint_that_never_answers_leaves_the_message_in_the_dead_letter_queue(
    stack, notifying, notify_function, render_function
):
    published_show(stack)
    drain(stack, notifying)
    with Recorder(answers={"/websub": [HANG], "/ping": [HANG], "/indexnow": [HANG]}, hang_seconds=1) as recorder:
        handler = notify_function(recorder, NOTIFY_TIMEOUT="0.1").lambda_handler
        stack.upload(NEW_KEY, new_episode())

        stack.deliver()
        calls_while_publishing = len(recorder.requests)
        page = stack.read(stack.site, f"{SHOW}/notified-episode/index.html")
        deliveries = [deliver(stack.sqs, notifying, handler, max_rounds=1) for _receive in range(4)]

    dead_letters = stack.sqs.get_queue_url(QueueName="podpages-notify-dlq")["QueueUrl"]
    waiting = stack.sqs.get_queue_attributes(QueueUrl=dead_letters, AttributeNames=["ApproximateNumberOfMessages"])
    # The publish made no outbound call: it only queued the notification.
    assert calls_while_publishing == 0 and page
    # Each receive tried every endpoint 4 times and reported the batch failed; after the queue's
    # maxReceiveCount (3) receives, SQS moved it to the dead-letter queue that NotifyDeadLetterAlarm watches.
    assert [len(delivery.failed) for delivery in deliveries] == [1, 1, 1, 0]
    assert len(recorder.kinds("websub")) == 3 * 4
    assert int(waiting["Attributes"]["ApproximateNumberOfMessages"]) == 1


def test_an_endpoint_that_refuses_is_not_asked_again(stack, notifying, notify_function, capsys, caplog):
    feed = f"{stack.settings.site_url}/{SHOW}/feed.xml"
    stack.sqs.send_message(QueueUrl=notifying, MessageBody=json.dumps({"feeds": [feed], "pages": []}))

    with Recorder(answers={"/websub": [400], "/ping": [500, 500, 500, 200]}) as recorder:
        delivery = deliver(stack.sqs, notifying, notify_function(recorder, NOTIFY_TIMEOUT="1").lambda_handler)

    assert delivery.failed == [] and delivery.delivered == 1
    assert len(recorder.kinds("websub")) == 1  # a 4xx is the hub's final word
    assert len(recorder.kinds("ping")) == 4  # three 500s, then the 200 on the fourth try
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    counted = {
        (name, line["kind"]): line[name]
        for line in lines
        if "_aws" in line
        for name in ("NotificationsSent", "NotificationsFailed")
        if name in line
    }
    assert counted == {("NotificationsFailed", "websub"): [1.0], ("NotificationsSent", "ping"): [1.0]}
    [refusal] = [record for record in caplog.records if record.getMessage() == "notification not sent: refused"]
    assert (refusal.kind, refusal.status, refusal.detail) == ("websub", 400, "answered 400")
