"""JSON-LD with contract v2's fields: an episode's chapters as `Clip`s it has as parts, its people and
its show's as `Person`s, all parseable from the page and unable to close the script block."""

import json

from lxml import html

from podpages.catalog.model import Catalog
from podpages.render import pages
from support.catalogs import SETTINGS, episode_document, put_episode, put_show, show_document

SHOW = "v2"
PAGE = f"{SETTINGS.site_url}/{SHOW}/e1/"
CLOSER = "</script><script>alert(1)</script>"


def catalog_of(episode: dict, **show_fields) -> Catalog:
    catalog = Catalog(show=SHOW).apply(put_show(SHOW, show_document("V2 show", **show_fields)), 1500)
    return catalog.apply(put_episode(SHOW, "e1", episode), 1500)


def json_ld(body: bytes) -> dict:
    """The page's JSON-LD, as a crawler reads it: the script element's text, parsed."""
    scripts = html.fromstring(body).xpath("//script[@type='application/ld+json']/text()")
    assert len(scripts) == 1
    return json.loads(scripts[0])


def episode_data(episode: dict, **show_fields) -> dict:
    return json_ld(pages.episode_page(catalog_of(episode, **show_fields), "e1", SETTINGS).body)


def test_each_chapter_is_a_clip_from_its_start_to_the_next_and_the_last_to_the_end():
    chapters = [{"start": 0, "title": "One"}, {"start": 95.5, "title": "Two"}, {"start": 200, "title": "Three"}]

    data = episode_data(episode_document(duration="PT4M5S", chapters=chapters))

    assert data["hasPart"] == [
        {"@type": "Clip", "name": "One", "startOffset": 0, "endOffset": 95.5, "url": f"{PAGE}#chapter-1"},
        {"@type": "Clip", "name": "Two", "startOffset": 95.5, "endOffset": 200, "url": f"{PAGE}#chapter-2"},
        {"@type": "Clip", "name": "Three", "startOffset": 200, "endOffset": 245, "url": f"{PAGE}#chapter-3"},
    ]


def test_each_clip_links_the_chapters_item_on_the_page():
    body = pages.episode_page(catalog_of(episode_document(chapters=[{"start": 10, "title": "A"}])), "e1", SETTINGS).body

    url = json_ld(body)["hasPart"][0]["url"]

    assert url.startswith(PAGE) and html.fromstring(body).xpath(f"//li[@id='{url.split('#')[1]}']/time/@datetime")


def test_cast_are_actors_and_the_crew_contributors():
    persons = [
        {"name": "Ada", "role": "host", "href": "https://example.org/ada", "img": "https://example.org/ada.jpg"},
        {"name": "Gail", "role": "guest"},
        {"name": "Pat", "role": "producer", "group": "creative direction"},
    ]

    data = episode_data(episode_document(persons=persons))

    assert data["actor"] == [
        {"@type": "Person", "name": "Ada", "url": "https://example.org/ada"},
        {"@type": "Person", "name": "Gail"},
    ]
    assert data["contributor"] == [{"@type": "Person", "name": "Pat"}]


def test_an_episodes_people_replace_the_shows_and_the_show_credits_its_own():
    show_persons = [{"name": "Show Host", "role": "host"}]
    guest = [{"name": "Guest", "role": "guest"}]

    assert episode_data(episode_document(persons=guest), persons=show_persons)["actor"] == [
        {"@type": "Person", "name": "Guest"}
    ]
    assert episode_data(episode_document(), persons=show_persons)["actor"] == [{"@type": "Person", "name": "Show Host"}]
    catalog = catalog_of(episode_document(persons=guest), persons=show_persons)
    series = json_ld(pages.show_page(catalog, SETTINGS).body)
    assert series["actor"] == [{"@type": "Person", "name": "Show Host"}] and "contributor" not in series


def test_without_v2_fields_nothing_is_added():
    data = episode_data(episode_document())

    assert not {"hasPart", "actor", "contributor"} & set(data)


def test_a_chapter_title_or_a_name_cannot_close_the_script_block():
    document = episode_document(chapters=[{"start": 0, "title": CLOSER}], persons=[{"name": CLOSER, "role": "guest"}])
    body = pages.episode_page(catalog_of(document), "e1", SETTINGS).body

    data = json_ld(body)

    assert body.count(b"</script>") == 1 and b"<script>alert" not in body
    assert data["hasPart"][0]["name"] == CLOSER and data["actor"][0]["name"] == CLOSER
