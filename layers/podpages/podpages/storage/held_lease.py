"""A show's lease as its holder took it (`publish.show_lease`)."""

from dataclasses import dataclass


@dataclass
class HeldLease:
    """The lease's key, the ETag that releases it and nothing taken over since, and whether it is
    released: by the request that deletes what the publish retired (`RetiredObjects`), or, when
    that request did not, by its own."""

    key: str
    etag: str
    released: bool = False
