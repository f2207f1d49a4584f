"""Site settings: what SITE_URL may be, since it is written as it is into pages, sitemaps and robots.txt."""

import pytest

from podpages.settings import Settings


@pytest.mark.parametrize(
    "site_url",
    [
        "https://podcasts.example.com\nSitemap: https://elsewhere.example/sitemap.xml",
        "https://podcasts.example.com/a podcast",
        "https://podcasts.example.com/\tpodcasts",
    ],
    ids=["a newline", "a space", "a tab"],
)
def test_a_site_url_with_white_space_is_refused_naming_site_url(site_url):
    with pytest.raises(ValueError, match=r"^SITE_URL must not contain white space"):
        Settings(site_url=site_url)


def test_a_site_url_with_an_ampersand_in_its_path_is_accepted():
    assert Settings(site_url="https://example.com/a&b/").site_url == "https://example.com/a&b"
