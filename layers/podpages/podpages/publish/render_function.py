"""What the render function does with its event: S3 notifications, in SQS batches or direct,
and rebuild requests from the rebuild queue.

From a queue, every message is read first; then each show is published once for the whole
batch, so a back-fill rebuilds a show's feed once per batch, not once per upload. A show
that fails marks only the messages that touched it, which SQS delivers again. So does a show
whose publish would start too late to end before the invocation's timeout (`SHOW_SECONDS`):
a batch of many shows, each waiting out another invocation's lease, would otherwise run out of
time, and every message of the batch would come back, the published shows' too.
"""

import math
import sys
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes import SQSRecord

from podpages.errors import ContractError, OutOfTime
from podpages.observability import MetricUnit, logger, metrics
from podpages.publish.publisher import Publisher, Read, correlation_keys, group_by_show
from podpages.publish.show_lease import WAIT_SECONDS
from podpages.publish.upload_events import MalformedNotification, message_events, upload_events
from podpages.rebuild.request import RebuildRequest, rebuild_request

# The least time left in which a show's publish is begun: the wait for a busy show's lease, and
# room to spare for the publish itself (a removal from a show of 100,000 episodes takes 0.8 s on
# the CPU share of the function's 1,024 MB; a back-fill's batch of 100 uploads, 4 s).
SHOW_SECONDS = WAIT_SECONDS + 40

type SecondsLeft = Callable[[], float]  # how long the invocation has before its timeout


def no_timeout() -> float:
    """The time left of a call that has no timeout: one outside Lambda."""
    return math.inf


def handle_render_event(
    event: dict[str, Any], publisher: Publisher, seconds_left: SecondsLeft = no_timeout
) -> PartialItemFailureResponse | dict[str, Any]:
    records = event.get("Records") or []
    # Every event counts its records, so that one which changes nothing (an upload gone when read,
    # a show that stays busy) still has a metric to publish, and powertools warns of none missing.
    metrics.add_metric(name="RenderMessages", unit=MetricUnit.Count, value=len(records))
    if records and records[0].get("eventSource") == "aws:sqs":
        return handle_queue_batch(event, publisher, seconds_left)
    try:
        publisher.publish(read for upload in upload_events(event) if (read := publisher.read(upload)))
    finally:
        publisher.announce()
    return {}


def handle_queue_batch(
    event: dict[str, Any], publisher: Publisher, seconds_left: SecondsLeft
) -> PartialItemFailureResponse:
    # A batch whose every message failed (a lone upload whose show stays busy, a rebuild request,
    # which come one at a time) is reported like any other: SQS redelivers what failed. Raising
    # would make it an invocation error, which means a crash or a timeout.
    processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)
    reads: list[tuple[SQSRecord, Read]] = []  # each read with the message it came in
    rebuilds: list[tuple[SQSRecord, RebuildRequest]] = []

    def read_message(record: SQSRecord) -> None:
        try:
            if (request := rebuild_request(record.body)) is not None:
                rebuilds.append((record, request))
                return
            uploads = message_events(record.body)
        except (MalformedNotification, ContractError) as error:
            logger.error("message dropped: malformed", message_id=record.message_id, reason=str(error))
            metrics.add_metric(name="MalformedMessages", unit=MetricUnit.Count, value=1)
            return
        with logger.append_context_keys(message_id=record.message_id):
            for upload in uploads:
                if read := publisher.read(upload):
                    reads.append((record, read))

    with processor(records=event["Records"], handler=read_message):
        processor.process()
        for show, show_reads in group_by_show(read for _record, read in reads).items():
            try:
                if (left := seconds_left()) < SHOW_SECONDS:
                    raise OutOfTime(f"{left:.0f} s left of the invocation, where a publish begins with {SHOW_SECONDS}")
                publisher.publish_show(show, show_reads)
            except Exception:  # any failure is retried by SQS; the batch processor logs it
                failure = sys.exc_info()
                logger.exception(
                    "show not published; its messages return to the queue",
                    extra={"show": show, **correlation_keys(show_reads)},
                )
                touched = {record.message_id: record for record, read in reads if read.change.source.show == show}
                for record in touched.values():
                    processor.failure_handler(record, failure)
        for record, request in rebuilds:
            try:
                publisher.rebuild(request)
            except Exception:  # as above: SQS delivers the request again
                logger.exception("rebuild failed; its message returns to the queue", show=request.show)
                processor.failure_handler(record, sys.exc_info())
        publisher.announce(news=bool(reads))  # once per batch, for every show it changed
    return processor.response()
