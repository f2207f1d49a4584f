"""The episodes whose files a publish wrote ahead of its show's catalog, as its lease records them.

A publish writes pages before it commits the catalog. One that fails in between, or is cut short,
leaves them ahead of the catalog, and its redelivery may not write them again: the upload it
published may be gone by then, or back as it was. So before it writes them, the holder of the
show's lease records their episodes in the lease; the next holder takes the record over with the
lease and renders those episodes' files from the catalog again (`publisher`).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Self

# Past this many, a record says "every episode of the catalog" and lists only those the catalog
# lacked, so that a show document's change, which renders every page, keeps the lease small.
LISTED_AT_MOST = 500


@dataclass(frozen=True)
class PagesAhead:
    """Episodes whose page, transcript files and chapters file may be ahead of the catalog."""

    slugs: frozenset[str] = frozenset()
    every: bool = False  # and every episode the catalog holds

    def __bool__(self) -> bool:
        return bool(self.slugs) or self.every

    def __or__(self, other: "PagesAhead") -> "PagesAhead":
        return PagesAhead(self.slugs | other.slugs, self.every or other.every)

    @classmethod
    def of(cls, slugs: Iterable[str], held: Iterable[str]) -> Self:
        """`slugs`, listed, or when too many, as every episode and those of `slugs` not `held`."""
        slugs = frozenset(slugs)
        if len(slugs) <= LISTED_AT_MOST:
            return cls(slugs)
        return cls(slugs - frozenset(held), every=True)

    def covers(self, other: "PagesAhead") -> bool:
        return (self.every or not other.every) and other.slugs <= self.slugs

    def in_catalog(self, held: Iterable[str]) -> set[str]:
        """The episodes named, given the slugs the catalog holds."""
        return {*self.slugs, *(held if self.every else ())}

    def fields(self) -> dict[str, Any]:
        """The record's fields in the lease's JSON: none when there is nothing ahead."""
        listed: dict[str, Any] = {"ahead": sorted(self.slugs)} if self.slugs else {}
        return listed | ({"ahead_every": True} if self.every else {})

    @classmethod
    def from_fields(cls, record: dict[str, Any]) -> Self:
        return cls(frozenset(record.get("ahead", ())), bool(record.get("ahead_every", False)))
