"""Which CloudFront paths a batch invalidates: each changed object's own path, collapsing to one
wildcard per show past the limit."""

from podpages.publish.invalidation import MAX_PATHS, invalidation_paths


def test_each_changed_object_is_invalidated_at_its_own_path():
    keys = {"daily/e01/index.html", "daily/feed.xml", "sitemap.xml"}

    assert invalidation_paths(keys) == ["/daily/e01/index.html", "/daily/feed.xml", "/sitemap.xml"]


def test_past_the_limit_each_show_collapses_to_one_wildcard():
    keys = {f"daily/e{number:03d}/index.html" for number in range(MAX_PATHS)} | {"weekly/index.html", "robots.txt"}

    assert invalidation_paths(keys) == ["/daily/*", "/robots.txt", "/weekly/*"]


def test_exactly_at_the_limit_nothing_collapses():
    keys = {f"daily/e{number:03d}/index.html" for number in range(MAX_PATHS)}

    assert len(invalidation_paths(keys)) == MAX_PATHS
