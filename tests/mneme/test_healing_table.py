"""The whole Natural Healing and Medical Care Table through the clock (Mneme CE ch. 7):
every condition x activity x care level, as days passing on a sheet."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.errors import IllegalAction
from referee.systems.mneme.health import condition, pass_time
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet

OPT = Options()
# HP 24: Seriously Wounded from 8, Critically from 16, Dying above 24
PC = Sheet("Pat", {"Str": 7, "Dex": 9, "End": 8, "Int": 7, "Edu": 9, "Soc": 7})
DAMAGE = {"Wounded": 3, "Seriously Wounded": 12, "Critically Wounded": 20, "Dying": 26}
NEEDS = {"Wounded": "light", "Seriously Wounded": "moderate", "Critically Wounded": "serious"}
NEEDS["Dying"] = "intensive"
CARE = ("none", "light", "moderate", "serious", "intensive")

IMMOBILE = "immobile"
# The printed table, column by column: (no care, with the care the condition needs).
# (points, days) healed; None = no healing.
TABLE: dict[str, dict[str, tuple[object, object]]] = {
    "Wounded": {
        "moderate": (None, (1, 3)),
        "light": ((1, 2), (1, 1)),
        "full_rest": ((1, 1), (2, 1)),
    },
    "Seriously Wounded": {
        "moderate": (None, None),
        "light": ((1, 3), (1, 2)),
        "full_rest": ((1, 2), (1, 1)),
    },
    "Critically Wounded": {
        "moderate": (IMMOBILE, IMMOBILE),
        "light": (IMMOBILE, IMMOBILE),
        "full_rest": ((1, 7), (1, 3)),
    },
    "Dying": {
        "moderate": (IMMOBILE, IMMOBILE),
        "light": (IMMOBILE, IMMOBILE),
        "full_rest": ((1, 7), (1, 3)),
    },
}

CELLS = [
    (cond, activity, care)
    for cond in TABLE
    for activity in ("moderate", "light", "full_rest")
    for care in CARE
]


@pytest.mark.parametrize(("cond", "activity", "care"), CELLS)
def test_every_cell_of_the_healing_table_through_the_clock(
    cond: str, activity: str, care: str
) -> None:
    """Care counts when it is at least the level the condition needs; the clock heals
    ``points`` exactly when ``days`` have passed, and one point fewer an hour earlier."""
    pc = replace(PC, damage=DAMAGE[cond])
    assert condition(pc, OPT) == cond
    cared = CARE.index(care) >= CARE.index(NEEDS[cond])
    rate = TABLE[cond][activity][1 if cared else 0]
    if rate == IMMOBILE:
        with pytest.raises(IllegalAction, match="immobile"):
            pass_time(pc, days=1, activity=activity, care=care, options=OPT)
        return
    if rate is None:
        after = pass_time(pc, days=30, activity=activity, care=care, options=OPT)
        assert after.healed == 0 and after.character.damage == DAMAGE[cond]
        return
    assert isinstance(rate, tuple)
    points, days = rate
    full = pass_time(pc, days=days, activity=activity, care=care, options=OPT)
    assert full.healed == points and full.character.damage == DAMAGE[cond] - points
    early = pass_time(pc, hours=24 * days - 1, activity=activity, care=care, options=OPT)
    assert early.healed == points - 1


@pytest.mark.parametrize("cond", ["Wounded", "Seriously Wounded"])
def test_strenuous_activity_heals_nothing(cond: str) -> None:
    pc = replace(PC, damage=DAMAGE[cond])
    for care in CARE:
        after = pass_time(pc, days=10, activity="strenuous", care=care, options=OPT)
        assert after.healed == 0 and after.character.damage == DAMAGE[cond]


@pytest.mark.parametrize("cond", ["Critically Wounded", "Dying"])
def test_the_immobile_cannot_be_strenuous_either(cond: str) -> None:
    """The table makes Critically Wounded and Dying characters immobile for moderate and
    light activity; strenuous activity is more than either."""
    with pytest.raises(IllegalAction, match="immobile"):
        pass_time(replace(PC, damage=DAMAGE[cond]), days=1, activity="strenuous", options=OPT)
