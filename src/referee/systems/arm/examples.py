"""The premades shipped with the package: the text's melee example characters."""

from __future__ import annotations

import json
from importlib.resources import files

from referee.systems.arm.sheet import Sheet
from referee.systems.base import RulesError, load_record

PREMADES = ("alex", "brad", "christine")


def premade(name: str) -> Sheet:
    """Load a shipped character (Alex, Brad or Christine) by name."""
    key = name.strip().lower()
    if key not in PREMADES:
        raise RulesError(f"unknown premade {name!r}; known: {', '.join(PREMADES)}")
    text = files("referee.systems.arm").joinpath("data", f"{key}.json").read_text("utf-8")
    return load_record(Sheet, json.loads(text))
