"""`podpages publish` and `podpages unpublish`: upload or remove metadata, then watch the render
function's outcome for each key (published, rejected with its reasons, or still pending)."""

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from botocore.exceptions import ClientError
from tqdm import tqdm

from podpages.catalog import Catalog
from podpages.changes import EpisodePut, ShowPut
from podpages.errors import ContractError, Problem
from podpages.source_folder import metadata_files, read_change, upload_key
from podpages.source_keys import SourceKey, parse_source_key
from podpages.storage import catalog_key, error_report_key
from podpages.targets import Target

POLL_INTERVAL = 0.5  # seconds


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
    outcomes, uploads = [], {}
    for path in metadata_files(list(paths)):
        outcome = Outcome(upload_key(path), path)
        outcomes.append(outcome)
        if (change := _accepted(outcome, lambda: read_change(path))) is not None:  # noqa: B023 - called at once
            uploads[outcome.key] = (outcome, change)
    sent_at: dict[str, datetime] = {}
    for key, (outcome, _change) in tqdm(uploads.items(), desc="uploading", unit="file", disable=_hidden(progress)):
        target.s3.put_object(Bucket=target.source_bucket, Key=key, Body=outcome.path.read_bytes())
        sent_at[key] = target.s3.head_object(Bucket=target.source_bucket, Key=key)["LastModified"]
    checks = {key: _published_check(target, change, sent_at[key]) for key, (_outcome, change) in uploads.items()}
    _watch(target, {key: uploads[key][0] for key in uploads}, checks, wait, progress)
    return Summary(outcomes, time.monotonic() - started)


def unpublish(target: Target, keys: Iterable[str], wait: float, progress: bool | None = None) -> Summary:
    """Delete each upload key (`episodes/<show>/<episode>.json` or `shows/<show>.json`), then wait
    for the render function to take it off the site."""
    started = time.monotonic()
    outcomes, watched, checks = [], {}, {}
    for key in keys:
        outcome = Outcome(key)
        outcomes.append(outcome)
        if (source := _accepted(outcome, lambda: parse_source_key(key))) is not None:  # noqa: B023 - called at once
            target.s3.delete_object(Bucket=target.source_bucket, Key=key)
            watched[key], checks[key] = outcome, _unpublished_check(target, source)
    _watch(target, watched, checks, wait, progress)
    return Summary(outcomes, time.monotonic() - started)


def _accepted[T](outcome: Outcome, read: Callable[[], T]) -> T | None:
    """What `read` makes of the outcome's input; None, with the outcome rejected, when it breaks the contract."""
    try:
        return read()
    except ContractError as error:
        outcome.state, outcome.problems = "rejected", error.problems
        return None


Check = Callable[[dict[str, Catalog | None]], tuple[str, list[Problem]] | None]


def _watch(target: Target, outcomes: dict[str, Outcome], checks: dict[str, Check], wait: float, progress: bool | None):
    """Poll the catalogs and error reports until every outcome is known or `wait` runs out."""
    deadline = time.monotonic() + wait
    with tqdm(total=len(outcomes), desc="rendering", unit="file", disable=_hidden(progress) or not outcomes) as bar:
        while wait > 0:
            catalogs: dict[str, Catalog | None] = {}
            for key, outcome in outcomes.items():
                if outcome.state == "pending" and (found := checks[key](catalogs)):
                    outcome.state, outcome.problems = found
                    bar.update()
            if all(outcome.state != "pending" for outcome in outcomes.values()) or time.monotonic() > deadline:
                return
            time.sleep(POLL_INTERVAL)


def _hidden(progress: bool | None) -> bool | None:
    """tqdm's `disable`: None shows the bar on a terminal only."""
    return None if progress is None else not progress


def _published_check(target: Target, change: EpisodePut | ShowPut, sent_at: datetime) -> Check:
    def check(catalogs: dict[str, Catalog | None]) -> tuple[str, list[Problem]] | None:
        report = _error_report(target, change.source.key)
        if report and (report.get("event_time") is None or datetime.fromisoformat(report["event_time"]) >= sent_at):
            return "rejected", [Problem(**problem) for problem in report["problems"]]
        catalog = _catalog(target, change.source.show, catalogs)
        if catalog is None:
            return None
        if isinstance(change, ShowPut):
            return ("published", []) if catalog.document == change.show else None
        entry = catalog.entry(change.source.episode)
        published = entry is not None and entry.episode == change.episode.model_copy(update={"transcript": None})
        return ("published", []) if published else None

    return check


def _unpublished_check(target: Target, source: SourceKey) -> Check:
    def check(catalogs: dict[str, Catalog | None]) -> tuple[str, list[Problem]] | None:
        catalog = _catalog(target, source.show, catalogs)
        if source.episode is None:
            gone = catalog is None or catalog.document is None
        else:
            gone = catalog is None or catalog.entry(source.episode) is None
        return ("unpublished", []) if gone else None

    return check


def _catalog(target: Target, show: str, catalogs: dict[str, Catalog | None]) -> Catalog | None:
    """The show's catalog, read once per polling round."""
    if show not in catalogs:
        body = _read(target, catalog_key(show))
        catalogs[show] = Catalog.model_validate_json(body) if body else None
    return catalogs[show]


def _error_report(target: Target, key: str) -> dict | None:
    body = _read(target, error_report_key(key))
    return json.loads(body) if body else None


def _read(target: Target, key: str) -> bytes | None:
    try:
        return target.s3.get_object(Bucket=target.source_bucket, Key=key)["Body"].read()
    except ClientError as error:
        if error.response["Error"]["Code"] in ("NoSuchKey", "404"):
            return None
        raise
