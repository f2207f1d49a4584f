"""Site settings: one typed object, read from the environment once. Explicit arguments win."""

import os
from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Settings:
    site_url: str
    excerpt_chars: int = 1500
    nearby_count: int = 8
    feed_max_items: int = 0  # 0 means every episode
    source_bucket: str = ""
    site_bucket: str = ""
    distribution_id: str = ""  # set: the paths a batch changes are invalidated in CloudFront
    rebuild_queue_url: str = ""  # where the deploy-time rebuild queues its requests

    def __post_init__(self):
        parts = urlsplit(self.site_url)
        if parts.scheme not in ("https", "http") or not parts.netloc or parts.query or parts.fragment:
            raise ValueError(f"SITE_URL must be an http(s) URL with no query, got {self.site_url!r}")
        object.__setattr__(self, "site_url", self.site_url.rstrip("/"))
        for name in ("excerpt_chars", "nearby_count", "feed_max_items"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name.upper()} must not be negative")

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides) -> "Settings":
        env = os.environ if environ is None else environ
        values = {
            "site_url": env.get("SITE_URL", ""),
            "excerpt_chars": _integer(env, "EXCERPT_CHARS", cls.excerpt_chars),
            "nearby_count": _integer(env, "NEARBY_COUNT", cls.nearby_count),
            "feed_max_items": _integer(env, "FEED_MAX_ITEMS", cls.feed_max_items),
            "source_bucket": env.get("SOURCE_BUCKET", ""),
            "site_bucket": env.get("SITE_BUCKET", ""),
            "distribution_id": env.get("DISTRIBUTION_ID", ""),
            "rebuild_queue_url": env.get("REBUILD_QUEUE_URL", ""),
        }
        return cls(**(values | {name: value for name, value in overrides.items() if value is not None}))


def _integer(env, name: str, default: int) -> int:
    raw = env.get(name, "")
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, got {raw!r}") from None
