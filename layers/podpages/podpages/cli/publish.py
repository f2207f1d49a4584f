"""`podpages publish` and `podpages unpublish`: upload or remove metadata, then watch the render
function's outcome for each key (published, rejected with its reasons, or still pending)."""

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from podpages.catalog.changes import EpisodePut, ShowPut, TranscriptPut
from podpages.catalog.companions import digest
from podpages.catalog.model import Catalog
from podpages.cli.progress import follow, progress_bar
from podpages.cli.source_folder import read_change, upload_files, upload_key
from podpages.cli.targets import Target
from podpages.contract.source_keys import Kind, SourceKey, parse_source_key
from podpages.errors import ContractError, Problem
from podpages.publish.catalog_store import read_catalog
from podpages.storage.source_bucket import SourceBucket

POLL_INTERVAL = 0.5  # seconds


@dataclass(frozen=True)
class CompanionSent:
    """A companion transcript as `publish` watches for it: its key, and the digest of its cues that
    the catalog keeps once it is published. Its cues, kept for each file sent until the last was
    published, came to 0.27 MB an hour of transcript, and were digested again at every poll."""

    source: SourceKey
    digest: str


type Sent = EpisodePut | ShowPut | CompanionSent


@dataclass
class Outcome:
    key: str
    path: Path | None = None
    state: str = "pending"  # pending, published, unpublished, rejected
    problems: list[Problem] = field(default_factory=list)


@dataclass
class Summary:
    outcomes: list[Outcome]
    seconds: float

    def count(self, state: str) -> int:
        return sum(outcome.state == state for outcome in self.outcomes)

    @property
    def succeeded(self) -> bool:
        return all(outcome.state in ("published", "unpublished") for outcome in self.outcomes)

    def lines(self) -> list[str]:
        rejected = [outcome for outcome in self.outcomes if outcome.state == "rejected"]
        pending = [outcome for outcome in self.outcomes if outcome.state == "pending"]
        lines = [
            f"{outcome.path or outcome.key}: {problem.field}: {problem.message}"
            for outcome in rejected
            for problem in outcome.problems
        ]
        lines += [f"{outcome.path or outcome.key}: still pending" for outcome in pending]
        done = ", ".join(
            f"{self.count(state)} {state}" for state in ("published", "unpublished", "rejected", "pending")
        )
        return [*lines, f"{done} in {self.seconds:.1f} s"]


def publish(target: Target, paths: Iterable[Path], wait: float, progress: bool | None = None) -> Summary:
    """Check each file against the contract, upload the good ones, and wait up to `wait` seconds
    for the render function to publish or reject them. A file that fails the check stays unsent."""
    started = time.monotonic()
    outcomes: list[Outcome] = []
    uploads: dict[str, tuple[Outcome, Path, Sent]] = {}
    for path in upload_files(list(paths)):
        outcome = Outcome(upload_key(path), path)
        outcomes.append(outcome)
        if (change := _accepted(outcome, lambda: read_change(path))) is not None:  # noqa: B023 - called at once
            uploads[outcome.key] = (outcome, path, _sent(change))
    sent_at: dict[str, datetime] = {}
    for key, (_outcome, path, _change) in progress_bar(uploads.items(), "uploading", "file", progress):
        target.s3.put_object(Bucket=target.source_bucket, Key=key, Body=path.read_bytes())
        sent_at[key] = target.s3.head_object(Bucket=target.source_bucket, Key=key)["LastModified"]
    checks = {key: _published_check(target, change, sent_at[key]) for key, (_outcome, _path, change) in uploads.items()}
    _watch({key: uploads[key][0] for key in uploads}, checks, wait, progress)
    return Summary(outcomes, time.monotonic() - started)


def unpublish(target: Target, keys: Iterable[str], wait: float, progress: bool | None = None) -> Summary:
    """Delete each upload key (`episodes/<show>/<episode>.json` or `shows/<show>.json`), then wait
    for the render function to take it off the site."""
    started = time.monotonic()
    outcomes: list[Outcome] = []
    watched: dict[str, Outcome] = {}
    checks: dict[str, Check] = {}
    for key in keys:
        outcome = Outcome(key)
        outcomes.append(outcome)
        if (source := _accepted(outcome, lambda: parse_source_key(key))) is not None:  # noqa: B023 - called at once
            target.s3.delete_object(Bucket=target.source_bucket, Key=key)
            watched[key], checks[key] = outcome, _unpublished_check(target, source)
    _watch(watched, checks, wait, progress)
    return Summary(outcomes, time.monotonic() - started)


def _accepted[T](outcome: Outcome, read: Callable[[], T]) -> T | None:
    """What `read` makes of the outcome's input; None, with the outcome rejected, when it breaks the contract."""
    try:
        return read()
    except ContractError as error:
        outcome.state, outcome.problems = "rejected", error.problems
        return None


Check = Callable[[dict[str, Catalog | None]], tuple[str, list[Problem]] | None]


def _watch(outcomes: dict[str, Outcome], checks: dict[str, Check], wait: float, progress: bool | None) -> None:
    """Poll the catalogs and error reports until every outcome is known or `wait` runs out."""

    def known() -> int:
        catalogs: dict[str, Catalog | None] = {}
        for key, outcome in outcomes.items():
            if outcome.state == "pending" and (found := checks[key](catalogs)):
                outcome.state, outcome.problems = found
        return sum(outcome.state != "pending" for outcome in outcomes.values())

    if wait > 0:
        follow(len(outcomes), known, wait, POLL_INTERVAL, "rendering", "file", progress)


def _sent(change: EpisodePut | ShowPut | TranscriptPut) -> Sent:
    return CompanionSent(change.source, digest(change.cues)) if isinstance(change, TranscriptPut) else change


def _published_check(target: Target, change: Sent, sent_at: datetime) -> Check:
    def check(catalogs: dict[str, Catalog | None]) -> tuple[str, list[Problem]] | None:
        report = _source(target).read_error_report(change.source.key)
        if report and (report.event_time is None or datetime.fromisoformat(report.event_time) >= sent_at):
            return "rejected", list(report.problems)
        catalog = _catalog(target, change.source.show, catalogs)
        if catalog is None:
            return None
        if isinstance(change, ShowPut):
            return ("published", []) if catalog.document == change.show else None
        if isinstance(change, CompanionSent):
            held = [c.digest for c in catalog.companions if c.key(catalog.show) == change.source.key]
            return ("published", []) if change.digest in held else None
        entry = catalog.entry(change.source.episode_slug)
        published = entry is not None and entry.made_from(change.episode)
        return ("published", []) if published else None

    return check


def _unpublished_check(target: Target, source: SourceKey) -> Check:
    def check(catalogs: dict[str, Catalog | None]) -> tuple[str, list[Problem]] | None:
        catalog = _catalog(target, source.show, catalogs)
        if source.episode is None:
            gone = catalog is None or catalog.document is None
        elif source.kind is Kind.TRANSCRIPT:
            gone = catalog is None or all(c.key(catalog.show) != source.key for c in catalog.companions)
        else:
            gone = catalog is None or catalog.entry(source.episode) is None
        return ("unpublished", []) if gone else None

    return check


def _catalog(target: Target, show: str, catalogs: dict[str, Catalog | None]) -> Catalog | None:
    """The show's catalog, read once per polling round."""
    if show not in catalogs:
        held = read_catalog(_source(target), show)
        catalogs[show] = held.catalog if held.etag else None
    return catalogs[show]


def _source(target: Target) -> SourceBucket:
    return SourceBucket(target.s3, target.source_bucket)
