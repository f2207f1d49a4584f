"""Structured data as search engines extract it (extruct, over HTTP from the local stack): JSON-LD
`PodcastEpisode` on every episode page and `PodcastSeries` on every show page, Open Graph and
Twitter card tags on both."""

import extruct
from lxml import html

from podpages import site_paths
from podpages.durations import iso_duration
from podpages.excerpt import meta_description
from podpages.moments import rfc3339


def extract(site, path: str) -> tuple[dict, dict, dict]:
    """The page's JSON-LD items by @type, its Open Graph properties, and its Twitter card tags."""
    body = site.page(path).decode()
    data = extruct.extract(body, base_url=site.url + path, syntaxes=["json-ld", "opengraph"])
    items = {item["@type"]: item for item in data["json-ld"]}
    graph = {name: value for group in data["opengraph"] for name, value in reversed(group["properties"])}
    twitter = {meta.get("name"): meta.get("content") for meta in html.fromstring(body).xpath("//meta[@name]")}
    return items, graph, twitter


def test_every_episode_page_describes_a_podcast_episode(site):
    for catalog in site.catalogs:
        for entry in catalog.episodes:
            path = site_paths.episode(catalog.show, entry.slug)
            items, _graph, _twitter = extract(site, path)

            episode = items["PodcastEpisode"]
            assert episode["name"] == entry.episode.title
            assert episode["url"] == site.url + path
            assert episode["datePublished"] == rfc3339(entry.episode.published)
            assert episode["description"] == entry.episode.summary
            assert episode["duration"] == iso_duration(entry.episode.duration)
            assert episode["associatedMedia"]["contentUrl"] == str(entry.episode.audio.url)
            assert episode["partOfSeries"]["@type"] == "PodcastSeries"
            assert episode["partOfSeries"]["name"] == catalog.show_document.title
            assert episode["partOfSeries"]["url"] == site.url + site_paths.show_home(catalog.show)


def test_chapters_and_people_reach_crawlers_as_clips_and_persons(site):
    for catalog in site.catalogs:
        for entry in catalog.episodes:
            path = site_paths.episode(catalog.show, entry.slug)
            episode = extract(site, path)[0]["PodcastEpisode"]
            persons = entry.episode_in_full().persons or catalog.show_document.persons or ()

            clips = episode.get("hasPart", [])
            assert [clip["name"] for clip in clips] == [chapter.title for chapter in entry.chapters()]
            assert [clip["url"] for clip in clips] == [
                f"{site.url}{path}#chapter-{n}" for n in range(1, len(clips) + 1)
            ]
            credited = episode.get("actor", []) + episode.get("contributor", [])
            assert sorted(person["name"] for person in credited) == sorted(person.name for person in persons), path


def test_every_show_page_describes_a_podcast_series(site):
    for catalog in site.catalogs:
        path = site_paths.show_home(catalog.show)
        items, _graph, _twitter = extract(site, path)

        series = items["PodcastSeries"]
        assert series["name"] == catalog.show_document.title
        assert series["url"] == site.url + path
        assert series["webFeed"] == site.url + site_paths.feed(catalog.show)


def test_open_graph_and_twitter_cards_carry_title_type_url_description_and_image(site):
    for catalog in site.catalogs:
        pages = [(site_paths.show_home(catalog.show), catalog.show_document.title, "website", None)]
        pages += [
            (site_paths.episode(catalog.show, entry.slug), entry.episode.title, "article", entry)
            for entry in catalog.episodes
        ]
        for path, title, kind, entry in pages:
            _items, graph, twitter = extract(site, path)
            image = (entry and entry.episode.image) or catalog.show_document.image
            summary = entry.episode.summary if entry else catalog.show_document.description

            assert (graph["og:title"], graph["og:type"], graph["og:url"]) == (title, kind, site.url + path)
            assert graph["og:description"] == meta_description(summary)
            assert graph.get("og:image") == (str(image) if image else None), path
            assert twitter["twitter:card"] == "summary" and twitter["twitter:title"] == title
            assert twitter["twitter:description"] == meta_description(summary)
            assert twitter.get("twitter:image") == (str(image) if image else None), path
