"""Massive damage has one answer (issue 22, item 1; Mneme CE ch. 7, Massive Damage).

"Characters who take more than their HP in total damage from an attack must roll End
difficulty 8 with wound penalties." Tess (Str 2, Dex 2, End 14: HP 18, End ChM +2) takes
28 damage in one attack. By the ruling (option ``massive_damage_wounds`` 'before') the
roll takes the wound penalty she had before the hit (none), so she survives on 2d6 + 2 >= 8,
13/18; with the hit's own damage (-9) no roll can succeed. Whether the roll follows an
attack at a table or stands alone, the answer is the same.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import Attack, CheckInputs, PassRounds, SurvivalRoll
from referee.systems.mneme.options import Options
from referee.systems.mneme.state import State, seated
from referee.table.service import TableService, table_data
from referee.table.store import Store

OPT = Options()
AFTER = Options(massive_damage_wounds="after")

# Ada (Dex 9: ChM +1, Gun Combat 1) fires the automatic rifle (3d6-2, RoA 4) at Tess, who
# wears no armour: [6, 6] + 2 = 14 against 12 is Success Effect 2, three rolls:
# 6+6+6-2 = 16, 5+5+2-2 = 10, 1+1+2-2 = 2, so 28 damage, more than her HP of 18.
RIFLE = Attack(
    "ada",
    "tess",
    CheckInputs(difficulty=12, characteristic="Dex", skill="Gun Combat"),
    weapon="Automatic Rifle",
)
FACES = [6, 6, 6, 6, 6, 5, 5, 2, 1, 1, 2]


def brute_survival(end_chm: int, damage: int, difficulty: int = 8) -> Fraction:
    """The chance 2d6 + End ChM - (damage // 3) reaches ``difficulty``, by counting faces."""
    hits = sum(
        1 for a, b in product(range(1, 7), repeat=2) if a + b + end_chm - damage // 3 >= difficulty
    )
    return Fraction(hits, 36)


def survives(roll: SurvivalRoll, table: State, options: Options) -> Fraction:
    """The exact chance of the roll's 'Survived, crippled' result (the odds of its labels)."""
    return RULESET.odds(roll, table, options).probability("Survived, crippled")


def hit(options: Options) -> State:
    table = seated(dict(RULESET.examples()))
    out = RULESET.resolve(RIFLE, table, ScriptedRoller(FACES), options)
    assert out.details["damage_dealt"] == 28
    assert out.details["target"]["massive_damage"] is True
    assert out.details["target"]["massive_roll_due"] is True
    return RULESET.apply(table, out)


def test_the_independent_count_gives_the_issue_figures() -> None:
    assert brute_survival(2, 0) == Fraction(13, 18)
    assert brute_survival(2, 28) == 0


def test_an_attack_dealing_massive_damage_makes_the_end_roll_the_next_step() -> None:
    after = hit(OPT)
    tess = after.character("tess")
    assert tess.sheet.damage == 28 and tess.massive_before == 0
    (waiting,) = after.pending
    assert waiting.actor == "tess" and waiting.choices == ("survival",)
    shown = dict(RULESET.tracker(after, OPT)["table"])  # type: ignore[arg-type]
    assert "roll End at 8" in shown["Waiting for Tess"]
    # nothing else happens at the table until she rolls
    with pytest.raises(IllegalAction, match="waiting for Tess"):
        RULESET.odds(PassRounds(1), after, OPT)
    with pytest.raises(IllegalAction, match="waiting for Tess"):
        RULESET.odds(RIFLE, after, OPT)
    with pytest.raises(IllegalAction, match="massive-damage End roll first"):
        RULESET.odds(SurvivalRoll("tess", "dying"), after, OPT)
    # the roll uses the wound penalty she had before the hit: 13/18
    roll = SurvivalRoll("tess", "massive")
    assert survives(roll, after, OPT) == brute_survival(2, 0) == Fraction(13, 18)
    # [3, 3] + 2 = 8 against 8: she survives, crippled, and the table moves on
    out = RULESET.resolve(roll, after, ScriptedRoller([3, 3]), OPT)
    assert (out.label, out.details["roll"], out.details["wounds_from_damage"]) == (
        "Survived, crippled",
        8,
        0,
    )
    done = RULESET.apply(after, out)
    assert done.pending == () and done.character("tess").massive_before is None
    assert "Crippled" in done.character("tess").sheet.conditions
    RULESET.odds(PassRounds(1), done, OPT)  # the table is free again
    # the table's record cannot be swapped for another figure
    with pytest.raises(IllegalAction, match="0 damage before it, not 28"):
        RULESET.odds(SurvivalRoll("tess", "massive", damage_before=28), after, OPT)


def test_the_option_after_takes_the_hit_into_the_penalty() -> None:
    after = hit(AFTER)
    roll = SurvivalRoll("tess", "massive")
    assert survives(roll, after, AFTER) == brute_survival(2, 28) == 0


def test_a_standalone_roll_takes_the_damage_before_the_hit() -> None:
    tess = RULESET.examples()["tess"]
    from dataclasses import replace

    table = seated({"tess": replace(tess, damage=28)})
    with pytest.raises(IllegalAction, match="needs damage_before"):
        RULESET.odds(SurvivalRoll("tess", "massive"), table, OPT)
    alone = SurvivalRoll("tess", "massive", damage_before=0)
    assert survives(alone, table, OPT) == Fraction(13, 18)
    # 6 damage before the hit: -2, so 2d6 >= 8 (15/36)
    earlier = SurvivalRoll("tess", "massive", damage_before=6)
    assert survives(earlier, table, OPT) == brute_survival(2, 6) == Fraction(15, 36)
    # a damage_before is refused on any other roll
    with pytest.raises(IllegalAction, match="only for a massive-damage roll"):
        RULESET.odds(SurvivalRoll("tess", "dying", damage_before=0), table, OPT)


def test_at_a_live_table_the_roll_is_the_next_step(tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'm.db'}"))
    tid = service.create("mneme", "Station", "Mo").table.id
    service.join(tid, "Ann", "player")
    service.join(tid, "Tia", "player")
    service.set_settings(tid, typed_dice="everyone")  # the players roll physical dice
    service.add_character(tid, "ada", owner="Ann")
    service.add_character(tid, "tess", owner="Tia")
    fields = {
        "actor": "ada-vance",
        "target": "tess",
        "weapon": "Automatic Rifle",
        "check": {"difficulty": 12, "characteristic": "Dex", "skill": "Gun Combat"},
    }
    service.act(tid, "Ann", "attack", fields, faces=FACES)
    data = table_data(service.load(tid))
    (waiting,) = data["pending"]  # type: ignore[misc]
    assert waiting["actor"] == "tess"  # type: ignore[index]
    with pytest.raises(IllegalAction, match="waiting for Tess"):
        service.act(tid, "Mo", "pass-rounds", {"rounds": 1}, faces=[])
    done = service.act(tid, "Tia", "survival", {"actor": "tess", "kind": "massive"}, faces=[3, 3])
    out = done.event.payload["outcome"]
    assert out["label"] == "Survived, crippled"  # type: ignore[index]
    assert out["details"]["wounds_from_damage"] == 0  # type: ignore[index]
    assert table_data(service.load(tid))["pending"] == []


def test_the_command_line_roll_takes_the_damage_before(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import json

    from referee.cli.main import run
    from referee.systems.mneme import RULESET as MNEME

    sheet = tmp_path / "tess.json"
    sheet.write_text(json.dumps({**MNEME.example_data("tess"), "damage": 28}), encoding="utf-8")
    assert run(["mneme", "survival", str(sheet), "massive", "--faces", "3,3"]) == 1
    assert "needs damage_before" in capsys.readouterr().err
    args = ["mneme", "survival", str(sheet), "massive", "--damage-before", "0"]
    assert run([*args, "--faces", "3,3"]) == 0
    out = capsys.readouterr().out
    assert "Tess rolls to survive: Survived, crippled" in out and "Tess is now Crippled" in out
