"""Sending a notification: a WebSub publish of each changed feed to each hub, a feed-change ping of
each to each endpoint (`?url=`, the Podcast Index's pubnotify style), and the changed pages to
IndexNow in POSTs of at most 10,000 URLs.

Each call has a timeout of a few seconds. An answer of 5xx, a timeout or a broken connection is
tried again after a backoff with full jitter, as botocore waits; a 4xx is the endpoint's final word
and is not. Nothing here raises for an endpoint's failure: each call ends as an `Outcome`, for the
caller to log and count.
"""

import json
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal
from urllib.error import HTTPError, URLError
from urllib.parse import urlencode, urlsplit
from urllib.request import Request, urlopen

from podpages.notify.endpoints import Endpoints
from podpages.notify.notification import Notification

type Kind = Literal["websub", "ping", "indexnow"]
ATTEMPTS = 4  # the first call and three retries
BACKOFF_BASE, BACKOFF_CAP = 0.5, 8.0  # seconds: the n-th retry waits up to min(cap, base * 2 ** (n - 1))
CONCURRENT_CALLS = 8
INDEXNOW_URLS = 10_000  # the most URLs IndexNow takes in one POST
BODY_KEPT = 500  # characters of a refusal's body kept for the log


@dataclass(frozen=True)
class Outcome:
    kind: Kind
    url: str
    sent: bool
    attempts: int
    status: int | None = None  # the last HTTP status, if there was an answer
    detail: str = ""  # why it was not sent: a refusal's body, or the last error

    @property
    def retryable(self) -> bool:
        """Not sent, but not refused either: the endpoint failed (5xx) or never answered."""
        return not self.sent and (self.status is None or self.status >= 500)


@dataclass(frozen=True)
class Call:
    kind: Kind
    url: str
    data: bytes | None = None  # None: a GET
    content_type: str = ""


class Sender:
    def __init__(
        self,
        endpoints: Endpoints,
        site_url: str,
        attempts: int = ATTEMPTS,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.endpoints = endpoints
        self.site_url = site_url
        self.attempts = attempts
        self.sleep = sleep

    def send(self, notification: Notification) -> list[Outcome]:
        """Make every call the notification asks for, a few at a time, so that one endpoint that
        hangs holds up the others no longer than its own timeouts and backoffs."""
        calls = self.calls(notification)
        if not calls:
            return []
        with ThreadPoolExecutor(max_workers=min(CONCURRENT_CALLS, len(calls))) as pool:
            return list(pool.map(self._call, calls))

    def calls(self, notification: Notification) -> list[Call]:
        calls: list[Call] = []
        for feed in notification.feeds:
            publish = urlencode({"hub.mode": "publish", "hub.url": feed}).encode()
            calls += [Call("websub", hub, publish, "application/x-www-form-urlencoded") for hub in self.endpoints.hubs]
            calls += [Call("ping", with_url(ping, feed)) for ping in self.endpoints.pings]
        if self.endpoints.indexnow_key and self.endpoints.indexnow_endpoint:
            for urls in _chunks(notification.pages, INDEXNOW_URLS):
                body = json.dumps(self._indexnow(urls)).encode()
                endpoint = self.endpoints.indexnow_endpoint
                calls.append(Call("indexnow", endpoint, body, "application/json; charset=utf-8"))
        return calls

    def _indexnow(self, urls: Sequence[str]) -> dict[str, object]:
        key = self.endpoints.indexnow_key
        return {
            "host": urlsplit(self.site_url).netloc,
            "key": key,
            "keyLocation": f"{self.site_url}/{key}.txt",
            "urlList": list(urls),
        }

    def _call(self, call: Call) -> Outcome:
        kind, url = call.kind, call.url
        headers = {"Content-Type": call.content_type} if call.content_type else {}
        status: int | None = None
        detail = ""
        for attempt in range(1, self.attempts + 1):
            try:
                with urlopen(Request(url, data=call.data, headers=headers), timeout=self.endpoints.timeout) as response:
                    return Outcome(kind, url, True, attempt, response.status)
            except HTTPError as error:
                status, detail = error.code, error.read().decode("utf-8", "replace")[:BODY_KEPT]
                if status < 500:
                    return Outcome(kind, url, False, attempt, status, detail)
            except (URLError, TimeoutError, ConnectionError) as error:
                status, detail = None, str(getattr(error, "reason", error))
            if attempt < self.attempts:
                self.sleep(random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempt - 1))))
        return Outcome(kind, url, False, self.attempts, status, detail)


def with_url(endpoint: str, feed: str) -> str:
    """A ping endpoint with the feed's URL as its `url` parameter."""
    return f"{endpoint}{'&' if urlsplit(endpoint).query else '?'}{urlencode({'url': feed})}"


def _chunks(items: Sequence[str], size: int) -> list[Sequence[str]]:
    return [items[start : start + size] for start in range(0, len(items), size)]
