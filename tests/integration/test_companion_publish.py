"""Companion transcripts on the publish path: a `.vtt` or `.srt` beside an episode's JSON, in any order
of arrival, replaced or deleted, ends in the site a from-scratch render of the final uploads builds."""

import json

import pytest

from podpages.catalog import companions
from podpages.contract.companion_transcripts import Cue, parse_companion
from podpages.publish import publisher
from podpages.storage.site_bucket import SiteBucket
from support.alive import alive
from support.paths import EXAMPLES

RADIO = EXAMPLES / "episodes" / "release-radio"
EPISODE = "episodes/release-radio/compiler-caches-explained"
SITE = "release-radio/compiler-caches-explained"
COMPANION_FILES = {f"{SITE}/transcript.{ext}" for ext in ("vtt", "srt", "json")} | {f"{SITE}/transcript/index.html"}
SRT = "1\n00:00:01,000 --> 00:00:04,000\nA SubRip transcript, without speakers.\n"


def upload_json(stack) -> None:
    stack.upload(f"{EPISODE}.json", RADIO / "compiler-caches-explained.json")


def upload_vtt(stack) -> None:
    stack.upload(f"{EPISODE}.vtt", RADIO / "compiler-caches-explained.vtt")


def upload_all_holding_no_transcript_file(stack, monkeypatch) -> None:
    """The show's three episodes and two companions uploaded, for one batch, to a publish that may
    hold no transcript file it has rendered: it writes each companion's files before the next."""
    for path in sorted(RADIO.iterdir()):
        stack.upload(f"episodes/release-radio/{path.name}", path)
    monkeypatch.setattr(publisher, "HELD_TRANSCRIPT_FILES", 0)


def site_keys(stack) -> set[str]:
    return stack.keys(stack.site, f"{SITE}/")


@pytest.mark.parametrize("order", ["json first", "companion first", "one batch"])
def test_every_order_of_arrival_ends_in_the_from_scratch_site(stack, tmp_path, order):
    steps = {"json first": [upload_json, upload_vtt], "companion first": [upload_vtt, upload_json]}
    for step in steps.get(order, []):
        step(stack)
        stack.deliver()
    if order == "one batch":
        upload_vtt(stack)
        upload_json(stack)
        stack.deliver()

    site = stack.site_objects()
    assert site.keys() >= COMPANION_FILES
    assert site[f"{SITE}/transcript.vtt"][1] == "text/vtt; charset=utf-8"
    assert b"<v Priya Natarajan>" in site[f"{SITE}/transcript.vtt"][0]
    assert (
        b"Priya Natarajan: Thanks, Ada." in site[f"{SITE}/transcript.txt"][0]
    )  # the companion wins over the JSON's text
    assert b"transcript/" in site[f"{SITE}/index.html"][0]
    assert site == stack.from_scratch(tmp_path)


def test_a_companion_alone_publishes_nothing_until_its_episode_arrives(stack, tmp_path):
    upload_vtt(stack)
    stack.deliver()

    assert stack.keys(stack.site, "release-radio/") == set()
    assert stack.catalog_index("release-radio")["companions"][0]["format"] == "vtt"

    upload_json(stack)
    stack.deliver()
    assert site_keys(stack) >= COMPANION_FILES


def test_deleting_the_companion_falls_back_to_the_jsons_text(stack, tmp_path):
    upload_json(stack)
    upload_vtt(stack)
    stack.deliver()

    stack.remove(f"{EPISODE}.vtt")
    stack.deliver()

    assert not COMPANION_FILES & site_keys(stack)
    text = stack.read(stack.site, f"{SITE}/transcript.txt")
    assert text.startswith(b"Welcome to Release Radio.") and b"Priya Natarajan:" not in text
    assert stack.site_objects() == stack.from_scratch(tmp_path)


def test_a_webvtt_wins_over_a_subrip_whichever_came_first(stack, tmp_path):
    upload_json(stack)
    upload_vtt(stack)
    stack.deliver()
    stack.upload(f"{EPISODE}.srt", SRT)
    stack.deliver()

    assert b"<v Priya Natarajan>" in stack.read(stack.site, f"{SITE}/transcript.vtt")
    assert stack.site_objects() == stack.from_scratch(tmp_path / "both")

    stack.remove(f"{EPISODE}.vtt")
    stack.deliver()
    assert b"A SubRip transcript" in stack.read(stack.site, f"{SITE}/transcript.vtt")
    assert stack.site_objects() == stack.from_scratch(tmp_path / "srt")


def test_a_replaced_companion_replaces_every_format(stack, tmp_path):
    upload_json(stack)
    upload_vtt(stack)
    stack.deliver()

    stack.upload(f"{EPISODE}.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n<v Ada Okafor>A shorter take.\n")
    stack.deliver()

    assert json.loads(stack.read(stack.site, f"{SITE}/transcript.json"))["segments"] == [
        {"speaker": "Ada Okafor", "startTime": 1, "endTime": 3, "body": "A shorter take."}
    ]
    assert stack.site_objects() == stack.from_scratch(tmp_path)


def test_a_companion_that_does_not_parse_is_reported_by_line_and_changes_nothing(stack):
    upload_json(stack)
    upload_vtt(stack)
    stack.deliver()
    before = stack.site_objects()

    stack.upload(f"{EPISODE}.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:0x.000\nBroken.\n")
    stack.deliver()

    report = json.loads(stack.read(stack.source, f"errors/{EPISODE}.vtt.json"))
    assert [problem["field"] for problem in report["problems"]] == ["line 3"]
    assert stack.site_objects() == before

    stack.remove(f"{EPISODE}.vtt")  # taken back: its report goes with it
    stack.deliver()
    assert f"errors/{EPISODE}.vtt.json" not in stack.keys(stack.source, "errors/")


def test_removing_the_episode_removes_its_companions_files_and_keeps_the_companion(stack, tmp_path):
    upload_json(stack)
    upload_vtt(stack)
    stack.deliver()

    stack.remove(f"{EPISODE}.json")
    stack.deliver()

    assert site_keys(stack) == set()
    assert stack.site_objects() == stack.from_scratch(tmp_path)


def test_a_batch_writes_each_companions_files_before_it_renders_the_next_where_it_may_hold_none(
    stack, tmp_path, monkeypatch
):
    # Given a batch of a show's episodes with their two companions, and a publish that may hold no
    # transcript file it has rendered
    upload_all_holding_no_transcript_file(stack, monkeypatch)
    applied: list[list[str]] = []  # the keys of each write
    apply = SiteBucket.apply

    def recorded(site, puts, deletes):
        applied.append([item.key for item in puts])
        apply(site, puts, deletes)

    monkeypatch.setattr(SiteBucket, "apply", recorded)

    # When it is published
    assert stack.deliver().failed == []

    # Then the pages are written, then each companion's files in a write of their own, then the listings
    companions = [{key.split("/")[1] for key in keys if "/transcript" in key} for keys in applied]
    assert companions[:3] == [set(), {"bonus-listener-questions"}, {"compiler-caches-explained"}]
    assert "release-radio/compiler-caches-explained/index.html" in applied[0]
    # And the site is what a render of the uploads makes
    assert stack.site_objects() == stack.from_scratch(tmp_path)


def test_a_batch_holds_no_companions_cues_while_it_waits_and_one_companions_at_a_time_as_it_publishes(
    stack, tmp_path, monkeypatch
):
    # Given a batch of a show's episodes with their two companions, and a publish that may hold no
    # transcript file it has rendered
    upload_all_holding_no_transcript_file(stack, monkeypatch)
    cues = [
        len(parse_companion(path.read_bytes(), path.suffix[1:])) for path in RADIO.iterdir() if path.suffix != ".json"
    ]
    largest = max(cues)  # of 5 and 10: the two together are more
    before = alive(Cue)
    held: dict[str, list[int]] = {"publish": [], "record": [], "write": []}  # the cues alive at each moment

    def counted(moment, step):
        def count_then_step(*args, **kwargs):
            held[moment].append(alive(Cue) - before)
            return step(*args, **kwargs)

        return count_then_step

    monkeypatch.setattr(publisher.Publisher, "publish_show", counted("publish", publisher.Publisher.publish_show))
    monkeypatch.setattr(companions.Companion, "of", counted("record", companions.Companion.of))
    monkeypatch.setattr(SiteBucket, "apply", counted("write", SiteBucket.apply))

    # When it is published
    assert stack.deliver().failed == []

    # Then, every upload read, no companion's cues are alive; then only one companion's at a time,
    # as its catalog record is made and as each write is sent
    assert held["publish"] == [0]
    assert len(held["record"]) >= 2 and max(held["record"]) <= largest
    assert len(held["write"]) >= 3 and max(held["write"]) <= largest
    # And the site is what a render of the uploads makes
    assert stack.site_objects() == stack.from_scratch(tmp_path)
