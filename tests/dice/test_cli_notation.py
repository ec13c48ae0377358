"""Issue 25 through ``referee roll`` and ``referee odds``: the new forms, the
explosion depth and what is left beyond it."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from referee.cli.main import run


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "text", ["4d6dl1", "4d6k3", "3d6!", "4d6ro1", "4d6rr1", "1d20mi10", "4dF", "d%"]
)
def test_every_form_the_issue_tried_now_rolls_and_has_odds(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    code, out, err = _run(capsys, "roll", text, "--seed", "5", "--json")
    assert code == 0, err
    total = json.loads(out)["total"]
    code, out, err = _run(capsys, "odds", text, "--json")
    assert code == 0, err
    assert str(total) in json.loads(out)["outcomes"]


def test_odds_report_the_probability_beyond_the_depth(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "odds", "d6!", "--depth", "2", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["outcomes"]["18"] == "1/216" and data["outcomes"]["5"] == "1/6"
    assert data["beyond_depth"] == {"depth": 2, "p": "1/216"}
    code, out, _ = _run(capsys, "odds", "3d6!")
    p = 1 - (1 - Fraction(1, 6**10)) ** 3
    assert f"beyond depth 9: p = {p.numerator}/{p.denominator}" in out
    code, out, _ = _run(capsys, "odds", "4d6kh3", "--json")
    assert "beyond_depth" not in json.loads(out)


def test_roll_hand_entered_faces_with_rerolls_and_explosions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys, "roll", "3d6!ro1", "--faces", "1,6,6,2,1,1,5")
    assert code == 0
    assert out.strip() == "3d6ro1![~1 6!6!2, ~1 1, 5] = 20 (faces entered by hand)"
    code, _, err = _run(capsys, "roll", "3d6!", "--faces", "6,2")
    assert code != 0 and "needs more faces" in err


def test_a_bare_r_points_to_ro_and_rr(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "roll", "4d6r")
    assert code != 0
    assert "write ro1 to reroll once or rr1" in err and "position 3" in err
