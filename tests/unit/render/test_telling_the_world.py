"""What the site itself says to those who poll it: the WebSub hubs each feed and archive names, and
the IndexNow key file at the site's root. All of it is off until configured."""

import re

import pytest
from lxml import etree

from podpages.render.feed import feed, feed_archive
from podpages.render.plans import site_plan
from podpages.settings import Settings
from support.catalogs import SITE_URL, daily_catalog
from support.feeds import NS

HUBS = ("https://pubsubhubbub.appspot.com/", "https://hub.example.net/publish")
KEY = "3f0a-podpages-key-2026"


def hubs(body: bytes) -> list[str]:
    return etree.fromstring(body).xpath("channel/atom:link[@rel='hub']/@href", namespaces=NS)


def test_every_feed_and_archive_names_each_configured_hub():
    settings = Settings(site_url=SITE_URL, feed_max_items=30, websub_hubs=HUBS)
    catalog = daily_catalog(40)

    assert hubs(feed(catalog, settings).body) == list(HUBS)
    assert hubs(feed_archive(catalog, 1, settings).body) == list(HUBS)
    assert hubs(feed(catalog, Settings(site_url=SITE_URL)).body) == []


def test_the_key_file_is_one_of_the_sites_own_files_while_it_has_shows():
    settings = Settings(site_url=SITE_URL, indexnow_key=KEY)

    published = {item.key: item for item in site_plan({"daily": 1}, settings).puts}
    emptied = site_plan({}, settings)

    assert published[f"{KEY}.txt"].body == KEY.encode()
    assert published[f"{KEY}.txt"].content_type == "text/plain; charset=utf-8"
    assert f"{KEY}.txt" in emptied.deletes
    assert not any(
        key.endswith(".txt") and key != "robots.txt"
        for key in [item.key for item in site_plan({"daily": 1}, Settings(site_url=SITE_URL)).puts]
    )


def test_the_environment_gives_the_hubs_and_the_key():
    settings = Settings.from_env({"SITE_URL": SITE_URL, "WEBSUB_HUBS": ",".join(HUBS), "INDEXNOW_KEY": KEY})

    assert settings.websub_hubs == HUBS and settings.indexnow_key == KEY
    assert Settings.from_env({"SITE_URL": SITE_URL, "WEBSUB_HUBS": ""}).websub_hubs == ()


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"websub_hubs": ("ftp://hub.example.net/",)}, "WEBSUB_HUBS must be http(s) URLs"),
        ({"websub_hubs": ("https://hub.example.net/ x",)}, "WEBSUB_HUBS must be http(s) URLs"),
        ({"indexnow_key": "short"}, "INDEXNOW_KEY must be 8 to 128"),
        ({"indexnow_key": "../../robots"}, "INDEXNOW_KEY must be 8 to 128"),
    ],
)
def test_a_bad_hub_or_key_is_refused_by_name(fields, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        Settings(site_url=SITE_URL, **fields)
