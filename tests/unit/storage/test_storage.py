"""The S3 adapter, against moto's in-process S3: conditional catalog commits, uploads that vanish, error reports."""

import threading
import time

import pytest

from podpages.catalog.model import Catalog
from podpages.contract.source_keys import MAX_DOCUMENT_BYTES
from podpages.errors import CatalogConflict, Problem
from podpages.render.site_objects import SiteObject
from podpages.storage import source_bucket
from podpages.storage.error_reports import ErrorReport, error_report_key
from podpages.storage.s3 import Unchanged
from podpages.storage.site_bucket import DeleteFailed, SiteBucket
from podpages.storage.source_bucket import PAGES_AHEAD
from support.catalogs import daily_catalog, stored


def test_a_missing_upload_reads_as_none(source):
    assert source.read_upload("episodes/s/gone.json") is None


def test_an_empty_upload_reads_as_no_bytes(s3, source):
    s3.put_object(Bucket="source-bucket", Key="episodes/s/empty.json", Body=b"")

    assert source.read_upload("episodes/s/empty.json") == b""


def test_an_upload_is_read_up_to_one_byte_past_the_limit(s3, source):
    s3.put_object(Bucket="source-bucket", Key="episodes/s/big.json", Body=b"x" * (MAX_DOCUMENT_BYTES + 500))

    assert len(source.read_upload("episodes/s/big.json")) == MAX_DOCUMENT_BYTES + 1


def test_uploads_present_are_those_of_the_keys_asked_that_the_bucket_holds_now(s3, source):
    for key in ("episodes/s/here.json", "episodes/s/here.vtt", "shows/s.json"):
        s3.put_object(Bucket="source-bucket", Key=key, Body=b"{}")
    s3.delete_object(Bucket="source-bucket", Key="shows/s.json")

    asked = ["episodes/s/here.json", "episodes/s/here.vtt", "episodes/s/gone.json", "shows/s.json"]
    assert source.uploads_present(asked) == {"episodes/s/here.json", "episodes/s/here.vtt"}
    assert source.uploads_present([]) == set()


def stored_catalog(source, show: str = "daily") -> tuple[Catalog | None, str | None]:
    stored = source.read_catalog(show)
    return (Catalog.model_validate_json(stored.body), stored.etag) if stored else (None, None)


def test_a_new_catalog_is_created_once_and_then_only_from_its_last_read(source):
    assert source.read_catalog("daily") is None

    source.write_catalog(*stored(daily_catalog(1)), None)
    with pytest.raises(CatalogConflict):
        source.write_catalog(*stored(daily_catalog(2)), None)  # someone else created it meanwhile

    catalog, etag = stored_catalog(source)
    assert catalog == daily_catalog(1)
    source.write_catalog(*stored(daily_catalog(2)), etag)
    with pytest.raises(CatalogConflict):
        source.write_catalog(*stored(daily_catalog(3)), etag)  # stale: the write above moved it on
    assert stored_catalog(source)[0] == daily_catalog(2)


def test_an_empty_catalog_is_deleted_conditionally(source):
    source.write_catalog(*stored(daily_catalog(1)), None)
    _catalog, etag = stored_catalog(source)

    with pytest.raises(CatalogConflict):
        source.write_catalog(*stored(Catalog(show="daily")), '"not-the-etag"')
    source.write_catalog(*stored(Catalog(show="daily")), etag)

    assert source.read_catalog("daily") is None
    assert source.list_shows() == set()


def test_a_catalog_read_against_the_copy_held_is_sent_only_when_it_changed(source):
    source.write_catalog(*stored(daily_catalog(1)), None)
    _catalog, held = stored_catalog(source)

    with pytest.raises(Unchanged):
        source.read_catalog("daily", held_etag=held)
    source.write_catalog(*stored(daily_catalog(2)), held)
    changed = source.read_catalog("daily", held_etag=held)

    assert changed.etag != held and Catalog.model_validate_json(changed.body) == daily_catalog(2)


def test_catalog_pages_are_read_in_order_and_no_further_ahead_than_the_reader(s3, source):
    names = [f"page-{number}-digest.json" for number in range(1, 3 * PAGES_AHEAD + 1)]
    for name in names:
        s3.put_object(Bucket="source-bucket", Key=f"catalog/daily/{name}", Body=name.encode())
    reads, lock = [], threading.Lock()

    def count(**_):
        with lock:
            reads.append(1)

    s3.meta.events.register("before-call.s3.GetObject", count)

    pages = source.read_catalog_pages("daily", [*names, "page-0-gone.json"])
    first = next(pages)
    time.sleep(0.2)  # time enough to read them all, were the reads not held back
    read_ahead = len(reads)
    rest = list(pages)

    assert first == (names[0], names[0].encode()) and read_ahead == PAGES_AHEAD + 1
    assert rest == [*((name, name.encode()) for name in names[1:]), ("page-0-gone.json", None)]


def test_the_shows_are_those_with_catalogs_and_not_their_nearby_indexes(source, s3):
    for show in ("b-show", "a-show"):
        source.write_catalog(*stored(daily_catalog(1, show=show)), None)
        # A nearby index as an object of its own, as podpages stored it before layout 8
        s3.put_object(Bucket="source-bucket", Key=f"catalog/{show}.nearby.json", Body=b"{}")

    assert source.list_shows() == {"a-show", "b-show"}


def test_error_reports_sit_beside_the_upload_and_are_cleared_together(s3, source):
    bad = ErrorReport("episodes/s/bad.json", "2026-01-28T11:05:41Z", (Problem("title", "must not be blank"),))
    source.write_error_report(bad)
    source.write_error_report(ErrorReport("shows/s.json", None, ()))

    assert s3.get_object(Bucket="source-bucket", Key="errors/episodes/s/bad.json.json")["ContentType"].startswith(
        "application/json"
    )
    assert source.read_error_report("episodes/s/bad.json") == bad
    assert source.read_error_report("episodes/s/never-reported.json") is None
    count, newest = source.newest_error_reports(1)
    assert (count, len(newest)) == (2, 1)
    source.delete_error_reports(["episodes/s/bad.json", "shows/s.json", "episodes/s/never-reported.json"])
    assert s3.list_objects_v2(Bucket="source-bucket", Prefix="errors/")["KeyCount"] == 0


def test_an_upload_key_at_s3_s_limit_still_gets_a_report_key_within_it():
    longest = "episodes/" + "é" * ((1024 - len("episodes/") - len(".json")) // 2) + ".json"
    other = longest.replace("é", "e", 1)

    report = error_report_key(longest)

    assert len(longest.encode()) <= 1024 and len(report.encode()) <= 1024
    assert report.startswith("errors/episodes/éé") and report.endswith(".json")
    assert report == error_report_key(longest) != error_report_key(other)
    assert error_report_key("episodes/s/bad.json") == "errors/episodes/s/bad.json.json"


def test_site_objects_carry_their_headers(s3):
    site = SiteBucket(s3, "site-bucket")
    page = SiteObject("s/e/index.html", b"<!doctype html>", "text/html; charset=utf-8", "public, max-age=300")

    site.apply([page], [])
    stored = s3.get_object(Bucket="site-bucket", Key="s/e/index.html")
    site.apply([], ["s/e/index.html", "never/there.html"])

    assert (stored["ContentType"], stored["CacheControl"], stored["Body"].read()) == (
        page.content_type,
        page.cache_control,
        page.body,
    )
    assert s3.list_objects_v2(Bucket="site-bucket")["KeyCount"] == 0


def test_a_publish_deletes_the_site_s_objects_in_one_request_and_fails_on_any_s3_could_not_delete(s3):
    site = SiteBucket(s3, "site-bucket")
    pages = [SiteObject(f"s/e/{name}", b"x", "text/plain", "no-cache") for name in ("index.html", "chapters.json")]
    site.apply(pages, [])
    sent = []
    s3.meta.events.register("before-call.s3", lambda model, **_: sent.append(model.name))

    # When an episode's files go, with one that was never there
    site.apply([], ["s/e/index.html", "s/e/chapters.json", "s/e/transcript.txt"])

    # Then one request deletes them all
    assert sent == ["DeleteObjects"] and s3.list_objects_v2(Bucket="site-bucket")["KeyCount"] == 0

    # And a key S3 reports it could not delete, as DeleteObjects reports rather than raises, fails the publish
    denied = {"Key": "s/e/index.html", "Code": "AccessDenied", "Message": "Access Denied"}
    s3.meta.events.register("after-call.s3.DeleteObjects", lambda parsed, **_: parsed.update(Errors=[denied]))
    with pytest.raises(DeleteFailed, match="AccessDenied"):
        site.apply([], ["s/e/index.html"])


def test_a_catalog_s_first_line_is_read_by_range_and_read_on_while_it_is_longer(s3, source, monkeypatch):
    monkeypatch.setattr(source_bucket, "FIRST_LINE_BYTES", 16)
    ranges = []
    s3.meta.events.register("before-parameter-build.s3.GetObject", lambda params, **_: ranges.append(params["Range"]))
    line = b'{"version": 8, "show": "daily", "title": "' + b"x" * 40 + b'"}'
    s3.put_object(Bucket="source-bucket", Key="catalog/daily.json", Body=line + b"\n" + b"y" * 100 + b"\n")

    stored = source.read_first_line("daily")

    assert stored is not None and stored.body == line
    assert ranges == ["bytes=0-15", "bytes=16-31", "bytes=32-63", "bytes=64-127"]  # each read as much again
    assert source.read_first_line("gone") is None
    with pytest.raises(Unchanged):
        source.read_first_line("daily", held_etag=stored.etag)


def test_a_catalog_of_one_line_is_read_to_its_end(s3, source, monkeypatch):
    monkeypatch.setattr(source_bucket, "FIRST_LINE_BYTES", 16)
    s3.put_object(Bucket="source-bucket", Key="catalog/daily.json", Body=b'{"version": 2, "show": "daily"}')

    stored = source.read_first_line("daily")

    assert stored is not None and stored.body == b'{"version": 2, "show": "daily"}'


def test_a_first_line_whose_catalog_is_replaced_while_it_is_read_is_read_again_from_the_newer(s3, source, monkeypatch):
    # Given a first line longer than one read, and a commit between the reader's two reads
    monkeypatch.setattr(source_bucket, "FIRST_LINE_BYTES", 16)
    older, newer = b'{"version": 8, "title": "older and long"}', b'{"version": 8, "title": "newer and long"}'
    s3.put_object(Bucket="source-bucket", Key="catalog/daily.json", Body=older + b"\n")
    reads = []

    def commit_after_the_first_read(params, **_):
        reads.append(params.get("IfMatch"))
        if len(reads) == 2:
            s3.put_object(Bucket="source-bucket", Key="catalog/daily.json", Body=newer + b"\n")

    s3.meta.events.register("before-parameter-build.s3.GetObject", commit_after_the_first_read)

    # Then the reader never joins the two versions: it reads the line again, whole, from the newer
    stored = source.read_first_line("daily")
    assert stored is not None and stored.body == newer
    assert reads[0] is None and reads[1] is not None  # the second read held the first's ETag


def test_a_first_line_replaced_at_every_read_is_a_conflict(s3, source, monkeypatch):
    monkeypatch.setattr(source_bucket, "FIRST_LINE_BYTES", 16)
    versions = iter(range(100))

    def commit_before_every_read_on(params, **_):
        if params.get("IfMatch"):
            body = b'{"version": 8, "title": "version %d of a long line"}\n' % next(versions)
            s3.put_object(Bucket="source-bucket", Key="catalog/daily.json", Body=body)

    s3.put_object(Bucket="source-bucket", Key="catalog/daily.json", Body=b'{"version": 8, "title": "a long line"}\n')
    s3.meta.events.register("before-parameter-build.s3.GetObject", commit_before_every_read_on)

    with pytest.raises(CatalogConflict):
        source.read_first_line("daily")
    assert next(versions) == source_bucket.MAX_LINE_READS
