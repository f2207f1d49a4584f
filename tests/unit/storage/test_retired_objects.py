"""What a publish retires from the source bucket goes in one DeleteObjects request at its end, with
the show's lease, and still goes when the publish fails after its commit, against moto's in-process
S3."""

import pytest

from podpages.publish.show_lease import LEASE_SECONDS, show_lease
from podpages.storage.retired_objects import RetiredObjects
from podpages.storage.source_bucket import SourceBucket
from support.clock import Clock

KEPT = "catalog/daily/page-2-kept.json"
RETIRED = [
    "catalog/daily.nearby.json",
    "catalog/daily/nearby-1-old.json",
    "catalog/daily/page-1-old.json",
    "errors/episodes/daily/e01.json.json",
]


@pytest.fixture
def stored(s3):
    for key in [KEPT, *RETIRED]:
        s3.put_object(Bucket="source-bucket", Key=key, Body=b"{}")
    return s3


def keys(s3) -> list[str]:
    return sorted(item["Key"] for item in s3.list_objects_v2(Bucket="source-bucket").get("Contents", []))


def retire_every_kind(retired: RetiredObjects) -> None:
    retired.catalog_pages("daily", ["page-1-old.json", "nearby-1-old.json"])  # a page, and a part apart
    retired.nearby_index("daily")  # as an object of its own, as podpages wrote it before layout 8
    retired.error_reports(["episodes/daily/e01.json"])


def test_every_kind_retired_goes_in_one_request_at_the_end(stored, source):
    requests = []
    stored.meta.events.register("before-call.s3", lambda model, **_: requests.append(model.name))

    with RetiredObjects(source) as retired:
        retire_every_kind(retired)
        assert keys(stored) == sorted([KEPT, *RETIRED])  # nothing goes before the end
        requests.clear()

    assert requests == ["DeleteObjects"]
    assert keys(stored) == [KEPT]


def test_nothing_retired_makes_no_request(stored, source):
    requests = []
    stored.meta.events.register("before-call.s3", lambda model, **_: requests.append(model.name))

    with RetiredObjects(source):
        pass

    assert requests == []


def test_a_publish_that_fails_still_deletes_what_it_retired_and_raises_its_own_error(stored, source):
    with pytest.raises(RuntimeError, match="the feed's write failed"), RetiredObjects(source) as retired:
        retire_every_kind(retired)
        raise RuntimeError("the feed's write failed")

    assert keys(stored) == [KEPT]


def test_a_deletion_that_fails_as_well_leaves_the_publish_s_own_error_raised(stored):
    gone = SourceBucket(stored, "no-such-bucket")

    with pytest.raises(RuntimeError, match="the feed's write failed"), RetiredObjects(gone) as retired:
        retire_every_kind(retired)
        raise RuntimeError("the feed's write failed")

    assert keys(stored) == sorted([KEPT, *RETIRED])


def test_the_show_s_lease_is_released_in_the_same_request(stored, source):
    requests = []
    stored.meta.events.register("before-call.s3", lambda model, **_: requests.append(model.name))

    with show_lease(source, "daily") as lease, RetiredObjects(source, lease) as retired:
        retire_every_kind(retired)
        requests.clear()

    assert requests == ["DeleteObjects"]
    assert keys(stored) == [KEPT] and lease.released


def test_a_lease_taken_over_stays_with_its_new_holder_and_what_was_retired_goes(stored, source):
    # Given a holder whose lease expired under it, and was taken over
    clock = Clock()
    stale = show_lease(source, "daily", clock=clock, sleep=clock.sleep)
    lease = stale.__enter__()
    clock.now += LEASE_SECONDS + 1
    with show_lease(source, "daily", clock=clock, sleep=clock.sleep, wait=0) as current:
        # When the old holder's publish ends, and deletes what it retired
        with RetiredObjects(source, lease) as retired:
            retire_every_kind(retired)
        stale.__exit__(None, None, None)

        # Then the new holder's lease stays (the delete named the old version), and the rest goes
        assert not lease.released
        assert stored.head_object(Bucket="source-bucket", Key=current.key)["ETag"] == current.etag
        assert keys(stored) == sorted([KEPT, current.key])
    assert keys(stored) == [KEPT]


def test_a_lease_whose_holder_may_have_left_pages_ahead_of_the_catalog_is_left_to_be_handed_over(stored, source):
    with pytest.raises(RuntimeError), show_lease(source, "daily") as lease, RetiredObjects(source, lease) as retired:
        lease.unsettled = True  # it began to write pages
        retire_every_kind(retired)
        raise RuntimeError("a page's write failed")

    assert keys(stored) == [KEPT, lease.key]  # what was retired goes; the lease stays, handed over
    assert not lease.released
