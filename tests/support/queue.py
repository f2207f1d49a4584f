"""Delivers a queue's messages to a handler the way the Lambda SQS event source mapping does:
in batches, with failed messages reported back returning to the queue."""

from dataclasses import dataclass, field

from support.lambda_context import LambdaContext

QUEUE_ARN = "arn:aws:sqs:us-east-1:123456789012:{name}"


@dataclass
class Delivery:
    invocations: int = 0
    delivered: int = 0
    failed: list[str] = field(default_factory=list)  # message ids reported as failures


def sqs_event(messages: list[dict], queue_arn: str) -> dict:
    return {
        "Records": [
            {
                "messageId": message["MessageId"],
                "receiptHandle": message["ReceiptHandle"],
                "body": message["Body"],
                "attributes": message.get("Attributes", {}),
                "messageAttributes": {},
                "md5OfBody": message["MD5OfBody"],
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": "us-east-1",
            }
            for message in messages
        ]
    }


def deliver(sqs, queue_url: str, handler, batch_size: int = 10, max_rounds: int = 50) -> Delivery:
    """Receive and hand over batches until the queue is empty or only failing messages remain."""
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    delivery = Delivery()
    for _round in range(max_rounds):
        messages = sqs.receive_message(
            QueueUrl=queue_url, MaxNumberOfMessages=batch_size, AttributeNames=["All"], WaitTimeSeconds=0
        ).get("Messages", [])
        if not messages:
            break
        response = handler(sqs_event(messages, queue_arn), LambdaContext())
        delivery.invocations += 1
        failed = {failure["itemIdentifier"] for failure in response.get("batchItemFailures", [])}
        for message in messages:
            if message["MessageId"] in failed:
                delivery.failed.append(message["MessageId"])
                sqs.change_message_visibility(
                    QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"], VisibilityTimeout=0
                )
            else:
                delivery.delivered += 1
                sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])
        if failed:
            break
    return delivery
