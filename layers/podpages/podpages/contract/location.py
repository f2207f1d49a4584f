"""Where a show or an episode is set, or what it is about: the podcast namespace's `podcast:location`.

`geo` is a `geo:` URI (RFC 5870): latitude, longitude and an optional altitude, then the optional `crs`
and `u` (uncertainty, in metres) parameters and any others. In the default reference system, WGS-84,
latitude lies within ±90 and longitude within ±180. `osm` names an OpenStreetMap node, way or relation:
its type letter (N, W or R) and id, then optionally a revision after a hash: `R113314`, `R7444#188`.
"""

import re
from typing import Annotated

from pydantic import AfterValidator, Field, WithJsonSchema

from podpages.contract.fields import Contract
from podpages.contract.plain_text import Line

_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
# RFC 5870's grammar: the scheme, `crs` and `u` in any case, `crs` before `u`, each at most once, and
# other parameters (`;name` or `;name=value`, the value made of its paramchar) after them. Its groups
# are latitude, longitude and crs, unnamed, so that the pattern is ECMA-262's too, as JSON Schema's is.
GEO = re.compile(
    rf"[Gg][Ee][Oo]:({_NUMBER}),({_NUMBER})(?:,{_NUMBER})?"
    r"(?:;[Cc][Rr][Ss]=([A-Za-z0-9-]+))?"
    r"(?:;[Uu]=[0-9]+(?:\.[0-9]+)?)?"
    r"(?:;(?!(?:[Cc][Rr][Ss]|[Uu])(?:[=;]|$))[A-Za-z0-9-]+(?:=(?:[A-Za-z0-9\-._~\[\]:&+$]|%[0-9A-Fa-f]{2})+)?)*"
)
OSM = r"^[NWR][0-9]+(?:#[0-9]+)?$"


def _geo(value: str) -> str:
    found = GEO.fullmatch(value)
    if not found:
        raise ValueError("must be a geo: URI (RFC 5870) such as geo:30.2672,-97.7431")
    latitude, longitude, crs = found.groups()
    if crs is None or crs.lower() == "wgs84":
        if not -90 <= float(latitude) <= 90:
            raise ValueError("must have a latitude from -90 to 90")
        if not -180 <= float(longitude) <= 180:
            raise ValueError("must have a longitude from -180 to 180")
    return value


GeoUri = Annotated[
    str,
    Field(max_length=256),
    AfterValidator(_geo),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": f"^{GEO.pattern}$",
            "maxLength": 256,
            "description": "a geo: URI (RFC 5870)",
            "examples": ["geo:30.2672,-97.7431", "geo:39.7837304,-100.445882;u=3900000"],
        }
    ),
]
OsmId = Annotated[
    str,
    Field(
        max_length=32,
        pattern=OSM,
        description="an OpenStreetMap type letter (N, W or R) and id, and optionally #revision",
    ),
]


class Location(Contract):
    name: Annotated[Line, Field(max_length=128)]
    geo: GeoUri | None = None
    osm: OsmId | None = None
