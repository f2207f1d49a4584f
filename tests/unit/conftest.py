"""The unit tier's in-process S3 (moto's `mock_aws`), for the tests of the S3 adapter and what sits on it."""

import boto3
import pytest
from moto import mock_aws

from podpages.local.atomic_writes import make_writes_atomic
from podpages.storage.source_bucket import SourceBucket

make_writes_atomic()  # as S3's are: a conditional write's check and its write are one


@pytest.fixture
def s3(monkeypatch):
    """An S3 client with an empty `source-bucket` and `site-bucket`."""
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    # In process, on S3's own addresses: an endpoint a tier before this one left in the environment
    # would make the client address buckets by path, which routes keys differently.
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        for bucket in ("source-bucket", "site-bucket"):
            client.create_bucket(Bucket=bucket)
        yield client


@pytest.fixture
def source(s3) -> SourceBucket:
    return SourceBucket(s3, "source-bucket")
