"""``referee demo``'s tour of each game: a few of its actions played at a table where
the rule text's example characters sit, each outcome printed as the table's log says it
(:func:`referee.cli.common.outcome_text`, the game's words) and each chance as
:meth:`~referee.systems.base.Ruleset.chance` gives it.

The tour is a command-line demonstration and nothing else reads it, so it lives here,
as data (each step an action's name and fields, as ``referee GAME act`` takes them, and
the faces it rolls), not in the game's package: the rules it shows are the package's,
reached only through the game's ``Ruleset``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

Step = tuple[str, Mapping[str, Any], Sequence[int] | None]
"""An action's name, its fields, and the faces it rolls (None: a seeded roller's)."""

THREAT = {"weapon": "Broadsword", "attacker": "raider"}
"""The Raider's broadsword, striking Ada on a failed check (Mneme CE, ch. 7)."""

TOURS: Mapping[str, tuple[Step, ...]] = {
    "mnemonic": (
        ("check", {"aptitude": 7, "chances": "Fair"}, (9,)),
        ("injury", {"victim": "boxer", "chances": "Good", "worst": "unconscious"}, (4,)),
    ),
    "mongrel": (
        ("check", {"dice": 4, "tn": 3, "mode": "over"}, (6, 3, 1, 1)),
        ("start-conflict", {"fighters": ["vooruk", "giazza"]}, None),
        ("attack", {"actor": "vooruk", "target": "giazza", "expertise": "Rend"}, None),
    ),
    "mneme": (
        ("check", {"difficulty": 8}, (5, 4)),
        ("initiative", {}, None),
        ("take-damage", {"actor": "ada", "fail_effect": 3, "threat": THREAT}, None),
    ),
    "arm": (
        ("log-of", {"measure": "1342"}, ()),
        ("convert", {"log": 5, "source": "m/s", "target": "ft/round", "round_length": "3s"}, ()),
        ("task", {"actor": "brad", "total": 6, "difficulty": 6, "push": "never"}, (3, 5)),
        ("damage", {"actor": "brad", "target": "alex", "result": 5, "damage": 7}, (2, 2)),
    ),
}
"""Each game's tour (a game with none shows only its name)."""


def tour(game: str) -> Iterator[str]:
    """The game's tour: each step's chance (when it has one) and outcome, in its words."""
    from referee.cli.common import outcome_text
    from referee.dice.odds import fraction_text
    from referee.dice.roller import Roller, ScriptedRoller, SeededRoller
    from referee.systems.base import get

    rules = get(game)
    options = rules.options_type()
    state = rules.initial_state(options)
    for cid, sheet in rules.examples().items():
        state = rules.seat(state, cid, sheet, options)
    seeded = SeededRoller(2026)
    for name, fields, faces in TOURS.get(game, ()):
        action = rules.load_action(name, dict(fields))
        chance = rules.chance(action, state, options)
        roller: Roller = seeded if faces is None else ScriptedRoller(list(faces))
        outcome = rules.resolve(action, state, roller, options)
        state = rules.apply(state, outcome)
        said = outcome_text(outcome, state, action)
        yield said if chance is None else f"{said}\n  chance {fraction_text(chance)}"
