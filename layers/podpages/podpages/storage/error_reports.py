"""Error reports: `errors/<key>.json` beside a rejected upload, naming every bad field.

The render function writes them; `podpages publish` and `podpages status` read them. This one
type is the file's format for all three.
"""

import hashlib
import json
from dataclasses import dataclass

from podpages.contract.source_keys import ERRORS_PREFIX
from podpages.errors import Problem

MAX_KEY_BYTES = 1024  # S3's limit on an object key, in UTF-8
REPORT_SUFFIX = ".json"


@dataclass(frozen=True)
class ErrorReport:
    key: str  # the upload's
    event_time: str | None  # of the upload event the report answers, when it named one
    problems: tuple[Problem, ...]

    def to_json(self) -> bytes:
        problems = [{"field": problem.field, "message": problem.message} for problem in self.problems]
        report = {"key": self.key, "event_time": self.event_time, "problems": problems}
        return json.dumps(report, indent=2, ensure_ascii=False).encode()

    @classmethod
    def from_json(cls, body: bytes) -> "ErrorReport":
        report = json.loads(body)
        problems = tuple(Problem(problem["field"], problem["message"]) for problem in report["problems"])
        return cls(report["key"], report.get("event_time"), problems)


def error_report_key(key: str) -> str:
    """`errors/<key>.json`. An upload key too long for that to fit S3's limit keeps as much of
    its start as fits, then a hash of the whole, so that its report is still written."""
    report = f"{ERRORS_PREFIX}{key}{REPORT_SUFFIX}"
    if len(report.encode()) <= MAX_KEY_BYTES:
        return report
    digest = hashlib.sha256(key.encode()).hexdigest()
    room = MAX_KEY_BYTES - len(ERRORS_PREFIX) - len(REPORT_SUFFIX) - len(digest) - 1
    start = key.encode()[:room].decode(errors="ignore")  # never half a character
    return f"{ERRORS_PREFIX}{start}-{digest}{REPORT_SUFFIX}"
