"""What an episode page may cost a crawler, over HTTP from the local stack: at most 20 KB of HTML,
30 KB for one that shows contract v2's chapters, people, notes or other formats, and no JavaScript at
all (the JSON-LD block is data, not script)."""

from lxml import html

MAX_PAGE_BYTES = 20 * 1024
MAX_V2_PAGE_BYTES = 30 * 1024
MAX_TRANSCRIPT_PAGE_BYTES = 1_000_000  # a three-hour transcript stays below it (tests/unit/render)


def uses_v2(site, path: str) -> bool:
    catalog = next(catalog for catalog in site.catalogs if path.startswith(f"/{catalog.show}/"))
    entry = catalog.entry(path.strip("/").split("/")[1])
    episode = entry.episode_in_full()
    shown = (entry.chapters(), episode.persons, episode.alternate_enclosures, entry.notes_html)
    return any(shown) or bool(catalog.show_document.persons or catalog.show_document.funding)


def test_every_episode_page_is_at_most_20_kb_or_30_kb_with_v2_fields(site):
    sizes = {path: len(site.page(path)) for path in site.episode_paths()}
    budgets = {path: MAX_V2_PAGE_BYTES if uses_v2(site, path) else MAX_PAGE_BYTES for path in sizes}

    assert {path: size for path, size in sizes.items() if size > budgets[path]} == {}


def test_every_transcript_page_is_under_a_megabyte(site):
    sizes = {path: len(site.page(path)) for path in site.transcript_paths()}

    assert sizes and {path: size for path, size in sizes.items() if size >= MAX_TRANSCRIPT_PAGE_BYTES} == {}


def test_no_page_carries_javascript(site):
    for path in site.episode_paths() + site.show_paths() + site.archive_paths() + site.transcript_paths():
        tree = html.fromstring(site.page(path))

        assert tree.xpath("//script/@type") == ["application/ld+json"] * len(tree.xpath("//script")), path
        assert not tree.xpath("//@*[starts-with(name(), 'on')]"), path
        assert not tree.xpath("//@*[starts-with(normalize-space(.), 'javascript:')]"), path
