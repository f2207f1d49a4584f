"""One set of field names for all the frozen models whose input named the same fields.

pydantic keeps in each model it parses the set of the fields its input named (`model_fields_set`).
A dozen names take a 728-byte set, more than the model's own values: a catalog entry is three
models (the entry, its episode, its audio), and a removal that holds 99,000 entries held 160 MB
of these sets, nearly all alike. A frozen model's set never changes (`model_copy` copies it), so
the models that name the same fields share one: those parsed, those copied (the episode an entry
keeps is a copy), and those unpickled, as the entries that `podpages render`'s workers read reach
the process that renders them.
"""

from collections.abc import Mapping
from typing import Any, Self

from pydantic import BaseModel

_SHARED: dict[frozenset[str], set[str]] = {}  # a few dozen: one for each mix of fields a model's input names


class SharedFieldSets(BaseModel):
    """A frozen model whose set of fields named is shared with every other that names the same."""

    def model_post_init(self, context: Any, /) -> None:
        self._share_fields_set()

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy, whose set (the original's, with the fields `update` sets) is shared too."""
        copied = super().model_copy(update=update, deep=deep)
        copied._share_fields_set()
        return copied

    def __setstate__(self, state: dict[Any, Any]) -> None:
        super().__setstate__(state)
        self._share_fields_set()

    def _share_fields_set(self) -> None:
        named = self.__pydantic_fields_set__
        object.__setattr__(self, "__pydantic_fields_set__", _SHARED.setdefault(frozenset(named), named))
