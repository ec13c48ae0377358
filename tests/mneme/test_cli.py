"""``referee mneme ...`` commands and their JSON contracts."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import click
import pytest

from referee.cli.main import run
from referee.systems.mneme import RULESET as MNEME


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "mneme", "odds", "--modifier", "0", "--difficulty", "8", "--json")
    data = json.loads(out)
    assert code == 0 and list(data) == ["p_success", "effect"]
    assert data["p_success"] == "5/12"
    assert data["effect"]["-6"] == "1/36" and data["effect"]["4"] == "1/36"
    assert len(data["effect"]) == 11


def test_odds_with_advantage_and_disadvantage(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["mneme", "odds", "--modifier", "1", "--difficulty", "9", "--json"]
    adv = json.loads(_run(capsys, *argv, "--advantage", "1")[1])
    both = json.loads(_run(capsys, *argv, "--advantage", "2", "--disadvantage", "2")[1])
    plain = json.loads(_run(capsys, *argv)[1])
    assert both == plain
    assert adv["p_success"] == "49/72"  # 3d6 keep two highest >= 8: 147/216
    assert plain["p_success"] == "5/12"


def test_check_json_has_the_derivation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys,
        "mneme",
        "check",
        "-m",
        "2",
        "-d",
        "8",
        "--advantage",
        "1",
        "--faces",
        "1,6,3",
        "--json",
    )
    data = json.loads(out)
    assert code == 0
    assert data["roll"] == 11 and data["effect"] == 3 and data["success"] is True
    assert data["label"] == "Success Effect 3" and data["manual"] is True
    assert [f["kept"] for f in data["faces"]] == [False, True, True]


def test_check_text_mitigation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "mneme", "check", "-m", "4", "-d", "13", "--faces", "1,1", "--mitigate", "3,2,2"
    )
    assert code == 0 and "Ordinary Failure" in out and "7 -> 4 -> 2 -> 0" in out


def test_check_by_difficulty_name_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    a = json.loads(_run(capsys, "mneme", "check", "-d", "Difficult", "--seed", "3", "--json")[1])
    b = json.loads(_run(capsys, "mneme", "check", "-d", "10", "--seed", "3", "--json")[1])
    assert a == b and a["target"] == 10


def test_attack_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "mneme", "attack-odds", "3d6", "--rolls", "3", "--rate", "2", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["damage"]["36"] == "323/5038848"  # two or three 18s
    assert data["damage"]["6"] == "1/10077696"


def test_attack_odds_with_target_sheet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = tmp_path / "pc.json"
    sheet.write_text(json.dumps(MNEME.example_data("ada")))
    data = json.loads(
        _run(capsys, "mneme", "attack-odds", "3d6-2", "-n", "3", "--sheet", str(sheet), "--json")[1]
    )
    total = sum(int(p.split("/")[0]) / int(p.split("/")[1]) for p in data["conditions"].values())
    assert abs(total - 1) < 1e-12
    # by hand, from the text: three 3d6-2 rolls (no armour: -a defaults to 0) against Ada
    # (HP 24): Bleeding when one roll reaches 8 (24 // 3), massive damage above 24 in all
    one = Counter(a + b + c - 2 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7))
    below = sum(w for v, w in one.items() if v < 8)
    assert data["p_bleeding"] == _frac(216**3 - below**3, 216**3)
    three = Counter()
    for x, wx in one.items():
        for y, wy in one.items():
            for z, wz in one.items():
                three[x + y + z] += wx * wy * wz
    over = sum(w for v, w in three.items() if v > 24)
    assert data["p_massive_damage"] == _frac(over, 216**3)
    dying = _frac(over, 216**3)
    assert data["conditions"]["Dying"] == dying  # Ada is unhurt: Dying is damage > HP


def _frac(num: int, den: int) -> str:
    f = Fraction(num, den)
    return f"{f.numerator}/{f.denominator}"


def test_attack_and_take_damage(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys,
        "mneme",
        "attack",
        "3d6-2",
        "-m",
        "2",
        "-d",
        "12",
        "-r",
        "4",
        "--faces",
        "6,6,3,4,5,6,6,1,2,2,2",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["details"]["damage_dealt"] == 25
    code, out, _ = _run(
        capsys,
        "mneme",
        "take-damage",
        "3d6",
        "-f",
        "3",
        "--cover",
        "2",
        "--faces",
        "6,5,4,3,3,3,2,1,1",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["result"] == 4 and data["details"]["cover_rolls"]["total"] == 24


def test_validate_and_clock(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = tmp_path / "pc.json"
    good.write_text(json.dumps({**MNEME.example_data("ada"), "damage": 10}))
    code, out, _ = _run(capsys, "mneme", "validate", str(good))
    assert code == 0 and "valid" in out and "Seriously Wounded" in out
    after = tmp_path / "after.json"
    code, out, _ = _run(
        capsys,
        "mneme",
        "clock",
        str(good),
        "--days",
        "4",
        "--activity",
        "light",
        "--out",
        str(after),
    )
    assert code == 0 and out.startswith("Time passes: Seriously Wounded")
    assert "Ada Vance heals 1 damage" in out and "healing progress is 1/3" in out
    saved = json.loads(after.read_text())
    assert saved["damage"] == 9 and saved["healing_progress"] == "1/3"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**MNEME.example_data("ada"), "damage": -1, "skills": {"Medic": -2}}))
    code, out, _ = _run(capsys, "mneme", "validate", str(bad), "--json")
    data = json.loads(out)
    assert code == 1 and data["valid"] is False
    assert {p["field"] for p in data["problems"]} == {"damage", "skills.Medic"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--faces", "1,2,3"], "needs 2 faces (2d6); 3 given"),
        (["check", "--faces", "1,7"], "impossible on a d6"),
        (["check", "--advantage", "1", "--faces", "1,2"], "needs 3 faces"),
        (["check", "-d", "Impossible"], "unknown step"),
        (["odds", "--advantage", "-1"], "advantage must be"),
        (["attack-odds", "3d6", "--rolls", "500"], "out of range"),
        (["attack-odds", "3d", "--rolls", "2"], "position"),
        (["attack", "1d6", "--faces", "6,6"], "ran out"),
        (["attack", "1d6", "-d", "20", "--faces", "6,6,4"], "more than this roll needs"),
        (["validate", "/nonexistent.json"], "no such file"),
        (["clock", "/nonexistent.json"], "no such file"),
        (["take-damage", "3d6", "-f", "-1"], "cannot be negative"),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _run(capsys, "mneme", *argv)
    assert code != 0
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out


def test_help_for_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli.mneme import app

    names = set(app.list_commands(click.Context(app)))
    assert {"check", "odds", "attack-odds", "surgery", "care", "first-aid", "dying"} <= names
    for cmd in sorted(names):
        code, out, _ = _run(capsys, "mneme", cmd, "--help")
        assert code == 0 and "Usage" in out


def test_demo_runs() -> None:
    from referee.cli.tour import tour

    text = "\n".join(tour("mneme"))
    assert "Dice Result 9 against difficulty 8: Effect +1" in text and "chance 5/12" in text
    assert "Ada Vance takes damage" in text


def test_scale_notation_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Ch. 7 scale notation typed as the text writes it: D 3d3 = 3d3 x 10; H 2d6-2 against
    HAR 9 on a D-scale target: only (12-2) x 100 - 900 = 100 HP = 10 DHP gets through."""
    d = json.loads(_run(capsys, "mneme", "attack-odds", "D 3d3", "--json")[1])
    assert d["damage"] == {
        "30": "1/27",
        "40": "1/9",
        "50": "2/9",
        "60": "7/27",
        "70": "2/9",
        "80": "1/9",
        "90": "1/27",
    }
    argv = ["mneme", "attack-odds", "H 2d6-2", "-a", "HAR 9", "--target-scale", "D", "--json"]
    h = json.loads(_run(capsys, *argv)[1])
    assert h["damage"] == {"0": "35/36", "10": "1/36"}
    # the flak jacket written as AR 4: 3d3-2 three times -> 3d3-6 each
    code, out, _ = _run(
        capsys, "mneme", "take-damage", "3d3-2", "-f", "3", "-r", "3", "-a", "AR 4",
        "--faces", "3,3,3,2,2,2,1,1,1", "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["details"]["damage_rolls"]["dealt"] == [3, 0, 0]
    code, _, err = _run(capsys, "mneme", "attack-odds", "D 3d3", "--scale", "H")
    assert code != 0 and err.count("\n") == 1 and "scale D" in err
    code, _, err = _run(capsys, "mneme", "attack-odds", "3d6", "-a", "DAR 9999999")
    assert code != 0 and "out of range" in err and "Traceback" not in err


def test_typed_modifiers_of_one_kind_do_not_stack(capsys: pytest.CaptureFixture[str]) -> None:
    """Ch. 2, Modifiers to Rolls: two sights (+1, +2) give +2. Conditions stack one way,
    by number or by preset (issue 10): one condition named twice (rain -1 and -2) counts
    once, the more favourable -1; a check at 8 with 3+3 rolls 6 + 2 - 1 = 7, Fail Effect 1."""
    mods = ["--mod", "1:equipment:red dot", "--mod", "2:Equipment:scope"]
    mods += ["--mod=-1:condition:rain", "--mod=-2:conditions:Rain"]
    code, out, _ = _run(capsys, "mneme", "check", *mods, "--faces", "3,3", "--json")
    data = json.loads(out)
    assert code == 0 and data["modifier"] == 1 and data["roll"] == 7 and data["effect"] == -1
    assert data["details"]["dropped_modifiers"] == ["+1 red dot", "-2 Rain"]
    odds = json.loads(_run(capsys, "mneme", "odds", *mods[:4], "-d", "10", "--json")[1])
    assert odds == json.loads(_run(capsys, "mneme", "odds", "-m", "2", "-d", "10", "--json")[1])
    assert odds["p_success"] == "5/12"  # 2d6 >= 8
    code, _, err = _run(capsys, "mneme", "check", "--mod", "1:luck")
    assert code != 0 and "kind must be one of" in err and err.count("\n") == 1


def test_conditions_by_number_and_by_preset_stack_alike(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 10: two different numeric conditions (rain -1, dark -2) add up to -3, as two
    different presets do (concealment:partial +1 and outnumbered:significant +2 -> 8 + 3);
    both give 2d6 >= 11 (3/36). The same condition twice counts once, by number or preset.
    Option condition_stacking='one_kind': only the most favourable condition applies."""
    numbers = ["--mod=-1:condition:rain", "--mod=-2:condition:dark"]
    presets = ["--condition", "concealment:partial", "--condition", "outnumbered:significant"]
    by_number = json.loads(_run(capsys, "mneme", "odds", *numbers, "--json")[1])
    by_preset = json.loads(_run(capsys, "mneme", "odds", *presets, "--json")[1])
    assert by_number["p_success"] == by_preset["p_success"] == "1/12"
    twice = ["--condition", "cover:partial", "--condition", "cover:full"]
    assert json.loads(_run(capsys, "mneme", "odds", *twice, "--json")[1])["p_success"] == "5/18"
    same = ["--mod=-1:condition:cover", "--mod=-4:condition:cover"]
    assert json.loads(_run(capsys, "mneme", "odds", *same, "--json")[1])["p_success"] == "5/18"


def test_every_command_takes_the_tables_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 10: every command reads --options FILE (the table's house rules)."""
    from referee.cli.mneme import app

    one_kind = tmp_path / "options.json"
    one_kind.write_text(json.dumps({"condition_stacking": "one_kind"}))
    numbers = ["--mod=-1:condition:rain", "--mod=-2:condition:dark", "--json"]
    argv = ["mneme", "odds", *numbers, "--options", str(one_kind)]
    assert json.loads(_run(capsys, *argv)[1])["p_success"] == "5/18"  # only -1: 2d6 >= 9
    ctx = click.Context(app)
    for command in (app.get_command(ctx, n) for n in app.list_commands(ctx)):
        assert command is not None
        if command.name in ("actions", "example", "bestiary"):  # types, stored sheets: no table
            continue
        assert "--options" in {n for p in command.params for n in p.opts}, command.name


def test_advantage_and_disadvantage_cancel_on_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two Advantages and one Disadvantage leave one: 3d6 keep the two highest."""
    argv = ["mneme", "check", "--advantage", "2", "--disadvantage", "1", "--json"]
    data = json.loads(_run(capsys, *argv, "--faces", "1,5,6")[1])
    assert data["roll"] == 11 and data["details"]["advantage"] == 1
    code, _, err = _run(capsys, *argv, "--faces", "5,6")
    assert code != 0 and "needs 3 faces" in err
    even = ["mneme", "check", "--advantage", "1", "--disadvantage", "1", "--faces", "2,3", "--json"]
    assert json.loads(_run(capsys, *even)[1])["roll"] == 5


def test_check_and_odds_from_a_sheet_with_wound_penalties(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Ada: Dex 9 (ChM +1) + Gun Combat 1 = Competence 2; 7 damage = -2 wound penalty
    (ch. 7, -1 per full 3), so her check at 8 is plain 2d6: 5/12; rolled 4+4 = 8, SE 0."""
    data = MNEME.example_data("ada")
    data["damage"] = 7
    sheet = tmp_path / "ada.json"
    sheet.write_text(json.dumps(data))
    who = ["--sheet", str(sheet), "-c", "Dex", "--skill", "Gun Combat"]
    odds = json.loads(_run(capsys, "mneme", "odds", *who, "--json")[1])
    assert odds["p_success"] == "5/12"
    code, out, _ = _run(capsys, "mneme", "check", *who, "--faces", "4,4", "--json")
    d = json.loads(out)
    assert code == 0 and d["modifier"] == 0 and d["roll"] == 8 and d["effect"] == 0
    assert sorted(m["value"] for m in d["modifiers"]) == [-2, 2]
    code, _, err = _run(capsys, "mneme", "check", "-c", "Dex")
    assert code != 0 and "sheet" in err


def test_condition_presets_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Difficulty 8 + mostly concealed (+2) - the PC's minor outnumbering edge (-1) = 9:
    2d6 >= 9 is 10/36 = 5/18."""
    argv = ["--condition", "concealment:mostly", "--condition=-outnumbered:minor"]
    odds = json.loads(_run(capsys, "mneme", "odds", *argv, "--json")[1])
    assert odds["p_success"] == "5/18"
    check = json.loads(_run(capsys, "mneme", "check", *argv, "--faces", "4,5", "--json")[1])
    assert check["difficulty"] == 9 and check["effect"] == 0
    code, _, err = _run(capsys, "mneme", "odds", "--condition", "fog:thick")
    assert code != 0 and "unknown condition preset" in err and err.count("\n") == 1


def test_odds_json_every_effect_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """2d6 + 0 vs 8: Effect s - 8 for each 2d6 sum s, with (6 - |s - 7|) / 36, reduced."""
    from fractions import Fraction

    data = json.loads(_run(capsys, "mneme", "odds", "-m", "0", "-d", "8", "--json")[1])
    expected = {str(s - 8): Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}
    assert data["effect"] == {k: f"{v.numerator}/{v.denominator}" for k, v in expected.items()}
    assert list(data["effect"]) == [str(e) for e in range(-6, 5)]
    assert data["effect"]["0"] == "5/36" and data["effect"]["-1"] == "1/6"  # sums 8 and 7


@pytest.mark.parametrize(
    ("faces", "seconds"), [("4,4", "3/1"), ("4,5", "2/1"), ("3,4", "4/1"), ("2,3", "6/1")]
)
def test_one_d6_second_action_on_the_command_line(
    capsys: pytest.CaptureFixture[str], faces: str, seconds: str
) -> None:
    """Ch. 2, Time and Checks at Difficulty 8: SE 0 -> 3 s, SE 1 -> 2 s, FE 1 -> 4 s,
    FE 3 -> 6 s for a 1d6-second action."""
    argv = ["mneme", "check", "--duration", "1d6", "--faces", faces, "--json"]
    data = json.loads(_run(capsys, *argv)[1])
    assert data["details"]["median_time"] == 3 and data["details"]["time"] == seconds


def test_athletic_attack_and_stealth_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Ch. 2, Combined Difficulties: ChM 1 (Dex 9), Melee 0, no Athletics -> Competence 1
    against 8 + 1; with Athletics the Difficulty stays 8. Stealth uses Recon (1)."""
    data = MNEME.example_data("ada")
    skilled = tmp_path / "skilled.json"
    skilled.write_text(json.dumps(data))
    del data["skills"]["Athletics"]
    clumsy = tmp_path / "clumsy.json"
    clumsy.write_text(json.dumps(data))
    argv = ["-c", "Dex", "--combined", "Melee,Athletics", "--json"]
    out = _run(capsys, "mneme", "check", "--sheet", str(clumsy), *argv, "--faces", "4,4")[1]
    d = json.loads(out)
    assert (d["difficulty"], d["modifier"], d["roll"], d["success"]) == (9, 1, 9, True)
    assert d["details"]["missing_skills"] == ["Athletics"]
    odds = json.loads(_run(capsys, "mneme", "odds", "--sheet", str(clumsy), *argv)[1])
    assert odds["p_success"] == "5/12"  # 2d6 + 1 >= 9
    ok = json.loads(
        _run(capsys, "mneme", "check", "--sheet", str(skilled), *argv, "--faces", "4,4")[1]
    )
    assert ok["difficulty"] == 8
    sneak = ["mneme", "check", "--sheet", str(skilled), "-c", "Dex", "--stealth", "--faces", "3,3"]
    assert json.loads(_run(capsys, *sneak, "--json")[1])["modifier"] == 2


def test_attack_odds_of_a_whole_attack(capsys: pytest.CaptureFixture[str]) -> None:
    """The automatic rifle (3d6-2, RoA 4) at +2 against 12: a miss (2d6 < 10: 30/36) is
    the only way to deal 0 (3d6-2 >= 1); the most, 48, needs SE 2 (6+6: 1/36) and three
    16s (1/216 each)."""
    argv = ["mneme", "attack-odds", "3d6-2", "-r", "4", "-d", "12", "-m", "2", "--json"]
    data = json.loads(_run(capsys, *argv)[1])
    assert data["damage"]["0"] == "5/6"
    assert data["damage"]["48"] == "1/362797056"  # 36 x 216^3
    assert max(int(k) for k in data["damage"]) == 48
    code, _, err = _run(capsys, "mneme", "attack-odds", "3d6", "-d", "8", "-n", "2")
    assert code != 0 and "--rolls" in err


def test_a_check_with_nothing_at_stake_rolls_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """Ch. 2: no stakes, no roll. The check says so (text and JSON, the roll's numbers
    null), and its odds are that outcome for certain, with no chance of success to give."""
    code, out, err = _run(capsys, "mneme", "check", "--no-stakes")
    assert (code, out.strip(), err) == (0, "Check: No roll: no stakes", "")
    code, out, _ = _run(capsys, "mneme", "check", "--no-stakes", "--json")
    data = json.loads(out)
    assert code == 0 and data["label"] == "No roll: no stakes" and data["faces"] == []
    assert [data[k] for k in ("roll", "dice", "modifier", "difficulty", "effect")] == [None] * 5
    code, _, err = _run(capsys, "mneme", "check", "--no-stakes", "--faces", "3,3")
    assert code != 0 and "needs 0 faces (no dice); 2 given" in err
    code, out, _ = _run(capsys, "mneme", "odds", "--no-stakes", "-m", "3")
    assert (code, out.strip()) == (0, "no roll: No roll: no stakes")
    code, out, _ = _run(capsys, "mneme", "odds", "--no-stakes", "--json")
    assert json.loads(out) == {"p_success": None, "effect": {}, "no_roll": "No roll: no stakes"}
    code, out, _ = _run(capsys, "mneme", "check", "--stakes", "--faces", "4,4", "--json")
    assert json.loads(out)["effect"] == 0  # --stakes is the default, said outright
