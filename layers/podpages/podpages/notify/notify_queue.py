"""The notify queue: where the render function leaves what each batch changed, for the notify
function to send. Queueing is all the publish pays for telling the world; no outbound call can slow
it or fail it."""

from typing import Any

from podpages.notify.notification import Notification

MESSAGE_URLS = 1000  # URLs to a message at most, well inside SQS's 256 KiB for URLs of any length the paths allow


class NotifyQueue:
    def __init__(self, sqs: Any, url: str):
        self.sqs = sqs
        self.url = url

    def send(self, notification: Notification) -> None:
        """One message for the batch; more only when it changed more URLs than one message holds."""
        for part in notification.parts(MESSAGE_URLS):
            self.sqs.send_message(QueueUrl=self.url, MessageBody=part.to_json())
