"""`printable` tells what `str.isprintable` tells, whichever way it takes."""

import pytest

from podpages.printable import printable

ASCII_CONTROLS = [chr(code) for code in [*range(0x20), 0x7F]]


@pytest.mark.parametrize("control", ASCII_CONTROLS)
def test_an_ascii_control_anywhere_is_not_printable(control):
    for text in (control, f"a paragraph {control}", f"{control} at the start", "x" * 500 + control):
        assert printable(text) is text.isprintable() is False


@pytest.mark.parametrize(
    "text", ["", "plain ASCII", "~!@#$%^&*()_+{}|:<>?`-=[]\\;',./\"", "café", "a\u00a0b", "a\u2028b", "\u200b", "🎧"]
)
def test_any_other_text_is_as_isprintable_says(text):
    assert printable(text) is text.isprintable()
