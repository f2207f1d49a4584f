"""The licence a show or an episode is published under: the podcast namespace's `podcast:license`."""

from typing import Annotated

from pydantic import Field

from podpages.contract.fields import Contract, HttpsUrl
from podpages.contract.plain_text import Line


class License(Contract):
    name: Annotated[Line, Field(max_length=128, description="an SPDX identifier such as CC-BY-4.0, or free text")]
    url: HttpsUrl | None = None  # the licence's text, which a name that is not SPDX's needs
