"""What one batch changed, as those who poll the site want to hear it: the subscription feeds that
changed, for WebSub hubs and feed-change pings, and the HTML pages written or deleted, for IndexNow.
It travels as one queue message per batch, so it is read back from JSON as it was written."""

import json
from dataclasses import dataclass

FEED_KEY = "feed.xml"  # a show's subscription feed; its archives are feeds too, but nobody subscribes to them
PAGE_KEY = "index.html"


@dataclass(frozen=True)
class Notification:
    feeds: tuple[str, ...]  # URLs, sorted
    pages: tuple[str, ...]  # URLs, sorted

    def to_json(self) -> str:
        return json.dumps({"feeds": list(self.feeds), "pages": list(self.pages)})

    @classmethod
    def from_json(cls, body: str) -> "Notification":
        """The notification a message holds; ValueError, naming the field, for any other body."""
        data = json.loads(body)
        if not isinstance(data, dict):
            raise ValueError("a notification is a JSON object with feeds and pages")
        return cls(_urls(data, "feeds"), _urls(data, "pages"))

    def parts(self, size: int) -> list["Notification"]:
        """The notification in parts of at most `size` URLs, feeds first."""
        urls = [*(("feed", url) for url in self.feeds), *(("page", url) for url in self.pages)]
        return [
            Notification(
                tuple(url for what, url in urls[start : start + size] if what == "feed"),
                tuple(url for what, url in urls[start : start + size] if what == "page"),
            )
            for start in range(0, len(urls), size)
        ]

    def __or__(self, other: "Notification") -> "Notification":
        """Two batches' worth, each URL once."""
        return Notification(tuple(sorted({*self.feeds, *other.feeds})), tuple(sorted({*self.pages, *other.pages})))


def notification(changed_keys: set[str], site_url: str) -> Notification | None:
    """What the site bucket keys a batch wrote or deleted tell the world; None when they tell it nothing."""
    feeds = sorted(f"{site_url}/{key}" for key in changed_keys if key.endswith(f"/{FEED_KEY}"))
    pages = sorted(f"{site_url}/{key.removesuffix(PAGE_KEY)}" for key in changed_keys if _is_page(key))
    return Notification(tuple(feeds), tuple(pages)) if feeds or pages else None


def _is_page(key: str) -> bool:
    return key == PAGE_KEY or key.endswith(f"/{PAGE_KEY}")


def _urls(data: dict[str, object], field: str) -> tuple[str, ...]:
    urls = data.get(field)
    if not isinstance(urls, list) or not all(isinstance(url, str) and url.startswith("http") for url in urls):
        raise ValueError(f"{field}: must be a list of http(s) URLs")
    return tuple(urls)
