"""The local CloudFront rewrites directory URLs exactly as the template's CloudFront function does:
the function's own JavaScript runs under Node.js against the same URIs."""

import json
import shutil
import subprocess

import pytest

from podpages.local import template
from podpages.local.cdn import directory_index

URIS = [
    "/",
    "/pytorch/",
    "/pytorch",
    "/pytorch/backend-flexibility-revolution",
    "/pytorch/backend-flexibility-revolution/",
    "/pytorch/feed.xml",
    "/pytorch/2026",
    "/sitemap.xml",
    "/robots.txt",
    "/cover.png",
    "/pytorch/seed/transcript.txt",
    "/a.b/c",
    "/a/b.c/",
]


def test_the_directory_index_rewrite_is_the_cloudfront_function_s():
    node = shutil.which("node")
    if node is None:
        pytest.skip("SKIPPED: Node.js is missing, so the CloudFront function was NOT run; install nodejs")
    script = template.directory_index_code() + (
        "\nconst uris = JSON.parse(process.argv[1]);"
        "\nconsole.log(JSON.stringify(uris.map((uri) => handler({request: {uri}}).uri)));"
    )

    result = subprocess.run([node, "-e", script, json.dumps(URIS)], capture_output=True, text=True, check=True)

    assert [directory_index(uri) for uri in URIS] == json.loads(result.stdout)
