"""Issue 22, item 4: missiles that can be dodged, from the table's own setting.

ARM 1.2, Combat (Ranged): "If launching the weapon is a throwing task (eg. spears, stones),
use Fitness to generate a total. If it is an aiming task (eg. bows, guns) use Dexterity
instead. Add the accuracy of the weapon, and a d6-d6 roll. The base difficulty is exactly
the same as it was for melee combat ... However, also add *TWICE* the log of the distance
... Certain slow weapons (eg. stones, spears) may be dodged ... the base difficulty is 4
(6 if the defense is prepared), with the result of the hit added." The text prices no spear
or stone, so the referee adds them to the table's setting (``add-weapon``); the numbers
below are the referee's.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import httpx
import pytest

from referee.cli.main import run
from referee.dice.roller import ScriptedRoller
from referee.systems.arm import RULESET
from referee.systems.arm import actions as a
from referee.systems.arm.catalog import DEFAULT_SETTING
from referee.systems.arm.options import Options
from referee.systems.arm.state import State
from referee.systems.base import Action, IllegalAction, Outcome

OPTS = Options()
SPEAR = a.AddWeapon("Spear", 6, max_range=2, range_stat="Fitness")  # thrown by default


def _table(options: Options = OPTS) -> State:
    state = RULESET.initial_state(options)
    for cid, sheet in RULESET.examples().items():
        state = RULESET.seat(state, cid, sheet, options)
    return state


def _do(
    state: State, action: Action, *faces: int, options: Options = OPTS
) -> tuple[State, Outcome]:
    roller = ScriptedRoller(faces)
    out = RULESET.resolve(action, state, roller, options)
    roller.assert_exhausted()
    return RULESET.apply(state, out), out


def _chance(total: int, difficulty: int) -> Fraction:
    """P(total + d6 - d6 - difficulty >= 0), counted over the 36 faces."""
    wins = sum(total + p - m - difficulty >= 0 for p in range(1, 7) for m in range(1, 7))
    return Fraction(wins, 36)


def test_the_shipped_setting_has_no_missile_to_dodge() -> None:
    """Before the referee adds one, only the text's four missiles exist, none dodgeable."""
    state = _table()
    assert state.setting == DEFAULT_SETTING
    assert not any(w.dodgeable for w in (*state.setting.ranged, *state.setting.spells))
    with pytest.raises(IllegalAction, match=r"unknown ranged weapon 'Spear'.*add-weapon"):
        RULESET.odds(a.Shoot("brad", "Spear", 2, "alex"), state, OPTS)


def test_a_thrown_spear_is_rolled_with_fitness_and_may_be_dodged() -> None:
    state, added = _do(_table(), SPEAR)
    spear = state.setting.ranged_weapon("Spear")
    assert spear is not None and (spear.aimed, spear.dodgeable, spear.strength) == (
        False,
        True,
        True,
    )
    assert "thrown (Fitness)" in added.label and "may be dodged" in added.label
    # Brad throws at Alex, log distance 2 (about 2.5 m), within his range Fitness 8 + 2:
    # Fitness 8 + accuracy 0 + 5 - 2 against 4 + twice 2 = 8: result 3
    shot = a.Shoot("brad", "Spear", distance=2, target="alex")
    assert RULESET.chance(shot, state, OPTS) == _chance(8, 8) == Fraction(21, 36)
    state, hit = _do(state, shot, 5, 2)
    assert (hit.result, hit.details["difficulty"]) == (3, 8)
    assert [(m.source, m.value) for m in hit.modifiers] == [("Fitness", 8)]
    assert [(d.actor, d.choices) for d in state.pending] == [("alex", ("defend", "take-blow"))]
    # Alex dodges as in melee: Fitness 6 against 4 + the hit's 3
    dodge = a.Defend("alex")
    assert RULESET.chance(dodge, state, OPTS) == _chance(6, 7) == Fraction(15, 36)
    prepared = a.Defend("alex", prepared=True)  # melee's prepared base 2 (the default)
    assert RULESET.chance(prepared, state, OPTS) == _chance(6, 5) == Fraction(26, 36)
    sixes = Options(ranged_prepared_dodge=6)  # the ranged section's "6 if prepared"
    assert RULESET.chance(prepared, state, sixes) == _chance(6, 9) == Fraction(6, 36)
    with pytest.raises(IllegalAction, match="only be dodged"):
        RULESET.odds(a.Defend("alex", how="parry"), state, OPTS)
    dodged_state, dodged = _do(state, dodge, 3, 1)  # 6 + 2 - 7 = 1
    assert (dodged.result, dodged.details["blow"]) == (1, "avoided")
    assert dodged_state.attacks == () and dodged_state.pending == ()
    # a failed dodge lets it land: 3 + 6 + Strength 1 + 4 - 4 = 10 against Toughness 5,
    # chain 4 / 2: wound side 1 (Light), shock side 3 (Giddy)
    state, failed = _do(state, dodge, 1, 4)
    assert (failed.result, failed.details["blow"]) == (-4, "lands")
    state, blow = _do(state, a.Strike("brad"), 4, 4)
    assert (blow.details["total"], blow.details["wound_margin"], blow.details["shock_margin"]) == (
        10,
        1,
        3,
    )
    assert (blow.details["wound_label"], blow.details["shock_label"]) == ("Light", "Giddy")
    assert (state.characters["alex"].wound, state.characters["alex"].shock) == (1, 2)


def test_out_of_range_and_aimed_weapons() -> None:
    state, _ = _do(_table(), SPEAR)
    with pytest.raises(IllegalAction, match="reaches log distance 10; the target is at 11"):
        RULESET.odds(a.Shoot("brad", "Spear", 11, "alex"), state, OPTS)
    # an aimed weapon rolls Dexterity and, like bullets and arrows, cannot be dodged
    crossbow = a.AddWeapon("Crossbow", 6, kind="aimed", accuracy=16, max_range=12)
    state, _ = _do(state, crossbow)
    state, hit = _do(state, a.Shoot("christine", "Crossbow", 3, "brad"), 4, 4)
    assert (hit.modifiers[0].source, hit.modifiers[0].value) == ("Dexterity", 7)
    assert hit.result == 7 + 16 - (4 + 6)
    assert [(d.actor, d.choices) for d in state.pending] == [("christine", ("strike",))]
    # a thrown weapon the referee marks too fast to dodge lands at once as well
    state = _table()
    state, _ = _do(state, a.AddWeapon("Sling stone", 3, accuracy=1, dodgeable=False))
    state, hit = _do(state, a.Shoot("alex", "Sling stone", 1, "brad"), 6, 1)
    assert hit.modifiers[0].source == "Fitness"
    assert [(d.actor, d.choices) for d in state.pending] == [("alex", ("strike",))]


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (a.AddWeapon("Long bow", 5, kind="aimed"), "already has 'Long bow'"),
        (a.AddWeapon("Fire-ball", 5), "is a spell"),
        (a.AddWeapon("Spear", 6, attack=1), "attack: for a melee weapon"),
        (a.AddWeapon("Club", 3, kind="melee", accuracy=2), "accuracy: for a thrown or aimed"),
        (a.AddWeapon("Spear", 6, range_stat="Strength"), "not a stat of the setting"),
        (a.AddWeapon("  ", 6), "needs a name"),
    ],
)
def test_add_weapon_refuses_what_the_rules_cannot_use(action: a.AddWeapon, match: str) -> None:
    with pytest.raises(IllegalAction, match=match):
        RULESET.odds(action, _table(), OPTS)


def test_the_table_setting_is_used_for_melee_and_survives_json() -> None:
    halberd = a.AddWeapon("Halberd", 9, kind="melee", attack=-1, parry=-1)
    state, _ = _do(_table(), halberd)
    state, _ = _do(state, a.Damage("alex", 2, "brad", weapon="Halberd", push="never"), 3, 3)
    assert RULESET.load_state(RULESET.dump_state(state)) == state
    # the long bow replaced by the referee's: the table's value is the one used
    state, _ = _do(state, a.AddWeapon("Long bow", 6, kind="aimed", accuracy=14, replace=True))
    bow = state.setting.ranged_weapon("Long bow")
    assert bow is not None and (bow.damage, bow.accuracy, bow.max_range) == (6, 14, None)
    assert len(state.setting.ranged) == len(DEFAULT_SETTING.ranged)
    shown = RULESET.tracker(state, OPTS)["table"]
    assert ["Weapon Halberd", "melee, damage 9, attack -1, parry -1"] in shown  # type: ignore[operator]
    assert ["Weapon Long bow", "aimed (Dexterity), damage 6, accuracy +14, range unlimited"] in (
        shown  # type: ignore[operator]
    )


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_referee_adds_a_weapon_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = str(tmp_path / "table.json")
    seats = ["--seat", "brad=example:brad", "--seat", "alex=example:alex"]
    code, out, err = _cli(
        capsys, "arm", "act", "add-weapon", "name=Spear", "damage=6", "max_range=2",
        "range_stat=Fitness", *seats, "--save", saved, "--json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["details"]["weapon"]["dodgeable"] is True
    code, out, err = _cli(
        capsys, "arm", "act", "shoot", "actor=brad", "weapon=Spear", "distance=2",
        "target=alex", "--state", saved, "--faces", "5,2", "--save", saved, "--json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["result"] == 3
    code, out, err = _cli(
        capsys, "arm", "odds-of", "defend", "actor=alex", "--state", saved, "--json"
    )
    assert code == 0, err
    rows = json.loads(out)  # Fitness 6 + d6 - d6 against 4 + 3
    assert sum(Fraction(r["probability"]) for r in rows if r["outcome"] >= 0) == _chance(6, 7)
    # the generic table, through `referee table act`
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    assert _cli(capsys, "table", "new", "arm", "--name", "Hunt", "--referee", "Dana",
                "--db", db)[0] == 0  # fmt: skip
    for who in ("brad", "alex"):
        assert _cli(capsys, "table", "char", "add", "Hunt", who, "--db", db)[0] == 0
    code, out, err = _cli(
        capsys, "table", "act", "Hunt", "add-weapon", "name=Spear", "damage=6",
        "max_range=2", "range_stat=Fitness", "--as", "Dana", "--db", db, "--json",
    )  # fmt: skip
    assert code == 0, err
    code, out, err = _cli(
        capsys, "table", "act", "Hunt", "shoot", "actor=brad", "weapon=Spear", "distance=2",
        "target=alex", "--as", "Dana", "--faces", "5,2", "--db", db, "--json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["payload"]["outcome"]["result"] == 3
    code, out, err = _cli(
        capsys, "table", "odds", "Hunt", "defend", "actor=alex", "--as", "Dana", "--db", db,
        "--json",
    )  # fmt: skip
    assert code == 0, err


# ---------------------------------------------------------------------------
# the page: the web API reaches add-weapon from its declaration


@pytest.fixture
def web(tmp_path: Path) -> Iterator[str]:
    import uvicorn
    from tests.support import postgres

    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.table.tokens import Tokens
    from referee.web import create_app

    service = TableService(Store(f"sqlite:///{tmp_path / 'web.db'}"))
    app = create_app(service, tokens=Tokens(service.store))
    port = postgres.free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=15)
    service.store.close()


def test_the_referee_adds_a_weapon_from_the_page(web: str) -> None:
    with httpx.Client(base_url=web, timeout=30) as http:
        made = http.post("/api/tables", json={"game": "arm", "name": "Hunt", "referee": "Ron"})
        assert made.status_code == 201, made.text
        tid, ron = made.json()["table"]["id"], {"authorization": f"Bearer {made.json()['token']}"}
        invite = http.post(
            f"/api/tables/{tid}/invites", json={"name": "Ann", "role": "player"}, headers=ron
        )
        ann = {"authorization": f"Bearer {invite.json()['token']}"}
        for example, owner in (("brad", "Ann"), ("alex", "Ron")):
            r = http.post(
                f"/api/tables/{tid}/characters",
                json={"example": example, "owner": owner},
                headers=ron,
            )
            assert r.status_code == 201, r.text
        games = http.get("/api/games").json()
        arm = next(g for g in games if g["name"] == "arm")
        assert "add-weapon" in json.dumps(arm)
        spear = {
            "action": "add-weapon",
            "fields": {"name": "Spear", "damage": 6, "max_range": 2, "range_stat": "Fitness"},
        }
        refused = http.post(f"/api/tables/{tid}/actions", json=spear, headers=ann)
        assert refused.status_code == 403, refused.text  # the referee's action
        added = http.post(f"/api/tables/{tid}/actions", json=spear, headers=ron)
        assert added.status_code == 201, added.text
        everyone = {"typed_dice": "everyone"}  # Ann rolls her physical dice
        assert http.put(f"/api/tables/{tid}/settings", json=everyone, headers=ron).is_success
        throw = {
            "action": "shoot",
            "fields": {"actor": "brad", "weapon": "Spear", "distance": 2, "target": "alex"},
            "faces": [5, 2],
        }
        shot = http.post(f"/api/tables/{tid}/actions", json=throw, headers=ann)
        assert shot.status_code == 201, shot.text
        assert shot.json()["event"]["payload"]["outcome"]["result"] == 3
        odds = http.post(
            f"/api/tables/{tid}/odds",
            json={"action": "defend", "fields": {"actor": "alex"}},
            headers=ron,
        )
        assert odds.status_code == 200, odds.text
        view = http.get(f"/api/tables/{tid}", headers=ron).json()
        assert "Spear" in json.dumps(view["tracker"])
