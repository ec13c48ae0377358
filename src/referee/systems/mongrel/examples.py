"""The text's three example characters as stored sheets.

Mongrel, Examples of character creation. The text spells two of them two ways
(Alwia / Ahvia, Giazza / Ghiazza); both names load.
"""

from __future__ import annotations

import json
from importlib.resources import files

from referee.errors import RulesError
from referee.systems.base import load_record

from .sheet import Sheet

EXAMPLES: tuple[str, ...] = ("alwia", "vooruk", "giazza")
_ALIASES = {"ahvia": "alwia", "ghiazza": "giazza"}


def example(name: str) -> Sheet:
    """Load an example character by name ("alwia"/"ahvia", "vooruk", "giazza"/"ghiazza")."""
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in EXAMPLES:
        raise RulesError(f"unknown example character {name!r}; known: {', '.join(EXAMPLES)}")
    text = files("referee.systems.mongrel").joinpath("data", f"{key}.json").read_text("utf-8")
    return load_record(Sheet, json.loads(text), rule="Mongrel sheet format")
