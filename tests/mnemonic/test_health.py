"""Injuries: the check to stay active and the new Status."""

from __future__ import annotations

from fractions import Fraction

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.mnemonic.health import injury, injury_odds, resisting_aptitude
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.sheet import Character, Status
from referee.systems.mnemonic.tables import DEFAULT_TALENTS

BOXER = Character(
    "Mick",
    "human",
    dict.fromkeys(DEFAULT_TALENTS, 2) | {"Tough": 5},
    {"Professional Boxer": 4},
)


def test_resisting_aptitude_primary_at_moderately_plus_best_talent() -> None:
    apt = resisting_aptitude(BOXER, options=Options())
    assert apt.value == 5 + 3 and "Tough" in apt.parts[0].source
    assert resisting_aptitude(BOXER, life_role="Professional Boxer", options=Options()).value == 9
    with pytest.raises(IllegalAction):
        resisting_aptitude(BOXER, life_role="Pilot", options=Options())


def test_success_keeps_the_victim_active_and_hurt() -> None:
    out = injury(8, "Moderate", "unconscious", ScriptedRoller([8]), victim="Mick")
    assert out.success and out.details["status"] == "Hurt"
    (change,) = out.changes
    assert change.target == "Mick" and change.value == Status("Hurt", None, 1)


def test_failure_makes_the_victim_inactive_as_the_worst_outcome() -> None:
    out = injury(8, "Moderate", "dead", ScriptedRoller([9]))
    assert not out.success and out.changes[0].value == Status("inactive", "dead", 1)
    assert "inactive (dead)" in out.label


def test_each_earlier_injury_is_one_chances_step_worse() -> None:
    hurt = Status("Hurt", None, 2)
    out = injury(8, "Good", "immobilized", ScriptedRoller([3]), status=hurt)
    # 8 - 3 + 6 - 2*3 = 5
    assert out.result == 5 and out.changes[0].value == Status("Hurt", None, 3)
    assert injury_odds(8, "Good", "dead", status=hurt).probability(
        Status("Hurt", None, 3)
    ) == Fraction(8, 12)


def test_injury_options_label_and_step() -> None:
    opts = Options(injured_label="Wounded", injury_step=2)
    out = injury(
        6, 0, "unconscious", ScriptedRoller([4]), status=Status("Wounded", None, 1), options=opts
    )
    assert out.result == 0 and out.changes[0].value == Status("Wounded", None, 2)


def test_an_inactive_victim_stays_inactive_at_the_worse_outcome() -> None:
    down = Status("inactive", "unconscious", 1)
    out = injury(8, 0, "dead", ScriptedRoller([12]), status=down)
    assert out.changes[0].value == Status("inactive", "dead", 2)
    out = injury(8, 0, "immobilized", ScriptedRoller([1]), status=Status("inactive", "dead", 1))
    assert out.changes[0].value == Status("inactive", "dead", 2)


def test_injury_odds_sum_to_the_check() -> None:
    dist = injury_odds(7, "Fair", "unconscious")
    assert dist.probability(Status("Hurt", None, 1)) == Fraction(10, 12)
    assert dist.probability(Status("inactive", "unconscious", 1)) == Fraction(2, 12)


def test_unknown_worst_outcome() -> None:
    with pytest.raises(IllegalAction, match="unconscious, immobilized, dead"):
        injury(7, 0, "maimed", ScriptedRoller([1]))
