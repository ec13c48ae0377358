"""The text's three example characters as stored sheets.

Mongrel, Examples of character creation. The text spells two of them two ways
(Alwia / Ahvia, Giazza / Ghiazza); both names load.
"""

from __future__ import annotations

import json
from importlib.resources import files

from referee.errors import RulesError
from referee.systems.base import load_record
from referee.systems.building import ExampleInfo, ExampleNote

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


WHERE = "Mongrel: Examples of character creation"

INFO: dict[str, ExampleInfo] = {
    "alwia": ExampleInfo(
        True,
        WHERE,
        (
            ExampleNote(
                "Her Resist is 0, though step 1 gives every Sorcery Expertise 1 (and her "
                "step-2 Know adds Area A's +1 to it as well).",
                ("expertise.Resist",),
            ),
            ExampleNote(
                "No choice of steps 2-4 gives her levels: the closest legal build (step 2 "
                "Know + Lie, step 3 Diabolic Power + Athletics, step 4 Threaten + "
                "Bureaucrat) leaves Balance 1, Rend 1 and Threaten 2 unexplained.",
                ("expertise", "expertise.Balance", "expertise.Rend", "expertise.Threaten"),
            ),
            ExampleNote(
                "The text spells her Alwia and Ahvia, and lists both 'Infernal Power 3' and "
                "'Diabolic Power 3 (wings 2, face 1)': ruled one Expertise, Diabolic Power 3."
            ),
        ),
    ),
    "vooruk": ExampleInfo(
        True,
        WHERE,
        (
            ExampleNote(
                "Rend 6 is out of reach: the steps give a primary Expertise at most 4.",
                ("expertise.Rend",),
            ),
            ExampleNote(
                "The closest legal build (step 2 Burn + Athletics, step 3 Rend + Threaten, "
                "step 4 Resist + Melee) also differs on Burn, Sense and Balance.",
                ("expertise", "expertise.Burn", "expertise.Sense", "expertise.Balance"),
            ),
        ),
    ),
    "giazza": ExampleInfo(
        True,
        WHERE,
        (
            ExampleNote(
                "One point off: his other 1s need Bureaucrat in step 2, which makes it 4, "
                "not the text's 3.",
                ("expertise", "expertise.Bureaucrat"),
            ),
            ExampleNote("The text spells him Giazza and Ghiazza."),
        ),
    ),
}
"""Where the examples come from and their documented discrepancies (docs/mongrel.md,
"The example characters: discrepancies the validator reports")."""
