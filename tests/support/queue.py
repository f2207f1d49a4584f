"""Delivers a queue's messages to a handler the way the Lambda SQS event source mapping does, with
failed messages made visible again at once so that a test need not wait out the visibility timeout."""

from podpages.local.event_source import Delivery, EventSourceMapping, sqs_event
from support.lambda_context import LambdaContext

__all__ = ["Delivery", "deliver", "sqs_event"]


def deliver(sqs, queue_url: str, handler, batch_size: int = 10, max_rounds: int = 50) -> Delivery:
    """Receive and hand over batches until the queue is empty or a batch reports a failure."""
    mapping = EventSourceMapping(
        sqs, queue_url, lambda event: handler(event, LambdaContext()), batch_size=batch_size, retry_at_once=True
    )
    return mapping.drain(max_rounds)
