"""Sending a batch's notification over HTTP to a recorder on 127.0.0.1, as the notify function will:
WebSub publishes and pings per changed feed, IndexNow POSTs of the pages, retries on 5xx and
timeouts with backoff, and a 4xx taken as final and kept with its body."""

import json
from urllib.parse import parse_qs, urlsplit

from podpages.local.recorder import HANG, Recorder
from podpages.notify.endpoints import Endpoints
from podpages.notify.notification import Notification
from podpages.notify.sender import Sender

SITE = "https://podcasts.example.com"
FEEDS = (f"{SITE}/a/feed.xml", f"{SITE}/b/feed.xml")
PAGES = (f"{SITE}/a/", f"{SITE}/a/ep/")
KEY = "3f0a-podpages-key-2026"


# Long enough that no answer of the recorder's times out on a CI machine busy with other tests: at
# 0.5 s, a clean-clone run saw a first attempt time out and a second one sent. The test of a hanging
# endpoint sets its own, shorter than the hang.
TIMEOUT = 5.0


def sender(recorder, sleeps=None, timeout=TIMEOUT, **endpoints) -> Sender:
    waits = sleeps if sleeps is not None else []
    return Sender(Endpoints(**endpoints, timeout=timeout), SITE, sleep=waits.append)


def test_each_changed_feed_is_published_to_each_hub_and_pinged_and_the_pages_go_to_indexnow():
    with Recorder() as recorder:
        outcomes = sender(
            recorder,
            hubs=(f"{recorder.url}/hub",),
            pings=(f"{recorder.url}/pubnotify", f"{recorder.url}/ping?token=x"),
            indexnow_key=KEY,
            indexnow_endpoint=f"{recorder.url}/indexnow",
        ).send(Notification(FEEDS, PAGES))

    assert all(outcome.sent and outcome.attempts == 1 for outcome in outcomes)
    hub_posts = [request for request in recorder.requests if request.path == "/hub"]
    # The calls go out several at once, so they arrive in any order
    published = sorted((parse_qs(request.body.decode()) for request in hub_posts), key=lambda form: form["hub.url"])
    assert published == [{"hub.mode": ["publish"], "hub.url": [feed]} for feed in FEEDS]
    assert hub_posts[0].headers["Content-Type"] == "application/x-www-form-urlencoded"
    pings = [urlsplit(request.path) for request in recorder.requests if request.method == "GET"]
    assert sorted((ping.path, parse_qs(ping.query)["url"][0]) for ping in pings) == sorted(
        (path, feed) for feed in FEEDS for path in ("/pubnotify", "/ping")
    )
    [indexnow] = [request for request in recorder.requests if request.path == "/indexnow"]
    assert json.loads(indexnow.body) == {
        "host": "podcasts.example.com",
        "key": KEY,
        "keyLocation": f"{SITE}/{KEY}.txt",
        "urlList": list(PAGES),
    }


def test_nothing_configured_sends_nothing():
    with Recorder() as recorder:
        assert sender(recorder).send(Notification(FEEDS, PAGES)) == []
    assert recorder.requests == []


def test_an_endpoint_failing_with_500_three_times_gets_the_fourth_try_after_growing_waits():
    sleeps: list[float] = []
    with Recorder(answers={"/hub": [500, 500, 503, 200]}) as recorder:
        [outcome] = sender(recorder, sleeps, hubs=(f"{recorder.url}/hub",)).send(Notification(FEEDS[:1], ()))

    assert (outcome.sent, outcome.attempts, outcome.status) == (True, 4, 200)
    assert len(recorder.requests) == 4
    assert len(sleeps) == 3 and all(0 <= wait <= limit for wait, limit in zip(sleeps, (0.5, 1.0, 2.0), strict=True))


def test_a_4xx_is_not_tried_again_and_its_body_is_kept():
    with Recorder(answers={"/indexnow": [422]}) as recorder:
        [outcome] = sender(recorder, indexnow_key=KEY, indexnow_endpoint=f"{recorder.url}/indexnow").send(
            Notification((), PAGES)
        )

    assert (outcome.sent, outcome.attempts, outcome.status, outcome.detail) == (False, 1, 422, "answered 422")
    assert len(recorder.requests) == 1


def test_an_endpoint_that_never_answers_is_given_up_after_every_attempt_times_out():
    with Recorder(answers={"/hub": [HANG]}, hang_seconds=1.0) as recorder:
        [outcome] = sender(recorder, timeout=0.5, hubs=(f"{recorder.url}/hub",)).send(Notification(FEEDS[:1], ()))

    assert (outcome.sent, outcome.attempts, outcome.status) == (False, 4, None)
    assert "timed out" in outcome.detail


def test_indexnow_takes_at_most_ten_thousand_urls_to_a_post():
    pages = tuple(f"{SITE}/a/e{number}/" for number in range(10_001))
    with Recorder() as recorder:
        outcomes = sender(recorder, indexnow_key=KEY, indexnow_endpoint=f"{recorder.url}/indexnow").send(
            Notification((), pages)
        )

    # The two POSTs go at once, so in either order.
    lists = [json.loads(request.body)["urlList"] for request in recorder.requests]
    assert sorted(map(len, lists), reverse=True) == [10_000, 1]
    assert sorted(url for urls in lists for url in urls) == sorted(pages)
    assert all(outcome.sent for outcome in outcomes)
