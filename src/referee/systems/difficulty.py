"""Where a game's rolled actions keep their difficulty, and the difficulties its text names.

A referee may ask a player for a roll against a difficulty the player is not told (a roll
request with a secret difficulty, :mod:`referee.table.requests`). The player is then shown
the chance for each difficulty the rule text names instead of the one number. Each game
declares, in its own ``difficulties.py`` (the same file name in every wing), one
:class:`Difficulty` per action that has one: the action, the field that holds it, the
named values in the text's own order, and the section that names them. Nothing here names
a game.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping
from dataclasses import dataclass

from referee.systems.outcome import JSONValue


@dataclass(frozen=True)
class Named:
    """One difficulty the text names: its words and its number."""

    label: str
    value: int


@dataclass(frozen=True)
class Difficulty:
    """An action's difficulty (see the module text). ``fixed``: fields a roll whose
    difficulty its roller does not know is made with, because its roller could not decide
    them unseen (ARM's push after the roll)."""

    action: str
    field: str
    named: tuple[Named, ...]
    source: str
    fixed: Mapping[str, JSONValue] = dataclasses.field(default_factory=dict)
    example: str = ""
    """The words a referee types after the action's name to ask for it, in the game's own
    terms (ARM: ``Wit Tough secret @Ann @Ben``): the example the page's request form
    shows, which asks what the game's example characters have."""

    def label(self, value: int) -> str:
        """The text's words for ``value`` (with the number), or the number alone."""
        for n in self.named:
            if n.value == value:
                return f"{n.label} ({value})"
        return str(value)

    def read(self, text: str) -> int | None:
        """A named difficulty's number from its words (any case), or ``None``."""
        folded = " ".join(text.lower().split())
        for n in self.named:
            if n.label.lower() == folded:
                return n.value
        return None


def declared(rules: object) -> tuple[Difficulty, ...]:
    """The difficulties the game of ``rules`` declares (its ``difficulties.py``), or none."""
    package = type(rules).__module__.rpartition(".")[0]
    try:
        found = importlib.import_module(f"{package}.difficulties")
    except ModuleNotFoundError:
        return ()
    return tuple(getattr(found, "DIFFICULTIES", ()))


def request_example(rules: object) -> str:
    """A roll request in the game's own words, as the referee types it (``task Wit Tough
    secret @Ann @Ben``), from the first declared difficulty with an example; ``""`` if none."""
    for d in declared(rules):
        if d.example:
            return f"{d.action} {d.example}"
    return ""


def of_action(rules: object, action: str) -> Difficulty | None:
    """The difficulty ``action`` of the game of ``rules`` declares, or ``None``."""
    return next((d for d in declared(rules) if d.action == action), None)
