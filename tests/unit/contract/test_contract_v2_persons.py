"""Contract v2, persons: on an episode and on a show, with roles and groups from the podcast
namespace's person taxonomy, matched in any case and kept in its lowercase form."""

import json
from importlib.resources import files

import pytest

from podpages.contract.documents import parse_episode, parse_show
from podpages.contract.persons import GROUPS, ROLES, ROLES_OF_GROUP, TAXONOMY_FILE
from podpages.errors import ContractError
from support.catalogs import episode_document, show_document

PARSERS = {"episode": (parse_episode, episode_document), "show": (parse_show, show_document)}


def read(kind: str, persons: object):
    parse, document = PARSERS[kind]
    return parse(json.dumps(document(persons=persons)).encode())


def problems_of(kind: str, persons: object) -> dict[str, str]:
    with pytest.raises(ContractError) as raised:
        read(kind, persons)
    return {problem.field: problem.message for problem in raised.value.problems}


def test_the_taxonomy_holds_the_namespaces_pairs():
    # Given the taxonomy file the package carries
    pairs = json.loads(files("podpages.contract").joinpath(TAXONOMY_FILE).read_text(encoding="utf-8"))

    # When its pairs are counted
    # Then it holds the namespace's 63 group and role pairs, and nothing else
    assert (len(pairs), {key for pair in pairs for key in pair}) == (63, {"group", "role"})


def test_the_taxonomy_is_read_into_eleven_groups():
    assert GROUPS == (
        "creative direction",
        "cast",
        "writing",
        "audio production",
        "audio post-production",
        "administration",
        "visuals",
        "community",
        "misc.",
        "video production",
        "video post-production",
    )


def test_a_role_may_belong_to_two_groups():
    # "Editor" is a role of both Writing and Video Post-Production
    assert [group for group in GROUPS if "editor" in ROLES_OF_GROUP[group]] == ["writing", "video post-production"]


def test_there_are_62_distinct_roles():
    assert len(ROLES) == 62


@pytest.mark.parametrize("kind", PARSERS)
def test_a_person_without_role_or_group_is_a_host_in_the_cast(kind):
    # Given a person named and nothing more
    # When the document is read
    [person] = read(kind, [{"name": "Ada Lovelace"}]).persons

    # Then they are a host, in the cast, as the podcast namespace assumes
    assert (person.role, person.group, person.href, person.img) == ("host", "cast", None, None)


@pytest.mark.parametrize("kind", PARSERS)
def test_role_and_group_are_matched_in_any_case_and_kept_lowercase(kind):
    # Given a role and group written as the taxonomy writes them, and in capitals
    persons = [
        {"name": "Becky", "role": "Cover Art Designer", "group": "Visuals"},
        {"name": "Sam", "role": "SOUND DESIGNER", "group": "AUDIO POST-PRODUCTION"},
    ]

    # When the document is read
    read_persons = read(kind, persons).persons

    # Then both are kept in the taxonomy's lowercase form
    assert [(person.role, person.group) for person in read_persons] == [
        ("cover art designer", "visuals"),
        ("sound designer", "audio post-production"),
    ]


@pytest.mark.parametrize("kind", PARSERS)
def test_fifty_persons_with_every_field_at_its_limits_are_accepted(kind):
    # Given 50 persons with 128-character names, every role and group given, and links
    persons = [
        {
            "name": f"{index:03d}" + "n" * 125,
            "role": "Guest",
            "group": "Cast",
            "href": "https://example.com/p",
            "img": "https://example.com/p.jpg",
        }
        for index in range(50)
    ]

    # When the document is read
    # Then all are kept
    assert len(read(kind, persons).persons) == 50


@pytest.mark.parametrize("group", GROUPS)
def test_every_role_of_every_group_is_accepted_in_it(group):
    persons = [{"name": "Someone", "role": role, "group": group} for role in sorted(ROLES_OF_GROUP[group])]

    assert [person.role for person in read("episode", persons).persons] == sorted(ROLES_OF_GROUP[group])


PERSON_CASES = [
    ("no persons", [], "persons", "at least 1"),
    ("51 persons", [{"name": "A"}] * 51, "persons", "at most 50"),
    ("persons as an object", {"name": "A"}, "persons", "valid array"),
    ("no name", [{"role": "host"}], "persons.0.name", "Field required"),
    ("blank name", [{"name": "\u200b"}], "persons.0.name", "no visible character"),
    ("name too long", [{"name": "n" * 129}], "persons.0.name", "at most 128"),
    ("name on two lines", [{"name": "Ada\nLovelace"}], "persons.0.name", "single line"),
    ("name with bidi override", [{"name": "Ada\u202eecalevol"}], "persons.0.name", "U+202E"),
    ("unknown role", [{"name": "A", "role": "hots"}], "persons.0.role", "is not a role"),
    ("a role with spaces around it", [{"name": "A", "role": " host "}], "persons.0.role", "is not a role"),
    ("role as a number", [{"name": "A", "role": 1}], "persons.0.role", "valid string"),
    ("unknown group", [{"name": "A", "group": "crew"}], "persons.0.group", "is not a group"),
    ("role outside its group", [{"name": "A", "role": "composer", "group": "cast"}], "persons.0.role", "'cast'"),
    ("role outside the default group", [{"name": "A", "role": "composer"}], "persons.0.role", "none is given"),
    ("group without its role", [{"name": "A", "group": "writing"}], "persons.0.role", "'host'"),
    ("http href", [{"name": "A", "href": "http://a.example"}], "persons.0.href", "https"),
    ("javascript img", [{"name": "A", "img": "javascript:alert(1)"}], "persons.0.img", "https"),
    ("data img", [{"name": "A", "img": "data:image/png;base64,AAAA"}], "persons.0.img", "https"),
    ("typo in a person field", [{"name": "A", "rol": "host"}], "persons.0.rol", "Extra inputs"),
]


@pytest.mark.parametrize("kind", PARSERS)
@pytest.mark.parametrize(
    ("persons", "field", "says"), [case[1:] for case in PERSON_CASES], ids=[case[0] for case in PERSON_CASES]
)
def test_a_bad_person_is_named_with_its_reason(kind, persons, field, says):
    # Given a document whose persons break the contract in one way
    # When it is read
    problems = problems_of(kind, persons)

    # Then that field alone is named, and why
    assert list(problems) == [field], problems
    assert says in problems[field]


def test_a_role_outside_its_group_says_where_the_role_belongs():
    problems = problems_of("episode", [{"name": "A", "role": "Composer", "group": "Cast"}])

    assert problems["persons.0.role"] == (
        "'composer' is not a role of the group 'cast'; it is a role of 'audio post-production'"
    )


def test_every_bad_person_is_named_at_once():
    persons = [{"name": "A"}, {"name": "B", "role": "hots"}, {"name": "C", "role": "guest", "group": "visuals"}]

    assert list(problems_of("show", persons)) == ["persons.1.role", "persons.2.role"]
