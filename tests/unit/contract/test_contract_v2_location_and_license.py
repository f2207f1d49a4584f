"""Contract v2, location and license: on an episode and on a show. A location's `geo` is an RFC 5870
`geo:` URI and its `osm` an OpenStreetMap type letter and id; a licence is a name and perhaps a URL."""

import json

import pytest

from podpages.contract.documents import parse_episode, parse_show
from podpages.errors import ContractError
from support.catalogs import episode_document, show_document

PARSERS = {"episode": (parse_episode, episode_document), "show": (parse_show, show_document)}


def read(kind: str, **fields):
    parse, document = PARSERS[kind]
    return parse(json.dumps(document(**fields)).encode())


def problems_of(kind: str, **fields) -> dict[str, str]:
    with pytest.raises(ContractError) as raised:
        read(kind, **fields)
    return {problem.field: problem.message for problem in raised.value.problems}


@pytest.mark.parametrize("kind", PARSERS)
def test_a_location_with_every_field_is_accepted(kind):
    # Given Austin, with a name of 128 characters, its geo URI and its OpenStreetMap relation
    location = {"name": "A" * 128, "geo": "geo:30.2672,-97.7431", "osm": "R113314"}

    # When the document is read
    # Then the location is kept as written
    assert read(kind, location=location).location.model_dump() == location


@pytest.mark.parametrize("kind", PARSERS)
def test_a_location_needs_only_its_name(kind):
    location = read(kind, location={"name": "Austin, TX"}).location

    assert (location.name, location.geo, location.osm) == ("Austin, TX", None, None)


@pytest.mark.parametrize(
    "geo",
    [
        "geo:30.2672,-97.7431",
        "geo:-90,180",
        "geo:90,-180",
        "geo:0,0",
        "geo:48.2010,16.3695,183",
        "geo:48.198634,16.371648;crs=wgs84;u=40",
        "GEO:48.198634,16.371648;CRS=WGS84;U=40",
        "geo:39.7837304,-100.445882;u=3900000",
        "geo:48.2,16.3;u=40;label=Vienna%20centre;x-y=[a]:b&c+d$e",
        "geo:400,500;crs=epsg-32618",  # another reference system has other ranges
        "geo:1,2;flag",
    ],
)
def test_a_geo_uri_as_rfc_5870_writes_it_is_accepted(geo):
    assert read("episode", location={"name": "Here", "geo": geo}).location.geo == geo


@pytest.mark.parametrize(
    ("geo", "says"),
    [
        ("geo:91,0", "latitude"),
        ("geo:-90.0001,0", "latitude"),
        ("geo:0,180.5", "longitude"),
        ("geo:0,-181;crs=wgs84", "longitude"),
        ("geo:30.2672", "geo: URI"),
        ("30.2672,-97.7431", "geo: URI"),
        ("geo: 30.2672,-97.7431", "geo: URI"),
        ("geo:30.2672,-97.7431\n", "geo: URI"),
        ("geo:30.,-97", "geo: URI"),
        ("geo:+30,-97", "geo: URI"),
        ("geo:1,2,3,4", "geo: URI"),
        ("geo:1,2;", "geo: URI"),
        ("geo:1,2;u=40;crs=wgs84", "geo: URI"),
        ("geo:1,2;u=1;u=2", "geo: URI"),
        ("geo:1,2;label=a b", "geo: URI"),
        ("geo:1,2;label=%zz", "geo: URI"),
        ("https://www.openstreetmap.org/#map=13/30.2672/-97.7431", "geo: URI"),
        ("javascript:alert(1)", "geo: URI"),
        ("geo:1,2;x=" + "a" * 250, "at most 256"),
    ],
)
def test_a_bad_geo_uri_is_rejected_naming_it(geo, says):
    # Given a location whose geo is no RFC 5870 URI, or lies off the globe
    # When the episode is read
    problems = problems_of("episode", location={"name": "Here", "geo": geo})

    # Then location.geo alone is named, and why
    assert list(problems) == ["location.geo"], problems
    assert says in problems["location.geo"]


@pytest.mark.parametrize("osm", ["R113314", "W5013364", "N1", "R7444#188", "W5013364#1"])
def test_an_openstreetmap_id_is_accepted(osm):
    assert read("show", location={"name": "Here", "osm": osm}).location.osm == osm


@pytest.mark.parametrize(
    "osm", ["r113314", "X113314", "R", "113314", "R-1", "R1#", "R1#2#3", " R1", "R1\n", "R 1", "R1.5", "R" + "1" * 32]
)
def test_a_bad_openstreetmap_id_is_rejected_naming_it(osm):
    assert list(problems_of("show", location={"name": "Here", "osm": osm})) == ["location.osm"]


LOCATION_CASES = [
    ("no name", {"geo": "geo:1,2"}, "location.name", "Field required"),
    ("blank name", {"name": " "}, "location.name", "no visible character"),
    ("name too long", {"name": "n" * 129}, "location.name", "at most 128"),
    ("name on two lines", {"name": "Austin\nTX"}, "location.name", "single line"),
    ("geo as a number", {"name": "Here", "geo": 30.2}, "location.geo", "valid string"),
    ("typo in a location field", {"name": "Here", "country": "US"}, "location.country", "Extra inputs"),
]


@pytest.mark.parametrize("kind", PARSERS)
@pytest.mark.parametrize(
    ("location", "field", "says"), [case[1:] for case in LOCATION_CASES], ids=[case[0] for case in LOCATION_CASES]
)
def test_a_bad_location_is_named_with_its_reason(kind, location, field, says):
    problems = problems_of(kind, location=location)

    assert list(problems) == [field], problems
    assert says in problems[field]


def test_a_location_as_a_string_is_rejected():
    assert list(problems_of("episode", location="Austin")) == ["location"]


@pytest.mark.parametrize("kind", PARSERS)
def test_a_license_with_an_spdx_name_and_a_url_is_accepted(kind):
    license_ = {"name": "CC-BY-4.0", "url": "https://creativecommons.org/licenses/by/4.0/"}

    assert read(kind, license=license_).license.model_dump() == license_


@pytest.mark.parametrize("kind", PARSERS)
def test_a_license_of_free_text_at_128_characters_is_accepted(kind):
    assert read(kind, license={"name": "All rights reserved " + "x" * 108}).license.url is None


LICENSE_CASES = [
    ("no name", {"url": "https://example.com/l"}, "license.name", "Field required"),
    ("name too long", {"name": "n" * 129}, "license.name", "at most 128"),
    ("name with a control", {"name": "MIT\x1b[2J"}, "license.name", "U+001B"),
    ("http url", {"name": "MIT", "url": "http://example.com/l"}, "license.url", "https"),
    ("javascript url", {"name": "MIT", "url": "javascript:alert(1)"}, "license.url", "https"),
    ("data url", {"name": "MIT", "url": "data:text/plain,MIT"}, "license.url", "https"),
    ("typo in a license field", {"name": "MIT", "link": "https://example.com"}, "license.link", "Extra inputs"),
]


@pytest.mark.parametrize("kind", PARSERS)
@pytest.mark.parametrize(
    ("license_", "field", "says"), [case[1:] for case in LICENSE_CASES], ids=[case[0] for case in LICENSE_CASES]
)
def test_a_bad_license_is_named_with_its_reason(kind, license_, field, says):
    problems = problems_of(kind, license=license_)

    assert list(problems) == [field], problems
    assert says in problems[field]
