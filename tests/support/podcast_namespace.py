"""Checking a feed's podcast:* tags against the namespace's XML Schema (tests/support/xsd/podcast.xsd),
each tag of a channel or an item on its own, as a document of its own."""

import copy
from functools import cache
from pathlib import Path

from lxml import etree

from support.feeds import NS

SCHEMA = Path(__file__).parent / "xsd" / "podcast.xsd"


@cache
def podcast_schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(SCHEMA)))


def podcast_elements(body: bytes) -> list[etree._Element]:
    """The podcast:* tags directly under the channel and under its items; those nested in them
    (remoteItem, source) are checked with their parent."""
    channel = etree.fromstring(body).find("channel")
    return channel.xpath("podcast:* | item/podcast:*", namespaces=NS)


def schema_errors(body: bytes) -> list[str]:
    """Each podcast:* tag of the feed that the schema rejects, with why: empty when all are valid.
    A tag the schema does not declare is rejected too, so a misspelt name is caught."""
    schema = podcast_schema()
    errors = []
    for element in podcast_elements(body):
        if not schema.validate(copy.deepcopy(element)):
            errors += [f"line {element.sourceline}: {error.message}" for error in schema.error_log]
    return errors
