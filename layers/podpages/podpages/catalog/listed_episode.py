"""What a listing shows of an episode: its slug, title, publish time and duration.

A year's archive page lists every episode of that year. A show's catalog keeps a listing of each
year's episodes in its frozen pages (`catalog.layout`), so that a publish renders the page of an
hourly show's year, whose episodes fill dozens of frozen pages, without reading any of them.
"""

from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict

from podpages.contract.documents import Duration


class ListedEpisode(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    slug: str
    title: str
    published: datetime  # in UTC, as listings print it
    duration: Duration

    @property
    def order(self) -> tuple[datetime, str]:
        """Publish order, as `CatalogEntry.order`."""
        return self.published.astimezone(UTC), self.slug
