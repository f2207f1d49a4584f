"""What a show's lease records of the pages its holder may write ahead of the catalog: its fields
in the lease's JSON read back as written, and none when there is nothing ahead."""

from datetime import UTC, datetime, timedelta, timezone

from podpages.storage.pages_ahead import PagesAhead


def test_the_fields_read_back_as_written():
    published = datetime(2026, 1, 5, 9, tzinfo=timezone(timedelta(hours=2)))
    for ahead in [
        PagesAhead(frozenset({("e02", published), ("e01", None)})),
        PagesAhead(frozenset({("e01", datetime(2026, 1, 5, tzinfo=UTC))}), every=True),
        PagesAhead(every=True),
    ]:
        assert PagesAhead.from_fields({"holder": "h", "expires": 0, **ahead.fields()}) == ahead


def test_nothing_ahead_writes_no_field_and_is_false():
    assert PagesAhead().fields() == {} and not PagesAhead()
    assert PagesAhead.from_fields({"holder": "h", "expires": 1.0}) == PagesAhead()


def test_records_join():
    one, other = PagesAhead(frozenset({("e01", None)})), PagesAhead(frozenset({("e02", None)}), every=True)

    assert one | other == PagesAhead(frozenset({("e01", None), ("e02", None)}), every=True)


def test_an_episode_both_put_and_removed_in_one_batch_is_recorded_both_ways():
    ahead = PagesAhead(frozenset({("e01", None), ("e01", datetime(2026, 1, 5, tzinfo=UTC))}))

    assert PagesAhead.from_fields(ahead.fields()) == ahead
