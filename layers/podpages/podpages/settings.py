"""Site settings: one typed object, read from the environment once. Explicit arguments win."""

import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

INDEXNOW_KEY = re.compile(r"[A-Za-z0-9-]{8,128}")  # what IndexNow takes as a key


@dataclass(frozen=True)
class Settings:
    site_url: str
    excerpt_chars: int = 1500
    nearby_count: int = 8
    feed_max_items: int = 1000  # the subscription feed's newest episodes; 0 means every one, and grows with the show
    source_bucket: str = ""
    site_bucket: str = ""
    distribution_id: str = ""  # set: the paths a batch changes are invalidated in CloudFront
    rebuild_queue_url: str = ""  # where the deploy-time rebuild queues its requests
    origin_secret: str = ""  # set: the nearby API answers only requests that carry it, as CloudFront's do
    websub_hubs: tuple[str, ...] = ()  # each feed names these as atom:link rel="hub"
    indexnow_key: str = ""  # set: published as /<key>.txt, for IndexNow
    notify_queue_url: str = ""  # set: each batch that changes the site queues one notification here

    def __post_init__(self) -> None:
        # urlsplit drops tabs and newlines, so it would pass a URL that then writes extra lines into robots.txt.
        if any(char.isspace() or unicodedata.category(char) == "Cc" for char in self.site_url):
            raise ValueError(f"SITE_URL must not contain white space or control characters, got {self.site_url!r}")
        parts = urlsplit(self.site_url)
        if parts.scheme not in ("https", "http") or not parts.netloc or parts.query or parts.fragment:
            raise ValueError(f"SITE_URL must be an http(s) URL with no query, got {self.site_url!r}")
        object.__setattr__(self, "site_url", self.site_url.rstrip("/"))
        for name in ("excerpt_chars", "nearby_count", "feed_max_items"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name.upper()} must not be negative")
        check_urls("WEBSUB_HUBS", self.websub_hubs)
        check_indexnow_key(self.indexnow_key)

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        site_url: str | None = None,
        excerpt_chars: int | None = None,
        nearby_count: int | None = None,
        feed_max_items: int | None = None,
    ) -> "Settings":
        """The settings the environment gives, each replaced by its argument where that is not None."""
        env = os.environ if environ is None else environ
        return cls(
            site_url=env.get("SITE_URL", "") if site_url is None else site_url,
            excerpt_chars=_integer(env, "EXCERPT_CHARS", cls.excerpt_chars) if excerpt_chars is None else excerpt_chars,
            nearby_count=_integer(env, "NEARBY_COUNT", cls.nearby_count) if nearby_count is None else nearby_count,
            feed_max_items=(
                _integer(env, "FEED_MAX_ITEMS", cls.feed_max_items) if feed_max_items is None else feed_max_items
            ),
            source_bucket=env.get("SOURCE_BUCKET", ""),
            site_bucket=env.get("SITE_BUCKET", ""),
            distribution_id=env.get("DISTRIBUTION_ID", ""),
            rebuild_queue_url=env.get("REBUILD_QUEUE_URL", ""),
            origin_secret=env.get("ORIGIN_SECRET", ""),
            websub_hubs=url_list(env, "WEBSUB_HUBS"),
            indexnow_key=env.get("INDEXNOW_KEY", ""),
            notify_queue_url=env.get("NOTIFY_QUEUE_URL", ""),
        )


def _integer(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "")
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, got {raw!r}") from None


def url_list(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """The http(s) URLs a variable lists, separated by commas."""
    urls = tuple(url for url in env.get(name, "").split(",") if url)
    check_urls(name, urls)
    return urls


def check_urls(name: str, urls: tuple[str, ...]) -> None:
    for url in urls:
        if urlsplit(url).scheme not in ("https", "http") or any(char.isspace() for char in url):
            raise ValueError(f"{name} must be http(s) URLs separated by commas, got {url!r}")


def check_indexnow_key(key: str) -> None:
    """An IndexNow key, if there is one, is what IndexNow takes: 8 to 128 letters, digits or dashes."""
    if key and not INDEXNOW_KEY.fullmatch(key):
        raise ValueError("INDEXNOW_KEY must be 8 to 128 letters, digits or dashes")
