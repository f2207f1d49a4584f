"""What the notify function does with a batch from the notify queue: every message's URLs, each
once, sent to every configured endpoint; then each outcome logged and counted by kind.

An endpoint's refusal (4xx) is its final word: logged with its body, counted, and not retried.
When an endpoint failed (5xx) or never answered through every attempt, the whole batch goes back
to the queue, and after the queue's receive count to its dead-letter queue, under an alarm. A retry
sends the batch again, to those that took it too: a WebSub publish, a ping and an IndexNow
submission may be repeated, and mean no more the second time.
"""

from collections import Counter
from typing import Any

from aws_lambda_powertools.metrics import single_metric
from aws_lambda_powertools.metrics.functions import is_metrics_disabled

from podpages.notify.notification import Notification
from podpages.notify.sender import Outcome, Sender
from podpages.observability import MetricUnit, logger, metrics


def handle_notify_event(event: dict[str, Any], sender: Sender) -> dict[str, Any]:
    records = event.get("Records") or []
    combined = Notification((), ())
    for record in records:
        try:
            combined |= Notification.from_json(record["body"])
        except ValueError as error:  # JSONDecodeError too: bad data does not heal
            logger.error("message dropped: malformed", message_id=record.get("messageId"), reason=str(error))
            metrics.add_metric(name="MalformedMessages", unit=MetricUnit.Count, value=1)
    metrics.add_metric(name="NotificationMessages", unit=MetricUnit.Count, value=len(records))
    outcomes = sender.send(combined)
    count(outcomes)
    for outcome in outcomes:
        if not outcome.sent:
            logger.warning(
                "notification not sent" + ("; the batch will be retried" if outcome.retryable else ": refused"),
                kind=outcome.kind,
                url=outcome.url,
                status=outcome.status,
                attempts=outcome.attempts,
                detail=outcome.detail,
            )
    logger.info("notifications sent", feeds=len(combined.feeds), pages=len(combined.pages), calls=len(outcomes))
    if any(outcome.retryable for outcome in outcomes):
        return {"batchItemFailures": [{"itemIdentifier": record["messageId"]} for record in records]}
    return {"batchItemFailures": []}


def count(outcomes: list[Outcome]) -> None:
    """NotificationsSent and NotificationsFailed, with the kind (websub, ping, indexnow) as a dimension.
    Each is a metric of its own, since one EMF line's dimensions hold for all its metrics; unlike the
    shared `metrics`, a single metric is printed whether or not POWERTOOLS_METRICS_DISABLED is set."""
    if is_metrics_disabled():
        return
    tally = Counter((outcome.kind, outcome.sent) for outcome in outcomes)
    for (kind, sent), calls in sorted(tally.items()):
        name = "NotificationsSent" if sent else "NotificationsFailed"
        with single_metric(name=name, unit=MetricUnit.Count, value=calls) as metric:
            metric.add_dimension(name="kind", value=kind)
