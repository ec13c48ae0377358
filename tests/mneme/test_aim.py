"""Aiming, a temporary modifier (issue 22, item 5; Mneme CE ch. 2, Modifiers to Rolls:
"Some Modifiers are Temporary (e.g., Aim Modifier increases as minor actions are used)").

Ada Vance (Dex 9: ChM +1, Gun Combat 1: Competence +2) aims with Minor actions of her
round, +1 each (option ``aim_step``) up to +3 (``aim_max``); her next attack adds the Aim
modifier and spends it. It is lost if she takes damage or does anything else.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from referee.cli.main import run
from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.base import Action
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import (
    Aim,
    Attack,
    Check,
    CheckInputs,
    DamageRolls,
    EndEncounter,
    SpendAction,
)
from referee.systems.mneme.options import Options
from referee.systems.mneme.state import State, seated
from referee.table.service import TableService
from referee.table.store import Store
from referee.table.tokens import Tokens
from referee.web import create_app

OPT = Options()
TABLE = seated(dict(RULESET.examples()))
# one point of damage per hit, one roll at most: the odds are those of hitting at 10
SHOT = Attack(
    "ada",
    None,
    CheckInputs(difficulty=10, characteristic="Dex", skill="Gun Combat"),
    damage="1",
    rate_of_attack=1,
    target_hp=20,
)


def act(action: Action, table: State, faces: list[int] | None = None) -> State:
    out = RULESET.resolve(action, table, ScriptedRoller(faces or []), OPT)
    return RULESET.apply(table, out)


def p_hit(modifier: int, difficulty: int = 10) -> Fraction:
    """2d6 + modifier >= difficulty, counted over the faces."""
    hits = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + modifier >= difficulty)
    return Fraction(hits, 36)


def test_aiming_builds_a_modifier_that_the_next_attack_spends() -> None:
    aimed = act(Aim("ada", 2), TABLE)
    seat = aimed.character("ada")
    assert (seat.aim, seat.minor_left) == (2, 1)  # two of her three Minor actions
    # the attack's exact odds take the aim: Competence 2 + aim 2 against 10
    assert RULESET.odds(SHOT, TABLE, OPT).probability(1) == p_hit(2) == Fraction(15, 36)
    assert RULESET.odds(SHOT, aimed, OPT).probability(1) == p_hit(4) == Fraction(26, 36)
    # [3, 3] = 6 + 2 + 2 = 10 against 10: a hit only because she aimed
    out = RULESET.resolve(SHOT, aimed, ScriptedRoller([3, 3, 1]), OPT)
    assert (out.result, out.success, out.details["aim"]) == (0, True, 2)
    assert (2, "aim", "action") in [(m.value, m.source, m.kind) for m in out.modifiers]
    after = RULESET.apply(aimed, out)
    assert after.character("ada").aim == 0  # spent
    assert RULESET.odds(SHOT, after, OPT).probability(1) == p_hit(2)


def test_the_aim_builds_up_to_its_most_and_within_the_round() -> None:
    three = act(Aim("ada", 3), TABLE)
    assert three.character("ada").aim == 3
    with pytest.raises(IllegalAction, match=r"\+3 at most"):
        RULESET.odds(Aim("ada"), three, OPT)
    with pytest.raises(IllegalAction, match="only 1 left"):
        RULESET.odds(Aim("ada", 2), act(SpendAction("ada", "significant"), TABLE), OPT)
    # a Dying character is unconscious and immobile, and cannot aim
    from dataclasses import replace

    dying = seated({"ada": replace(RULESET.examples()["ada"], damage=25)})
    with pytest.raises(IllegalAction, match="Dying"):
        RULESET.odds(Aim("ada"), dying, OPT)
    # a bigger step is a house rule: +2 a Minor action up to +4
    wide = Options(aim_step=2, aim_max=4)
    out = RULESET.resolve(Aim("ada", 2), TABLE, ScriptedRoller([]), wide)
    assert out.result == 4


@pytest.mark.parametrize(
    ("breaker", "faces"),
    [
        (Check(actor="ada"), [3, 3]),  # another roll
        (SpendAction("ada", "minor"), []),  # another Minor action (moving...)
        (DamageRolls(1, "1d3", target="ada"), [3]),  # 3 damage, no armour named: 3 - 4 = 0
        (DamageRolls(1, "2d6", target="ada"), [6, 6]),  # 12 - Flak Jacket 4 = 8 damage
        (EndEncounter(), []),
    ],
)
def test_the_aim_is_lost(breaker: Action, faces: list[int]) -> None:
    aimed = act(Aim("ada", 2), TABLE)
    after = act(breaker, aimed, faces)
    took = after.character("ada").sheet.damage
    if isinstance(breaker, DamageRolls) and not took:
        assert after.character("ada").aim == 2  # no damage taken: the aim holds
    else:
        assert after.character("ada").aim == 0


def test_the_aim_holds_through_a_free_action_and_by_option() -> None:
    aimed = act(Aim("ada", 1), TABLE)
    assert act(SpendAction("ada", "free"), aimed).character("ada").aim == 1
    keep = Options(aim_lost_on_other_action=False, aim_lost_on_damage=False)
    out = RULESET.resolve(Check(actor="ada"), aimed, ScriptedRoller([3, 3]), keep)
    assert RULESET.apply(aimed, out).character("ada").aim == 1
    rows = dict(RULESET.tracker(aimed, OPT)["characters"]["ada"])  # type: ignore[arg-type,index]
    assert rows["Aim"] == "+1"


def test_aiming_from_the_table_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'aim.db'}"
    assert run(["table", "new", "mneme", "--name", "Deck", "--referee", "Mo", "--db", db]) == 0
    assert run(["table", "join", "Deck", "Ann", "--role", "player", "--db", db]) == 0
    assert run(["table", "char", "add", "Deck", "ada", "--owner", "Ann", "--db", db]) == 0
    capsys.readouterr()
    args = ["table", "act", "Deck", "aim", "actor=ada-vance", "count=2", "--as", "Ann"]
    assert run([*args, "--db", db, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "+2 on the next attack" in json.dumps(out)
    assert run([*args, "--db", db]) == 1  # +4 is past the most (+3)
    assert "+3 at most" in capsys.readouterr().err


@pytest.mark.filterwarnings("ignore:Using .httpx. with")
def test_aiming_through_the_http_api(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    service = TableService(Store(f"sqlite:///{tmp_path / 'web.db'}"))
    with TestClient(create_app(service, tokens=Tokens(service.store))) as http:
        made = http.post("/api/tables", json={"game": "mneme", "name": "Deck", "referee": "Mo"})
        assert made.status_code == 201, made.text
        tid, mo = made.json()["table"]["id"], {"authorization": f"Bearer {made.json()['token']}"}
        r = http.post(
            f"/api/tables/{tid}/invites", json={"name": "Ann", "role": "player"}, headers=mo
        )
        ann = {"authorization": f"Bearer {r.json()['token']}"}
        r = http.post(
            f"/api/tables/{tid}/characters", json={"example": "ada", "owner": "Ann"}, headers=mo
        )
        assert r.status_code == 201, r.text
        aim = {"action": "aim", "fields": {"actor": "ada-vance", "count": 3}}
        r = http.post(f"/api/tables/{tid}/actions", json=aim, headers=ann)
        assert r.status_code == 201, r.text
        assert service.load(tid).state.character("ada-vance").aim == 3
        r = http.post(f"/api/tables/{tid}/actions", json=aim, headers=ann)
        assert 400 <= r.status_code < 500 and "at most" in r.text
