"""Episode, show and archive pages: the crawler's reading order, the head tags, and a golden page."""

import json
import os

import pytest
from lxml import html

from podpages.excerpt import ELLIPSIS
from podpages.nearby import listing as nearby_listing
from podpages.nearby_section import nearby_link
from podpages.render import pages
from support.catalogs import SETTINGS, daily_catalog, episode_document, example_folder, indexed, put_episode
from support.paths import GOLDEN

SEED = "backend-flexibility-revolution"


@pytest.fixture(scope="module")
def pytorch():
    return example_folder().catalogs["pytorch"]


@pytest.fixture(scope="module")
def seed_page(pytorch):
    return pages.episode_page(pytorch, SEED, SETTINGS)


@pytest.fixture(scope="module")
def tree(seed_page):
    return html.fromstring(seed_page.body)


def crawler_lines(tree) -> list[str]:
    """The page's text the way a crawler extracts it: block by block, in document order."""
    blocks = tree.xpath("//body//*[self::h1 or self::h2 or self::p or self::li]")
    return [" ".join(block.text_content().split()) for block in blocks]


def test_the_seed_episode_renders_as_the_golden_page(seed_page):
    golden = GOLDEN / "pytorch" / SEED / "index.html"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(seed_page.body)

    assert seed_page.body == golden.read_bytes(), "intended? rerun with UPDATE_GOLDEN=1 and review the diff"


def test_a_crawler_reads_the_page_in_the_seed_order(tree):
    lines = crawler_lines(tree)
    order = [
        "PyTorch: Backend Flexibility Revolution",
        "Today's episode dives into 30 commits",
        "Duration: 4 min 5 s",
        "Episode overview",
        "This episode is a short developer briefing from PyTorch.",
        "It explains recent repository work in plain language.",
        "Show: PyTorch",
        "Published: 2026-01-28T11:05:41Z",
        "Audio duration: 4 min 5 s",
        "Transcript excerpt",
        "This excerpt keeps the crawler page concise.",
        "Hey there, fellow code explorers!",
        "Nearby episodes from PyTorch",
        "The Great Test Speed Revolution",
        "Spring Cleaning and Building Blocks",
        "Full transcript of Backend Flexibility Revolution",
        "All episodes of PyTorch",
        "RSS feed of PyTorch",
    ]
    positions = [next(i for i, line in enumerate(lines) if line.startswith(start)) for start in order]

    assert positions == sorted(positions), lines


def test_the_nearby_list_matches_the_seed_page(tree):
    nearby = tree.xpath("//section[@aria-labelledby='nearby']//a/text()")

    assert nearby == [
        "The Great Test Speed Revolution",
        "Cleanup and Optimization Day",
        "Testing Cleanup and Pattern Matching Progress",
        "Type Safety Revolution and Infrastructure Cleanup",
        "The Great Configuration Cleanup & XPU Expansion",
        "Hardware Expansion and Developer Experience Polish",
        "Backend Harmony and Memory Magic",
        "Spring Cleaning and Building Blocks",
    ]


def test_the_duration_is_human_inside_a_machine_readable_time(tree):
    assert tree.xpath("//article/p/time[@datetime='PT4M5S']/text()") == ["4 min 5 s"]


def test_the_excerpt_is_whole_paragraphs_then_one_cut_at_a_word(tree, pytorch):
    paragraphs = tree.xpath("//section[@aria-labelledby='excerpt']/p[not(@class)]/text()")

    assert paragraphs[:3] == list(pytorch.entry(SEED).excerpt[:3])
    assert paragraphs[-1].endswith(ELLIPSIS) and not any(p.endswith(ELLIPSIS) for p in paragraphs[:-1])
    assert sum(map(len, paragraphs)) <= SETTINGS.excerpt_chars


def test_the_head_has_what_crawlers_and_link_previews_read(tree):
    url = f"{SETTINGS.site_url}/pytorch/{SEED}/"

    assert tree.findtext(".//title") == "PyTorch: Backend Flexibility Revolution"
    assert len(tree.xpath("//meta[@name='description']/@content")[0]) <= 155
    assert tree.xpath("//link[@rel='canonical']/@href") == [url]
    assert tree.xpath("//link[@rel='alternate'][@type='application/rss+xml']/@href") == [
        f"{SETTINGS.site_url}/pytorch/feed.xml"
    ]
    for tag in ("og:title", "og:type", "og:url", "og:description", "og:image"):
        assert tree.xpath(f"//meta[@property='{tag}']/@content"), tag
    assert tree.xpath("//meta[@property='og:url']/@content") == [url]
    for tag in ("twitter:card", "twitter:title", "twitter:description"):
        assert tree.xpath(f"//meta[@name='{tag}']/@content"), tag


def test_json_ld_describes_a_podcast_episode(tree):
    data = json.loads(tree.xpath("//script[@type='application/ld+json']/text()")[0])

    assert data["@type"] == "PodcastEpisode"
    assert data["name"] == "Backend Flexibility Revolution"
    assert data["datePublished"] == "2026-01-28T11:05:41Z"
    assert data["duration"] == "PT4M5S"
    assert data["associatedMedia"]["contentUrl"].endswith("/backend-flexibility-revolution.mp3")
    assert data["partOfSeries"] == {"@type": "PodcastSeries", "name": "PyTorch", "url": f"{SETTINGS.site_url}/pytorch/"}


def test_the_page_needs_no_script_and_no_external_css(tree):
    assert not tree.xpath("//script[not(@type='application/ld+json')]")
    assert not tree.xpath("//link[@rel='stylesheet']") and not tree.xpath("//*[@style]")
    assert tree.xpath("//audio[@preload='none'][@controls]/@src")


def test_an_episode_without_a_transcript_has_no_excerpt_and_no_transcript_link(pytorch):
    tree = html.fromstring(pages.episode_page(pytorch, "cleanup-and-optimization-day", SETTINGS).body)

    assert not tree.xpath("//section[@aria-labelledby='excerpt']")
    assert not tree.xpath("//a[contains(@href, 'transcript.txt')]")


def test_the_only_episode_of_a_show_has_no_nearby_section():
    tree = html.fromstring(pages.episode_page(daily_catalog(1), "e01", SETTINGS).body)

    assert not tree.xpath("//section[@aria-labelledby='nearby']")


def test_the_page_and_the_api_fragment_share_one_nearby_section(pytorch, seed_page):
    fragment = nearby_listing.as_html(indexed(pytorch), SEED, SETTINGS.nearby_count, SETTINGS.site_url)

    assert fragment.startswith("<section") and fragment in seed_page.body.decode()


def test_a_process_renders_each_episode_link_of_the_nearby_lists_once():
    catalog = daily_catalog(20)
    nearby_link.cache_clear()

    for number in range(1, 21):
        pages.episode_page(catalog, f"e{number:02d}", SETTINGS)

    assert nearby_link.cache_info().misses == 20  # each episode's link, though each is listed on 8 pages
    assert nearby_link.cache_info().hits == 20 * SETTINGS.nearby_count - 20


def test_a_retitled_neighbour_shows_its_new_title_on_the_pages_that_list_it():
    catalog = daily_catalog(10)
    before = html.fromstring(pages.episode_page(catalog, "e05", SETTINGS).body)
    document = episode_document("Episode 6, retitled", "2025-12-26T09:00:00Z")
    catalog = catalog.apply(put_episode("daily", "e06", document), SETTINGS.excerpt_chars)

    after = html.fromstring(pages.episode_page(catalog, "e05", SETTINGS).body)

    listed = "//section[@aria-labelledby='nearby']//a/text()"
    assert "Episode 6" in before.xpath(listed)
    assert "Episode 6, retitled" in after.xpath(listed) and "Episode 6" not in after.xpath(listed)


def test_the_show_page_lists_the_newest_episodes_and_links_every_year():
    catalog = daily_catalog(30)

    tree = html.fromstring(pages.show_page(catalog, SETTINGS).body)

    listed = tree.xpath("//section[@aria-labelledby='latest']//li/a/text()")
    assert listed == [f"Episode {n}" for n in range(30, 30 - pages.SHOW_PAGE_EPISODES, -1)]
    assert tree.xpath("//section[@aria-labelledby='archive']//a/@href") == [
        f"{SETTINGS.site_url}/daily/2026/",
        f"{SETTINGS.site_url}/daily/2025/",
    ]
    assert json.loads(tree.xpath("//script[@type='application/ld+json']/text()")[0])["@type"] == "PodcastSeries"


def test_every_episode_is_reachable_by_links_from_the_show_page():
    catalog = daily_catalog(30)
    show = html.fromstring(pages.show_page(catalog, SETTINGS).body)

    linked = set(show.xpath("//a/@href"))
    for year_url in show.xpath("//section[@aria-labelledby='archive']//a/@href"):
        year = int(year_url.rstrip("/").rsplit("/", 1)[1])
        linked |= set(html.fromstring(pages.archive_page(catalog, year, SETTINGS).body).xpath("//a/@href"))

    assert {f"{SETTINGS.site_url}/daily/{entry.slug}/" for entry in catalog.episodes} <= linked


def test_an_archive_page_lists_its_year_newest_first():
    tree = html.fromstring(pages.archive_page(daily_catalog(30), 2025, SETTINGS).body)

    assert tree.findtext(".//h1") == "daily: episodes from 2025"
    assert tree.xpath("//main//li/a/text()") == [f"Episode {n}" for n in range(11, 0, -1)]
