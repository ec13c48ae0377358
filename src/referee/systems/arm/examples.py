"""The premades shipped with the package: the text's melee example characters."""

from __future__ import annotations

import json
from importlib.resources import files

from referee.systems.arm.discrepancies import DISCREPANCIES
from referee.systems.arm.sheet import Sheet
from referee.systems.base import RulesError, load_record
from referee.systems.building import ExampleInfo, ExampleNote

PREMADES = ("alex", "brad", "christine")


def premade(name: str) -> Sheet:
    """Load a shipped character (Alex, Brad or Christine) by name."""
    key = name.strip().lower()
    if key not in PREMADES:
        raise RulesError(f"unknown premade {name!r}; known: {', '.join(PREMADES)}")
    text = files("referee.systems.arm").joinpath("data", f"{key}.json").read_text("utf-8")
    return load_record(Sheet, json.loads(text))


NOTED: dict[str, tuple[str, ...]] = {
    "alex": ("alex-sword", "armour-columns"),
    "brad": ("brad-willpower", "axe-damage", "christine-roll-name"),
    "christine": ("armour-columns", "christine-roll-name"),
}
"""The text's discrepancies (:mod:`.discrepancies`) that touch each premade."""


def info() -> dict[str, ExampleInfo]:
    """Where the premades come from and the discrepancies that touch them; the
    validator finds none of these in their sheets (each note explains)."""
    by_key = {d.key: d for d in DISCREPANCIES}
    return {
        name: ExampleInfo(
            True,
            "ARM 1.2: Combat (Melee), the example's character table",
            tuple(
                ExampleNote(
                    f"{by_key[k].where}: {by_key[k].text}; {by_key[k].other}. "
                    f"Ruling: {by_key[k].ruling}."
                )
                for k in keys
            ),
        )
        for name, keys in NOTED.items()
    }
