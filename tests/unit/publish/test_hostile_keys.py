"""No upload key, however hostile, makes a message that cannot be consumed: a slug with a newline
is a contract error with its report, not a crash that returns the message until the dead-letter queue.

In-process S3, since moto's server cannot route a key with a newline; S3 itself takes any UTF-8 key."""

import json

import pytest

from podpages.publish.publisher import Publisher
from podpages.publish.render_function import handle_render_event
from podpages.settings import Settings
from podpages.storage.error_reports import ErrorReport
from podpages.storage.site_bucket import SiteBucket
from support.catalogs import episode_document
from support.events import notification


@pytest.mark.parametrize("key", ["shows/api\n.json", "shows/s\n.json", "episodes/s\n/ep.json", "episodes/s/ep\n.json"])
def test_a_slug_with_a_newline_gets_an_error_report_and_publishes_nothing(s3, source, key):
    # Given an upload whose key carries a newline in a slug
    s3.put_object(Bucket="source-bucket", Key=key, Body=json.dumps(episode_document("Hostile")).encode())
    publisher = Publisher(source, SiteBucket(s3, "site-bucket"), Settings(site_url="https://example.com"))

    # When its notification reaches the render function
    handle_render_event(notification(key, "0A", bucket="source-bucket"), publisher)

    # Then the upload is reported, naming its key, and nothing is published
    report = source.read_error_report(key)
    assert isinstance(report, ErrorReport)
    assert [problem.field for problem in report.problems] == ["key"]
    assert (source.list_shows(), s3.list_objects_v2(Bucket="site-bucket")["KeyCount"]) == (set(), 0)
