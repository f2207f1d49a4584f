"""`podpages status`: what waits in the render queue, what is in flight, what is left of a rebuild,
what the dead-letter queue holds, the shows' leases, and the newest error reports."""

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Self

from podpages.cli.targets import Target
from podpages.storage.error_reports import ErrorReport
from podpages.storage.held_lease import HeldLease
from podpages.storage.s3 import Stored
from podpages.storage.source_bucket import SourceBucket, lease_key

DEPTHS = ("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed")


@dataclass(frozen=True)
class ShowLease:
    """A show's lease in place (`publish.show_lease`): held by a publish or a rebuild at work, or
    left behind, expired, by one that failed or was cut short, for the show's next to take over."""

    show: str
    held: bool  # its time has not yet run out
    ahead: bool  # it records pages its holder may have written ahead of the show's catalog
    expires: datetime

    @classmethod
    def of(cls, show: str, stored: Stored, now: datetime) -> Self:
        lease = HeldLease.stored(lease_key(show), stored.etag, stored.body)
        expires = datetime.fromtimestamp(lease.expires, UTC)
        return cls(show, expires > now, bool(lease.ahead), expires)

    def line(self) -> str:
        if self.held:
            until = self.expires.isoformat(timespec="seconds")
            return f"  {self.show}: held by a publish or rebuild at work, until {until}"
        if self.ahead:
            return (
                f"  {self.show}: a publish failed or was cut short, and may have left pages ahead of the "
                f"catalog; the show's next publish writes them again, as does `podpages rebuild --show {self.show}`"
            )
        return (
            f"  {self.show}: expired, left by a publish or rebuild that did not end; "
            "the show's next publish takes it over"
        )


@dataclass(frozen=True)
class Status:
    waiting: int | None
    in_flight: int | None
    delayed: int | None
    dead_letters: int | None
    errors: list[tuple[datetime, ErrorReport]]  # the newest, with when each was written
    error_count: int
    rebuilds: int | None = None  # rebuild requests not yet done with
    leases: list[ShowLease] = field(default_factory=list)

    def lines(self) -> list[str]:
        def shown(value: int | None) -> str:
            return "unknown" if value is None else str(value)

        lines = [
            f"render queue: {shown(self.waiting)} waiting, {shown(self.in_flight)} in flight, "
            f"{shown(self.delayed)} delayed",
            f"rebuild queue: {shown(self.rebuilds)} requests left",
            f"dead-letter queue: {shown(self.dead_letters)} messages",
            f"show leases: {len(self.leases)}",
            *(lease.line() for lease in self.leases),
            f"error reports: {self.error_count}" + (", newest first:" if self.errors else ""),
        ]
        for written, report in self.errors:
            lines.append(f"  {written.isoformat()}  {report.key}")
            lines += [f"    {problem}" for problem in report.problems]
        return lines


def status(target: Target, newest: int = 5) -> Status:
    waiting, in_flight, delayed = queue_depths(target.sqs, target.queue_url)
    dead_letters = queue_depths(target.sqs, target.dead_letter_queue_url)[0]
    rebuild_depths = queue_depths(target.sqs, target.rebuild_queue_url)
    rebuilds = None if rebuild_depths[0] is None else sum(rebuild_depths)
    source = SourceBucket(target.s3, target.source_bucket)
    error_count, errors = source.newest_error_reports(newest)
    return Status(waiting, in_flight, delayed, dead_letters, errors, error_count, rebuilds, show_leases(source))


def show_leases(source: SourceBucket, now: datetime | None = None) -> list[ShowLease]:
    """The shows' leases in place, by show."""
    now = now or datetime.now(UTC)
    return [ShowLease.of(show, stored, now) for show, stored in sorted(source.leases().items())]


def queue_depths(sqs: Any, queue_url: str | None) -> tuple[int, int, int] | tuple[None, None, None]:
    """Waiting, in flight and delayed; all None when there is no such queue to ask."""
    if not queue_url:
        return None, None, None
    attributes = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=list(DEPTHS))["Attributes"]
    waiting, in_flight, delayed = (int(attributes.get(name, 0)) for name in DEPTHS)
    return waiting, in_flight, delayed
