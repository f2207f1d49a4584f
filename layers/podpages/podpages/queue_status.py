"""`podpages status`: what waits in the render queue, what is in flight, what is left of a rebuild,
what the dead-letter queue holds, and the newest error reports."""

import json
from dataclasses import dataclass

from podpages.source_keys import ERRORS_PREFIX
from podpages.targets import Target

DEPTHS = ("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed")


@dataclass(frozen=True)
class ErrorReport:
    key: str
    written: str
    problems: list[str]


@dataclass(frozen=True)
class Status:
    waiting: int | None
    in_flight: int | None
    delayed: int | None
    dead_letters: int | None
    errors: list[ErrorReport]
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
        for report in self.errors:
            lines.append(f"  {report.written}  {report.key}")
            lines += [f"    {problem}" for problem in report.problems]
        return lines


def status(target: Target, newest: int = 5) -> Status:
    waiting, in_flight, delayed = queue_depths(target.sqs, target.queue_url)
    dead_letters = queue_depths(target.sqs, target.dead_letter_queue_url)[0]
    rebuild_depths = queue_depths(target.sqs, target.rebuild_queue_url)
    rebuilds = None if rebuild_depths[0] is None else sum(rebuild_depths)
    listed = [
        item
        for page in target.s3.get_paginator("list_objects_v2").paginate(
            Bucket=target.source_bucket, Prefix=ERRORS_PREFIX
        )
        for item in page.get("Contents", [])
    ]
    listed.sort(key=lambda item: item["LastModified"], reverse=True)
    reports = []
    for item in listed[:newest]:
        report = json.loads(target.s3.get_object(Bucket=target.source_bucket, Key=item["Key"])["Body"].read())
        problems = [f"{problem['field']}: {problem['message']}" for problem in report.get("problems", [])]
        reports.append(ErrorReport(report.get("key", item["Key"]), item["LastModified"].isoformat(), problems))
    return Status(waiting, in_flight, delayed, dead_letters, reports, len(listed), rebuilds)


def queue_depths(sqs, queue_url: str | None) -> tuple[int | None, int | None, int | None]:
    if not queue_url:
        return None, None, None
    attributes = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=list(DEPTHS))["Attributes"]
    waiting, in_flight, delayed = (int(attributes.get(name, 0)) for name in DEPTHS)
    return waiting, in_flight, delayed
