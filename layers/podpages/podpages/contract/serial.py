"""The one rule of the contract that spans two documents: in a serial show every episode has its
`episode_number`, since apps play a serial show in that order, from the first.

Neither model can check it alone, as the episode does not name its show's type; whoever holds both
documents, the catalog, does.
"""

from podpages.contract.documents import Episode, Show
from podpages.errors import Problem


def serial_problems(show: Show, episode: Episode) -> list[Problem]:
    """What is wrong with publishing `episode` in `show` by the serial rule: nothing, or its missing
    `episode_number`."""
    if show.type == "serial" and episode.episode_number is None:
        return [Problem("episode_number", "is required: the show is serial, and its episodes are played in order")]
    return []
