"""Streamed objects, against moto's in-process S3: a small one is one PutObject, as before; a large one
a multipart upload that holds a part at a time; a failed one leaves neither an object nor parts."""

import hashlib
import threading
import time

import pytest

from podpages.render.site_objects import SiteObject, StreamedObject
from podpages.storage import streamed_upload
from podpages.storage.site_bucket import STREAMS_AT_ONCE, SiteBucket
from podpages.storage.streamed_upload import PART_SIZE, sized_parts

MIB = 1024 * 1024


def streamed(key: str, pieces: list[bytes]) -> StreamedObject:
    return StreamedObject(key, lambda: iter(pieces), "application/rss+xml; charset=utf-8", "public, max-age=60")


def test_parts_are_cut_to_size_and_keep_every_byte():
    pieces = [b"a" * 3, b"b" * 5, b"", b"c" * 9]

    assert list(sized_parts(pieces, size=4)) == [b"aaab", b"bbbb", b"cccc", b"cccc", b"c"]
    assert list(sized_parts([b"abcd", b"efgh"], size=4)) == [b"abcd", b"efgh"]
    assert list(sized_parts([], size=4)) == [b""]


def test_a_small_streamed_object_is_one_put_with_its_headers(s3):
    calls = []
    s3.meta.events.register("before-call.s3", lambda model, **_: calls.append(model.name))
    item = streamed("s/feed.xml", [b"<rss>", b"<item/>" * 3, b"</rss>"])

    SiteBucket(s3, "site-bucket").apply([item], [])

    assert calls == ["PutObject"]
    stored = s3.get_object(Bucket="site-bucket", Key="s/feed.xml")
    assert stored["Body"].read() == item.body
    assert (stored["ContentType"], stored["CacheControl"]) == (item.content_type, item.cache_control)


def test_a_large_streamed_object_is_uploaded_in_parts_of_the_part_size(s3):
    pieces = [bytes([number]) * MIB for number in range(PART_SIZE // MIB * 2 + 3)]  # two full parts and 3 MiB
    item = streamed("s/feed.xml", pieces)

    SiteBucket(s3, "site-bucket").apply([item], [])

    stored = s3.get_object(Bucket="site-bucket", Key="s/feed.xml")
    assert stored["ETag"].endswith('-3"')  # a multipart upload of three parts
    assert hashlib.sha256(stored["Body"].read()).hexdigest() == hashlib.sha256(b"".join(pieces)).hexdigest()
    assert (stored["ContentType"], stored["CacheControl"]) == (item.content_type, item.cache_control)


def test_a_streamed_object_that_fails_midway_leaves_no_object_and_no_parts(s3):
    def parts():
        yield b"x" * (PART_SIZE + MIB)
        yield b"y" * PART_SIZE
        raise RuntimeError("the renderer failed")

    item = StreamedObject("s/feed.xml", parts, "application/rss+xml", "public")

    with pytest.raises(RuntimeError, match="the renderer failed"):
        SiteBucket(s3, "site-bucket").put(item)

    assert s3.list_objects_v2(Bucket="site-bucket")["KeyCount"] == 0
    assert s3.list_multipart_uploads(Bucket="site-bucket").get("Uploads", []) == []


def test_an_objects_digest_is_read_in_pieces_and_none_when_it_is_missing(s3, monkeypatch):
    monkeypatch.setattr("podpages.storage.site_bucket.READ_CHUNK", 7)
    body = b"<rss>" + b"<item>episode</item>" * 20 + b"</rss>"
    s3.put_object(Bucket="site-bucket", Key="s/feed.xml", Body=body)
    site = SiteBucket(s3, "site-bucket")

    assert site.sha256("s/feed.xml") == hashlib.sha256(body).hexdigest() == streamed_upload.sha256([body[:3], body[3:]])
    assert site.sha256("s/gone.xml") is None


def test_a_streamed_object_written_conditionally_is_written_whole_under_its_condition(s3):
    site = SiteBucket(s3, "site-bucket")
    item = streamed("s/feed.xml", [b"<rss>", b"</rss>"])

    site.put(item, IfNoneMatch="*")

    assert s3.get_object(Bucket="site-bucket", Key="s/feed.xml")["Body"].read() == b"<rss></rss>"


def test_streamed_objects_are_written_a_few_at_a_time_beside_the_others(s3):
    writing, most = 0, 0
    lock = threading.Lock()

    def parts():
        nonlocal writing, most
        with lock:
            writing += 1
            most = max(most, writing)
        time.sleep(0.05)
        yield b"<rss></rss>"
        with lock:
            writing -= 1

    feeds = [StreamedObject(f"s{number}/feed.xml", parts, "application/rss+xml", "public") for number in range(10)]
    page = SiteObject("s/e/index.html", b"<!doctype html>", "text/html; charset=utf-8", "public")

    SiteBucket(s3, "site-bucket").apply([*feeds, page], [])

    assert most == STREAMS_AT_ONCE == 4
    assert s3.list_objects_v2(Bucket="site-bucket")["KeyCount"] == 11
