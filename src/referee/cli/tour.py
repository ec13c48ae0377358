"""``referee demo``'s tour of each game: a few of its actions played at a table where
the rule text's example characters sit, each outcome printed as the table's log says it
(:func:`referee.cli.common.outcome_text`, the game's words) and each chance as
:meth:`~referee.systems.base.Ruleset.chance` gives it.

Each game declares its own tour, as data, beside its summary (:func:`referee.systems.
about`: each step an action's name and fields, as ``referee GAME act`` takes them, and the
faces it rolls); the rules it shows are the package's, reached only through the game's
``Ruleset``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from referee.errors import RulesError
from referee.systems import about
from referee.systems.base import JSONObject

Step = tuple[str, JSONObject, Sequence[int] | None]
"""An action's name, its fields, and the faces it rolls (None: a seeded roller's)."""


def steps(game: str) -> tuple[Step, ...]:
    """The game's tour, as it declares it (none: the game shows only its name)."""
    found = about(game).get("tour") or []
    if not isinstance(found, list):
        raise RulesError(f"{game}'s tour is not a list of steps")
    out: list[Step] = []
    for i, step in enumerate(found):
        action = step.get("action") if isinstance(step, dict) else None
        fields = step.get("fields", {}) if isinstance(step, dict) else None
        faces = step.get("faces") if isinstance(step, dict) else None
        if not isinstance(action, str) or not isinstance(fields, dict):
            raise RulesError(f"{game}'s tour, step {i}: an action's name and fields needed")
        if faces is not None and not (
            isinstance(faces, list) and all(isinstance(f, int) for f in faces)
        ):
            raise RulesError(f"{game}'s tour, step {i}: faces are a list of whole numbers")
        out.append((action, fields, faces))
    return tuple(out)


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
    for name, fields, faces in steps(game):
        action = rules.load_action(name, dict(fields))
        chance = rules.chance(action, state, options)
        roller: Roller = seeded if faces is None else ScriptedRoller(list(faces))
        outcome = rules.resolve(action, state, roller, options)
        state = rules.apply(state, outcome)
        said = outcome_text(outcome, state, action)
        yield said if chance is None else f"{said}\n  chance {fraction_text(chance)}"
