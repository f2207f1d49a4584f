"""What a batch tells the world: its subscription feeds and its HTML pages, as URLs, read back from
the queue message as they were written."""

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
