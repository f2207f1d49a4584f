"""What an episode page may cost a crawler, over HTTP from the local stack: at most 20 KB of HTML
and no JavaScript at all (the JSON-LD block is data, not script)."""

from lxml import html

MAX_PAGE_BYTES = 20 * 1024


def test_every_episode_page_is_at_most_20_kb(site):
    sizes = {path: len(site.page(path)) for path in site.episode_paths()}

    assert max(sizes.values()) <= MAX_PAGE_BYTES, {path: size for path, size in sizes.items() if size > MAX_PAGE_BYTES}


def test_no_page_carries_javascript(site):
    for path in site.episode_paths() + site.show_paths() + site.archive_paths():
        tree = html.fromstring(site.page(path))

        assert tree.xpath("//script/@type") == ["application/ld+json"] * len(tree.xpath("//script")), path
        assert not tree.xpath("//@*[starts-with(name(), 'on')]"), path
        assert not tree.xpath("//@*[starts-with(normalize-space(.), 'javascript:')]"), path
