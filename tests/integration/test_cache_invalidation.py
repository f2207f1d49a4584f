"""CloudFront invalidation against moto's CloudFront over HTTP: a batch's changed paths go out in
one CreateInvalidation, from the render handler template.yaml names."""

import json

import pytest

from podpages.rebuild.request import RebuildRequest
from podpages.storage.distribution import Distribution
from support.catalogs import episode_document
from support.events import notification
from support.queue import deliver


@pytest.fixture
def distribution(local_aws, render_function, monkeypatch):
    cloudfront = local_aws.client("cloudfront")
    config = {
        "CallerReference": "podpages-test",
        "Comment": "podpages",
        "Enabled": True,
        "Origins": {
            "Quantity": 1,
            "Items": [
                {"Id": "site", "DomainName": "site.s3.amazonaws.com", "S3OriginConfig": {"OriginAccessIdentity": ""}}
            ],
        },
        "DefaultCacheBehavior": {"TargetOriginId": "site", "ViewerProtocolPolicy": "redirect-to-https"},
    }
    created = cloudfront.create_distribution(DistributionConfig=config)["Distribution"]["Id"]
    monkeypatch.setattr(render_function.publisher, "distribution", Distribution(cloudfront, created))
    return cloudfront, created


def invalidated(cloudfront, distribution_id: str) -> list[list[str]]:
    summaries = cloudfront.list_invalidations(DistributionId=distribution_id)["InvalidationList"].get("Items", [])
    return [
        cloudfront.get_invalidation(DistributionId=distribution_id, Id=summary["Id"])["Invalidation"][
            "InvalidationBatch"
        ]["Paths"]["Items"]
        for summary in summaries
    ]


def test_a_batch_invalidates_what_it_changed_in_one_request(stack, distribution):
    cloudfront, distribution_id = distribution
    for day in (1, 2):
        stack.upload(
            f"episodes/daily/e{day}.json", json.dumps(episode_document(f"E{day}", f"2026-01-0{day}T09:00:00Z"))
        )
    stack.upload("episodes/weekly/w1.json", json.dumps(episode_document("W1")))

    delivery = stack.deliver()

    [paths] = invalidated(cloudfront, distribution_id)
    assert delivery.invocations == 1 and delivery.failed == []
    assert {"/daily/e1/index.html", "/daily/e2/index.html", "/weekly/w1/index.html"} <= set(paths)
    assert {"/daily/feed.xml", "/weekly/feed.xml", "/sitemap.xml"} <= set(paths)
    assert {f"/{key}" for key in stack.keys(stack.site)} <= set(paths)  # a first publish wrote everything


def test_a_redelivered_event_invalidates_nothing(stack, distribution):
    cloudfront, distribution_id = distribution
    stack.upload("episodes/daily/e1.json", json.dumps(episode_document("E1")))
    stack.discard_pending()
    event = json.dumps(notification("episodes/daily/e1.json", "0067A1F0C3D2E1B4A9"))
    stack.sqs.send_message(QueueUrl=stack.queue_url, MessageBody=event)
    stack.deliver()

    stack.sqs.send_message(QueueUrl=stack.queue_url, MessageBody=event)  # at least once: the same event again
    stack.deliver()

    assert len(invalidated(cloudfront, distribution_id)) == 1


def test_a_rebuild_request_invalidates_the_pages_it_wrote(stack, distribution):
    cloudfront, distribution_id = distribution
    stack.upload("episodes/daily/e1.json", json.dumps(episode_document("E1")))
    stack.upload("episodes/daily/e2.json", json.dumps(episode_document("E2", "2026-01-02T09:00:00Z")))
    stack.deliver()
    published = invalidated(cloudfront, distribution_id)
    request = RebuildRequest("daily", ("e1",), listings=True)
    stack.sqs.send_message(QueueUrl=stack.rebuild_queue_url, MessageBody=request.message())

    delivery = deliver(stack.sqs, stack.rebuild_queue_url, stack.handler)

    [rebuilt] = [paths for paths in invalidated(cloudfront, distribution_id) if paths not in published]
    assert delivery.failed == []
    assert {"/daily/e1/index.html", "/daily/feed.xml", "/daily/index.html"} <= set(rebuilt)
    assert "/daily/e2/index.html" not in rebuilt  # not asked for, so not written
