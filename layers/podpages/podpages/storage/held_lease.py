"""A show's lease as its holder took it (`publish.show_lease`)."""

import json
from dataclasses import dataclass, field
from typing import Self

from podpages.storage.pages_ahead import PagesAhead


@dataclass
class HeldLease:
    """The lease's key, the ETag that releases it and nothing taken over since, and whether it is
    released: by the request that deletes what the publish retired (`RetiredObjects`), or, when
    that request did not, by its own.

    `ahead` is what the lease records of the pages its holder may write ahead of the show's
    catalog, with what it took over from a holder that failed (`inherited`). From the moment its
    holder begins to write them, and while it has yet to set right what it took over, the site may
    be ahead of the catalog (`unsettled`): the lease is then not released but handed over, so that
    the next holder renders them again."""

    key: str
    etag: str
    holder: str = ""
    expires: float = 0
    ahead: PagesAhead = field(default_factory=PagesAhead)
    inherited: PagesAhead = field(default_factory=PagesAhead)
    unsettled: bool = False
    released: bool = False

    @classmethod
    def stored(cls, key: str, etag: str, body: bytes) -> Self:
        """The lease as `body` stores it: its holder, its time and its record."""
        record = json.loads(body)
        return cls(key, etag, record["holder"], record["expires"], PagesAhead.from_fields(record))

    def body(self, expires: float | None = None) -> bytes:
        """The lease's JSON, expiring at `expires`, by default its own time."""
        record = {"holder": self.holder, "expires": self.expires if expires is None else expires}
        return json.dumps(record | self.ahead.fields()).encode()
