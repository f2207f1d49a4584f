"""A message the render function cannot finish is an item failure that SQS redelivers, never an
invocation error (which the README says means a crash or a timeout and which fires
RenderErrorsAlarm)."""

import functools
import json

import pytest
from botocore.exceptions import ClientError

from podpages.publish.show_lease import show_lease
from podpages.rebuild.request import RebuildRequest
from podpages.storage.source_bucket import SourceBucket
from support.catalogs import episode_document
from support.queue import deliver


@pytest.fixture
def impatient_lease(render_function, monkeypatch):
    """The handler's lease, waiting a fifth of a second for a busy show instead of twenty."""
    monkeypatch.setattr(render_function.publisher, "lease", functools.partial(show_lease, wait=0.2))


def test_a_lone_upload_whose_show_stays_busy_is_an_item_failure_not_an_error(stack, impatient_lease):
    # Given a show whose lease another invocation holds for another minute
    lease = json.dumps({"holder": "another invocation", "expires": 4_102_444_800}).encode()
    SourceBucket(stack.s3, stack.source).write_lease("busy", lease, None)
    stack.upload("episodes/busy/one.json", json.dumps(episode_document("Busy")))

    # When the upload's message comes alone, as a batch of one
    delivery = deliver(stack.sqs, stack.queue_url, stack.handler, batch_size=1)

    # Then the function reports the message as failed, for SQS to deliver again, and does not raise
    assert (len(delivery.failed), delivery.errors) == (1, [])


def test_a_rebuild_request_that_fails_is_an_item_failure_not_an_error(stack, render_function):
    # Given a published show, and a rebuild request for it on the rebuild queue (batches of one)
    stack.upload("episodes/show/one.json", json.dumps(episode_document("One")))
    assert stack.deliver().failed == []
    request = RebuildRequest("show", ("one",), listings=True)
    stack.sqs.send_message(QueueUrl=stack.rebuild_queue_url, MessageBody=request.message())

    # When every write to the site fails
    def unavailable(params, **_):
        raise ClientError({"Error": {"Code": "ServiceUnavailable", "Message": "try again"}}, "PutObject")

    events = render_function.s3.meta.events
    events.register("before-parameter-build.s3.PutObject", unavailable, unique_id="unavailable")
    try:
        delivery = deliver(stack.sqs, stack.rebuild_queue_url, stack.handler, batch_size=1)
    finally:
        events.unregister("before-parameter-build.s3.PutObject", unique_id="unavailable")

    # Then the request is reported as failed, and the invocation itself succeeds
    assert (len(delivery.failed), delivery.errors) == (1, [])
