"""The nearby API end to end: catalogs published by the render handler through SQS, read by the
nearby handler that template.yaml names, both over HTTP on 127.0.0.1 against moto's server."""

import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from lxml import html
from snapshot_restore_py import get_after_restore

from podpages.nearby.cache import REVALIDATE_AFTER
from support.catalogs import episode_document, show_document
from support.events import load_event, nearby_request
from support.paths import EXAMPLES

SEED = "backend-flexibility-revolution"


def publish_examples(stack) -> None:
    for path in sorted(EXAMPLES.rglob("*.json")):
        stack.upload(path.relative_to(EXAMPLES).as_posix(), path)
    stack.deliver()


def page_of(stack, show: str, episode: str) -> str:
    return stack.read(stack.site, f"{show}/{episode}/index.html").decode()


def nearby_links(page: str) -> list[tuple[str, str]]:
    """The page's "Nearby episodes" section, as (href, title) pairs."""
    links = html.fromstring(page).xpath("//section[@aria-labelledby='nearby']//a")
    return [(link.get("href"), link.text_content()) for link in links]


def problems(response: dict) -> dict[str, str]:
    body = json.loads(response["body"])
    return {problem["field"]: problem["message"] for problem in body["problems"]}


def test_the_json_listing_is_the_seed_page_s_nearby_list(stack, nearby):
    publish_examples(stack)

    response = nearby(load_event("http-nearby.json"))

    body = json.loads(response["body"])
    assert response["statusCode"] == 200
    assert response["headers"]["Content-Type"] == "application/json; charset=utf-8"
    assert body["show"] == {"slug": "pytorch", "title": "PyTorch", "url": "http://127.0.0.1:3000/pytorch/"}
    assert body["episode"]["url"] == f"http://127.0.0.1:3000/pytorch/{SEED}/"
    assert [(item["url"], item["title"]) for item in body["items"]] == nearby_links(page_of(stack, "pytorch", SEED))
    first = json.loads((EXAMPLES / "episodes" / "pytorch" / f"{body['items'][0]['slug']}.json").read_text())
    assert body["items"][0]["published"] == datetime.fromisoformat(first["published"]).astimezone(UTC).strftime(
        "%Y-%m-%dT%H:%M:%SZ"
    )
    assert set(body["items"][0]) == {"slug", "title", "url", "published", "duration", "duration_seconds"}


def test_the_html_fragment_is_the_seed_page_s_nearby_section(stack, nearby):
    publish_examples(stack)

    by_format = nearby(load_event("http-nearby-html.json"))
    by_accept = nearby(nearby_request("pytorch", SEED, headers={"accept": "text/html"}))

    assert by_format["statusCode"] == by_accept["statusCode"] == 200
    assert by_format["headers"]["Content-Type"] == "text/html; charset=utf-8"
    assert by_format["body"] == by_accept["body"]
    assert by_format["body"].startswith("<section") and by_format["body"] in page_of(stack, "pytorch", SEED)


def test_a_limit_trims_the_listing_to_the_closest(stack, nearby):
    publish_examples(stack)

    three = json.loads(nearby(nearby_request("pytorch", SEED, {"limit": "3"}))["body"])["items"]
    eight = json.loads(nearby(nearby_request("pytorch", SEED))["body"])["items"]

    assert len(three) == 3 and {item["slug"] for item in three} < {item["slug"] for item in eight}


def test_a_repeated_request_with_the_etag_gets_a_304_without_a_body(stack, nearby):
    publish_examples(stack)
    first = nearby(load_event("http-nearby.json"))
    etag = first["headers"]["ETag"]

    again = nearby(nearby_request("pytorch", SEED, {"limit": "8"}, {"if-none-match": etag}))
    weak = nearby(nearby_request("pytorch", SEED, {"limit": "8"}, {"if-none-match": f'"other", W/{etag}'}))
    other_limit = nearby(nearby_request("pytorch", SEED, {"limit": "7"}, {"if-none-match": etag}))
    as_html = nearby(nearby_request("pytorch", SEED, {"limit": "8", "format": "html"}, {"if-none-match": etag}))

    assert (again["statusCode"], again["body"]) == (304, "")
    assert again["headers"]["ETag"] == etag and again["headers"]["Cache-Control"] == first["headers"]["Cache-Control"]
    assert weak["statusCode"] == 304
    assert other_limit["statusCode"] == as_html["statusCode"] == 200


def test_every_response_is_cacheable_and_open_to_any_origin(stack, nearby):
    publish_examples(stack)

    responses = [
        nearby(load_event("http-nearby.json")),
        nearby(load_event("http-nearby-unknown-episode.json")),
        nearby(nearby_request("pytorch", SEED, {"limit": "0"})),
    ]

    for response in responses:
        assert response["headers"]["Access-Control-Allow-Origin"] == "*"
        assert response["headers"]["Cache-Control"].startswith("public, max-age=")
    listing = responses[0]["headers"]
    assert listing["Vary"] == "Accept" and listing["Access-Control-Expose-Headers"] == "ETag"
    assert "s-maxage=300" in listing["Cache-Control"] and "max-age=60," in listing["Cache-Control"]


def test_an_unknown_episode_or_show_is_a_404_that_names_it(stack, nearby):
    publish_examples(stack)

    episode = nearby(load_event("http-nearby-unknown-episode.json"))
    show = nearby(nearby_request("no-such-show", SEED))

    assert episode["statusCode"] == show["statusCode"] == 404
    assert problems(episode) == {"episode": "show 'pytorch' has no episode 'no-such-episode'"}
    assert problems(show) == {"show": "no show 'no-such-show' is published"}
    assert json.loads(show["body"])["error"] == "Not Found"


def test_a_path_outside_the_route_is_a_json_404(stack, nearby):
    event = nearby_request("pytorch", SEED)
    event["rawPath"] = event["requestContext"]["http"]["path"] = "/api/shows/pytorch"

    response = nearby(event)

    assert response["statusCode"] == 404 and set(problems(response)) == {"path"}


def test_a_malformed_slug_or_limit_is_a_400_that_names_each_field(stack, nearby):
    publish_examples(stack)

    response = nearby(nearby_request("PyTorch", "..%2f..%2fcatalog", {"limit": "500", "format": "xml"}))

    assert response["statusCode"] == 400
    assert set(problems(response)) == {"show", "episode", "limit", "format"}
    assert nearby.gets == []  # a bad request never reaches S3


def test_a_limit_of_4301_digits_is_a_400_not_a_500(stack, nearby):
    # Given a limit longer than int() reads: 4,301 digits
    event = nearby_request("pytorch", SEED, {"limit": "9" * 4301})

    # When it is asked for
    response = nearby(event)

    # Then it is a bad request that names the limit, not an error raised for API Gateway to make a 500
    assert response["statusCode"] == 400
    assert set(problems(response)) == {"limit"}


def test_a_failure_is_raised_for_api_gateway_to_answer_a_bare_500(stack, nearby, monkeypatch):
    publish_examples(stack)
    monkeypatch.setattr(nearby.module.catalogs.source, "name", "no-such-bucket")

    with pytest.raises(Exception) as raised:
        nearby(load_event("http-nearby.json"))

    # The handler raises rather than returning a traceback: API Gateway answers a bare 500.
    assert "NoSuchBucket" in str(raised.value)


def test_a_commit_that_leaves_the_listing_as_it_was_leaves_its_etag(stack, nearby):
    # Given a listing fetched, then a new summary for its episode, which no listing shows
    publish_examples(stack)
    before = nearby(load_event("http-nearby.json"))
    catalog_before = stack.s3.head_object(Bucket=stack.source, Key="catalog/pytorch.json")["ETag"]
    seed = json.loads((EXAMPLES / "episodes" / "pytorch" / f"{SEED}.json").read_text())
    stack.upload(f"episodes/pytorch/{SEED}.json", json.dumps(seed | {"summary": "A summary written anew."}))
    stack.deliver()

    # When a cache revalidates it after the catalog is read again
    nearby.clock.now += REVALIDATE_AFTER
    after = nearby(nearby_request("pytorch", SEED, {"limit": "8"}, {"if-none-match": before["headers"]["ETag"]}))

    # Then the catalog changed, the listing did not, and the answer is a 304
    assert stack.s3.head_object(Bucket=stack.source, Key="catalog/pytorch.json")["ETag"] != catalog_before
    assert (after["statusCode"], after["headers"]["ETag"]) == (304, before["headers"]["ETag"])


def test_a_publish_shows_up_after_the_revalidation_interval_at_one_conditional_get(stack, nearby):
    publish_examples(stack)
    before = nearby(load_event("http-nearby.json"))
    seed = json.loads((EXAMPLES / "episodes" / "pytorch" / f"{SEED}.json").read_text())
    published = datetime.fromisoformat(seed["published"]) + timedelta(minutes=1)
    stack.upload(
        "episodes/pytorch/right-after-the-seed.json",
        json.dumps(episode_document("Right after the seed", published.isoformat())),
    )
    stack.deliver()

    cached = nearby(nearby_request("pytorch", SEED, {"limit": "8"}, {"if-none-match": before["headers"]["ETag"]}))
    nearby.clock.now += REVALIDATE_AFTER
    after = nearby(nearby_request("pytorch", SEED, {"limit": "8"}, {"if-none-match": before["headers"]["ETag"]}))
    nearby.clock.now += REVALIDATE_AFTER
    unchanged = nearby(nearby_request("pytorch", SEED, {"limit": "8"}, {"if-none-match": after["headers"]["ETag"]}))

    assert cached["statusCode"] == 304  # within the interval the held catalog answers
    assert after["statusCode"] == 200
    assert "right-after-the-seed" in [item["slug"] for item in json.loads(after["body"])["items"]]
    assert unchanged["statusCode"] == 304
    revision = nearby.gets[1][1]
    assert nearby.gets == [
        ("catalog/pytorch.json", None),  # cold: one GET, of the show's nearby index, its catalog's first line
        ("catalog/pytorch.json", revision),  # revalidation: conditional, and the index had changed
        ("catalog/pytorch.json", nearby.gets[2][1]),  # revalidation again: 304 from S3, nothing re-read
    ]
    assert revision is not None and nearby.gets[2][1] != revision


def unseen_catalogue(seed: int) -> dict[str, list[tuple[str, dict]]]:
    """Shows of 1, 2, 3 and 14 episodes with random times, ties, and titles that need escaping."""
    rng = random.Random(seed)
    start = datetime(2024, 2, 29, 23, 30, tzinfo=UTC)
    shows = {}
    for show, size in (("solo", 1), ("duo", 2), ("trio", 3), (f"weekly-{seed}", 14)):
        moments = [start + timedelta(hours=rng.randrange(0, 24 * 400)) for _ in range(size)]
        if size > 3:
            moments[3] = moments[5] = moments[8]  # ties, broken by slug
        episodes = []
        for number, moment in enumerate(moments):
            offset = timedelta(hours=rng.choice([-7, 0, 5, 13]))
            title = rng.choice(["Q&A", "<b>Bold</b> moves", "“Quoted”", "O'Neil's week", "Plain"]) + f" {number}"
            local_time = (moment + offset).replace(tzinfo=None).isoformat() + _offset(offset)  # the same instant
            episodes.append((f"ep-{rng.randrange(10_000):04d}-{number}", episode_document(title, local_time)))
        shows[show] = episodes
    return shows


def _offset(offset: timedelta) -> str:
    hours = int(offset.total_seconds() // 3600)
    return f"{'+' if hours >= 0 else '-'}{abs(hours):02d}:00"


def test_every_episode_of_an_unseen_catalogue_gets_what_its_page_shows(stack, nearby):
    catalogue = unseen_catalogue(seed=20261130)
    stack.upload("shows/trio.json", json.dumps(show_document("Trio & <Friends>")))
    for show, episodes in catalogue.items():
        for slug, document in episodes:
            stack.upload(f"episodes/{show}/{slug}.json", json.dumps(document))
    stack.deliver()

    checked = 0
    for show, episodes in catalogue.items():
        for slug, _document in episodes:
            page = page_of(stack, show, slug)
            listing = json.loads(nearby(nearby_request(show, slug))["body"])
            fragment = nearby(nearby_request(show, slug, {"format": "html"}))["body"]

            assert [(item["url"], item["title"]) for item in listing["items"]] == nearby_links(page), (show, slug)
            assert fragment in page and fragment.count("<section") == page.count('<section aria-labelledby="nearby"')
            checked += 1
    assert checked == 20


def test_a_copy_restored_from_a_snapstart_snapshot_holds_nothing_from_before_it(stack, nearby, local_aws, monkeypatch):
    # Given a warm function holding the seed's show, as the snapshot would if it were taken now
    publish_examples(stack)
    assert nearby(load_event("http-nearby.json"))["statusCode"] == 200
    before = nearby.module.catalogs.source.client
    # The hook the Lambda runtime runs after each restore is the one the handler registered last
    restore, args, kwargs = get_after_restore()[-1]

    # When Lambda restores a copy from the snapshot, in the restored sandbox's environment, whose
    # credentials are not those the snapshot's init read
    for name, value in local_aws.environment().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "ASIARESTOREDCOPY")
    restore(*args, **kwargs)
    client = nearby.module.catalogs.source.client
    gets: list[str] = []
    client.meta.events.register("before-parameter-build.s3.GetObject", lambda params, **_: gets.append(1))
    signed: list[bytes] = []
    client.meta.events.register("before-send.s3", lambda request, **_: signed.append(request.headers["Authorization"]))
    response = nearby(load_event("http-nearby.json"))

    # Then it has an S3 client of its own, signing with its own environment's credentials, and
    # reads the show anew before answering
    assert client is not before
    assert response["statusCode"] == 200 and gets == [1]
    assert signed and all(b"Credential=ASIARESTOREDCOPY/" in header for header in signed)
