"""A companion transcript's cues, pickled into a spool of their own on the local disk (Lambda's
`/tmp`) and read back each time they are asked for.

A batch brings up to 100 uploads, and reads each before it publishes any: held from then until the
publish ends, the cues of 100 companions near the contract's 5 MiB would come to about 1 GB (11 MB
of cues each), the render function's whole memory. Set down, each takes about its file's size on
disk, and is read back whole, for the moment it is used, when its catalog record is made and when
its files are rendered: 26 ms for such a file, 0.4 ms for an hour's (0.46 ms to pickle).
"""

import pickle

from podpages.catalog.spool import Spool
from podpages.contract.companion_transcripts import Cue


class SpooledCues:
    def __init__(self, cues: tuple[Cue, ...]):
        self._spool = Spool("a companion transcript's cues")  # closed once these cues are dropped
        self._at = self._spool.set_down(pickle.dumps(cues, pickle.HIGHEST_PROTOCOL))

    def read(self) -> tuple[Cue, ...]:
        """The cues, read back anew: the caller holds them only as long as it needs them."""
        cues: tuple[Cue, ...] = pickle.loads(self._spool.read(*self._at))
        return cues
