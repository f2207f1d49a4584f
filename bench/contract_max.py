"""Peak memory of a publish and of a nearby request in a show of 100,000 episodes with every field
at its contract maximum (issue 17's target: both functions under 256 MB).

    PYTHONPATH=tests .venv/bin/python bench/contract_max.py [--episodes 100000]

A new newest episode reads no frozen page, so the show is stored as a publish finds it: the catalog's
index (the head's entries, each at its maximum, and a summary of each frozen page) and the nearby
index. Each function's work then runs in a fresh process of its own, from those bytes, as the
function makes it: the render function parses the index, folds the upload into it and renders what
it makes stale, the feed of `FEED_MAX_ITEMS` included (`publishing.PEAK`, as for the synthetic
show); the nearby function answers for the newest episode. `make bench` runs it with the rest.
"""

import argparse
import hashlib
import json
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

from cold_start import as_on_lambda
from publishing import PEAK, max_rss
from synthetic import START, episode_document, text

from podpages.catalog.feed_archives import cut, frozen_count
from podpages.catalog.layout import split
from podpages.catalog.listed_episode import ListedEpisode
from podpages.catalog.model import Catalog, CatalogEntry
from podpages.catalog.page_bounds import PageBounds
from podpages.catalog.page_summary import PageSummary, YearCount
from podpages.catalog.stored import slug_hash
from podpages.contract.documents import parse_episode
from podpages.settings import Settings

SETTINGS = Settings(site_url="http://127.0.0.1:3000")
SHOW = "bench"


def line(seed: int, chars: int) -> str:
    """Text of exactly `chars` characters, ending in a full stop."""
    words = ""
    while len(words) < chars:
        words += text(seed + len(words), 30) + " "
    return words[: chars - 1].rstrip() + "."


def paragraphs(seed: int, chars: int) -> str:
    return "\n\n".join(line(seed + n, 600) for n in range(chars // 602))[:chars]


def maximal_episode(number: int) -> dict:
    """Episode `number` with every text and list at the contract's maximum (the transcript, which the
    catalog keeps only an excerpt of, at 100,000 characters)."""
    return episode_document(number) | {
        "title": line(number, 200),
        "duration": "PT3H",
        "summary": paragraphs(number, 4000),
        "transcript": paragraphs(number + 1, 100_000),
        "notes": paragraphs(number + 2, 20_000),
        "keywords": [line(number + k, 100) for k in range(50)],
        "chapters": [{"start": k * 20, "title": line(number + k, 200)} for k in range(500)],
        "persons": [
            {"name": line(number + k, 128), "role": "guest", "href": f"https://people.example.com/{number}/{k}"}
            for k in range(50)
        ],
        "soundbites": [{"start": k * 60, "duration": 30, "title": line(number + k, 128)} for k in range(20)],
        "location": {"name": line(number, 128), "geo": "geo:38.7223,-9.1393"},
        "license": {"name": line(number, 128), "url": "https://creativecommons.org/licenses/by/4.0/"},
        "alternate_enclosures": [
            {"url": f"https://media.example.com/{number}/{k}.opus", "type": "audio/opus", "length": 1000 + k}
            for k in range(10)
        ],
    }


def stored_show(folder: Path, episodes: int) -> dict:
    """The catalog's index and the nearby index of a show of `episodes`, and its next upload, in `folder`."""
    bounds = PageBounds.of_counts(cut([_slug(number) for number in range(episodes)], SETTINGS.feed_max_items))
    frozen = frozen_count(bounds, episodes, SETTINGS.feed_max_items)
    frozen_episodes = bounds.start(frozen + 1)
    model = CatalogEntry.of(SHOW, "model", parse_episode(json.dumps(maximal_episode(0)).encode()), None, 1500)
    head = tuple(_entry(model, number) for number in range(frozen_episodes, episodes))
    earlier = tuple(_summary(page, range(bounds.start(page), bounds.stop(page))) for page in range(1, frozen + 1))
    last_year = _published(frozen_episodes - 1).year
    # The listing of the frozen pages' last year, which the index holds, and digests of the others'.
    listed = tuple(_listed(number) for number in range(frozen_episodes) if _published(number).year == last_year)
    years = {year: hashlib.sha256(str(year).encode()).hexdigest()[:16] for year in range(START.year, last_year)}
    catalog = Catalog(
        show=SHOW, episodes=head, earlier=earlier, earlier_years=years, earlier_listed={last_year: listed}
    )
    index = b"".join(split(catalog, SETTINGS.feed_max_items).index())
    nearby = index.split(b"\n", 1)[0]  # the nearby index, the index's first line, which the nearby function reads
    (folder / "index.json").write_bytes(index)
    (folder / "nearby.json").write_bytes(nearby)
    (folder / "upload.json").write_text(json.dumps(maximal_episode(episodes)))
    return {
        "catalog_entry_kb": round(len(model.model_dump_json()) / 1e3),
        "catalog_index_mb": round(len(index) / 1e6, 1),
        "nearby_index_mb": round(len(nearby) / 1e6, 2),
    }


def _published(number: int) -> datetime:
    return START + timedelta(hours=20 * number)


def _slug(number: int) -> str:
    return f"episode-{number:06d}"


def _listed(number: int) -> ListedEpisode:
    return ListedEpisode(
        slug=_slug(number), title=line(number, 200), published=_published(number), duration=timedelta(hours=3)
    )


def _entry(model: CatalogEntry, number: int) -> CatalogEntry:
    slug = _slug(number)
    published = _published(number)
    episode = model.episode.model_copy(update={"published": published, "title": line(number, 200)})
    return model.model_copy(update={"slug": slug, "guid": f"guid-{number}", "episode": episode})


def _summary(page: int, numbers: range) -> PageSummary:
    """What the index keeps of frozen page `page`, of episodes `numbers`, as if they had been published."""
    last = _published(numbers[-1])
    digest = hashlib.sha256(str(page).encode()).hexdigest()[:16]
    years: dict[int, YearCount] = {}
    for number in numbers:
        published = _published(number)
        held = years.get(published.year)
        years[published.year] = YearCount(count=(held.count if held else 0) + 1, latest=published)
    return PageSummary(
        digest=digest,
        count=len(numbers),
        last=(last, _slug(numbers[-1])),
        years=years,
        slugs="".join(slug_hash(_slug(number)) for number in numbers),
        guids="",
        nearby=digest,
        nearby_bytes=len(numbers) * 100,  # its rows at the head of its object: about 100 bytes an episode
    )


NEARBY = """
import sys
from pathlib import Path
# What the nearby function holds before any request: its S3 client, and the modules its handler imports.
import boto3
boto3.client("s3", region_name="us-east-1")
import podpages.nearby.api
from podpages.nearby.index import CatalogIndex
index = CatalogIndex.from_nearby_json(Path(sys.argv[1]).read_bytes())
newest = index.rows[-1][0]
assert index.wanted(newest, 50) == []
print(len(index.nearby(newest, 50)))
"""


def measure(episodes: int = 100_000) -> dict:
    folder = Path(tempfile.mkdtemp())
    sizes = stored_show(folder, episodes)
    # The upload is named as `read_change` expects: episodes/<show>/<slug>.json.
    upload = folder / "episodes" / SHOW / f"{_slug(episodes)}.json"
    upload.parent.mkdir(parents=True)
    (folder / "upload.json").rename(upload)
    return {
        "episodes": episodes,
        **sizes,
        "render_function_publish_max_rss_mb": max_rss(
            [*as_on_lambda(), "-c", PEAK, str(folder / "index.json"), str(upload)]
        ),
        "nearby_function_request_max_rss_mb": max_rss([*as_on_lambda(), "-c", NEARBY, str(folder / "nearby.json")]),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=100_000)
    print(json.dumps(measure(parser.parse_args().episodes), indent=2))
