"""What a publish may write ahead of its show's catalog, as its lease records it.

A publish writes pages before it commits the catalog. One that fails in between, or is cut short,
leaves them ahead of the catalog, and its redelivery may not write them again: the upload it
published may be gone by then, or back as it was. So the lease a publish takes records where those
pages lie, in the same write that takes it; a holder that fails hands the lease over with its
record, and the next holder renders those pages again from the catalog (`publisher`).
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Self


@dataclass(frozen=True)
class PagesAhead:
    """The episodes a publish's uploads name, each with the publish time a put gives it (None for
    a removal or a companion transcript): the pages it writes lie around each one's place in the
    catalog and around the place of that time. Or every episode, for a show document."""

    episodes: frozenset[tuple[str, datetime | None]] = frozenset()
    every: bool = False

    def __bool__(self) -> bool:
        return bool(self.episodes) or self.every

    def __or__(self, other: "PagesAhead") -> "PagesAhead":
        return PagesAhead(self.episodes | other.episodes, self.every or other.every)

    def fields(self) -> dict[str, Any]:
        """The record's fields in the lease's JSON: none when there is nothing ahead."""
        episodes = sorted(((slug, time.isoformat() if time else None) for slug, time in self.episodes), key=str)
        return ({"ahead": episodes} if episodes else {}) | ({"ahead_every": True} if self.every else {})

    @classmethod
    def from_fields(cls, record: dict[str, Any]) -> Self:
        episodes = frozenset(
            (slug, datetime.fromisoformat(time) if time else None) for slug, time in record.get("ahead", ())
        )
        return cls(episodes, bool(record.get("ahead_every", False)))
