"""`podpages status`: what waits in the render queue, what is in flight, what is left of a rebuild,
what the dead-letter queue holds, and the newest error reports."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from podpages.cli.targets import Target
from podpages.storage.error_reports import ErrorReport
from podpages.storage.source_bucket import SourceBucket

DEPTHS = ("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed")


@dataclass(frozen=True)
class Status:
    waiting: int | None
    in_flight: int | None
    delayed: int | None
    dead_letters: int | None
    errors: list[tuple[datetime, ErrorReport]]  # the newest, with when each was written
    error_count: int
    rebuilds: int | None = None  # rebuild requests not yet done with

    def lines(self) -> list[str]:
        def shown(value: int | None) -> str:
            return "unknown" if value is None else str(value)

        lines = [
            f"render queue: {shown(self.waiting)} waiting, {shown(self.in_flight)} in flight, "
            f"{shown(self.delayed)} delayed",
            f"rebuild queue: {shown(self.rebuilds)} requests left",
            f"dead-letter queue: {shown(self.dead_letters)} messages",
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
    error_count, errors = SourceBucket(target.s3, target.source_bucket).newest_error_reports(newest)
    return Status(waiting, in_flight, delayed, dead_letters, errors, error_count, rebuilds)


def queue_depths(sqs: Any, queue_url: str | None) -> tuple[int, int, int] | tuple[None, None, None]:
    """Waiting, in flight and delayed; all None when there is no such queue to ask."""
    if not queue_url:
        return None, None, None
    attributes = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=list(DEPTHS))["Attributes"]
    waiting, in_flight, delayed = (int(attributes.get(name, 0)) for name in DEPTHS)
    return waiting, in_flight, delayed
