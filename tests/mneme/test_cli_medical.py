"""``referee mneme`` first aid, survival rolls, dying rounds, stimulants, the clock's dying
rolls and attacks with sheet weapons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli.main import run
from referee.systems.mneme import RULESET as MNEME


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _sheet(tmp_path: Path, name: str, **changes: object) -> Path:
    data = MNEME.example_data("ada")
    data.update(changes)
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_first_aid_stabilises_and_writes_the_patient(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    medic = _sheet(tmp_path, "medic.json")
    patient = _sheet(tmp_path, "patient.json", damage=30)
    out_path = tmp_path / "after.json"
    argv = ["mneme", "first-aid", str(medic), "--patient", str(patient), "--faces", "5,4"]
    code, out, _ = _run(capsys, *argv, "--out", str(out_path))
    # Edu 8 (0) + Medic 1: 9 + 1 = 10 vs 8 -> SE 2, heals 2 -> 28 > 24: End 8 hours
    assert code == 0 and "Healed 2; stabilised for 8 hours" in out
    after = json.loads(out_path.read_text(encoding="utf-8"))
    assert after["damage"] == 28 and after["conditions"] == ["Stabilised"]
    assert after["stabilised_minutes"] == 480
    # the clock: 9 hours later the stabilisation is gone and the rolls are due
    code, out, _ = _run(capsys, "mneme", "clock", str(out_path), "--hours", "9", "--note-dying")
    assert code == 0 and "600 dying roll(s) due" in out and "stabilisation ran out" in out
    code, out, _ = _run(capsys, "mneme", "clock", str(out_path), "--hours", "9", "--json")
    data = json.loads(out)
    assert data["label"] == "Dead" and data["details"]["dying_rolls"]["death_round"] == 4801


def test_dying_rounds_odds_and_roll(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # End 14 (+2), HP 18, 19 damage (-6): 2d6 >= 8 to live each round
    tess = _sheet(
        tmp_path,
        "tess.json",
        characteristics={"Str": 2, "Dex": 2, "End": 14, "Int": 7, "Edu": 7, "Soc": 7},
        damage=19,
        armour=[],
    )
    code, out, _ = _run(capsys, "mneme", "dying", str(tess), "--rounds", "3", "--odds", "--json")
    assert code == 0 and json.loads(out) == {"rounds": 3, "Alive": "125/1728", "Dead": "1603/1728"}
    code, out, _ = _run(capsys, "mneme", "dying", str(tess), "-n", "3", "--faces", "6,2,6,1")
    assert code == 0 and "Dead in round 2" in out
    code, _, err = _run(capsys, "mneme", "dying", str(tess), "-n", "1", "--faces", "6,2,6")
    assert code != 0 and "more than this roll needs" in err


def test_survival_intensive_care(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pc = _sheet(tmp_path, "pc.json", damage=3)
    code, out, _ = _run(
        capsys, "mneme", "survival", str(pc), "intensive", "--supervisor-medic", "2"
    )
    assert code == 0 and "no roll" in out
    code, out, _ = _run(capsys, "mneme", "survival", str(pc), "intensive", "--faces", "6,3")
    # End 8 (0), 3 damage (-1): 9 - 1 = 8 vs 8 heals 2
    assert code == 0 and "Ada Vance rolls to survive: Healed 2" in out
    code, _, err = _run(capsys, "mneme", "survival", str(pc), "bogus", "--faces", "6,3")
    assert code == 2 and "'bogus' is not one of 'dying', 'massive', 'intensive'" in err
    assert "for 'KIND'" in err  # the argument as help names it


def test_stimulant(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pc = _sheet(tmp_path, "pc.json", damage=16)
    out_path = tmp_path / "awake.json"
    code, out, _ = _run(capsys, "mneme", "stimulant", str(pc), "--out", str(out_path))
    assert code == 0 and "awake" in out
    assert json.loads(out_path.read_text(encoding="utf-8"))["conditions"] == ["Awake"]
    dying = _sheet(tmp_path, "dying.json", damage=25)
    code, _, err = _run(capsys, "mneme", "stimulant", str(dying))
    assert code != 0 and "Dying" in err


def test_attack_with_a_sheet_weapon(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ada = _sheet(tmp_path, "ada.json")
    argv = ["mneme", "attack", "--sheet", str(ada), "--weapon", "Broadsword"]
    argv += ["--characteristic", "Str", "--target-sheet", str(ada)]
    code, out, _ = _run(capsys, *argv, "--faces", "6,3,3,3,3,2,2,1", "--json")
    data = json.loads(out)
    assert code == 0 and data["details"]["damage_dealt"] == 3
    assert data["details"]["weapon_rolls"]["dealt"] == [3, 0]
    code, _, err = _run(capsys, "mneme", "attack", "--faces", "3,3")
    assert code != 0 and "weapon" in err
    code, out, _ = _run(
        capsys, "mneme", "take-damage", "--weapon", "Broadsword", "--attacker", str(ada),
        "--sheet", str(ada), "-f", "3", "--rate", "3", "--faces", "3,3,3,2,2,2,1,1,1",
    )  # fmt: skip
    assert code == 0 and "damage rolls after armour 3, 0, 0" in out


def test_take_damage_behind_the_sheet_shield(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ada = _sheet(tmp_path, "ada.json")
    after = tmp_path / "after.json"
    argv = ["mneme", "take-damage", "3d6", "-f", "3", "--sheet", str(ada), "--cover-object", "0"]
    code, out, _ = _run(capsys, *argv, "--faces", "6,6,3,4,3,2,5,5,5", "--out", str(after))
    assert code == 0 and "the cover takes 13, 7: 10 damage (destroyed)" in out
    data = json.loads(after.read_text(encoding="utf-8"))
    assert data["damage"] == 11 and data["protection"][0]["damage"] == 10


def test_attack_odds_with_a_sheet_weapon(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ada = _sheet(tmp_path, "ada.json")
    argv = ["mneme", "attack-odds", "--weapon", "Broadsword", "--attacker", str(ada)]
    code, out, _ = _run(capsys, *argv, "--rolls", "2", "--armour", "3", "--json")
    _, plain, _ = _run(
        capsys, "mneme", "attack-odds", "3d3-2", "-n", "2", "-a", "3", "-r", "2", "--json"
    )
    # the sheet's broadsword (3d3-2, RoA 2: the text's SE 1 makes two broadsword rolls)
    # gives the odds of the same damage typed out: two 3d3-5 rolls, both counting
    assert code == 0 and json.loads(out) == json.loads(plain)
    code, _, err = _run(capsys, "mneme", "attack-odds", "--weapon", "Broadsword")
    assert code != 0 and "the attacker's sheet is needed" in err  # the rule's own refusal


def test_first_aid_round_by_round(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    medic = _sheet(tmp_path, "medic.json")
    argv = ["mneme", "first-aid", str(medic), "--rounds-left", "30", "--faces", "5,4"]
    code, out, _ = _run(capsys, *argv)
    # Edu 8 (0) + Medic 1: 10 vs 8, SE 2: 30 - 1 - 2 = 27 to go
    assert code == 0 and "27 round(s) of first aid left" in out


def test_surgery_heals_twice_the_success_effect(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Ch. 7, Surgery at 8: Ada (Edu 8 -> ChM 0, Medic 1) rolls 5+4+1 = 10: SE 2 heals 4."""
    surgeon = _sheet(tmp_path, "ada.json")
    patient = _sheet(tmp_path, "pat.json", damage=12)  # HP 24: Seriously Wounded
    out_path = tmp_path / "after.json"
    argv = ["mneme", "surgery", str(surgeon), "--patient", str(patient), "--faces", "5,4"]
    code, out, _ = _run(capsys, *argv, "--out", str(out_path), "--json")
    data = json.loads(out)
    assert code == 0 and data["target"] == 8 and data["result"] == 2
    assert data["details"]["healed"] == 4 and data["details"]["minutes"] == 30
    assert json.loads(out_path.read_text())["damage"] == 8


def test_botched_surgery_costs_time_and_harms_past_half_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Roll 1+1+1 = 3 vs 8: FE 5, Medic 1 cuts it to 4, the time is x(1 + 4) = 150 minutes;
    4 is not more than half of End 8, so no harm. At -1 more, 5 left > 4: 10 damage."""
    surgeon = str(_sheet(tmp_path, "ada.json"))
    argv = ["mneme", "surgery", surgeon, "--end", "8", "--faces", "1,1", "--json"]
    d = json.loads(_run(capsys, *argv)[1])["details"]
    assert (d["fail_effect_left"], d["minutes"], d["harm"]) == (4, 150, 0)
    d = json.loads(_run(capsys, *argv, "-m", "-1")[1])["details"]
    assert (d["fail_effect_left"], d["minutes"], d["harm"]) == (5, 180, 10)
    code, _, err = _run(capsys, "mneme", "surgery", surgeon, "--end", "8", "--no-facility")
    assert code != 0 and "hospital" in err and err.count("\n") == 1
    code, _, err = _run(capsys, "mneme", "surgery", surgeon)
    assert code != 0 and "a seated patient, or their End" in err  # the rule's own refusal


def test_care_capacity_of_a_ward(capsys: pytest.CaptureFixture[str]) -> None:
    """Ch. 7, Care Levels: 1 + 2 + 4 + 8 = 15 light-care patients; Medic 0 cares for 8,
    Medic 1 for 16, and a Medic 2 supervisor doubles Medic 0 to 16."""
    ward = ["Wounded", "Seriously Wounded", "Critically Wounded", "Dying"]
    d = json.loads(_run(capsys, "mneme", "care", *ward, "--medic", "1", "--json")[1])
    assert (d["load"], d["capacity"], d["fits"], d["monitoring"]) == (15, 16, True, 64)
    assert [p["care"] for p in d["patients"]] == ["light", "moderate", "serious", "intensive"]
    d = json.loads(_run(capsys, "mneme", "care", *ward, "--json")[1])
    assert (d["capacity"], d["fits"]) == (8, False)
    d = json.loads(_run(capsys, "mneme", "care", *ward, "--supervisor-medic", "2", "--json")[1])
    assert d["capacity"] == 16
    code, _, err = _run(capsys, "mneme", "care", "Fine")
    assert code != 0 and "conditions must be one of" in err and "'Fine'" in err
