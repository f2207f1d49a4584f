"""The rebuild queue: where a rebuild's requests wait for the render function. The one place that
sends to it, for the CLI and for the deploy-time rebuild alike."""

from collections.abc import Iterable
from typing import Any

from podpages.rebuild.request import RebuildRequest

SEND_BATCH = 10  # the most one SendMessageBatch takes


class QueueRefused(Exception):
    """SQS accepted the batch but refused some of its messages."""


class RebuildQueue:
    def __init__(self, client: Any, url: str):
        self.client = client
        self.url = url

    def send(self, requests: Iterable[RebuildRequest]) -> int:
        """Queue every request, ten to a call; how many were queued."""
        sent = 0
        batch: list[RebuildRequest] = []
        for request in requests:
            batch.append(request)
            if len(batch) == SEND_BATCH:
                sent += self._send_batch(batch)
                batch = []
        if batch:
            sent += self._send_batch(batch)
        return sent

    def _send_batch(self, batch: list[RebuildRequest]) -> int:
        entries = [{"Id": str(number), "MessageBody": request.message()} for number, request in enumerate(batch)]
        response = self.client.send_message_batch(QueueUrl=self.url, Entries=entries)
        if failed := response.get("Failed"):
            reasons = sorted({f"{entry['Code']}: {entry.get('Message', '')}" for entry in failed})
            raise QueueRefused(f"{len(failed)} of {len(batch)} rebuild messages refused: {'; '.join(reasons)}")
        return len(batch)
