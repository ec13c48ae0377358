"""``referee mneme initiative``: rolling, hand-entered faces, ties and exact odds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli.main import run
from referee.systems.mneme import RULESET as MNEME


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(["mneme", "initiative", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_rolled_order_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--pc", "Ada:2", "--pc", "Bo:1", "--faces", "3,3,6,5", "--json")
    data = json.loads(out)
    assert code == 0 and data["manual"] is True
    assert data["order"] == ["Bo", "Ada"] and data["steps"] == [["Bo"], ["Ada"]]
    pcs = data["details"]["pcs"]
    assert [(p["faces"], p["initiative"]) for p in pcs] == [([3, 3], 8), ([6, 5], 12)]


def test_sheets_and_advantage(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = tmp_path / "ada.json"
    sheet.write_text(json.dumps(MNEME.example_data("ada")), encoding="utf-8")
    argv = [str(sheet), "--pc", "Bo:0", "--advantage", "ada vance", "--faces", "1,6,6,2,2"]
    code, out, _ = _run(capsys, *argv, "--json")
    ada = json.loads(out)["details"]["pcs"][0]
    assert code == 0 and ada["kept"] == [False, True, True] and ada["initiative"] == 12 + 2
    assert ada["sources"] == ["+2 Competence (Dex + Recon)"] and ada["modifier"] == 2
    code, out, _ = _run(capsys, *argv)
    assert code == 0 and "Initiative for the encounter: Ada Vance 14 > Bo 4" in out
    assert "initiative dice 1 (dropped), 6, 6, 2, 2" in out


def test_ties_option_and_rerolls(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--pc", "Ada:1:0", "--pc", "Bo:1:2", "--faces", "3,3,4,2"]
    code, out, _ = _run(capsys, *base, "--json")
    assert code == 0 and json.loads(out)["steps"] == [["Ada", "Bo"]]
    code, out, _ = _run(capsys, *base, "--ties", "characteristic", "--json")
    assert json.loads(out)["order"] == ["Bo", "Ada"]
    code, out, _ = _run(
        capsys, "--pc", "Ada:1", "--pc", "Bo:1", "--ties", "reroll", "--faces", "3,3,4,2,1,1,6,6"
    )
    assert code == 0 and "tie reroll: Ada 3, Bo 13" in out


def test_exact_odds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--pc", "A:1", "--pc", "B:1", "--odds", "--json")
    data = json.loads(out)
    assert code == 0 and list(data) == ["initiative", "pairs", "order"]
    assert data["initiative"]["A"]["8"] == "1/6"
    pair = data["pairs"][0]
    assert pair["p_tie"] == "73/648" and pair["p_first"] == pair["p_second"] == "575/1296"
    assert data["order"] == {"A > B": "575/1296", "B > A": "575/1296", "A = B": "73/648"}
    code, out, _ = _run(capsys, "--pc", "A:1", "--pc", "B:1", "--odds", "--ties", "reroll")
    assert code == 0 and "1/2 (50.00%)" in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--pc", "Ada"], "NAME:MOD"),
        (["--pc", "Ada:x"], "whole numbers"),
        (["--pc", "Ada:1", "--advantage", "Bo"], "no such PC"),
        (["--pc", "Ada:1", "--pc", "Bo:1", "--faces", "1,2,3"], "needs 2 faces"),
        (["--pc", "Ada:1", "--faces", "1,2,3"], "more than this roll needs"),
        (["--pc", "Ada:1", "--ties", "coin"], "initiative_ties"),
        (["--pc", "Ada:1", "--skill", "Recon"], "apply to sheets"),
        ([], "1..20 PCs"),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _out, err = _run(capsys, *argv)
    assert code != 0 and message in err and len(err.strip().splitlines()) == 1
