"""Bad input through the queue path: malformed uploads, shuffled among good ones in batches of ten, are
each reported beside the upload, logged, counted and consumed, and publish nothing; hostile but valid
text is published, escaped."""

import json
import os
import random
from dataclasses import dataclass

import feedparser
import pytest
from lxml import etree, html

from podpages.contract.source_keys import MAX_DOCUMENT_BYTES
from support.catalogs import episode_document, show_document

SHOWS = ("daily", "weekly")
AUDIO = episode_document()["audio"]
OWNER = {"name": "An Owner", "email": "owner@example.com"}
CONTROLS = ("\x00", "\x07", "\x1b", "\x7f", "\x85")
REQUIRED_EPISODE_FIELDS = ("title", "published", "duration", "summary", "audio")
EPISODE_TEXT_FIELDS = ("title", "summary", "transcript", "keywords", "guid")
SHOW_TEXT_FIELDS = ("title", "description", "author", "overview", "owner.name")
HOSTILE = "<script>alert(1)</script> </script> ]]> <!-- &amp; \"double\" 'single'"
HOSTILE_URL = 'https://media.example.com/"><script>alert(1)</script>'
MISSING = object()
ITUNES = "http://www.itunes.com/dtds/podcast-1.0.dtd"


@dataclass(frozen=True)
class Upload:
    """One change to the source bucket: `body` is put at `key`, or the key is removed when it is None."""

    key: str
    body: bytes | None


@dataclass(frozen=True)
class Malformed:
    """An upload that breaks the contract, with the fields its error report must name."""

    what: str
    key: str
    body: bytes
    fields: frozenset[str]


def encoded(document: dict | list | int) -> bytes:
    return json.dumps(document).encode()


def episode(**fields) -> bytes:
    """A valid episode document with `fields` changed; a field given MISSING is left out."""
    document = episode_document("A malformed episode") | fields
    return encoded({name: value for name, value in document.items() if value is not MISSING})


def show(**fields) -> bytes:
    document = show_document("A malformed show") | fields
    return encoded({name: value for name, value in document.items() if value is not MISSING})


def controlled(field: str, control: str) -> object:
    """A field's value, valid but for one control character."""
    text = f"Before{control}after"
    match field:
        case "keywords":
            return ["fine", text]
        case "transcript":
            return f"A first paragraph.\n\nThe {text}."
        case "owner.name":
            return OWNER | {"name": text}
    return text


def content_cases() -> list[tuple[str, bytes, set[str]]]:
    """Episode documents, each wrong in its own way: what is wrong, the bytes, the fields to name."""
    over_one_mebibyte = episode(transcript="word " * (MAX_DOCUMENT_BYTES // 5 + 1))
    cases = [
        ("invalid-json", b'{"title": "Unclosed', {"document"}),
        ("trailing-garbage", episode() + b" and more", {"document"}),
        ("not-utf-8", episode(title="Caf\u00e9").replace(b"Caf\\u00e9", b"Caf\xe9"), {"document"}),
        ("latin-1", episode(summary="\u00e9t\u00e9").replace(b"\\u00e9", b"\xe9"), {"document"}),
        ("utf-8-bom", b"\xef\xbb\xbf" + episode(), {"document"}),
        ("utf-16", episode().decode().encode("utf-16"), {"document"}),
        ("empty-object", b"{}", {"title", "published", "duration", "summary", "audio"}),
        ("empty-file", b"", {"document"}),
        ("array", encoded([episode_document()]), {"document"}),
        ("number", b"42", {"document"}),
        ("null", b"null", {"document"}),
        ("string", b'"an episode"', {"document"}),
        ("lone-surrogate", b'{"title": "\\ud800"}', {"document"}),
        ("over-one-mebibyte", over_one_mebibyte, {"document"}),
        ("audio-length-string", episode(audio=AUDIO | {"length": "1000"}), {"audio.length"}),
        ("audio-length-float", episode(audio=AUDIO | {"length": 1000.5}), {"audio.length"}),
        ("audio-length-bool", episode(audio=AUDIO | {"length": True}), {"audio.length"}),
        ("title-number", episode(title=5), {"title"}),
        ("title-null", episode(title=None), {"title"}),
        ("explicit-string", episode(explicit="true"), {"explicit"}),
        ("keywords-string", episode(keywords="one, two"), {"keywords"}),
        ("keyword-number", episode(keywords=["one", 2]), {"keywords.1"}),
        ("episode-number-string", episode(episode_number="3"), {"episode_number"}),
        ("season-float", episode(season=1.5), {"season"}),
        ("audio-string", episode(audio=AUDIO["url"]), {"audio"}),
        ("summary-list", episode(summary=["one"]), {"summary"}),
        ("published-number", episode(published=1767261600), {"published"}),
        ("duration-number", episode(duration=245), {"duration"}),
        *((f"missing-{field}", episode(**{field: MISSING}), {field}) for field in REQUIRED_EPISODE_FIELDS),
        ("missing-audio-url", episode(audio={"type": "audio/mpeg", "length": 1}), {"audio.url"}),
        ("unknown-field", episode(titel="A typo"), {"titel"}),
        ("unknown-audio-field", episode(audio=AUDIO | {"bitrate": 128}), {"audio.bitrate"}),
        ("title-blank", episode(title="   "), {"title"}),
        ("title-two-lines", episode(title="One\nTwo"), {"title"}),
        ("title-too-long", episode(title="x" * 201), {"title"}),
        ("summary-empty", episode(summary=""), {"summary"}),
        ("published-naive", episode(published="2026-03-01T10:00:00"), {"published"}),
        ("published-garbage", episode(published="yesterday"), {"published"}),
        ("published-date-only", episode(published="2026-03-01"), {"published"}),
        ("published-february-30", episode(published="2026-02-30T10:00:00Z"), {"published"}),
        ("published-unix-time-string", episode(published="1767261600"), {"published"}),
        ("published-three-digit-year", episode(published="0999-06-01T10:00:00Z"), {"published"}),
        ("published-before-year-1-in-utc", episode(published="0001-01-01T00:00:00+01:00"), {"published"}),
        ("published-after-9999-in-utc", episode(published="9999-12-31T23:59:59-01:00"), {"published"}),
        ("duration-zero", episode(duration="PT0S"), {"duration"}),
        ("duration-negative", episode(duration="-PT5M"), {"duration"}),
        ("duration-49-hours", episode(duration="PT49H"), {"duration"}),
        ("duration-words", episode(duration="4 minutes"), {"duration"}),
        ("duration-month", episode(duration="P1M"), {"duration"}),
        ("duration-year", episode(duration="P1Y"), {"duration"}),
        ("duration-overflow", episode(duration="P99999999999D"), {"duration"}),
        ("audio-url-http", episode(audio=AUDIO | {"url": "http://media.example.com/a.mp3"}), {"audio.url"}),
        ("audio-url-javascript", episode(audio=AUDIO | {"url": "javascript:alert(1)"}), {"audio.url"}),
        ("image-http", episode(image="http://media.example.com/a.png"), {"image"}),
        ("image-javascript", episode(image="javascript:alert(1)"), {"image"}),
        ("audio-url-control", episode(audio=AUDIO | {"url": "https://media.example.com/a\x00.mp3"}), {"audio.url"}),
        ("image-control", episode(image="https://media.example.com/a\x07.png"), {"image"}),
        ("title-noncharacter", episode(title="Not a\ufffecharacter"), {"title"}),
        ("summary-supplementary-noncharacter", episode(summary="Not a\U0001fffecharacter"), {"summary"}),
        ("audio-type-video", episode(audio=AUDIO | {"type": "video/mp4"}), {"audio.type"}),
        ("audio-type-bare", episode(audio=AUDIO | {"type": "mpeg"}), {"audio.type"}),
        ("audio-length-negative", episode(audio=AUDIO | {"length": -1}), {"audio.length"}),
        ("episode-number-zero", episode(episode_number=0), {"episode_number"}),
        ("season-zero", episode(season=0), {"season"}),
        (
            "many-problems",
            episode(title=5, published="2026-03-01T10:00:00", duration="PT0S", audio=AUDIO | {"url": "http://a.b/"}),
            {"title", "published", "duration", "audio.url"},
        ),
    ]
    for field in EPISODE_TEXT_FIELDS:
        for control in CONTROLS:
            name = f"control-{field}-u{ord(control):04x}"
            cases.append(
                (name, episode(**{field: controlled(field, control)}), {"keywords.1" if field == "keywords" else field})
            )
    return cases


def show_cases() -> list[tuple[str, bytes, set[str]]]:
    """Show documents, each wrong in its own way."""
    cases = [
        ("show-empty-object", b"{}", {"title", "description", "categories", "author"}),
        ("show-unknown-field", show(website="https://example.com"), {"website"}),
        ("show-unknown-owner-field", show(owner=OWNER | {"phone": "555"}), {"owner.phone"}),
        ("show-image-http", show(image="http://example.com/cover.png"), {"image"}),
        ("show-link-javascript", show(link="javascript:alert(1)"), {"link"}),
        ("show-explicit-string", show(explicit="no"), {"explicit"}),
        ("show-unknown-category", show(categories=["Techology"]), {"categories.0"}),
        ("show-link-control", show(link="https://example.com/\x1b"), {"link"}),
        ("show-image-control", show(image="https://example.com/\x7f.png"), {"image"}),
        ("show-owner-email-control", show(owner=OWNER | {"email": "owner\x00@example.com"}), {"owner.email"}),
        ("show-description-noncharacter", show(description="Not a\U0010ffffcharacter"), {"description"}),
    ]
    for field in SHOW_TEXT_FIELDS:
        for control in CONTROLS:
            name = f"show-control-{field.replace('.', '-')}-u{ord(control):04x}"
            value = controlled(field, control)
            cases.append((name, show(**{field.split(".")[0]: value}), {field}))
    return cases


def key_cases() -> list[tuple[str, str, bytes]]:
    """Keys no upload may have, each with a document that is fine in itself."""
    fine = episode()
    return [
        ("traversal", "episodes/../shows/x.json", encoded(show_document("Traversal"))),
        ("encoded-traversal", "episodes/daily/..%2f.json", fine),
        ("nested", "episodes/daily/a/b.json", fine),
        ("uppercase-show", "episodes/Daily/upper.json", fine),
        ("uppercase-episode", "episodes/daily/Upper.json", fine),
        ("space", "episodes/daily/with space.json", fine),
        ("plus", "episodes/daily/a+b.json", fine),
        ("non-ascii", "episodes/daily/caf\u00e9.json", fine),
        ("leading-hyphen", "episodes/daily/-lead.json", fine),
        ("too-long", f"episodes/daily/{'x' * 81}.json", fine),
        ("empty-slug", "episodes/daily/.json", fine),
        ("year-slug", "episodes/daily/2026.json", fine),
        ("reserved-show", "episodes/api/x.json", fine),
        ("reserved-show-document", "shows/api.json", encoded(show_document("API"))),
        ("empty-show-slug", "shows/.json", encoded(show_document("Nameless"))),
        ("no-episode-part", "episodes/daily.json", fine),
        ("show-with-episode-part", "shows/a/b.json", encoded(show_document("A"))),
        ("show-with-space", "shows/my show.json", encoded(show_document("Mine"))),
    ]


# Published before the batches; the batches then overwrite them with bad versions.
BASELINE = {
    "shows/daily.json": encoded(show_document("Daily", categories=["Technology"], owner=OWNER)),
    "episodes/daily/fixed.json": encoded(episode_document("Fixed", "2025-12-01T10:00:00Z", guid="fixed-guid")),
    "episodes/daily/kept.json": encoded(episode_document("Kept", "2025-12-02T10:00:00Z")),
    "episodes/daily/guarded.json": encoded(episode_document("Guarded", "2025-12-02T12:00:00Z", guid="guarded-guid")),
    "episodes/daily/updated.json": encoded(episode_document("Updated", "2025-12-03T10:00:00Z")),
    "episodes/daily/removed.json": encoded(episode_document("Removed", "2025-12-04T10:00:00Z")),
}
OVERWRITES = [
    Malformed(
        "guid-changed",
        "episodes/daily/fixed.json",
        encoded(episode_document("Fixed", "2025-12-01T10:00:00Z", guid="another-guid")),
        frozenset({"guid"}),
    ),
    Malformed(
        "guid-dropped",
        "episodes/daily/guarded.json",
        encoded(episode_document("Guarded", "2025-12-02T12:00:00Z")),
        frozenset({"guid"}),
    ),
    Malformed("overwrite-title-number", "episodes/daily/kept.json", episode(title=5), frozenset({"title"})),
    Malformed(
        "overwrite-show-owner-email",
        "shows/daily.json",
        encoded(show_document("Daily", categories=["Technology"], owner=OWNER | {"email": "nobody"})),
        frozenset({"owner.email"}),
    ),
]


def malformed_uploads() -> list[Malformed]:
    uploads = [
        Malformed(what, f"episodes/{SHOWS[number % 2]}/{what}.json", body, frozenset(fields))
        for number, (what, body, fields) in enumerate(content_cases())
    ]
    uploads += [Malformed(what, f"shows/{what}.json", body, frozenset(fields)) for what, body, fields in show_cases()]
    uploads += [Malformed(what, key, body, frozenset({"key"})) for what, key, body in key_cases()]
    return uploads + OVERWRITES


def one_mebibyte_episode() -> bytes:
    """A valid episode of exactly the most an upload may hold."""
    document = episode_document("Exactly one mebibyte", "2026-02-01T10:00:00Z", transcript="")
    padding = MAX_DOCUMENT_BYTES - len(encoded(document))
    return encoded(document | {"transcript": "word " * (padding // 5) + "w" * (padding % 5)})


def good_uploads() -> list[Upload]:
    uploads = [
        Upload("shows/weekly.json", encoded(show_document("Weekly", categories=["News"]))),
        Upload("episodes/daily/updated.json", encoded(episode_document("Updated again", "2025-12-03T10:00:00Z"))),
        Upload("episodes/daily/removed.json", None),
        Upload("episodes/weekly/one-mebibyte.json", one_mebibyte_episode()),
    ]
    for number in range(1, 9):
        for show_slug in SHOWS:
            published = f"2026-01-{number:02d}T{number + 5:02d}:00:00+02:00"
            document = episode_document(f"{show_slug.title()} {number}", published, transcript=f"Part {number}.")
            uploads.append(Upload(f"episodes/{show_slug}/good-{number:02d}.json", encoded(document)))
    return uploads


def report_key(key: str) -> str:
    return f"errors/{key}.json"


def rejected_count(stdout: str) -> int:
    """EpisodesRejected as the EMF blobs printed to stdout count it; a metric's value may be a list."""
    total = 0
    for line in stdout.splitlines():
        blob = json.loads(line) if line.startswith("{") else {}
        if "_aws" in blob and "EpisodesRejected" in blob:
            value = blob["EpisodesRejected"]
            total += sum(value) if isinstance(value, list) else value
    return total


def rejected_keys(caplog) -> list[str]:
    """The keys of the "upload rejected" log lines, from the structured fields of their records."""
    return sorted(record.key for record in caplog.records if record.getMessage() == "upload rejected")


def queue_depth(stack) -> int:
    attributes = stack.sqs.get_queue_attributes(QueueUrl=stack.queue_url, AttributeNames=["All"])["Attributes"]
    return int(attributes["ApproximateNumberOfMessages"]) + int(attributes["ApproximateNumberOfMessagesNotVisible"])


def catalog_entries(stack) -> dict[tuple[str, str], dict]:
    entries = {}
    for key in stack.catalog_keys():
        catalog = stack.catalog_index(key.removeprefix("catalog/").removesuffix(".json"))
        entries |= {(catalog["show"], entry["slug"]): entry for entry in catalog["episodes"]}
    return entries


def apply(stack, uploads: list[Upload]) -> None:
    for upload in uploads:
        if upload.body is None:
            stack.remove(upload.key)
        else:
            stack.upload(upload.key, upload.body)


@pytest.fixture
def seed() -> int:
    """A seed of its own each run: a failure's report shows it, in the setup's captured output."""
    value = int(os.environ.get("BAD_INPUT_SEED", random.randrange(2**32)))
    print(f"bad-input seed: {value} (rerun with BAD_INPUT_SEED={value})")
    return value


def test_malformed_uploads_among_good_ones_are_reported_counted_consumed_and_publish_nothing(
    stack, capsys, caplog, seed, tmp_path
):
    # Given a published show, and a shuffled mix of malformed and good uploads
    apply(stack, [Upload(key, body) for key, body in BASELINE.items()])
    assert stack.deliver().failed == []
    published_before = catalog_entries(stack)
    daily_before = stack.catalog_index("daily")["document"]
    malformed = malformed_uploads()
    good = good_uploads()
    assert len(malformed) >= 40 and len({case.key for case in malformed}) == len(malformed)
    mixed = [*good, *(Upload(case.key, case.body) for case in malformed)]
    random.Random(seed).shuffle(mixed)
    apply(stack, mixed)
    capsys.readouterr()
    caplog.clear()

    # When the queue delivers them in batches of ten
    delivery = stack.deliver(batch_size=10)

    # Then every message is consumed, none retried
    output = capsys.readouterr().out
    assert delivery.failed == [] and delivery.errors == [], f"seed {seed}"
    assert delivery.invocations >= len(mixed) // 10 and queue_depth(stack) == 0
    # and each malformed upload has a report beside it naming exactly its offending fields
    assert stack.keys(stack.source, "errors/") == {report_key(case.key) for case in malformed}
    for case in malformed:
        report = json.loads(stack.read(stack.source, report_key(case.key)))
        assert report["key"] == case.key, case.what
        assert {problem["field"] for problem in report["problems"]} == case.fields, (case.what, report, seed)
        assert all(isinstance(problem["message"], str) and problem["message"] for problem in report["problems"])
    # and a log line and a metric for each
    assert rejected_keys(caplog) == sorted(case.key for case in malformed)
    assert rejected_count(output) == len(malformed)
    # and the catalogs hold the good uploads only, the overwritten ones as they were
    entries = catalog_entries(stack)
    good_episodes = {("daily", slug) for slug in ("fixed", "guarded", "kept", "updated")}
    good_episodes |= {("weekly", "one-mebibyte")} | {
        (show_slug, f"good-{n:02d}") for n in range(1, 9) for show_slug in SHOWS
    }
    assert entries.keys() == good_episodes
    assert stack.catalog_keys() == {"catalog/daily.json", "catalog/weekly.json"}
    assert {slug: entries[("daily", slug)] for slug in ("fixed", "guarded", "kept")} == {
        slug: published_before[("daily", slug)] for slug in ("fixed", "guarded", "kept")
    }
    assert stack.catalog_index("daily")["document"] == daily_before
    assert entries[("daily", "updated")]["episode"]["title"] == "Updated again"
    published = stack.site_objects()
    assert {key.split("/")[0] for key in published if "/" in key} == set(SHOWS)

    # When the publisher removes the malformed uploads, or puts the overwritten ones back
    capsys.readouterr()
    overwritten = {case.key for case in OVERWRITES}
    apply(stack, [Upload(case.key, BASELINE.get(case.key)) for case in malformed])
    assert overwritten <= BASELINE.keys()
    assert stack.deliver().failed == []

    # Then nothing published changes, and it is what a from-scratch render of the good uploads builds
    assert stack.site_objects() == published
    assert published == stack.from_scratch(tmp_path)
    # and the reports of uploads with a valid key are cleared
    bad_keys = {report_key(case.key) for case in malformed if case.fields == {"key"}}
    assert stack.keys(stack.source, "errors/") <= bad_keys


def test_removing_an_upload_with_a_malformed_key_clears_its_report(stack, capsys):
    stack.upload("episodes/daily/Bad Name.json", episode())
    stack.deliver()
    assert stack.keys(stack.source, "errors/") == {"errors/episodes/daily/Bad Name.json.json"}
    capsys.readouterr()

    stack.remove("episodes/daily/Bad Name.json")
    stack.deliver()

    assert rejected_count(capsys.readouterr().out) == 0
    assert stack.keys(stack.source, "errors/") == set()


def hostile_show() -> dict:
    return show_document(
        f"Show {HOSTILE}",
        description=f"Description {HOSTILE}",
        author=f"Author {HOSTILE}",
        overview=f"Overview {HOSTILE}",
        owner={"name": f"Owner {HOSTILE}", "email": "owner@example.com"},
        link=f"{HOSTILE_URL}?q=<!--",
        image=f"{HOSTILE_URL}/cover.jpg",
    )


def hostile_episode() -> dict:
    return episode_document(
        f"Title {HOSTILE}",
        summary=f"Summary {HOSTILE}",
        transcript=f"Transcript {HOSTILE}\n\nMore {HOSTILE}",
        keywords=[f"keyword {HOSTILE}"],
        guid=f"guid {HOSTILE}",
        image=f"{HOSTILE_URL}/one.png",
    )


def strings_in(value: object) -> list[str]:
    match value:
        case str():
            return [value]
        case dict():
            return [text for item in value.values() for text in strings_in(item)]
        case list():
            return [text for item in value for text in strings_in(item)]
    return []


def test_hostile_but_valid_text_in_every_field_is_published_escaped(stack, capsys):
    # Given markup, CDATA ends, comment openers, entities and quotes in every text field, and markup in URLs
    stack.upload("shows/hostile.json", encoded(hostile_show()))
    stack.upload("episodes/hostile/one.json", encoded(hostile_episode()))

    # When the queue delivers them
    delivery = stack.deliver()

    # Then both are accepted and published
    assert delivery.failed == [] and stack.keys(stack.source, "errors/") == set()
    assert rejected_count(capsys.readouterr().out) == 0
    site = stack.site_objects()
    page = html.fromstring(site["hostile/one/index.html"][0])
    assert page.findtext(".//h1") == f"Show {HOSTILE}: Title {HOSTILE}"
    for text in (f"Summary {HOSTILE}", f"Transcript {HOSTILE}", f"Overview {HOSTILE}"):
        assert text in page.text_content()
    assert html.fromstring(site["hostile/index.html"][0]).findtext(".//h1") == f"Show {HOSTILE}"
    # and the JSON-LD block holds the exact title, which cannot close it
    blocks = page.xpath("//script[@type='application/ld+json']/text()")
    assert len(blocks) == 1
    data = json.loads(blocks[0])
    assert data["name"] == f"Title {HOSTILE}"
    assert {f"Show {HOSTILE}", f"Summary {HOSTILE}", f"keyword {HOSTILE}", f"{HOSTILE_URL}/one.png"} <= set(
        strings_in(data)
    )
    # and the feed parses and carries the titles exactly
    feed = feedparser.parse(site["hostile/feed.xml"][0])
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.feed.title == f"Show {HOSTILE}"
    assert [entry.title for entry in feed.entries] == [f"Title {HOSTILE}"]
    assert [entry.id for entry in feed.entries] == [f"guid {HOSTILE}"]
    channel = etree.fromstring(site["hostile/feed.xml"][0]).find("channel")
    assert channel.findtext("description") == f"Description {HOSTILE}"
    assert channel.findtext("item/description") == f"Summary {HOSTILE}"
    assert channel.findtext(f"{{{ITUNES}}}author") == f"Author {HOSTILE}"
    assert channel.findtext(f"{{{ITUNES}}}owner/{{{ITUNES}}}name") == f"Owner {HOSTILE}"
    # and no markup from a field is live in any published object but the plain-text transcript
    for key, (body, content_type, _cache_control) in site.items():
        if content_type.startswith("text/plain"):
            continue
        assert b"<script>alert" not in body, key
        assert b"<!-- &amp;" not in body, key
    assert site["hostile/one/transcript.txt"][1] == "text/plain; charset=utf-8"
