"""What a batch tells the world: its subscription feeds and its HTML pages, as URLs, read back from
the queue message as they were written."""

import pytest

from podpages.notify.notification import Notification, notification

SITE = "https://podcasts.example.com"


def test_the_changed_keys_give_the_feeds_and_pages_and_nothing_else():
    keys = {
        "radio/ep/index.html",
        "radio/index.html",
        "radio/2026/index.html",
        "radio/feed.xml",
        "radio/feed-archive-3.xml",  # an archive: nobody subscribes to it
        "radio/ep/transcript.vtt",
        "radio/sitemap.xml",
        "index.html",
    }

    found = notification(keys, SITE)

    assert found == Notification(
        feeds=(f"{SITE}/radio/feed.xml",),
        pages=(f"{SITE}/", f"{SITE}/radio/", f"{SITE}/radio/2026/", f"{SITE}/radio/ep/"),
    )
    assert Notification.from_json(found.to_json()) == found


def test_a_batch_that_changed_no_feed_or_page_tells_nothing():
    assert notification({"radio/ep/chapters.json", "sitemap.xml"}, SITE) is None
    assert notification(set(), SITE) is None


def test_two_batches_together_name_each_url_once():
    one = Notification((f"{SITE}/a/feed.xml",), (f"{SITE}/a/x/",))
    two = Notification((f"{SITE}/a/feed.xml", f"{SITE}/b/feed.xml"), (f"{SITE}/a/x/",))

    assert one | two == Notification((f"{SITE}/a/feed.xml", f"{SITE}/b/feed.xml"), (f"{SITE}/a/x/",))


def test_a_notification_reads_back_from_its_message():
    sent = Notification(("https://s.example/a/feed.xml",), ("https://s.example/a/", "https://s.example/a/e/"))

    assert Notification.from_json(sent.to_json()) == sent


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"feeds": "https://s.example/a/feed.xml", "pages": []}', "feeds"),
        ('{"feeds": [], "pages": ["/a/"]}', "pages"),
        ('{"feeds": []}', "pages"),
    ],
)
def test_a_message_that_is_no_notification_is_refused_naming_the_field(body, field):
    with pytest.raises(ValueError, match=f"^{field}: "):
        Notification.from_json(body)


def test_a_notification_too_large_for_one_message_goes_in_parts_feeds_first():
    feeds = tuple(f"https://s.example/{show}/feed.xml" for show in ("a", "b"))
    pages = tuple(f"https://s.example/a/e{number}/" for number in range(5))

    parts = Notification(feeds, pages).parts(3)

    assert [(len(part.feeds), len(part.pages)) for part in parts] == [(2, 1), (0, 3), (0, 1)]
    assert [url for part in parts for url in (*part.feeds, *part.pages)] == [*feeds, *pages]
