"""What a show's lease records as written ahead of the catalog: listed, or past a bound, every
episode and those the catalog lacked; and its fields in the lease's JSON, read back as written."""

from podpages.storage.pages_ahead import LISTED_AT_MOST, PagesAhead


def test_a_few_episodes_are_listed():
    ahead = PagesAhead.of({"e01", "e02"}, held={"e01"})

    assert ahead == PagesAhead(frozenset({"e01", "e02"}))
    assert ahead.in_catalog({"e01", "e03"}) == {"e01", "e02"}


def test_past_the_bound_every_episode_is_named_with_those_the_catalog_lacked():
    held = {f"e{number}" for number in range(LISTED_AT_MOST + 1)}

    ahead = PagesAhead.of({*held, "new"}, held=held)

    assert ahead == PagesAhead(frozenset({"new"}), every=True)
    assert ahead.in_catalog({"e1", "e2"}) == {"e1", "e2", "new"}


def test_the_fields_read_back_as_written_and_nothing_ahead_writes_none():
    for ahead in [PagesAhead(frozenset({"b", "a"})), PagesAhead(frozenset({"a"}), every=True)]:
        assert PagesAhead.from_fields({"holder": "h", "expires": 0, **ahead.fields()}) == ahead
    assert PagesAhead().fields() == {} and not PagesAhead()


def test_a_record_covers_what_it_holds_and_no_more():
    listed = PagesAhead(frozenset({"e01", "e02"}))

    assert listed.covers(PagesAhead(frozenset({"e02"}))) and listed.covers(PagesAhead())
    assert not listed.covers(PagesAhead(frozenset({"e03"})))
    assert not listed.covers(PagesAhead(frozenset({"e01"}), every=True))
    assert (listed | PagesAhead(every=True)).covers(PagesAhead(frozenset({"e01"}), every=True))
