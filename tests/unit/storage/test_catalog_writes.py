"""A commit's pages go several at once, and no more of them are held than a few writers' worth; a
write that fails is raised once the others are done, against moto's in-process S3."""

import threading
import time

import pytest

from podpages.storage.catalog_writes import QUEUED, WRITERS, CatalogWrites


def keys(s3) -> list[str]:
    return sorted(item["Key"] for item in s3.list_objects_v2(Bucket="source-bucket").get("Contents", []))


def test_pages_are_cut_only_as_fast_as_they_are_written(s3, source):
    started, release = threading.Semaphore(0), threading.Event()

    def slow_put(**_):
        started.release()
        assert release.wait(10)

    s3.meta.events.register("before-call.s3.PutObject", slow_put)
    drawn = []

    def pages():
        for number in range(1, 3 * QUEUED + 1):
            drawn.append(number)
            yield f"page-{number}-digest.json", b"{}"

    def commit():
        with CatalogWrites(source) as writes:
            for name, body in pages():
                writes.catalog_page("daily", name, body)

    committing = threading.Thread(target=commit)
    committing.start()
    for _writer in range(WRITERS):
        assert started.acquire(timeout=10)  # every writer has a page in hand
    time.sleep(0.2)  # time enough to cut far more pages, were they not held back

    assert len(drawn) == QUEUED + 1  # those held, and the one waiting for room
    release.set()
    committing.join(10)
    assert len(keys(s3)) == 3 * QUEUED


def test_a_write_that_fails_is_raised_once_the_others_are_done(s3, source):
    def fail_the_third(params, **_):
        if params["Key"].endswith("page-3-digest.json"):
            raise ConnectionError("S3 went away")

    s3.meta.events.register("before-parameter-build.s3.PutObject", fail_the_third)

    with pytest.raises(ConnectionError), CatalogWrites(source) as writes:
        for number in range(1, 6):
            writes.catalog_page("daily", f"page-{number}-digest.json", b"{}")

    assert keys(s3) == [f"catalog/daily/page-{number}-digest.json" for number in (1, 2, 4, 5)]


def test_a_publish_that_fails_meanwhile_writes_no_page_it_had_not_begun(s3, source):
    release = threading.Event()

    def slow_put(**_):  # returns nothing: what a before-call handler returns, botocore takes for the answer
        release.wait(10)

    s3.meta.events.register("before-call.s3.PutObject", slow_put)
    threading.Timer(0.3, release.set).start()  # once the publish has failed

    with pytest.raises(RuntimeError), CatalogWrites(source) as writes:
        for number in range(1, QUEUED + 1):
            writes.catalog_page("daily", f"page-{number}-digest.json", b"{}")
        raise RuntimeError("the publish failed")

    assert len(keys(s3)) == WRITERS  # those under way; no index will name them, and no more are written
