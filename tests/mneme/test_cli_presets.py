"""``referee mneme ...`` as presets (issue 21): the commands fill actions' fields, sit at a
table (``--state`` / ``--seat`` / ``--save``), write the seat the flags pick and name the
flag a refused value came from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli.main import run
from referee.systems.mneme import RULESET as MNEME
from referee.systems.mneme.checks import typed_modifier
from referee.systems.mneme.damage import armour_of, scaled_damage
from referee.systems.mneme.initiative import initiative_entry
from referee.systems.mneme.tables import difficulty_of


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(["mneme", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _sheet(tmp_path: Path, name: str, **changes: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps({**MNEME.example_data("ada"), **changes}), encoding="utf-8")
    return str(path)


def test_first_aid_on_oneself_writes_the_medic(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Ada (Edu 8: ChM 0, Medic 1; 5 damage: -1) on herself at 10 with 6+5: 11, SE 1 heals 1."""
    medic, after = _sheet(tmp_path, "ada.json", damage=5), tmp_path / "after.json"
    argv = ["first-aid", medic, "--self", "--faces", "6,5", "--out", str(after)]
    code, out, _ = _run(capsys, *argv)
    assert code == 0 and "Dice Result 11 against difficulty 10" in out and "Healed 1" in out
    assert json.loads(after.read_text(encoding="utf-8"))["damage"] == 4


def test_an_attack_at_a_saved_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """3d6-2 at +0 vs 8, 6+6: SE 4 -> 5 rolls (RoA 5) of 2+2+2-2 = 4 against no armour hit
    the target seated from its sheet; --save keeps the table beside the raider seated from
    the examples, and --state reads it back for the next command."""
    table, target = tmp_path / "table.json", _sheet(tmp_path, "foe.json")
    faces = "6,6," + ",".join(["2,2,2"] * 5)
    argv = ["attack", "3d6-2", "-r", "5", "-a", "0", "--target-sheet", target, "--faces", faces]
    code, out, _ = _run(capsys, *argv, "--seat", "raider=example:raider", "--save", str(table))
    assert code == 0 and "20 damage" in out
    state = json.loads(table.read_text(encoding="utf-8"))["characters"]
    assert state["target"]["sheet"]["damage"] == 20 and "raider" in state
    again = tmp_path / "again.json"
    hit = ["attack", "1d6", "-a", "0", "--state", str(table), "--faces", "4,4,3", "--json"]
    code, out, _ = _run(capsys, *hit, "--save", str(again))
    assert code == 0 and json.loads(out)["details"]["damage_dealt"] == 3
    kept = json.loads(again.read_text(encoding="utf-8"))["characters"]
    assert kept["target"]["sheet"]["damage"] == 20 and set(kept) == {"target", "raider"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--mitigate", "1,2"], "--mitigate '1,2': write three whole numbers"),
        (["check", "--mod", "x:equipment"], "--mod 'x:equipment': 'x' is not a whole number"),
        (["attack", "3d6", "-a", "XAR 4"], "--armour 'XAR 4': armour"),
        (["odds", "-d", "Easyish"], "--difficulty 'Easyish': unknown step"),
        (["clock", "/nonexistent.json", "--activity", "light"], "no such file"),
        (["care", "Wounded", "--medic", "21"], "--medic must be"),
    ],
)
def test_a_refused_value_names_its_flag(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _run(capsys, *argv)
    assert code != 0 and message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in out + err


def test_a_refused_value_names_its_derived_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """A flag no preset declares, derived from its field, is named as typed, as declared
    ones are (care's --medic, check's --advantage)."""
    code, _, err = _run(capsys, "check", "--advantage", "21")
    assert code != 0 and "--advantage must be between 0 and 20" in err


def test_the_care_level_is_checked_by_its_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = _run(capsys, "clock", _sheet(tmp_path, "pc.json"), "--activity", "run")
    assert code != 0 and "--activity" in err and "'run'" in err


def test_the_texts_notations_read() -> None:
    """Ch. 2 Difficulty names, ch. 7 armour and damage scale notation."""
    assert difficulty_of("Difficult") == 10 and difficulty_of("-2") == -2
    assert typed_modifier("2:Equipment:scope") == {
        "value": 2,
        "source": "scope",
        "kind": "equipment",
    }
    assert typed_modifier("-1:conditions")["kind"] == "condition"
    target = armour_of("DAR 2", target_scale="H")
    assert (target.armour, target.armour_scale, target.scale) == (2, "D", "H")
    assert scaled_damage("3d3", "D") == "D 3d3"
    with pytest.raises(Exception, match="scale D"):
        scaled_damage("D 3d3", "H")
    assert initiative_entry("Bo:1:2") == {
        "who": "Bo",
        "modifier": 1,
        "characteristic_modifier": 2,
    }


@pytest.mark.parametrize(
    ("command", "hidden"),
    [
        (["mneme", "attack"], "--report"),  # what odds report: a rolled attack reports all
        (["mneme", "care"], "--patients"),  # seated characters: care has no table
    ],
)
def test_a_field_that_changes_nothing_a_command_does_is_not_offered(
    capsys: pytest.CaptureFixture[str], command: list[str], hidden: str
) -> None:
    assert run([*command, "--help"]) == 0
    assert hidden not in capsys.readouterr().out
    assert run([*command, hidden, "x"]) == 2  # refused as a usage error, named
    assert hidden in capsys.readouterr().err
