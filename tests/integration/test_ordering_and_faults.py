"""Event order under pressure: any delivery order, duplicates (of episodes, shows and companion
transcripts), a lost commit race and a failing show in a batch all end with the site a from-scratch
render of the final uploads would build."""

import dataclasses
import json
import random
from contextlib import nullcontext

import boto3
import pytest
from botocore.exceptions import ClientError

from podpages.catalog import sitemap_parts
from podpages.catalog.model import Catalog
from podpages.cli.source_folder import read_source_folder
from podpages.publish.publisher import Publisher
from podpages.publish.upload_events import upload_events
from podpages.rebuild.request import RebuildRequest
from podpages.storage.site_bucket import SiteBucket
from podpages.storage.source_bucket import SourceBucket
from support.catalogs import episode_document, show_document
from support.events import notification
from support.lambda_context import LambdaContext


def catalogs_in_bucket(stack) -> dict[str, Catalog]:
    return stack.catalogs()


def deliver_while_puts_fail(stack, render_function, fail):
    """Deliver the queue with `fail(params)` hooked before every PutObject the handler sends."""
    events = render_function.s3.meta.events
    events.register("before-parameter-build.s3.PutObject", fail, unique_id="fail-puts")
    try:
        return stack.deliver()
    finally:
        events.unregister("before-parameter-build.s3.PutObject", unique_id="fail-puts")


def deliver_losing_the_first_put_of(stack, render_function, key: str):
    """Deliver the queue with the handler's first PutObject of `key` failing."""
    failed = []

    def lose_it(params, **_):
        if params.get("Key") == key and not failed:
            failed.append(True)
            raise ClientError({"Error": {"Code": "InternalError", "Message": "injected"}}, "PutObject")

    delivery = deliver_while_puts_fail(stack, render_function, lose_it)
    assert failed, f"no PutObject of {key}"
    return delivery


def content(catalog: Catalog):
    return (
        catalog.document,
        [entry.content() for entry in catalog.episodes],
        [companion.content() for companion in catalog.companions],
    )


@pytest.mark.parametrize(
    ("seed", "episodes", "feed_max_items"),
    [(7, 8, 1000), (2026, 8, 1000), (11, 40, 2)],
    ids=["seed 7", "seed 2026", "seed 11, frozen pages of 2"],
)
def test_any_delivery_order_with_duplicates_converges_to_the_from_scratch_site(
    stack, render_function, monkeypatch, tmp_path, seed, episodes, feed_max_items
):
    settings = dataclasses.replace(stack.settings, feed_max_items=feed_max_items)
    monkeypatch.setattr(stack, "settings", settings)
    monkeypatch.setattr(render_function.publisher, "settings", settings)
    rng = random.Random(seed)
    print(f"delivery order seed: {seed}")
    stack.discard_pending()
    events = []
    sequencer = 0x1000
    slugs = [f"ep-{n}" for n in range(episodes)]
    for step in range(60 if episodes < 20 else 250):
        sequencer += rng.randint(1, 40)
        show = rng.choice(["alpha", "beta", "gamma"])
        roll = rng.random()
        if roll < 0.1:
            key = f"shows/{show}.json"
            stack.upload(key, json.dumps(show_document(f"Show {show} v{step}")))
            events.append(notification(key, f"{sequencer:X}"))
        elif roll < 0.25:
            key = f"episodes/{show}/{rng.choice(slugs)}.json"
            stack.remove(key)
            events.append(notification(key, f"{sequencer:X}", removed=True))
        elif roll < 0.4:  # a companion transcript, put or taken back
            key = f"episodes/{show}/{rng.choice(slugs)}.{rng.choice(['vtt', 'srt'])}"
            removed = rng.random() < 0.3
            if removed:
                stack.remove(key)
            else:
                stack.upload(key, companion(key, step))
            events.append(notification(key, f"{sequencer:X}", removed=removed))
        else:
            key = f"episodes/{show}/{rng.choice(slugs)}.json"
            published = f"2026-0{rng.randint(1, 3)}-{rng.randint(10, 12)}T10:00:00Z"  # ties on purpose
            document = episode_document(f"{key} v{step}", published, transcript=f"Said at step {step}.\n\nThe end.")
            stack.upload(key, json.dumps(document))
            events.append(notification(key, f"{sequencer:X}"))
    stack.discard_pending()  # moto's own notifications carry no sequencer; deliver ours instead
    deliveries = events + rng.sample(events, len(events) // 4)
    rng.shuffle(deliveries)
    for event in deliveries:
        stack.send(event)

    delivery = stack.deliver(batch_size=rng.choice([3, 10]))

    assert delivery.failed == []
    assert stack.site_objects() == stack.from_scratch(tmp_path)
    if feed_max_items < 20:  # the catalogs were cut into frozen pages, not only read whole
        assert any("/page-" in key for key in stack.keys(stack.source, "catalog/"))
    expected = read_source_folder(tmp_path, stack.settings).catalogs
    actual = catalogs_in_bucket(stack)
    assert {show: content(catalog) for show, catalog in actual.items()} == {
        show: content(catalog) for show, catalog in expected.items() if not catalog.keeps_nothing
    }


def companion(key: str, step: int) -> str:
    """A companion transcript that says when it was written, in the format its key names."""
    if key.endswith(".vtt"):
        return f"WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n<v Host {step}>Written at step {step}.\n"
    return f"1\n00:00:01,000 --> 00:00:03,000\nWritten at step {step}.\n"


def test_a_lost_commit_race_folds_again_and_loses_neither_publish(stack, tmp_path, render_function, local_aws):
    for day in range(1, 21):
        stack.upload(
            f"episodes/daily/e{day:02d}.json", json.dumps(episode_document(f"E{day}", f"2026-01-{day:02d}T09:00:00Z"))
        )
    stack.deliver()
    # Theirs lands between ours and e14, pushing ours out of e14's nearby list: a page our first
    # round wrote that the second round's changes alone would not rewrite.
    stack.upload("episodes/daily/ours.json", json.dumps(episode_document("Ours", "2026-01-10T12:00:00Z")))
    stack.upload("episodes/daily/theirs.json", json.dumps(episode_document("Theirs", "2026-01-11T12:00:00Z")))
    stack.discard_pending()
    theirs = boto3.client("s3", endpoint_url=local_aws.endpoint, region_name="us-east-1")
    # Leases make publishes of one show take turns; this rival acts as if ours had expired under us.
    rival = Publisher(
        SourceBucket(theirs, stack.source),
        SiteBucket(theirs, stack.site),
        stack.settings,
        lease=lambda *_, **__: nullcontext(),
    )
    raced = []

    # The rival reads, writes and commits just after we read the catalog, so our first round of
    # pages lands on top of its pages, and our commit then loses.
    def note_key(params, context, **_):
        context["test-key"] = params.get("Key")

    def rival_commits_first(context, **_):
        if context.get("test-key") == "catalog/daily.json" and not raced:
            raced.append(True)
            (event,) = upload_events(notification("episodes/daily/theirs.json", None))
            rival.publish([rival.read(event)])

    events = render_function.s3.meta.events
    events.register("before-parameter-build.s3.GetObject", note_key, unique_id="note-key")
    events.register("after-call.s3.GetObject", rival_commits_first, unique_id="rival")
    try:
        stack.send(notification("episodes/daily/ours.json", None))
        delivery = stack.deliver()
    finally:
        events.unregister("before-parameter-build.s3.GetObject", unique_id="note-key")
        events.unregister("after-call.s3.GetObject", unique_id="rival")

    assert raced and delivery.failed == []
    titles = [entry.episode.title for entry in catalogs_in_bucket(stack)["daily"].episodes]
    assert "Ours" in titles and "Theirs" in titles
    assert stack.site_objects() == stack.from_scratch(tmp_path)


@pytest.mark.parametrize(
    ("key", "body"),
    [
        ("episodes/daily/gone.json", json.dumps(episode_document("Gone", "2026-01-05T09:00:00Z"))),
        ("episodes/daily/e01.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nGone too.\n"),
        ("shows/daily.json", json.dumps(show_document("Gone as well"))),
    ],
)
def test_an_upload_read_before_its_delete_was_published_is_not_published_after_it(
    stack, tmp_path, render_function, key, body
):
    # Given a show, and an upload that an invocation reads and then holds, waiting for the show's lease
    stack.upload("episodes/daily/e01.json", json.dumps(episode_document("E1", "2026-01-01T09:00:00Z")))
    stack.deliver()
    stack.upload(key, body)
    stack.discard_pending()
    publisher = render_function.publisher
    (put,) = upload_events(notification(key, "00000000000000A0"))
    held = publisher.read(put)
    assert held is not None

    # When the upload is deleted, and another invocation publishes its delete first, finding nothing
    # to remove, and then the first publishes what it read
    stack.remove(key)
    stack.discard_pending()
    (removed,) = upload_events(notification(key, "00000000000000B0", removed=True))
    publisher.publish([publisher.read(removed)])
    publisher.publish([held])

    # Then nothing of the deleted upload is published
    assert not stack.catalogs()["daily"].holds(held.change.source)
    assert stack.site_objects() == stack.from_scratch(tmp_path)


@pytest.mark.parametrize(
    ("key", "body", "lost", "ahead", "then"),
    [
        (
            "episodes/daily/gone.json",
            json.dumps(episode_document("Gone", "2026-01-05T09:00:00Z", transcript="Said, then unsaid.")),
            "daily/gone/transcript.txt",  # written after the pages (`Publisher.page_plans`)
            "daily/gone/index.html",
            "deleted",
        ),
        (
            "episodes/daily/e01.vtt",
            "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nSaid, then unsaid.\n",
            "daily/e01/transcript/index.html",
            "daily/e01/transcript.vtt",
            "deleted",
        ),
        (
            "episodes/daily/e01.json",
            json.dumps(episode_document("E1, renamed", "2026-01-01T09:00:00Z", transcript="Take two.")),
            "daily/e01/transcript.txt",
            "daily/e01/index.html",
            "put back as it was",
        ),
    ],
    ids=["a new episode, deleted", "a companion transcript, deleted", "an edit, put back as it was"],
)
def test_files_a_failed_publish_wrote_ahead_of_its_commit_are_set_right_by_the_next_publish(
    stack, tmp_path, render_function, key, body, lost, ahead, then
):
    # Given a show of two episodes, each with a transcript
    first = json.dumps(episode_document("E1", "2026-01-01T09:00:00Z", transcript="Take one."))
    stack.upload("episodes/daily/e01.json", first)
    stack.upload("episodes/daily/e02.json", json.dumps(episode_document("E2", "2026-01-03T09:00:00Z")))
    stack.deliver()

    # When a publish writes some of an upload's files and fails before its commit
    stack.upload(key, body)
    failed = deliver_losing_the_first_put_of(stack, render_function, lost)
    assert len(failed.failed) == 1
    assert ahead in stack.keys(stack.site)  # written ahead of the catalog
    lease = json.loads(stack.read(stack.source, "locks/daily.json"))
    episode = key.rsplit("/", 1)[1].split(".")[0]
    assert lease["expires"] == 0 and episode in {slug for slug, _time in lease["ahead"]}  # handed over, with its record

    # and the upload is then deleted, or put back as it was, before its redelivery
    if then == "deleted":
        stack.remove(key)
    else:
        stack.upload(key, first)
    stack.deliver()

    # Then the site is what the final uploads make of it, and the lease is released
    assert stack.site_objects() == stack.from_scratch(tmp_path)
    assert stack.keys(stack.source, "locks/") == set()


def test_the_pages_of_a_failed_show_document_are_set_right_every_one(stack, tmp_path, render_function):
    for number in range(1, 4):
        stack.upload(f"episodes/daily/e0{number}.json", json.dumps(episode_document(f"E{number}")))
    stack.deliver()

    # A new show document renders every page; the first fails, the others are written
    stack.upload("shows/daily.json", json.dumps(show_document("Renamed")))
    assert len(deliver_losing_the_first_put_of(stack, render_function, "daily/e01/index.html").failed) == 1
    assert b"Renamed" in stack.read(stack.site, "daily/e02/index.html")
    assert json.loads(stack.read(stack.source, "locks/daily.json"))["ahead_every"] is True

    stack.remove("shows/daily.json")
    stack.deliver()

    assert stack.site_objects() == stack.from_scratch(tmp_path)


def test_a_rebuild_that_takes_the_lease_over_sets_right_what_it_records_as_ahead(stack, tmp_path, render_function):
    for slug in ["e01", "e02"]:
        stack.upload(f"episodes/daily/{slug}.json", json.dumps(episode_document(slug.upper(), transcript="Said.")))
    stack.deliver()
    # A publish wrote e01's files from a catalog it never committed, and failed
    stack.s3.put_object(Bucket=stack.site, Key="daily/e01/index.html", Body=b"ahead of the catalog")
    stack.s3.put_object(Bucket=stack.site, Key="daily/e01/transcript.vtt", Body=b"WEBVTT\n")
    handed = {"holder": "failed", "expires": 0, "ahead": [["e01", None]]}
    stack.s3.put_object(Bucket=stack.source, Key="locks/daily.json", Body=json.dumps(handed).encode())

    render_function.publisher.rebuild(RebuildRequest(show="daily", episodes=("e02",)))

    assert stack.site_objects() == stack.from_scratch(tmp_path)
    assert stack.keys(stack.source, "locks/") == set()


def test_two_shows_appearing_at_once_both_reach_the_sitemap_index(stack, render_function, local_aws):
    stack.upload("episodes/first/one.json", json.dumps(episode_document("First")))
    stack.upload("episodes/second/one.json", json.dumps(episode_document("Second")))
    stack.discard_pending()
    theirs = boto3.client("s3", endpoint_url=local_aws.endpoint, region_name="us-east-1")
    rival = Publisher(SourceBucket(theirs, stack.source), SiteBucket(theirs, stack.site), stack.settings)
    raced = []

    # The rival publishes the second show after we list the catalogs and before we write the index.
    def rival_publishes_meanwhile(**_):
        if not raced:
            raced.append(True)
            (event,) = upload_events(notification("episodes/second/one.json", None))
            rival.publish([rival.read(event)])

    events = render_function.s3.meta.events
    events.register("after-call.s3.ListObjectsV2", rival_publishes_meanwhile, unique_id="rival")
    try:
        stack.send(notification("episodes/first/one.json", None))
        stack.deliver()
    finally:
        events.unregister("after-call.s3.ListObjectsV2", unique_id="rival")

    index = stack.read(stack.site, "sitemap.xml")
    assert raced
    assert b"/first/sitemap.xml" in index and b"/second/sitemap.xml" in index


def test_a_show_that_fails_returns_only_its_messages_and_redelivery_completes_it(stack, tmp_path, render_function):
    stack.discard_pending()
    stack.upload("episodes/healthy/one.json", json.dumps(episode_document("Healthy")))
    stack.upload("episodes/flaky/one.json", json.dumps(episode_document("Flaky")))

    def throttle_flaky(params, **_):
        if params.get("Key", "").startswith("flaky/"):
            raise ClientError(
                {"Error": {"Code": "SlowDown", "Message": "Please reduce your request rate."}}, "PutObject"
            )

    first = deliver_while_puts_fail(stack, render_function, throttle_flaky)

    assert len(first.failed) == 1 and first.delivered == 1
    assert "healthy/one/index.html" in stack.keys(stack.site)
    assert "catalog/flaky.json" not in stack.keys(stack.source, "catalog/")  # nothing committed for it

    second = stack.deliver()

    assert second.failed == [] and second.delivered == 1
    assert stack.site_objects() == stack.from_scratch(tmp_path)


def test_a_direct_s3_event_raises_on_a_transient_failure_so_lambda_retries(stack, render_function):
    stack.upload("episodes/flaky/one.json", json.dumps(episode_document("Flaky")))

    def unavailable(params, **_):
        raise ClientError({"Error": {"Code": "ServiceUnavailable", "Message": "try again"}}, "PutObject")

    events = render_function.s3.meta.events
    events.register("before-parameter-build.s3.PutObject", unavailable, unique_id="unavailable")
    try:
        with pytest.raises(ClientError):
            render_function.lambda_handler(
                notification("episodes/flaky/one.json", None, bucket=stack.source), LambdaContext()
            )
    finally:
        events.unregister("before-parameter-build.s3.PutObject", unique_id="unavailable")
    assert stack.keys(stack.source, "catalog/") == set()


def test_listings_lost_after_the_commit_are_written_again_by_the_redelivery(stack, tmp_path, render_function):
    stack.upload("episodes/daily/first.json", json.dumps(episode_document("First", "2026-01-01T09:00:00Z")))
    stack.deliver()
    stack.upload("episodes/daily/second.json", json.dumps(episode_document("Second", "2026-01-02T09:00:00Z")))

    # The catalog commits, then the feed's write fails for good: the listings lag the catalog.
    first = deliver_losing_the_first_put_of(stack, render_function, "daily/feed.xml")
    assert len(first.failed) == 1
    assert b"Second" in stack.read(stack.source, "catalog/daily.json")
    assert b"Second" not in stack.read(stack.site, "daily/feed.xml")  # never a feed ahead of the catalog

    second = stack.deliver()  # the same message again: its fold is a no-op

    assert second.failed == []
    assert b"Second" in stack.read(stack.site, "daily/feed.xml")
    assert stack.site_objects() == stack.from_scratch(tmp_path)


def test_a_sitemap_index_lost_after_the_commit_is_written_again_by_the_redelivery(
    stack, tmp_path, render_function, monkeypatch
):
    # Given parts of 5 URLs, and a show of 3 episodes in one part, with its page and its year's
    monkeypatch.setattr(sitemap_parts, "MAX_SITEMAP_URLS", 5)
    publish_days(stack, range(1, 4))
    assert b"/daily/sitemap-2.xml" not in stack.read(stack.site, "sitemap.xml")
    stack.upload("episodes/daily/day-4.json", json.dumps(episode_document("Day 4", "2026-01-04T09:00:00Z")))

    # When the publish that takes a second part commits, and then its write of the sitemap index
    # fails, the redelivery, which folds nothing, writes it
    lose_after_the_commit_then_redeliver(stack, render_function, "sitemap.xml", b"/daily/sitemap-2.xml", tmp_path)


def test_listings_lost_after_the_commit_of_an_edit_the_feed_does_not_show_are_written_again(
    stack, tmp_path, render_function, monkeypatch
):
    # Given a feed of 2, and 8 episodes: the 1st is in an archive document, not in the feed
    settings = dataclasses.replace(stack.settings, feed_max_items=2)
    monkeypatch.setattr(stack, "settings", settings)
    monkeypatch.setattr(render_function.publisher, "settings", settings)
    publish_days(stack, range(1, 9))
    stack.upload("episodes/daily/day-1.json", json.dumps(episode_document("Retitled", "2026-01-01T09:00:00Z")))

    # When its edit commits, and then the write of its year's archive page fails, the redelivery,
    # which folds nothing, and whose feed is as the catalog's, writes it
    lose_after_the_commit_then_redeliver(stack, render_function, "daily/2026/index.html", b"Retitled", tmp_path)


def test_a_publish_that_fails_after_the_commit_of_an_edit_of_a_frozen_page_leaves_the_nearby_index_with_the_catalog(
    stack, tmp_path, render_function, monkeypatch
):
    # Given a feed of 2, and 26 episodes: the 1st is in the first of two frozen pages of 2
    settings = dataclasses.replace(stack.settings, feed_max_items=2)
    monkeypatch.setattr(stack, "settings", settings)
    monkeypatch.setattr(render_function.publisher, "settings", settings)
    for day in range(1, 27):
        document = episode_document(f"Day {day}", f"2026-01-{day:02d}T09:00:00Z")
        stack.upload(f"episodes/daily/day-{day}.json", json.dumps(document))
    stack.deliver()
    named_before = nearby_parts_named(stack)
    assert len(named_before) == 2
    stack.upload("episodes/daily/day-1.json", json.dumps(episode_document("Retitled", "2026-01-01T09:00:00Z")))

    # When its edit commits, with the first page's new object, its nearby part at its head, and then
    # the write of its year's archive page fails
    first = deliver_losing_the_first_put_of(stack, render_function, "daily/2026/index.html")
    assert len(first.failed) == 1

    # Then the nearby index, the catalog index's first line, names the new page, and the old one is gone
    named = nearby_parts_named(stack)
    assert len(named - named_before) == 1 and nearby_parts_stored(stack) == named
    assert b"Retitled" in stack.read(stack.source, next(iter(named - named_before)))
    # And the redelivery, which folds nothing, writes the listings, and changes none of them
    second = stack.deliver()
    assert second.failed == [] and nearby_parts_named(stack) == named
    assert stack.site_objects() == stack.from_scratch(tmp_path)


def nearby_parts_named(stack) -> set[str]:
    """The keys of the frozen pages' objects whose heads the show's nearby index (its catalog index's
    first line) names as their parts."""
    index = stack.catalog_index("daily")["nearby"]
    return {
        f"catalog/daily/page-{number}-{page}.json" for number, (_h, _part, page, _head) in enumerate(index["pages"], 1)
    }


def nearby_parts_stored(stack) -> set[str]:
    """The frozen pages' objects stored, each with its nearby part at its head; and no part apart."""
    keys = stack.keys(stack.source, "catalog/daily/")
    assert not [key for key in keys if "/nearby-" in key]
    return {key for key in keys if "/page-" in key}


def publish_days(stack, days: range) -> None:
    """Episodes `day-<n>`, on the nth of January 2026, in one delivery."""
    for day in days:
        document = episode_document(f"Day {day}", f"2026-01-0{day}T09:00:00Z")
        stack.upload(f"episodes/daily/day-{day}.json", json.dumps(document))
    stack.deliver()


def lose_after_the_commit_then_redeliver(stack, render_function, key: str, shows: bytes, folder) -> None:
    """Deliver with the first write of site object `key` lost after the commit, so that it does not
    show `shows`; then the redelivery, which folds nothing, writes it, and the site is the from-scratch
    render."""
    first = deliver_losing_the_first_put_of(stack, render_function, key)
    assert len(first.failed) == 1
    assert shows not in stack.read(stack.site, key)
    second = stack.deliver()
    assert second.failed == []
    assert shows in stack.read(stack.site, key)
    assert stack.site_objects() == stack.from_scratch(folder)
