"""One set of field names for all the frozen models whose input named the same fields.

pydantic keeps in each model it parses the set of the fields its input named (`model_fields_set`).
A dozen names take a 728-byte set, more than the model's own values: a catalog entry is three
models (the entry, its episode, its audio), and a removal that holds 99,000 entries held 160 MB
of these sets, nearly all alike. A frozen model's set never changes (`model_copy` copies it), so
the models that name the same fields share one.
"""

from typing import Any

from pydantic import BaseModel

_SHARED: dict[frozenset[str], set[str]] = {}  # a few dozen: one for each mix of fields a model's input names


class SharedFieldSets(BaseModel):
    """A frozen model whose set of fields named is shared with every other that names the same."""

    def model_post_init(self, context: Any, /) -> None:
        named = self.__pydantic_fields_set__
        object.__setattr__(self, "__pydantic_fields_set__", _SHARED.setdefault(frozenset(named), named))
