"""``referee arm ...``: the JSON contracts of the issue and one-line errors."""

from __future__ import annotations

import json
import pathlib
from pathlib import Path

import pytest

from referee.cli.main import run
from referee.systems.arm.checks import task_odds
from referee.systems.arm.options import Options
from referee.systems.base import probability_map

DATA = (
    Path(__file__).resolve().parents[2]
    / "src"
    / "referee"
    / "systems"
    / "arm"
    / "data"
    / "examples"
)

BLOW = ["damage", "--result", "1", "--damage", "1", "--toughness", "1"]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(["arm", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("push", [False, True])
def test_odds_json_contract(capsys: pytest.CaptureFixture[str], push: bool) -> None:
    argv = ["odds", "--total", "8", "--difficulty", "6", "--json"] + (["--push"] if push else [])
    code, out, _ = _run(capsys, *argv)
    data = json.loads(out)
    assert code == 0 and list(data) == ["p_success", "result"]
    expected = task_odds(8, 6, push, Options(pushing=True))
    assert data["result"] == probability_map(expected.result)
    assert data["p_success"] == f"{expected.p_success.numerator}/{expected.p_success.denominator}"
    assert data["result"]["-3"] == ("1/36" if not push else "1/216")


def test_odds_accepts_presets_and_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "odds", "--total", "6", "--difficulty", "50/50")
    assert code == 0 and "chance of success: 7/12 (58.33%)" in out and "1/36" in out


def test_check_json_with_hand_faces(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "check", "--total", "8", "--difficulty", "4", "--faces", "3,5", "--json"
    )
    data = json.loads(out)
    assert code == 0
    assert (data["result"], data["label"], data["total"], data["manual"]) == (
        2,
        "Unconvincing success",
        6,
        True,
    )


def test_check_push_json_reports_the_shock_cost(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["check", "--total", "6", "--difficulty", "6", "--push", "--faces", "1,1,3", "--json"]
    data = json.loads(_run(capsys, *argv)[1])
    assert (data["result"], data["shock_cost"], data["label"]) == (1, 1, "Unconvincing success")
    assert data["changes"][0]["field"] == "shock"
    argv[-2] = "1,1,6"
    assert json.loads(_run(capsys, *argv)[1])["shock_cost"] == 0


def test_check_with_a_seed_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["check", "--total", "6", "--difficulty", "6", "--seed", "3", "--json"]
    first = json.loads(_run(capsys, *argv)[1])
    assert first == json.loads(_run(capsys, *argv)[1]) and first["manual"] is False


def test_log_and_measure_contracts(capsys: pytest.CaptureFixture[str]) -> None:
    assert json.loads(_run(capsys, "log", "1342", "--json")[1]) == {"log": 16}
    assert json.loads(_run(capsys, "measure", "-3", "--json")[1]) == {"measure": 0.25}
    assert json.loads(_run(capsys, "measure", "10", "--json")[1]) == {"measure": 100}
    exact = json.loads(_run(capsys, "measure", "-3", "--exact", "--json")[1])["measure"]
    assert exact == pytest.approx(10 ** (-3 / 5), rel=1e-5)
    assert json.loads(_run(capsys, "log", "0.06", "--json")[1]) == {"log": -6}


def test_convert(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["convert", "5", "--from", "m/s", "--to", "ft/round", "--round", "3s", "--json"]
    assert json.loads(_run(capsys, *argv)[1])["log"] == 10
    data = json.loads(
        _run(capsys, "convert", "3", "--from", "m/s/s", "--to", "1e6km/h/h", "--json")[1]
    )
    assert (data["log"], data["measure"]) == (-6, 0.06)


def test_damage_roll_and_odds(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["damage", "--result", "5", "--damage", "7", "--strength", "1", "--toughness", "5"]
    argv += ["--armour", "4/2", "--shock", "1", "--faces", "2,2", "--json"]
    data = json.loads(_run(capsys, *argv)[1])
    assert data["details"]["total"] == 13 and data["details"]["condition"] == "Moderate, Reeling"
    odds = json.loads(
        _run(
            capsys,
            "damage",
            "--result",
            "20",
            "--damage",
            "5",
            "--toughness",
            "5",
            "--odds",
            "--json",
        )[1]
    )
    assert set(odds) == {"wound", "shock", "destroyed"}
    # 20 + 5 + d6 - d6 - 5 is 16 or more (Destroyed) unless the dice show -5
    assert odds["destroyed"] == {"False": "1/36", "True": "35/36"}
    assert odds["wound"] == {"5": "1/1"} and odds["shock"] == {"5": "1/1"}


def test_pushed_damage_and_a_mental_blow(capsys: pytest.CaptureFixture[str]) -> None:
    """Round 3's rapier blow pushed with a 3: total 8, still no harm, the push costs shock."""
    argv = ["damage", "--result", "6", "--damage", "4", "--toughness", "5", "--armour", "4/2"]
    data = json.loads(_run(capsys, *argv, "--push", "--faces", "2,5,3", "--json")[1])
    d = data["details"]
    assert (d["total"], d["shock_margin"], d["shock_cost"], d["shock"]) == (8, 1, 1, 0)
    assert data["manual"] is True
    assert {"target": "attacker", "field": "shock", "delta": 1}.items() <= data["changes"][
        0
    ].items()
    odds = json.loads(_run(capsys, *argv, "--push", "--odds", "--json")[1])
    assert odds["shock_cost"] == {"0": "1/3", "1": "2/3"}
    mental = json.loads(
        _run(capsys, *argv[:-2], "--ignore", "wound", "--faces", "6,1", "--json")[1]
    )
    assert (mental["details"]["wound"], mental["details"]["shock_label"]) == (0, "Fainting")


def test_validate(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "validate", str(DATA / "alex.json"), "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] and data["chp"]["stats"] == 260
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "Bad", "stats": {"Fitness": 12}}), encoding="utf-8")
    code, out, _ = _run(capsys, "validate", str(bad))
    assert code == 1 and "stats.Fitness" in out and "stats.Wit: missing stat" in out
    assert run(["validate", "arm", str(DATA / "brad.json")]) == 0


def test_validate_against_a_template(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A template fixes stats and mods; the player only adds to it (Character Creation)."""
    christine = json.loads((DATA / "christine.json").read_text(encoding="utf-8"))
    template = tmp_path / "fencer.json"
    template.write_text(json.dumps({**christine, "kind": "template"}), encoding="utf-8")
    built = tmp_path / "built.json"
    extra = [*christine["mods"], {"name": "Empathic", "value": 1}]
    built.write_text(json.dumps({**christine, "mods": extra}), encoding="utf-8")
    code, out, _ = _run(capsys, "validate", str(built), "--template", str(template))
    assert code == 0 and "valid" in out
    changed = {**christine, "stats": {**christine["stats"], "Wit": 8}, "mods": []}
    built.write_text(json.dumps(changed), encoding="utf-8")
    code, out, _ = _run(capsys, "validate", str(built), "--template", str(template), "--json")
    fields = [p["field"] for p in json.loads(out)["problems"]]
    assert code == 1 and fields == ["stats.Wit", "mods"]


def test_notes_and_group(capsys: pytest.CaptureFixture[str]) -> None:
    notes = json.loads(_run(capsys, "notes", "--json")[1])
    assert "axe-damage" in {n["key"] for n in notes}
    assert json.loads(_run(capsys, "group", "6", "6", "--json")[1])["log"] == 8


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--total", "8", "--difficulty", "4", "--faces", "3,9"], "impossible on a d6"),
        (["check", "--total", "8", "--difficulty", "4", "--faces", "3"], "needs 2 faces"),
        (["check", "--total", "8", "--difficulty", "4", "--faces", "3,5,2"], "more than"),
        (
            ["damage", "--result", "1", "--damage", "1", "--toughness", "1", "--faces", "1,2,3"],
            "more than this roll needs",
        ),
        (
            ["check", "--total", "8", "--difficulty", "4", "--push", "--faces", "3,3"],
            "needs 3 faces",
        ),
        (["check", "--total", "8", "--difficulty", "hard"], "unknown difficulty"),
        (["odds", "--total", "99999", "--difficulty", "4"], "out of range"),
        (["log", "0"], "positive"),
        (["log", "-3"], "positive"),
        (["measure", "5000"], "out of range"),
        (["convert", "1", "--from", "furlong"], "unknown unit"),
        (
            ["damage", "--result", "1", "--damage", "1", "--toughness", "1", "--wound", "9"],
            "level 0 to 5",
        ),
        (["validate", "missing.json"], "no such file"),
        (
            ["difficulty", "ranged", "--distance", "14", "--weapon", "Long bow", "--fitness", "6"],
            "reaches log distance 13",
        ),
        (["difficulty", "ranged", "--distance", "13", "--weapon", "Handgun"], "reaches log"),
        (["difficulty", "ranged", "--distance", "1", "--weapon", "sling"], "unknown ranged"),
        (
            [*BLOW, "--ignore", "mind"],
            "'mind' is not one of 'wound', 'shock'",
        ),
        (
            [*BLOW, "--push", "--faces", "1,2"],
            "needs 3 faces",
        ),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _run(capsys, *argv)
    assert code != 0 and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out


def test_demo_prints_a_short_tour() -> None:
    from referee.cli.tour import tour

    text = "\n".join(tour("arm"))
    assert "The log of a measure: log 16" in text and "about 100" in text
    assert "Brad deals damage to Alex: Moderate wound, Giddy shock" in text
    assert 4 <= len(text.strip().splitlines()) <= 20


def test_a_custom_setting_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = json.loads(_run(capsys, "setting", "--json")[1])
    assert data["stats"][0] == "Fitness" and len(data["weapons"]) == 10
    data["races"].append({"name": "elf", "stats": {"Wit": {"low": 5, "high": 11}}, "movement": {}})
    setting_file = tmp_path / "setting.json"
    setting_file.write_text(json.dumps(data), encoding="utf-8")
    sheet = json.loads((DATA / "alex.json").read_text(encoding="utf-8"))
    sheet["race"], sheet["stats"]["Wit"] = "elf", 11
    sheet_file = tmp_path / "elf.json"
    sheet_file.write_text(json.dumps(sheet), encoding="utf-8")
    code, out, _ = _run(capsys, "validate", str(sheet_file), "--setting", str(setting_file))
    assert code == 0 and "valid" in out
    code, out, _ = _run(capsys, "validate", str(sheet_file))
    assert code == 1 and "unknown race" in out


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["preset", "very tough"], 11),
        (["melee", "prepared defence", "--attack-result", "6"], 8),
        (["melee", "attack moving", "--size", "1"], 5),
        (["ranged", "--distance", "10", "--cover", "2"], 26),
        (["ranged", "--distance", "-3"], 4),
        (["ranged", "--distance", "13", "--weapon", "Long bow", "--fitness", "6"], 30),
        (["ranged", "--distance", "40", "--weapon", "fire-ball"], 84),
        (["soul", "imbue complex"], 10),
        (["spell", "Fire-ball"], 7),
    ],
)
def test_difficulty(capsys: pytest.CaptureFixture[str], argv: list[str], expected: int) -> None:
    code, out, _ = _run(capsys, "difficulty", *argv, "--json")
    assert code == 0 and json.loads(out) == {"difficulty": expected}


def test_the_guide_as_presets_and_modifiers(capsys: pytest.CaptureFixture[str]) -> None:
    """Trivial 1 (-5), Simple 4 (-2), 50/50 6, Tough 8 (+2), Very Tough 11 (+5)."""
    guide = {"trivial": (1, -5), "simple": (4, -2), "50/50": (6, 0), "tough": (8, 2)}
    guide["very tough"] = (11, 5)
    for name, (number, modifier) in guide.items():
        preset = json.loads(_run(capsys, "difficulty", "preset", name, "--json")[1])
        extra = json.loads(_run(capsys, "difficulty", "modifier", name, "--json")[1])
        assert (preset, extra) == ({"difficulty": number}, {"modifier": modifier})
    assert _run(capsys, "difficulty", "modifier", "tough")[1].strip() == "A difficulty: modifier +2"
    code, _, err = _run(capsys, "difficulty", "modifier", "hard")
    assert code == 1 and "unknown modifier 'hard'" in err


def test_totals_from_a_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    sheet = str(DATA / "christine.json")
    argv = ["check", "--sheet", sheet, "--stat", "Fitness", "--mod", "Rapiers", "--difficulty", "4"]
    data = json.loads(_run(capsys, *argv, "--faces", "3,4", "--json")[1])
    assert data["details"]["base"] == 9 and data["result"] == 4
    code, _, err = _run(capsys, "odds", "--total", "3", "--sheet", sheet, "--difficulty", "4")
    assert code == 1 and "not both" in err
    code, _, err = _run(
        capsys, "odds", "--sheet", sheet, "--stat", "Fitness", "--mod", "Axes", "--difficulty", "4"
    )
    assert code == 1 and "no mod 'Axes'" in err


def test_melee_rolls_from_a_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    """Round 3: Christine's lunge is Fitness 7 + Rapiers 2 + rapier +1 + circling 1 = 11."""
    christine, alex = str(DATA / "christine.json"), str(DATA / "alex.json")
    argv = ["check", "--sheet", christine, "--melee", "attack", "--mod", "Rapiers"]
    argv += ["--situation", "circled", "--difficulty", "4", "--faces", "3,4", "--json"]
    data = json.loads(_run(capsys, *argv)[1])
    assert (data["details"]["base"], data["details"]["total"], data["result"]) == (11, 10, 6)
    dodge = ["check", "--sheet", alex, "--melee", "dodge", "--difficulty", "8"]
    data = json.loads(_run(capsys, *dodge, "--faces", "4,3", "--json")[1])
    assert (data["details"]["total"], data["result"], data["success"]) == (7, -1, False)
    parry = ["odds", "--sheet", alex, "--melee", "parry", "--situation", "standstill"]
    data = json.loads(_run(capsys, *parry, "--difficulty", "7", "--json")[1])
    assert data == json.loads(
        _run(capsys, "odds", "--total", "7", "--difficulty", "7", "--json")[1]
    )
    for bad, message in (
        (["--melee", "dodge", "--weapon", "Sword"], "no weapon"),
        (["--melee", "attack", "--situation", "drunk"], "--situation must be one of circled"),
        (["--stat", "Fitness", "--situation", "circled"], "go with a melee roll"),
    ):
        code, _, err = _run(capsys, "odds", "--sheet", alex, *bad, "--difficulty", "4")
        assert code == 1 and message in err and len(err.strip().splitlines()) == 1


def test_damage_from_two_sheets(capsys: pytest.CaptureFixture[str]) -> None:
    """Round 3 from the sheets: the rapier Dazes Alex; Brad's sheet axe (8) makes 14."""
    alex, brad, christine = (str(DATA / f"{n}.json") for n in ("alex", "brad", "christine"))
    argv = ["damage", "--result", "6", "--attacker", christine, "--defender", alex]
    d = json.loads(_run(capsys, *argv, "--faces", "2,5", "--json")[1])["details"]
    assert (d["total"], d["margin"], d["wound"], d["shock_label"]) == (7, 2, 0, "Dazed")
    argv = ["damage", "--result", "5", "--attacker", brad, "--defender", alex]
    d = json.loads(_run(capsys, *argv, "--faces", "2,2", "--json")[1])["details"]
    assert (d["total"], d["wound_label"], d["shock_label"]) == (14, "Moderate", "Fainting")
    for bad in (
        ["--attacker", brad],
        ["--attacker", brad, "--defender", alex, "--toughness", "3"],
        ["--weapon", "Axe", "--damage", "8", "--toughness", "5"],
        [],
    ):
        code, _, err = _run(capsys, "damage", "--result", "5", *bad, "--faces", "2,2")
        assert code == 1 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_move_per_round_and_a_pushed_rate(capsys: pytest.CaptureFixture[str]) -> None:
    """Corven: rate 5 is 100 ft per 3-second round; a push (die 4) makes it 150 at a shock."""
    data = json.loads(_run(capsys, "move", "5", "--round", "3s", "--to", "ft", "--json")[1])
    assert data == {"rate": 5, "distance_log": 10, "distance": 100, "unit": "ft"}
    argv = ["move", "5", "--round", "3s", "--to", "ft", "--push", "--faces", "4", "--json"]
    data = json.loads(_run(capsys, *argv)[1])
    assert (data["pushed_rate"], data["distance_log"], data["distance"]) == (6, 11, 150)
    assert data["shock_cost"] == 1 and data["manual"] is True
    argv[-2] = "6"
    free = json.loads(_run(capsys, *argv)[1])
    assert free["pushed_rate"] == 6 and free["shock_cost"] == 0
    assert "100 ft per 3s round" in _run(capsys, "move", "5", "--round", "3s", "--to", "ft")[1]
    # the words say what the push did and cost, as the JSON does
    said = _run(capsys, *argv[:-4], "--push", "--faces", "4")[1]
    assert "150 ft per 3s round" in said and "rate 5 pushed to 6; the push costs 1 shock" in said
    said = _run(capsys, *argv[:-4], "--push", "--faces", "1")[1]
    assert "rate 5 not raised by the push; the push costs no shock" in said
    code, _, err = _run(capsys, "move", "5", "--round", "3s", "--faces", "4")
    assert code == 1 and "goes with --push" in err


def test_move_at_a_sheets_rate(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    """``move --sheet``: the character's rate for ``--mode`` (log 4 m/s: log 6, 15 m per 2s
    round); a sheet without that rate just moves, with no distance; a push names the sheet's
    own rates when the mode has none; a rate and a sheet, or neither, is refused."""
    rita = tmp_path / "rita.json"
    rita.write_text(json.dumps({"name": "Rita", "stats": {}, "movement": {"Run": 4}}))
    data = json.loads(_run(capsys, "move", "--sheet", str(rita), "--json")[1])
    assert data == {"rate": 4, "distance_log": 6, "distance": 15, "unit": "m"}
    assert _run(capsys, "move", "--sheet", "alex") == (
        0,
        "Alex moves (Run)\n  Alex has acted this round (move)\n",
        "",
    )
    code, _, err = _run(capsys, "move", "--sheet", str(rita), "--mode", "Walk", "--push")
    assert code == 1 and "rita has no movement rate 'Walk'; rates: Run" in err
    for wrong in ([], ["3", "--sheet", "alex"]):
        code, _, err = _run(capsys, "move", *wrong)
        assert code == 1 and "give RATE or --sheet" in err


def test_a_helper_task_adds_to_the_main_total(capsys: pytest.CaptureFixture[str]) -> None:
    """The research example: a large-effect helper adds its result; a small one adds +1."""
    base = ["check", "--total", "6", "--difficulty", "6", "--faces", "1,1", "--json"]
    results = [
        json.loads(_run(capsys, *base, *extra)[1])["result"]
        for extra in (["--helper", "3"], ["--helper", "3", "--helper-small"], ["--helper", "-2"])
    ]
    assert results == [3, 1, 0]
    helped = json.loads(
        _run(capsys, "odds", "--total", "6", "--helper", "2", "--difficulty", "6", "--json")[1]
    )
    assert helped == json.loads(
        _run(capsys, "odds", "--total", "8", "--difficulty", "6", "--json")[1]
    )
    code, _, err = _run(capsys, "odds", "--total", "6", "--helper-small", "--difficulty", "6")
    assert code == 1 and "goes with --helper" in err


def test_damage_from_an_attacker_sheet_against_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    """Each side of a blow is a sheet or numbers: Brad's axe (8, strength +1) on a stand-in
    of Toughness 5 with no armour is 5 + 8 + 1 + 0 = 14, a margin of 9."""
    brad = str(DATA / "brad.json")
    argv = ["damage", "--result", "5", "--attacker", brad, "--toughness", "5", "--faces", "2,2"]
    d = json.loads(_run(capsys, *argv, "--json")[1])["details"]
    assert (d["total"], d["margin"]) == (14, 9)
    code, _, err = _run(capsys, "damage", "--result", "5", "--attacker", brad, "--faces", "2,2")
    assert code == 1 and "give --toughness" in err


def test_help_comes_from_the_actions_fields(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: a flag's help is its field's doc; the CLI repeats no rule numbers."""
    from referee.systems.arm.actions import Task
    from referee.systems.base import describe_fields

    docs = {f["name"]: f["doc"] for f in describe_fields(Task)}
    code, out, _ = _run(capsys, "check", "--help")
    flat = " ".join(out.split())
    assert code == 0 and docs["mods"] in flat and docs["helper"] in flat
    assert "(+1)" not in flat and "(+2)" not in flat and "2-5" not in flat


def test_a_check_by_the_numbers_loads_neither_pydantic_nor_rich() -> None:
    """Issue 21: a preset builds its action without pydantic (only a sheet file needs it)."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom referee.cli.main import run\n"
        "code = run(['arm', 'odds', '--total', '8', '--difficulty', 'tough', '--json'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'rich')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    data, loaded = done.stdout.rsplit("\n", 2)[0], done.stdout.strip().splitlines()[-1]
    assert json.loads(data)["p_success"] == "7/12" and loaded == "[]"


def test_flags_come_from_the_actions_fields(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """No command declares --modifier, --moving or --wound-name: each is its action's
    field (--helper-small fills the helper's effect, so it has no --helper-effect)."""
    code, out, _ = _run(capsys, "check", "--total", "8", "--modifier", "2", "--faces", "3,3")
    assert code == 0 and "10 + 3 - 3 = 10 against difficulty 6" in out
    rolled = ("--helper", "2", "--total", "8", "--faces", "3,3", "--json")
    for small, effect in ((False, "large effect"), (True, "small effect")):
        code, out, _ = _run(capsys, "check", *rolled, *(["--helper-small"] if small else []))
        assert code == 0 and effect in json.dumps(json.loads(out)["modifiers"])
    assert "--helper-effect" not in _run(capsys, "check", "--help")[1]
    still, moving = (
        _run(capsys, "difficulty", "ranged", "--distance", "10", *m)[1] for m in ((), ("--moving",))
    )
    assert (still.split()[-1], moving.split()[-1]) == ("24", "26")
    opts = tmp_path / "o.json"
    opts.write_text(json.dumps({"record_wounds": True}))
    blow = ("--toughness", "5", "--result", "3", "--damage", "6", "--faces", "3,3", "--json")
    code, out, _ = _run(capsys, "damage", *blow, "--wound-name", "cut arm", "--options", str(opts))
    assert code == 0 and "cut arm" in out
