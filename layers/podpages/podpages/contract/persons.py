"""The people of a show or an episode, with their roles from the podcast namespace's person taxonomy.

The taxonomy (Podcastindex-org/podcast-namespace, `taxonomy.json`) sorts roles into groups: "Host" in
"Cast", "Composer" in "Audio Post-Production". `person_taxonomy.json` beside this module holds its group
and role pairs, as the namespace spells them. A role or group is matched in any case and kept in the
taxonomy's lowercase form, as `podcast:person` carries it; a role must belong to its group. Without
them a person is a host, in the cast, as the namespace assumes.
"""

import json
from importlib.resources import files
from typing import Annotated, Self

from pydantic import AfterValidator, Field, WithJsonSchema, model_validator

from podpages.contract.fields import Contract, HttpsUrl, reject
from podpages.contract.plain_text import Line

TAXONOMY_FILE = "person_taxonomy.json"
DEFAULT_ROLE = "host"
DEFAULT_GROUP = "cast"
MAX_PERSONS = 50


def _load_taxonomy() -> dict[str, frozenset[str]]:
    """Each group's roles, lowercase, in the taxonomy's order of groups."""
    pairs = json.loads(files("podpages.contract").joinpath(TAXONOMY_FILE).read_text(encoding="utf-8"))
    roles: dict[str, set[str]] = {}
    for pair in pairs:
        roles.setdefault(str(pair["group"]).lower(), set()).add(str(pair["role"]).lower())
    return {group: frozenset(names) for group, names in roles.items()}


ROLES_OF_GROUP = _load_taxonomy()
GROUPS = tuple(ROLES_OF_GROUP)
ROLES = tuple(sorted(frozenset().union(*ROLES_OF_GROUP.values())))


def _role(value: str) -> str:
    role = value.lower()
    if role not in ROLES:
        raise ValueError(f"{value!r} is not a role of the podcast namespace's person taxonomy")
    return role


def _group(value: str) -> str:
    group = value.lower()
    if group not in ROLES_OF_GROUP:
        raise ValueError(f"{value!r} is not a group of the podcast namespace's person taxonomy")
    return group


Role = Annotated[
    str,
    Field(max_length=64),
    AfterValidator(_role),
    WithJsonSchema(
        {
            "type": "string",
            "maxLength": 64,
            "description": "a role of the podcast namespace's person taxonomy, in any case: " + ", ".join(ROLES),
        }
    ),
]
Group = Annotated[
    str,
    Field(max_length=64),
    AfterValidator(_group),
    WithJsonSchema(
        {
            "type": "string",
            "maxLength": 64,
            "description": "a group of the podcast namespace's person taxonomy, in any case: " + ", ".join(GROUPS),
        }
    ),
]


class Person(Contract):
    """Someone who makes or appears in a show or an episode: `podcast:person`."""

    name: Annotated[Line, Field(max_length=128)]
    role: Role = DEFAULT_ROLE
    group: Group = DEFAULT_GROUP
    href: HttpsUrl | None = None  # a page about them
    img: HttpsUrl | None = None  # their picture

    @model_validator(mode="after")
    def _role_of_its_group(self) -> Self:
        if self.role not in ROLES_OF_GROUP[self.group]:
            given = "" if "group" in self.model_fields_set else ", the group a person has when none is given"
            home = " or ".join(repr(group) for group, roles in ROLES_OF_GROUP.items() if self.role in roles)
            message = f"{self.role!r} is not a role of the group {self.group!r}{given}; it is a role of {home}"
            reject([(("role",), message, self.role)])
        return self


Persons = Annotated[tuple[Person, ...], Field(min_length=1, max_length=MAX_PERSONS)]
