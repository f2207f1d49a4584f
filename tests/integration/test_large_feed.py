"""A feed larger than one upload part, on the publish path: the render function writes it to the local
S3 over HTTP as a multipart upload, a part at a time, and what it writes is the from-scratch render's
feed, which a podcast app reads whole."""

import json
from datetime import UTC, datetime, timedelta

import feedparser

from podpages.storage import streamed_upload
from support.catalogs import episode_document

MIB = 1024 * 1024
EPISODES = 30
WORDS = ("word " * 33).strip()


def heavy_episode(number: int) -> dict:
    """An episode whose feed item is about 250 KB: 500 chapters of long titles, in the item's chapters
    and in its notes."""
    published = datetime(2026, 1, 1, 9, tzinfo=UTC) + timedelta(days=number)
    return episode_document(
        f"Heavy {number}",
        published.strftime("%Y-%m-%dT%H:%M:%SZ"),
        duration="PT3H",
        chapters=[{"start": k * 20, "title": f"Chapter {k} of episode {number}: {WORDS}"} for k in range(500)],
    )


def test_a_feed_past_one_part_is_uploaded_in_parts_and_reads_as_the_from_scratch_feed(stack, tmp_path, monkeypatch):
    monkeypatch.setattr(streamed_upload, "PART_SIZE", 5 * MIB)  # the least S3 takes for a part but the last
    for number in range(EPISODES):
        stack.upload(f"episodes/heavy/heavy-{number:02d}.json", json.dumps(heavy_episode(number)))
    stack.deliver()

    stored = stack.s3.get_object(Bucket=stack.site, Key="heavy/feed.xml")
    body = stored["Body"].read()
    parts = int(stored["ETag"].strip('"').rpartition("-")[2])

    assert len(body) > 5 * MIB and parts == -(-len(body) // (5 * MIB))
    assert body == stack.from_scratch(tmp_path)["heavy/feed.xml"][0]
    parsed = feedparser.parse(body)
    assert not parsed.bozo and [entry.title for entry in parsed.entries][:2] == ["Heavy 29", "Heavy 28"]
    assert len(parsed.entries) == EPISODES
    assert stack.s3.list_multipart_uploads(Bucket=stack.site).get("Uploads", []) == []
