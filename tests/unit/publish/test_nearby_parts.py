"""A publish names, in the show's nearby index (its catalog index's first line), the pages its
catalog's commit wrote, with the nearby part at the head of each, and makes none of them twice: a
removal of the oldest of 100,000 episodes shifted 990 frozen pages when they were cut by position."""

import json

import podpages.catalog.layout
import podpages.catalog.nearby_index
from podpages.catalog.stored import NearbyPage, load_nearby_index
from podpages.publish.publisher import Publisher
from podpages.publish.render_function import handle_render_event
from podpages.settings import Settings
from podpages.storage.site_bucket import SiteBucket
from support.catalogs import SITE_URL, commit_catalog, daily_catalog
from support.events import notification

PAGED = Settings(site_url=SITE_URL, feed_max_items=5)  # 47 episodes: 5 frozen pages of 5, a head of 22


def test_a_removal_that_shifts_every_frozen_page_makes_each_nearby_part_once(s3, source, monkeypatch):
    # Given a show of 47 episodes in frozen pages of 5, its oldest uploaded and then deleted
    commit_catalog(source, daily_catalog(47), PAGED)
    s3.put_object(Bucket="source-bucket", Key="episodes/daily/e01.json", Body=json.dumps({}).encode())
    made: list[int] = []  # the pages whose nearby part was made, wherever it was made

    def counted(nearby_part):
        def making(show, page, entries):
            made.append(page)
            return nearby_part(show, page, entries)

        return making

    for module in (podpages.catalog.layout, podpages.catalog.nearby_index):
        monkeypatch.setattr(module, "nearby_part", counted(module.nearby_part))
    publisher = Publisher(source, SiteBucket(s3, "site-bucket"), PAGED)

    # When its removal is published
    handle_render_event(notification("episodes/daily/e01.json", None, removed=True), publisher)

    # Then every frozen page shifted, and each one's part was made once, by the commit
    held = publisher.catalogs.read("daily")
    assert held.catalog.count == 46 and sorted(made) == [1, 2, 3, 4, 5]
    stored = source.read_first_line("daily")
    assert stored is not None and held.index is not None
    named = load_nearby_index(stored.body)["pages"]
    pages = held.index.pages
    assert named == [NearbyPage(page.slugs, page.nearby, page.digest, page.nearby_bytes) for page in pages]
    assert all(page.head for page in named)
