"""Where notifications go: WebSub hubs, feed-change ping endpoints and an IndexNow endpoint with
the site's key. Every part is empty until the template's parameters configure it."""

import os
from collections.abc import Mapping
from dataclasses import dataclass

from podpages.settings import check_indexnow_key, url_list

TIMEOUT = 5.0  # seconds a call may take, unless NOTIFY_TIMEOUT says otherwise


@dataclass(frozen=True)
class Endpoints:
    hubs: tuple[str, ...] = ()
    pings: tuple[str, ...] = ()
    indexnow_key: str = ""
    indexnow_endpoint: str = ""
    timeout: float = TIMEOUT

    def __post_init__(self) -> None:
        check_indexnow_key(self.indexnow_key)
        if not 0 < self.timeout <= 60:
            raise ValueError(f"NOTIFY_TIMEOUT must be more than 0 and at most 60 seconds, got {self.timeout}")

    @property
    def any(self) -> bool:
        """Whether anyone is to be told anything."""
        return bool(self.hubs or self.pings or (self.indexnow_key and self.indexnow_endpoint))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "Endpoints":
        env = os.environ if environ is None else environ
        timeout = env.get("NOTIFY_TIMEOUT", "")
        try:
            seconds = float(timeout) if timeout else TIMEOUT
        except ValueError:
            raise ValueError(f"NOTIFY_TIMEOUT must be a number of seconds, got {timeout!r}") from None
        indexnow = url_list(env, "INDEXNOW_ENDPOINT")
        if len(indexnow) > 1:
            raise ValueError(f"INDEXNOW_ENDPOINT must be one URL, got {len(indexnow)}")
        return cls(
            hubs=url_list(env, "WEBSUB_HUBS"),
            pings=url_list(env, "PING_ENDPOINTS"),
            indexnow_key=env.get("INDEXNOW_KEY", ""),
            indexnow_endpoint=indexnow[0] if indexnow else "",
            timeout=seconds,
        )
