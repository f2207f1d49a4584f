"""`podpages demo` end to end, as a new user meets it: its own process, the sample catalogue
published through S3, SQS and the render function, the site and the API over HTTP, episodes of
our own published and unpublished with the CLI, and Ctrl-C leaving nothing behind."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from datetime import datetime, timedelta

import boto3
import pytest
from lxml import html

from support.catalogs import episode_document
from support.demo import Demo, eventually, http_get
from support.local_aws import free_port
from support.paths import EXAMPLES

LOCAL = {"aws_access_key_id": "local", "aws_secret_access_key": "local"}

SEED = "backend-flexibility-revolution"
SEED_PAGE = f"/pytorch/{SEED}/"
NEW = "right-after-the-seed"
NEW_PAGE = f"/pytorch/{NEW}/"


@pytest.fixture(scope="module")
def demo():
    with Demo("--batching-window", "0.5", "--notify-recorder") as running:
        yield running


def nearby_titles(page: bytes) -> list[str]:
    return html.fromstring(page).xpath("//section[@aria-labelledby='nearby']//a/text()")


def api_slugs(demo: Demo, episode: str) -> list[str] | None:
    status, _headers, body = demo.get(f"/api/shows/pytorch/episodes/{episode}/nearby")
    return [item["slug"] for item in json.loads(body)["items"]] if status == 200 else None


def write_episode(folder, slug: str, document: dict):
    path = folder / "episodes" / "pytorch" / f"{slug}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    return path


def test_the_demo_publishes_the_examples_and_serves_them_as_cloudfront_would(demo):
    status, headers, page = demo.get(SEED_PAGE)
    no_slash = demo.get(SEED_PAGE.rstrip("/"))[0]
    feed = demo.get("/pytorch/feed.xml")
    missing = demo.get("/pytorch/no-such-episode/")[0]

    assert "27 published, 0 unpublished, 0 rejected, 0 pending" in "\n".join(demo.output)
    assert (status, no_slash, missing) == (200, 200, 404)
    assert headers["Content-Type"] == "text/html; charset=utf-8" and headers["Cache-Control"].startswith("public")
    assert headers["X-Content-Type-Options"] == "nosniff" and "default-src 'none'" in headers["Content-Security-Policy"]
    assert b"<h1>PyTorch: Backend Flexibility Revolution</h1>" in page
    assert feed[0] == 200 and feed[1]["Content-Type"] == "application/rss+xml; charset=utf-8"
    assert demo.get("/sitemap.xml")[0] == demo.get("/robots.txt")[0] == 200


def test_the_api_answers_under_api_as_the_http_api_would(demo):
    status, headers, body = demo.get(f"/api/shows/pytorch/episodes/{SEED}/nearby?limit=3")
    fragment = demo.get(f"/api/shows/pytorch/episodes/{SEED}/nearby", {"Accept": "text/html"})
    etag = demo.get(f"/api/shows/pytorch/episodes/{SEED}/nearby?limit=3", {"If-None-Match": headers["ETag"]})
    off_route = demo.get("/api/shows/pytorch")

    assert status == 200 and len(json.loads(body)["items"]) == 3
    assert fragment[0] == 200 and fragment[2].decode() in demo.get(SEED_PAGE)[2].decode()
    assert etag[0] == 304
    assert off_route[0] == 404 and json.loads(off_route[2]) == {"message": "Not Found"}


def told(demo: Demo, what: str, url: str) -> int:
    """How many calls the demo's notify recorder printed of `what`, naming `url`."""
    return sum(line.startswith(f"notify recorder: {what}") and url in line.split() for line in demo.output)


def test_an_episode_of_our_own_appears_everywhere_then_unpublishing_removes_it(demo, tmp_path):
    seed = json.loads((EXAMPLES / "episodes" / "pytorch" / f"{SEED}.json").read_text())
    published = datetime.fromisoformat(seed["published"]) + timedelta(minutes=1)
    path = write_episode(tmp_path, NEW, episode_document("Right After the Seed", published.isoformat()))

    published_run = demo.cli("publish", str(path))

    assert published_run.returncode == 0, published_run.stdout + published_run.stderr
    assert "1 published, 0 unpublished, 0 rejected, 0 pending" in published_run.stdout
    assert demo.get(NEW_PAGE)[0] == 200
    assert "Right After the Seed" in nearby_titles(demo.get(SEED_PAGE)[2])
    # The listings are written just after the catalog's commit, which is what the command waits for
    # (so that no feed lists an episode whose publish failed): they follow within moments.
    assert eventually(lambda: b"Right After the Seed" in demo.get("/pytorch/feed.xml")[2])
    assert eventually(lambda: b"/pytorch/right-after-the-seed/" in demo.get("/pytorch/sitemap.xml")[2])
    assert eventually(lambda: NEW in (api_slugs(demo, SEED) or [])), "the API never listed the new episode"
    # The recorder stands in for the hubs, ping endpoints and IndexNow, and prints what they were told.
    assert eventually(lambda: told(demo, "IndexNow POST", f"{demo.url}{NEW_PAGE}") == 1)
    # (test_notifications counts the calls of one publish; the demo's own examples race this one here.)
    assert told(demo, "WebSub publish", f"{demo.url}/pytorch/feed.xml") >= 1

    removed_run = demo.cli("unpublish", f"episodes/pytorch/{NEW}.json")

    assert removed_run.returncode == 0, removed_run.stdout + removed_run.stderr
    assert "0 published, 1 unpublished" in removed_run.stdout
    assert demo.get(NEW_PAGE)[0] == 404
    assert "Right After the Seed" not in nearby_titles(demo.get(SEED_PAGE)[2])
    assert eventually(lambda: b"Right After the Seed" not in demo.get("/pytorch/feed.xml")[2])
    assert eventually(lambda: api_slugs(demo, NEW) is None and NEW not in (api_slugs(demo, SEED) or []))


def test_a_malformed_episode_is_rejected_with_its_reasons_and_never_sent(demo, tmp_path):
    document = episode_document("", "2026-02-01T10:00:00", duration="four minutes")
    path = write_episode(tmp_path, "malformed", document)

    run = demo.cli("publish", str(path))

    assert run.returncode == 1
    assert f"{path}: title: " in run.stdout and f"{path}: published: " in run.stdout
    assert f"{path}: duration: " in run.stdout
    assert "0 published, 0 unpublished, 1 rejected, 0 pending" in run.stdout
    assert demo.get("/pytorch/malformed/")[0] == 404


def test_what_only_the_render_function_can_judge_comes_back_from_its_error_report(demo, tmp_path):
    first = write_episode(tmp_path / "first", "fixed-guid", episode_document("Fixed GUID", guid="guid-one"))
    second = write_episode(tmp_path / "second", "fixed-guid", episode_document("Fixed GUID", guid="guid-two"))
    assert demo.cli("publish", str(first)).returncode == 0

    run = demo.cli("publish", str(second))
    status = demo.cli("status")

    assert run.returncode == 1
    assert f"{second}: guid: was 'guid-one' at first publish and cannot change" in run.stdout
    assert status.returncode == 0
    assert "render queue: 0 waiting, 0 in flight" in status.stdout
    assert "dead-letter queue: 0 messages" in status.stdout
    assert "show leases: 0" in status.stdout  # every publish released its show's
    assert "episodes/pytorch/fixed-guid.json" in status.stdout and "guid: was 'guid-one'" in status.stdout


def test_the_cli_says_so_when_no_stack_answers(tmp_path):
    path = write_episode(tmp_path, "nowhere", episode_document("Nowhere"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"

    run = Demo.cli_at(closed, "publish", str(path))

    assert run.returncode == 2 and "is `make demo` running?" in run.stderr


def test_ctrl_c_stops_the_demo_and_frees_its_ports():
    demo = Demo("--no-examples", "--batching-window", "0.5")
    with demo:
        assert demo.get("/sitemap.xml")[0] == 404  # nothing published yet

        code = demo.stop()

    assert code == 0 and demo.output[-1] == "stopped."
    for port in (demo.port, demo.aws_port):
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_the_demo_keeps_s3_and_sqs_on_127_0_0_1_whatever_host_the_site_is_served_on():
    # Given a demo whose site and API are served on another loopback address
    if not _bindable("127.0.0.2"):
        pytest.skip("this system routes no loopback address but 127.0.0.1")
    with Demo("--host", "127.0.0.2", "--no-examples", "--batching-window", "0.5") as demo:
        # When moto's port is tried on both addresses
        answers = {address: _answers(address, demo.aws_port) for address in ("127.0.0.1", "127.0.0.2")}

    # Then S3 and SQS answer on 127.0.0.1 alone
    assert answers == {"127.0.0.1": True, "127.0.0.2": False}


def test_serve_runs_the_local_cloudfront_and_api_on_their_own(demo):
    port = free_port()
    command = [sys.executable, "-m", "podpages.cli.main", "serve", "--port", str(port), "--endpoint-url", demo.endpoint]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    served = f"http://127.0.0.1:{port}"
    try:
        page = eventually(lambda: _status(served + SEED_PAGE) == 200, within=30)
        api = http_get(f"{served}/api/shows/pytorch/episodes/{SEED}/nearby")
    finally:
        server.send_signal(signal.SIGINT)
        code = server.wait(20)

    assert page and api[0] == 200
    assert json.loads(api[2])["episode"]["url"] == f"http://127.0.0.1:{port}{SEED_PAGE}"
    assert code == 0


def test_status_reads_a_deployed_stack_named_by_its_outputs(demo):
    run = _cli_on_deployed_stack(demo, "podpages-status-test", "status")

    assert run.returncode == 0, run.stderr
    assert "render queue: 0 waiting, 0 in flight, 0 delayed" in run.stdout
    assert "rebuild queue: 0 requests left" in run.stdout


def test_rebuild_of_a_deployed_stack_fans_out_over_its_queue_and_waits_for_it(demo):
    before = _last_modified(demo, "pytorch/backend-flexibility-revolution/index.html")
    time.sleep(1.1)  # Last-Modified counts whole seconds

    run = _cli_on_deployed_stack(demo, "podpages-rebuild-test", "rebuild", "--all", "--wait", "60")

    assert run.returncode == 0, run.stdout + run.stderr
    # Each show's pages, each show's listings, and the site's own files.
    # Other tests here add episodes of their own, so the page count is left open.
    assert re.search(r"^rebuilt 7 requests for 3 shows \(\d+ episode pages and their listings\) in ", run.stdout)
    assert _last_modified(demo, "pytorch/backend-flexibility-revolution/index.html") > before
    assert "message(s) from RebuildQueue" in "\n".join(demo.output)


def test_rebuild_of_a_show_that_is_not_published_says_so_and_queues_nothing(demo):
    run = demo.cli("rebuild", "--show", "pytorch", "--show", "no-such-show", "--wait", "0")

    assert run.returncode == 2
    assert "podpages: show 'no-such-show' has no catalog" in run.stderr
    assert "rebuild queue: 0 requests left" in demo.cli("status").stdout


def _cli_on_deployed_stack(demo: Demo, name: str, *arguments: str) -> subprocess.CompletedProcess:
    """The CLI with `--stack`, against a stack in the local CloudFormation whose outputs name the demo's resources."""
    cloudformation = boto3.client("cloudformation", endpoint_url=demo.endpoint, region_name="us-east-1", **LOCAL)
    sqs = boto3.client("sqs", endpoint_url=demo.endpoint, region_name="us-east-1", **LOCAL)
    outputs = {
        "SourceBucketName": "podpages-source-local",
        "SiteBucketName": "podpages-site-local",
        "RenderQueueUrl": sqs.get_queue_url(QueueName="podpages-render-queue")["QueueUrl"],
        "RenderDeadLetterQueueUrl": sqs.get_queue_url(QueueName="podpages-render-dlq")["QueueUrl"],
        "RebuildQueueUrl": sqs.get_queue_url(QueueName="podpages-rebuild-queue")["QueueUrl"],
    }
    stack = {
        "Resources": {"Placeholder": {"Type": "AWS::SQS::Queue"}},
        "Outputs": {name: {"Value": value} for name, value in outputs.items()},
    }
    cloudformation.create_stack(StackName=name, TemplateBody=json.dumps(stack))
    environment = os.environ | {"AWS_ENDPOINT_URL": demo.endpoint, "AWS_DEFAULT_REGION": "us-east-1"}
    environment |= {"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local"}
    return subprocess.run(
        [sys.executable, "-m", "podpages.cli.main", *arguments, "--stack", name],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
    )


def _last_modified(demo: Demo, key: str) -> datetime:
    s3 = boto3.client("s3", endpoint_url=demo.endpoint, region_name="us-east-1", **LOCAL)
    return s3.head_object(Bucket="podpages-site-local", Key=key)["LastModified"]


def _status(url: str) -> int | None:
    try:
        return http_get(url)[0]
    except OSError:  # not listening yet
        return None


def _bindable(address: str) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((address, 0))
        except OSError:
            return False
    return True


def _answers(address: str, port: int) -> bool:
    """Whether anything accepts a connection at `address`:`port`."""
    try:
        socket.create_connection((address, port), timeout=2).close()
    except ConnectionRefusedError:
        return False
    return True
