"""Reading S3 notifications, from the files in events/ and from what S3 and moto actually send."""

import json

import pytest

from podpages.publish.upload_events import MalformedNotification, UploadEvent, message_events, upload_events
from support.events import load_event


def test_a_direct_put_event_reads_as_an_upload():
    assert upload_events(load_event("s3-put-episode.json")) == [
        UploadEvent(
            key="episodes/pytorch/backend-flexibility-revolution.json",
            removed=False,
            sequencer="0067A1F0C3D2E1B4A9",
            time="2026-01-28T11:06:02.000Z",
        )
    ]


def test_a_delete_event_reads_as_a_removal():
    (event,) = upload_events(load_event("s3-delete-episode.json"))

    assert event.removed and event.sequencer == "0067A1F0C3D2E1B4B0"


def test_an_sqs_message_carries_the_same_upload_as_the_direct_event():
    body = load_event("sqs-put-episode.json")["Records"][0]["body"]

    assert message_events(body) == upload_events(load_event("s3-put-episode.json"))


def test_keys_arrive_url_encoded():
    event = load_event("s3-put-episode.json")
    event["Records"][0]["s3"]["object"]["key"] = "episodes/my+show/caf%C3%A9+%2B+more.json"

    assert upload_events(event)[0].key == "episodes/my show/café + more.json"


def test_an_event_without_a_sequencer_still_reads():
    event = load_event("s3-put-episode.json")
    del event["Records"][0]["s3"]["object"]["sequencer"]

    assert upload_events(event)[0].sequencer is None


def test_the_test_event_s3_sends_first_reports_no_uploads():
    test_event = {"Service": "Amazon S3", "Event": "s3:TestEvent", "Time": "2026-01-28T11:00:00.000Z", "Bucket": "b"}

    assert message_events(json.dumps(test_event)) == []


@pytest.mark.parametrize("body", ["not json", "[1]", '{"Records": "nope"}', '{"Records": [{"s3": {}}]}', "{}"])
def test_a_message_that_is_not_a_notification_is_malformed(body):
    with pytest.raises(MalformedNotification):
        message_events(body)
