"""Companion transcripts' cues, pickled into a spool on the local disk (TMPDIR, Lambda's `/tmp`) and
read back each time they are asked for.

A batch brings up to 100 uploads, and reads each before it publishes any: held from then until the
publish ends, the cues of 100 companions near the contract's 5 MiB would come to about 1 GB (11 MB
of cues each), the render function's whole memory. Set down, each takes about its file's size on
disk, and is read back whole, for the moment it is used, when its catalog record is made and when
its files are rendered: 26 ms for such a file, 0.4 ms for an hour's (0.46 ms to pickle). So does
`podpages render`, where workers send the cues back pickled, for every companion of a folder.
"""

import pickle

from podpages.catalog.spool import Spool
from podpages.contract.companion_transcripts import Cue


def pickled(cues: tuple[Cue, ...]) -> bytes:
    return pickle.dumps(cues, pickle.HIGHEST_PROTOCOL)


class SpooledCues:
    __slots__ = ("_at", "_spool")  # `podpages render` keeps one for each companion of a folder

    def __init__(self, spool: Spool, pickled: bytes):
        """Cues as `pickled` gives them, set down in `spool`, which lasts at least as long as they do."""
        self._spool = spool
        self._at = spool.set_down(pickled)

    @classmethod
    def alone(cls, cues: tuple[Cue, ...]) -> "SpooledCues":
        """`cues` set down in a spool of their own, closed once they are dropped."""
        return cls(Spool("a companion transcript's cues"), pickled(cues))

    def read(self) -> tuple[Cue, ...]:
        """The cues, read back anew: the caller holds them only as long as it needs them."""
        cues: tuple[Cue, ...] = pickle.loads(self._spool.read(*self._at))
        return cues
