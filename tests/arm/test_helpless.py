"""Issue 41: a Dead, Unconscious or Destroyed character takes no action (ARM 1.2, Damage:
wound level 5 Dead, shock level 5 Unconscious, a margin of 16+ Destroyed), though a blow
on them still lands."""

from __future__ import annotations

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.arm import RULESET
from referee.systems.arm import actions as a
from referee.systems.arm.options import Options

OPT = Options()


def _table(**hurt: object) -> object:
    state = RULESET.initial_state(OPT)
    for cid, sheet in RULESET.examples().items():
        state = RULESET.seat(state, cid, sheet, OPT)
    out = RULESET.resolve(a.TakeDamage("brad", **hurt), state, ScriptedRoller([]), OPT)  # type: ignore[arg-type]
    return RULESET.apply(state, out)


@pytest.mark.parametrize(
    ("hurt", "word"),
    [({"wound": 5}, "Dead"), ({"shock": 5}, "Unconscious"), ({"destroyed": True}, "Destroyed")],
)
def test_brad_neither_attacks_nor_tries_a_task(hurt: dict[str, object], word: str) -> None:
    """On main Brad's attack and task succeeded after each of these (exit 0)."""
    state = _table(**hurt)
    for action in (
        a.Attack("brad", "alex", push="never"),
        a.Task("brad", 6, "Fitness", push="never"),
        a.Defend("brad"),
        a.Contest("alex", "brad", push="never"),
    ):
        roller = ScriptedRoller([6, 1, 6, 1])
        with pytest.raises(IllegalAction, match=f"Brad is {word} and cannot"):
            RULESET.resolve(action, state, roller, OPT)  # type: ignore[arg-type]
        assert not roller.records
        with pytest.raises(IllegalAction, match=f"Brad is {word}"):
            RULESET.odds(action, state, OPT)  # type: ignore[arg-type]


def test_a_blow_on_an_unconscious_brad_lands_without_a_defence() -> None:
    """Alex (Fitness 6, sword attack -1) rolls [4, 1]: 6 - 1 + 3 = 8 against 4, result 4:
    Brad, Unconscious, gets no defence, so the blow lands at once (Alex strikes next)."""
    state = _table(shock=5)
    out = RULESET.resolve(
        a.Attack("alex", "brad", push="never"), state, ScriptedRoller([4, 1]), OPT
    )  # type: ignore[arg-type]
    after = RULESET.apply(state, out)  # type: ignore[arg-type]
    assert [(x.target, x.stage) for x in after.attacks] == [("brad", "landed")]
    assert [d.choices for d in after.pending] == [("strike",)]
