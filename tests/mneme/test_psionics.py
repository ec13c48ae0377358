"""Psionic Strength and exhaustion (issue 22, item 6; Mneme CE ch. 7, Healing and Mental
Characteristics: "Use of Psionics falls under Exhaustion Rules; each Psionic Point
equals 1 hour of moderate activity"; Wounded: "Character can be considered Wounded from
damage from Exhaustion").

Tess with Psi 9 (ChM +1) spends 3 Psionic Points: Psi 6 (ChM 0), three hours of moderate
activity as 3 points of exhaustion damage, and Wounded with no other damage. Resting
heals the exhaustion at the Wounded rates (full rest: 1 a day; with light care: 2 a day;
moderate activity: none) and her Psionic Strength comes back with it.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.base import Action
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import Check, PassTime, SetCare, UsePsionics
from referee.systems.mneme.health import condition
from referee.systems.mneme.options import Options
from referee.systems.mneme.state import State, seated
from referee.table.service import TableService, table_data
from referee.table.store import Store

OPT = Options()
TESS = RULESET.examples()["tess"]
PSION = replace(TESS, characteristics={**TESS.characteristics, "Psi": 9})
TABLE = seated({"tess": PSION, "ada": RULESET.examples()["ada"]})


def act(action: Action, table: State, options: Options = OPT) -> State:
    return RULESET.apply(table, RULESET.resolve(action, table, ScriptedRoller([]), options))


def p_check(modifier: int, difficulty: int = 8) -> Fraction:
    """2d6 + modifier >= difficulty, counted over the faces."""
    hits = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + modifier >= difficulty)
    return Fraction(hits, 36)


def test_spending_psionic_points_is_psi_damage_and_exhaustion() -> None:
    psi_check = Check(characteristic="Psi", actor="tess")
    assert RULESET.chance(psi_check, TABLE, OPT) == p_check(1) == Fraction(21, 36)
    out = RULESET.resolve(UsePsionics("tess", 3, "telepathy"), TABLE, ScriptedRoller([]), OPT)
    assert (out.details["psi_before"], out.details["psi_after"]) == (9, 6)
    assert out.details["moderate_activity_hours"] == 3 and out.details["exhaustion"] == 3
    table = RULESET.apply(TABLE, out)
    tess = table.character("tess").sheet
    assert (tess.characteristic("Psi"), tess.modifier("Psi"), tess.exhaustion) == (6, 0, 3)
    # Wounded from exhaustion alone: no damage, so no wound penalty
    assert tess.damage == 0 and condition(tess, OPT) == "Wounded"
    rows = dict(RULESET.tracker(table, OPT)["characters"]["tess"])  # type: ignore[arg-type,index]
    assert (rows["Condition"], rows["Wound penalty"]) == ("Wounded", 0)
    assert (rows["Psionic Strength"], rows["Exhaustion"]) == ("6 of 9", 3)
    # later Psi checks roll with the lower modifier
    assert RULESET.chance(psi_check, table, OPT) == p_check(0) == Fraction(15, 36)
    # no more than is left, and none without Psi
    with pytest.raises(IllegalAction, match="6 Psionic Point"):
        RULESET.odds(UsePsionics("tess", 7), table, OPT)
    with pytest.raises(IllegalAction, match="no Psionic Strength"):
        RULESET.odds(UsePsionics("ada"), table, OPT)


def test_resting_heals_the_exhaustion_and_brings_psi_back() -> None:
    table = act(UsePsionics("tess", 3), TABLE)
    # full rest, no care: the Wounded rate, 1 a day
    day = act(PassTime(days=1, who=("tess",)), table)
    tess = day.character("tess").sheet
    assert (tess.exhaustion, tess.characteristic("Psi")) == (2, 7)
    half = act(PassTime(hours=12, who=("tess",)), day)
    assert half.character("tess").sheet.exhaustion_progress == Fraction(1, 2)
    rested = act(PassTime(days=2, who=("tess",)), day)
    tess = rested.character("tess").sheet
    assert (tess.exhaustion, tess.characteristic("Psi"), condition(tess, OPT)) == (0, 9, "Unhurt")
    assert tess.characteristic_damage == {}
    # with light care at full rest: 2 a day
    cared = act(SetCare("tess", "full_rest", "light"), table)
    assert act(PassTime(days=1, who=("tess",)), cared).character("tess").sheet.exhaustion == 1
    # moderate activity heals none of it
    busy = act(SetCare("tess", "moderate"), table)
    assert act(PassTime(days=3, who=("tess",)), busy).character("tess").sheet.exhaustion == 3


def test_two_points_of_exhaustion_per_psionic_point_by_option() -> None:
    heavy = Options(psionic_exhaustion=2)
    table = act(UsePsionics("tess", 2), TABLE, heavy)
    assert table.character("tess").sheet.exhaustion == 4
    # one point of exhaustion healed leaves 3, which still stands for both points spent
    day = act(PassTime(days=1, who=("tess",)), table, heavy)
    assert day.character("tess").sheet.characteristic("Psi") == 7
    two = act(PassTime(days=2, who=("tess",)), table, heavy)
    assert two.character("tess").sheet.characteristic("Psi") == 8


def test_the_dying_cannot_use_psionics() -> None:
    dying = seated({"tess": replace(PSION, damage=19)})
    with pytest.raises(IllegalAction, match="Dying"):
        RULESET.odds(UsePsionics("tess"), dying, OPT)


def test_psionics_at_a_live_table(tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'p.db'}"))
    tid = service.create("mneme", "Station", "Mo").table.id
    service.join(tid, "Tia", "player")
    service.add_character(tid, RULESET.dump_sheet(PSION), owner="Tia", cid="tess")
    done = service.act(tid, "Tia", "psionics", {"actor": "tess", "points": 2})
    assert done.event.payload["outcome"]["details"]["psi_after"] == 7  # type: ignore[index]
    tracker = table_data(service.load(tid))["tracker"]
    rows = dict(tracker["characters"]["tess"])  # type: ignore[call-overload,index]
    assert (rows["Condition"], rows["Psionic Strength"], rows["Exhaustion"]) == (
        "Wounded",
        "7 of 9",
        2,
    )
