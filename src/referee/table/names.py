"""Names people read: a table's, a participant's, a character's id.

A name is what others at the table see and tell apart, so it is checked as people see
it: normalised to NFC (one spelling of each accented letter), every run of Unicode
space (a no-break space too) read as one plain space, 1 to 64 characters with no
control, format or other invisible character (U+3164, the Hangul filler, renders
blank), at least one letter, digit, symbol or mark of punctuation, and no more than
two combining marks on one letter. Two participants' names may not be confusable: the
Unicode confusables data (UTS #39, via the ``confusables`` library) says "Аnn" with a
Cyrillic А looks like "Ann", so the second is refused beside the first.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Final

import regex

from referee.errors import RulesError

MAX_NAME: Final = 64
"""The longest name, in characters."""

MAX_MARKS: Final = 2
"""The most combining marks one letter carries in a name."""

_SPACE = regex.compile(r"[\p{Z}\t]+")
_INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{C}]")
_VISIBLE = regex.compile(r"[\p{L}\p{N}\p{S}\p{P}]")
_MARKS = regex.compile(r"\p{M}{" + str(MAX_MARKS + 1) + ",}")


def check_name(name: str, what: str) -> str:
    """``name`` as people read it (see the module text), or a refusal naming ``what`` and
    what is wrong: empty, too long, an invisible character (and its code point), nothing
    visible, too many marks."""
    text = _SPACE.sub(" ", unicodedata.normalize("NFC", name)).strip()
    if not text:
        raise RulesError(f"{what} is empty")
    if len(text) > MAX_NAME:
        raise RulesError(f"{what} is longer than {MAX_NAME} characters")
    hidden = _INVISIBLE.search(text)
    if hidden is not None:
        point = f"U+{ord(hidden.group()):04X}"
        raise RulesError(f"{what} holds an invisible or control character ({point})")
    if _VISIBLE.search(text) is None:
        raise RulesError(f"{what} has no letter, digit or sign anyone would see")
    if _MARKS.search(text) is not None:
        raise RulesError(f"{what} stacks more than {MAX_MARKS} accents on one letter")
    return text


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` can be mistaken for (the same letters in
    another case, or confusable by the Unicode confusables data), or ``None``."""
    import confusables  # type: ignore[import-untyped]  # its data loads on first use

    mine = name.casefold()
    for other in others:
        theirs = other.casefold()
        if mine == theirs or bool(confusables.is_confusable(mine, theirs)):
            return other
    return None
