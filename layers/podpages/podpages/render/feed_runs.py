"""Runs of a feed's items, kept rendered by a warm process from one publish to the next.

A publish of a new newest episode writes a feed of the newest 1,000 again, and rendering its items
took about two fifths of that publish's CPU at 10,000 episodes, though 998 of them are as they were. A
feed document is rendered in runs of items (`feed._document`), and where a run ends is set by its
episodes, not by where they stand: a run ends after an episode whose slug's CRC-32 falls on a
multiple of `RUN_ENDS`. So a new newest episode changes the newest run, and the one its oldest
episode left, and every other run is made of the same episodes as before, whose items are kept.

A run's items are kept under a digest of everything they are rendered from: the show, the site's
URL, the show's document, and each episode's catalog entry as the catalog stores it, with whether
it has a companion transcript. A run one of whose episodes changed in any way is rendered again.

Publishes keep runs (`KEPT_RUNS`); a render from scratch keeps none, since it renders each item
once, and cuts its runs by size alone (`feed._runs`). So the invariant tests hold what publishes
write, kept runs and all, to a render that keeps nothing.
"""

import hashlib
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence

from podpages.catalog.model import Catalog, CatalogEntry

# About one episode in so many ends a run: runs hold about 22 items, at most `feed.ITEMS_PER_PART`.
RUN_ENDS = 25
# The items kept at most, in bytes: a feed of 1,000 ordinary items is about 1.1 MB, so this keeps a
# show's feed and a few archive documents; the run used longest ago goes first.
KEPT_BYTES = 16 * 1024 * 1024


def ends_run(entry: CatalogEntry) -> bool:
    """Whether a run of items ends after this episode's, wherever it stands in a document."""
    return zlib.crc32(entry.slug.encode()) % RUN_ENDS == 0


def show_context(catalog: Catalog, site_url: str) -> bytes:
    """What every item of the show's documents is rendered from besides its own episode."""
    document = catalog.show_document
    return b"\n".join([catalog.show.encode(), site_url.encode(), document.__pydantic_serializer__.to_json(document)])


def run_key(context: bytes, catalog: Catalog, run: Sequence[CatalogEntry]) -> bytes:
    """The digest a run's items are kept under: its episodes' entries, as stored, in the show's context."""
    digest = hashlib.blake2b(context, digest_size=32)
    for entry in run:
        digest.update(b"\x01" if catalog.companion(entry.slug) else b"\x00")
        digest.update(entry.__pydantic_serializer__.to_json(entry))
        digest.update(b"\n")
    return digest.digest()


class KeptRuns:
    """Rendered runs by key, at most `limit` bytes of them. The feed and its archive documents are
    written on several threads at once, so each use holds a lock."""

    def __init__(self, limit: int = KEPT_BYTES):
        self.limit = limit
        self._runs: OrderedDict[bytes, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def items(self, key: bytes, render: Callable[[], bytes]) -> bytes:
        """The items kept under `key`; else those `render` makes, kept from now on."""
        with self._lock:
            if (kept := self._runs.get(key)) is not None:
                self._runs.move_to_end(key)
                return kept
        items = render()  # outside the lock: other threads' documents go on meanwhile
        with self._lock:
            if key not in self._runs and len(items) <= self.limit:
                self._runs[key] = items
                self._bytes += len(items)
                while self._bytes > self.limit:
                    _key, oldest = self._runs.popitem(last=False)
                    self._bytes -= len(oldest)
        return items

    def __len__(self) -> int:
        return len(self._runs)


# The runs this process's publishes keep, from one invocation to the next while Lambda keeps it warm.
KEPT_RUNS = KeptRuns()
