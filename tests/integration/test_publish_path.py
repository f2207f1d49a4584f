"""The publish path end to end: uploads to the source bucket, S3 notifications through SQS, the render
handler that template.yaml names, and the site bucket, all over HTTP on 127.0.0.1."""

import json

from support.catalogs import episode_document, show_document
from support.events import notification
from support.paths import EXAMPLES

PYTORCH = sorted((EXAMPLES / "episodes" / "pytorch").glob("*.json"))
SEED = "backend-flexibility-revolution"


def publish_pytorch(stack) -> None:
    stack.upload("shows/pytorch.json", EXAMPLES / "shows" / "pytorch.json")
    for path in PYTORCH:
        stack.upload(f"episodes/pytorch/{path.name}", path)
    stack.deliver()


def catalog_of(stack, show: str) -> dict:
    return stack.catalog_index(show)


def test_uploads_become_exactly_the_site_a_from_scratch_render_builds(stack, tmp_path):
    publish_pytorch(stack)

    site = stack.site_objects()

    assert site == stack.from_scratch(tmp_path)
    assert site[f"pytorch/{SEED}/index.html"][1:] == ("text/html; charset=utf-8", "public, max-age=300, s-maxage=3600")
    assert site["pytorch/feed.xml"][1:] == ("application/rss+xml; charset=utf-8", "public, max-age=60, s-maxage=300")
    assert {"robots.txt", "sitemap.xml", "cover.png", "pytorch/sitemap.xml", "pytorch/2025/index.html"} <= site.keys()


def test_the_queue_path_skips_the_test_event_and_consumes_every_message(stack):
    stack.upload(f"episodes/pytorch/{SEED}.json", EXAMPLES / "episodes" / "pytorch" / f"{SEED}.json")

    delivery = stack.deliver()

    assert delivery.failed == [] and delivery.delivered >= 1
    assert (
        stack.sqs.get_queue_attributes(QueueUrl=stack.queue_url, AttributeNames=["All"])["Attributes"][
            "ApproximateNumberOfMessages"
        ]
        == "0"
    )
    assert f"pytorch/{SEED}/index.html" in stack.keys(stack.site)


def test_a_delete_unpublishes_the_episode_and_re_renders_its_neighbours(stack, tmp_path):
    publish_pytorch(stack)
    neighbour = "type-safety-revolution-and-infrastructure-cleanup"
    before = stack.read(stack.site, f"pytorch/{neighbour}/index.html")

    stack.remove(f"episodes/pytorch/{SEED}.json")
    stack.deliver()

    keys = stack.keys(stack.site)
    assert f"pytorch/{SEED}/index.html" not in keys and f"pytorch/{SEED}/transcript.txt" not in keys
    assert b"Backend Flexibility Revolution" in before
    assert b"Backend Flexibility Revolution" not in stack.read(stack.site, f"pytorch/{neighbour}/index.html")
    assert SEED.encode() not in stack.read(stack.site, "pytorch/feed.xml")
    assert stack.site_objects() == stack.from_scratch(tmp_path)


def test_unpublishing_every_episode_of_a_show_without_a_document_removes_the_show(stack, tmp_path):
    stack.upload("episodes/solo/only.json", json.dumps(episode_document("Only")))
    stack.deliver()
    assert "solo/feed.xml" in stack.keys(stack.site)

    stack.remove("episodes/solo/only.json")
    stack.deliver()

    # Its pages, its catalog and, with no show left to list, the site's own files are gone.
    assert stack.keys(stack.site) == set()
    assert stack.keys(stack.source, "catalog/") == set()


def test_a_show_document_re_renders_every_page_of_its_show(stack, tmp_path):
    publish_pytorch(stack)

    stack.upload("shows/pytorch.json", json.dumps(show_document("PyTorch Weekly", categories=["Technology"])))
    stack.deliver()

    for key in stack.keys(stack.site, "pytorch/"):
        if key.endswith(".html"):
            assert b"PyTorch Weekly" in stack.read(stack.site, key), key
    assert stack.site_objects() == stack.from_scratch(tmp_path)


def test_episodes_before_their_show_document_are_published_with_defaults_then_re_rendered(stack, tmp_path):
    stack.upload(f"episodes/pytorch/{SEED}.json", EXAMPLES / "episodes" / "pytorch" / f"{SEED}.json")
    stack.deliver()
    assert b"<h1>pytorch: Backend Flexibility Revolution</h1>" in stack.read(stack.site, f"pytorch/{SEED}/index.html")

    stack.upload("shows/pytorch.json", EXAMPLES / "shows" / "pytorch.json")
    stack.deliver()

    assert b"<h1>PyTorch: Backend Flexibility Revolution</h1>" in stack.read(stack.site, f"pytorch/{SEED}/index.html")
    assert stack.site_objects() == stack.from_scratch(tmp_path)


def test_a_redelivered_event_writes_nothing_but_takes_its_turn(stack, s3_calls):
    publish_pytorch(stack)
    key = f"episodes/pytorch/{SEED}.json"
    stack.upload(key, (EXAMPLES / key).read_bytes().replace(b"Backend Flexibility", b"Backend Flex"))
    stack.deliver()  # moto's own notification, which has no sequencer
    body = json.dumps(notification(key, "0067A1F0C3D2E1B4A9"))
    stack.sqs.send_message(QueueUrl=stack.queue_url, MessageBody=body)
    stack.deliver()
    catalog = catalog_of(stack, "pytorch")
    s3_calls.clear()

    # SQS delivers at least once: the same event again.
    stack.sqs.send_message(QueueUrl=stack.queue_url, MessageBody=body)
    delivery = stack.deliver()

    assert delivery.failed == []
    assert catalog_of(stack, "pytorch") == catalog
    assert s3_calls == [
        ("GetObject", key),
        ("PutObject", "locks/pytorch.json"),  # the show's lease: one publish of a show at a time
        ("GetObject", "catalog/pytorch.json"),
        ("GetObject", "pytorch/feed.xml"),  # nothing new: are the listings as current as the catalog?
        # and those that show the episode, which the feed need not: its year's page, the show's page
        # and its sitemap
        ("GetObject", "pytorch/2026/index.html"),
        ("GetObject", "pytorch/index.html"),
        ("GetObject", "pytorch/sitemap.xml"),
        ("GetObject", "sitemap.xml"),
        ("DeleteObjects", ""),  # the lease, released on the condition that it is still ours
    ]


def test_an_event_older_than_the_published_state_is_a_no_op(stack):
    key = f"episodes/pytorch/{SEED}.json"
    stack.upload(key, json.dumps(episode_document("Version one")))
    stack.discard_pending()
    stack.send(notification(key, "0030"))
    stack.deliver()

    # A newer upload exists, but the event that arrives now is an older one, delivered late.
    stack.upload(key, json.dumps(episode_document("Version two")))
    stack.discard_pending()
    stack.send(notification(key, "0020"))
    stack.deliver()
    assert b"Version one" in stack.read(stack.site, f"pytorch/{SEED}/index.html")

    # Its own, later event publishes it.
    stack.send(notification(key, "0040"))
    stack.deliver()
    assert b"Version two" in stack.read(stack.site, f"pytorch/{SEED}/index.html")


def test_a_late_put_after_its_delete_does_not_resurrect_the_episode(stack):
    key = "episodes/show/gone.json"
    stack.upload(key, json.dumps(episode_document("Gone soon")))
    stack.remove(key)
    stack.discard_pending()

    for event in (notification(key, "0050", removed=True), notification(key, "0040")):
        stack.send(event)
        stack.deliver()

    assert stack.keys(stack.site) == set()


def test_a_batch_folds_each_show_into_one_catalog_write_and_one_feed(stack, s3_calls):
    stack.discard_pending()  # S3's test event
    stack.upload("shows/pytorch.json", EXAMPLES / "shows" / "pytorch.json")
    for path in PYTORCH[:9]:
        stack.upload(f"episodes/pytorch/{path.name}", path)
    s3_calls.clear()

    delivery = stack.deliver(batch_size=10)

    puts = [key for operation, key in s3_calls if operation == "PutObject"]
    assert delivery.invocations == 1
    assert puts.count("catalog/pytorch.json") == 1
    assert puts.count("pytorch/feed.xml") == 1
    assert len(catalog_of(stack, "pytorch")["episodes"]) == 9


def test_bad_input_is_reported_beside_the_upload_consumed_and_the_rest_of_the_batch_published(stack):
    publish_pytorch(stack)
    before = stack.site_objects()
    stack.upload(
        "episodes/pytorch/broken.json", json.dumps(episode_document(published="2026-03-01T10:00:00", duration="PT0S"))
    )
    stack.upload("episodes/pytorch/fine.json", json.dumps(episode_document("Fine", "2026-03-02T10:00:00Z")))

    delivery = stack.deliver()

    report = json.loads(stack.read(stack.source, "errors/episodes/pytorch/broken.json.json"))
    assert delivery.failed == []
    assert report["key"] == "episodes/pytorch/broken.json"
    assert {problem["field"] for problem in report["problems"]} == {"published", "duration"}
    assert "pytorch/fine/index.html" in stack.keys(stack.site)
    assert "pytorch/broken/index.html" not in stack.keys(stack.site)
    assert before[f"pytorch/{SEED}/index.html"] == stack.site_objects()[f"pytorch/{SEED}/index.html"]


def test_a_bad_key_is_reported_and_a_fixed_upload_clears_its_report(stack):
    stack.upload("episodes/pytorch/Bad Name.json", json.dumps(episode_document()))
    stack.upload("episodes/pytorch/later.json", "{")
    stack.deliver()
    assert stack.keys(stack.source, "errors/") == {
        "errors/episodes/pytorch/Bad Name.json.json",
        "errors/episodes/pytorch/later.json.json",
    }

    stack.upload("episodes/pytorch/later.json", json.dumps(episode_document("Later")))
    stack.deliver()

    assert stack.keys(stack.source, "errors/") == {"errors/episodes/pytorch/Bad Name.json.json"}
    assert "pytorch/later/index.html" in stack.keys(stack.site)


def test_removing_a_rejected_upload_clears_its_report(stack):
    stack.upload("episodes/show/oops.json", "{")
    stack.deliver()
    assert stack.keys(stack.source, "errors/") == {"errors/episodes/show/oops.json.json"}

    stack.remove("episodes/show/oops.json")
    stack.deliver()

    assert stack.keys(stack.source, "errors/") == set()


def test_a_changed_guid_is_rejected_and_the_published_episode_kept(stack):
    stack.upload("episodes/show/one.json", json.dumps(episode_document("One", guid="original-guid")))
    stack.deliver()

    stack.upload("episodes/show/one.json", json.dumps(episode_document("One, again", guid="another-guid")))
    stack.deliver()

    report = json.loads(stack.read(stack.source, "errors/episodes/show/one.json.json"))
    assert [problem["field"] for problem in report["problems"]] == ["guid"]
    assert b"<h1>show: One</h1>" in stack.read(stack.site, "show/one/index.html")


def test_an_upload_removed_before_it_is_read_is_a_no_op(stack):
    stack.upload("episodes/show/fleeting.json", json.dumps(episode_document("Fleeting")))
    stack.s3.delete_object(Bucket=stack.source, Key="episodes/show/fleeting.json")

    delivery = stack.deliver()

    assert delivery.failed == []
    assert stack.keys(stack.site) == set() and stack.keys(stack.source, "catalog/") == set()


def test_a_message_that_is_not_a_notification_is_consumed_not_retried(stack):
    stack.sqs.send_message(QueueUrl=stack.queue_url, MessageBody="not a notification")

    assert stack.deliver().failed == []


def test_chapters_files_are_published_replaced_and_removed_with_their_episodes(stack, tmp_path):
    radio = EXAMPLES / "episodes" / "release-radio"
    stack.upload("shows/release-radio.json", EXAMPLES / "shows" / "release-radio.json")
    for path in sorted(radio.glob("*.json")):
        stack.upload(f"episodes/release-radio/{path.name}", path)
    stack.deliver()
    site = stack.site_objects()
    assert site == stack.from_scratch(tmp_path / "published")
    assert site["release-radio/compiler-caches-explained/chapters.json"][1] == "application/json+chapters"
    assert "release-radio/trailer/chapters.json" not in site  # it has no chapters

    document = json.loads((radio / "compiler-caches-explained.json").read_text())
    del document["chapters"]
    stack.upload("episodes/release-radio/compiler-caches-explained.json", json.dumps(document))
    stack.remove("episodes/release-radio/bonus-listener-questions.json")
    stack.deliver()

    keys = stack.keys(stack.site, "release-radio/")
    assert not {key for key in keys if key.endswith("chapters.json")}
    assert stack.site_objects() == stack.from_scratch(tmp_path / "changed")
