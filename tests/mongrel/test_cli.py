"""`referee mongrel ...`: the issue's JSON contracts, errors, scripted conflicts."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from referee.cli.main import run
from referee.errors import RulesError
from referee.systems.base import dump_record
from referee.systems.mongrel import RULESET as MONGREL


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("dice", "tn", "mode"), [(4, 3, "over"), (0, 3, "over"), (3, 6, "under"), (2, 7, "over")]
)
def test_odds_json_contract(
    capsys: pytest.CaptureFixture[str], dice: int, tn: int, mode: str
) -> None:
    code, out, _ = _run(
        capsys,
        "mongrel",
        "odds",
        "--dice",
        str(dice),
        "--tn",
        str(tn),
        "--mode",
        mode,
        "--identity",
        "4",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and list(data) == ["p_success", "effect"]
    p = Fraction(data["p_success"])
    assert sum(Fraction(v) for v in data["effect"].values()) == p
    rolls = list(product(range(1, 7), repeat=dice or 2))
    effects = Counter(_text_effect(f, dice, tn, mode, 4) for f in rolls)
    assert {k: Fraction(v) for k, v in data["effect"].items()} == {
        str(e): Fraction(n, len(rolls)) for e, n in effects.items() if e
    }


def _text_effect(faces: tuple[int, ...], dice: int, tn: int, mode: str, identity: int) -> int:
    """Effect (0 = failure) read from the text (Task Resolution, RULINGS' scoped cases)."""
    if dice == 0:
        return 1 if all(_text_effect((f,), 1, tn, mode, 0) for f in faces) else 0
    half = 2 * faces.count(6) >= len(faces)
    if mode == "over" and tn <= 1 and 2 * faces.count(1) >= len(faces):
        return 0
    if mode == "under" and tn >= 6 and half:
        return 0
    if mode == "over" and tn >= 7:
        return 1 if half else 0
    hits = len([f for f in faces if (f <= tn if mode == "under" else f >= tn)])
    return hits + identity if hits else 0


def test_odds_of_ahvias_lie(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(
        _run(
            capsys,
            "mongrel",
            "odds",
            "--dice",
            "4",
            "--tn",
            "3",
            "--mode",
            "over",
            "--identity",
            "4",
            "--json",
        )[1]
    )
    assert data == {
        "p_success": "80/81",
        "effect": {"5": "8/81", "6": "8/27", "7": "32/81", "8": "16/81"},
    }


def test_check_with_faces(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys,
        "mongrel",
        "check",
        "--dice",
        "4",
        "--tn",
        "3",
        "--mode",
        "over",
        "--identity",
        "4",
        "--faces",
        "6,3,1,1",
        "--json",
    )
    data = json.loads(out)
    assert code == 0
    assert (data["success"], data["successes"], data["effect"]) == (True, 2, 6)
    assert data["manual"] is True
    code, out, _ = _run(
        capsys,
        "mongrel",
        "check",
        "--dice",
        "3",
        "--tn",
        "7",
        "--mode",
        "under",
        "--difficulty",
        "2",
        "--identity",
        "4",
        "--faces",
        "4,6,6",
    )
    assert code == 0 and "Effect 5" in out


def test_check_seeded_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = (
        "mongrel",
        "check",
        "--dice",
        "3",
        "--tn",
        "4",
        "--mode",
        "under",
        "--seed",
        "9",
        "--json",
    )
    first = json.loads(_run(capsys, *argv)[1])
    assert first == json.loads(_run(capsys, *argv)[1]) and first["manual"] is False


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--dice", "4", "--tn", "3", "--mode", "over", "--faces", "6,3,1"], "needs 4"),
        (["check", "--dice", "1", "--tn", "3", "--mode", "over", "--faces", "7"], "impossible"),
        (["check", "--dice", "0", "--tn", "3", "--mode", "over", "--faces", "2"], "needs 2"),
        (["odds", "--dice", "99", "--tn", "3", "--mode", "over"], "dice must be"),
        (["odds", "--dice", "2", "--tn", "3", "--mode", "sideways"], "--mode"),
        (["odds", "--dice", "2", "--tn", "3", "--mode", "under", "--difficulty", "9"], "0 to 4"),
        (["validate", "missing.json"], "no such file"),
        (["example", "nobody"], "unknown example"),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _run(capsys, "mongrel", *argv)
    assert code != 0 and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out


def test_validate_examples(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "vooruk.json"
    path.write_text(json.dumps(dump_record(MONGREL.example("vooruk"))))
    code, out, _ = _run(capsys, "mongrel", "validate", str(path), "--json")
    data = json.loads(out)
    assert code == 1 and data["valid"] is False
    assert "expertise.Rend" in {p["field"] for p in data["problems"]}
    assert data["derived"]["action_points"] == 3
    code, out, _ = _run(capsys, "validate", "mongrel", str(path))  # the shared command
    assert code == 1 and "Rend" in out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "x", "colour": "red"}))
    code, _, err = _run(capsys, "mongrel", "validate", str(bad))
    assert code == 1 and "colour" in err


def test_scripted_conflict(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    script = {
        "fighters": [{"example": "vooruk"}, {"example": "giazza"}],
        "actions": [
            {
                "type": "attack",
                "attacker": "vooruk",
                "target": "giazza",
                "expertise": "Rend",
                "defend": True,
                "faces": [5, 1, 1, 1, 1, 1],
            },
            {"type": "recover", "who": "giazza"},
            {"type": "undo"},
        ],
    }
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(script))
    code, out, _ = _run(capsys, "mongrel", "conflict", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["order"] == ["giazza", "vooruk"]
    aps = {f["id"]: f["ap"] for f in data["fighters"]}
    assert aps == {"vooruk": 1, "giazza": 3}  # defended miss: 2 AP; defence: 1 AP
    script["actions"] = [{"type": "recover", "who": "giazza"}]
    path.write_text(json.dumps(script))
    code, _, err = _run(capsys, "mongrel", "conflict", str(path))
    assert code == 1 and "actions[0]" in err and "not next" in err


def test_demo_runs() -> None:
    from referee.cli.tour import tour

    text = "\n".join(tour("mongrel"))
    assert "check dice 6, 3, 1, 1" in text and "Vooruk attacks Giazza with Rend" in text


def test_build_with_choices_gives_a_valid_sheet(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    picks = ",".join(["1"] * 19)  # 13 steps and 6 voluntary lowerings
    code, out, _ = _run(capsys, "mongrel", "build", "--name", "Test", "--choices", picks)
    assert code == 0
    path = tmp_path / "built.json"
    path.write_text(out)
    code, out, _ = _run(capsys, "mongrel", "validate", str(path))
    assert code == 0 and "valid" in out
    code, _, err = _run(capsys, "mongrel", "build", "--name", "T", "--choices", "999")
    assert code == 1 and "choose a number" in err


def test_ruleset_satisfies_the_protocol() -> None:
    from referee.systems.base import Ruleset, get

    assert isinstance(get("mongrel"), Ruleset)
    assert set(get("mongrel").actions()) >= {"check", "attack", "recover"}


def test_interactive_conflict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    path = tmp_path / "duel.json"
    path.write_text(json.dumps({"fighters": [{"example": "vooruk"}, {"example": "giazza"}]}))
    commands = "attack vooruk giazza Rend defend faces=5,1,1,1,1,1\nbogus\nundo\nquit\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(commands))
    code, out, _ = _run(capsys, "mongrel", "conflict", str(path), "--interactive", "--seed", "1")
    assert code == 0
    assert "miss, 1 AP lost" in out and "unknown command 'bogus'" in out and "undone" in out
    assert "next: Vooruk" in out  # the undo restored the start


def test_occult_odds_json_matches_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--dice", "2", "--tn", "5", "--resolve", "3", "--identity", "4", "--range", "1"]
    argv += ["--resist-dice", "1", "--resist-tn", "3", "--resist-identity", "1"]
    code, out, _ = _run(capsys, "mongrel", "occult", *argv, "--odds", "--json")
    data = json.loads(out)
    # from the text: 2 dice under Spirit 5 - 1, Demon 4, +2 for the extra Resolve; Resist
    # 1 die under 3, Demon 1, subtracted (the default ruling)
    net: Counter[int] = Counter()
    for f in product(range(1, 7), repeat=3):
        work = _text_effect(f[:2], 2, 4, "under", 4)
        resist = _text_effect(f[2:], 1, 3, "under", 1)
        net[max(0, work + 2 - resist) if work else 0] += 1
    assert code == 0 and data["hours"] == 2
    assert {int(k): Fraction(v) for k, v in data["effect"].items()} == {
        e: Fraction(n, 6**3) for e, n in net.items() if e > 0
    }
    assert Fraction(data["p_harm"]) == sum(Fraction(v) for v in data["effect"].values())
    assert Fraction(data["p_success"]) == 1 - Fraction(2, 6) ** 2  # under 5 - 1 = 4


def test_occult_roll_with_faces(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--dice", "1", "--tn", "6", "--resolve", "3", "--identity", "4"]
    argv += ["--resist-dice", "1", "--resist-tn", "3", "--resist-identity", "1"]
    code, out, _ = _run(capsys, "mongrel", "occult", *argv, "--faces", "2,3", "--json")
    data = json.loads(out)
    assert code == 0 and data["effect"] == 7 - 2 and data["manual"] is True
    assert data["working"]["effect"] == 7 and data["resist"]["effect"] == 2
    assert data["faces"] == [2] and data["resist_faces"] == [3] and data["hours"] == 1
    code, out, _ = _run(capsys, "mongrel", "occult", *argv, "--faces", "2,3", "--resist-mode",
                        "cancel")  # fmt: skip
    assert code == 0 and "Infernal Resolve lost 0" in " ".join(out.split())
    code, _, err = _run(capsys, "mongrel", "occult", *argv, "--faces", "2")
    assert code == 1 and "faces" in err
    code, _, err = _run(capsys, "mongrel", "occult", "--dice", "1", "--tn", "6", "--resolve", "0")
    assert code == 1 and "at least 1" in err
    code, _, err = _run(
        capsys, "mongrel", "occult", "--dice", "1", "--tn", "6", "--resist-dice", "1"
    )
    assert code == 1 and "go together" in err


def test_occult_in_scripts_and_interactively(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    script = {
        "fighters": [{"example": "alwia"}, {"example": "vooruk"}],
        "order": ["alwia", "vooruk"],
        "actions": [
            {"type": "occult", "who": "alwia", "target": "vooruk", "resolve": 2,
             "resist": True, "faces": [2, 5]},
        ],
    }  # fmt: skip
    path = tmp_path / "working.json"
    path.write_text(json.dumps(script))
    code, out, _ = _run(capsys, "mongrel", "conflict", str(path), "--json")
    data = json.loads(out)
    irs = {f["id"]: f["infernal_resolve"] for f in data["fighters"]}
    assert code == 0 and data["hours"] == 1 and irs == {"alwia": 4, "vooruk": 0}
    script["actions"] = []
    path.write_text(json.dumps(script))
    commands = "occult alwia vooruk resolve=2 resist faces=2,5\nundo\nocult x\nquit\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(commands))
    code, out, _ = _run(capsys, "mongrel", "conflict", str(path), "--interactive", "--seed", "1")
    assert code == 0 and "Vooruk collapses" in out and "undone" in out
    assert "hours: 0" in out


def test_a_saved_conflict_replays_exactly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    path, saved = tmp_path / "start.json", tmp_path / "saved.json"
    path.write_text(
        json.dumps(
            {
                "fighters": [{"example": "alwia"}, {"example": "vooruk"}],
                "options": {"resist_mode": "cancel"},
            }
        )
    )
    commands = "advance alwia\noccult alwia vooruk resolve=2 resist\nrecover vooruk\nquit\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(commands))
    argv = ["mongrel", "conflict", str(path), "--interactive", "--seed", "7", "--json"]
    code, out, _ = _run(capsys, *argv, "--save", str(saved))
    assert code == 0
    first = json.loads(out[out.index("{\n") :])
    stored = json.loads(saved.read_text())
    assert stored["options"]["resist_mode"] == "cancel"
    assert [a["type"] for a in stored["actions"]] == ["advance", "occult", "recover"]
    assert all("faces" in a for a in stored["actions"])
    code, out, _ = _run(capsys, "mongrel", "conflict", str(saved), "--seed", "999", "--json")
    again = json.loads(out)
    assert code == 0 and again == first  # the faces, not the seed, decide


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        # one die under 3: faces 1-3 succeed, Effect 1 die + Identity 2
        (("1", "3", "under", "2"), {"p_success": "1/2", "effect": {"3": "1/2"}}),
        # two dice over 5: a 5 or 6 succeeds (1/3 each); Effect 2 + 1 or 2 + 2
        (("2", "5", "over", "1"), {"p_success": "5/9", "effect": {"2": "4/9", "3": "1/9"}}),
        # zero Expertise: one die twice, both within 3 (1/2 × 1/2); Effect 1, no Identity
        (("0", "3", "under", "4"), {"p_success": "1/4", "effect": {"1": "1/4"}}),
        # zero Expertise under 6: a lone 6 fails (scoped special case), so (5/6)²
        (("0", "6", "under", "4"), {"p_success": "25/36", "effect": {"1": "25/36"}}),
        # zero Expertise over 7: only a 6 succeeds, twice
        (("0", "7", "over", "4"), {"p_success": "1/36", "effect": {"1": "1/36"}}),
        # two dice over 1: half or more 1s fails, so no 1 at all (5/6)²; Effect 2 + 0
        (("2", "1", "over", "0"), {"p_success": "25/36", "effect": {"2": "25/36"}}),
        # two dice over 7: half or more 6s succeeds with Effect 1: 1 - (5/6)²
        (("2", "7", "over", "3"), {"p_success": "11/36", "effect": {"1": "11/36"}}),
        # nothing can succeed under 0
        (("3", "0", "under", "2"), {"p_success": "0/1", "effect": {}}),
    ],
)
def test_odds_json_hand_computed(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, str, str, str], expected: dict[str, Any]
) -> None:
    dice, tn, mode, identity = argv
    code, out, err = _run(
        capsys,
        "mongrel",
        "odds",
        "--dice",
        dice,
        "--tn",
        tn,
        "--mode",
        mode,
        "--identity",
        identity,
        "--json",
    )
    assert code == 0 and err == ""
    assert json.loads(out) == expected


@pytest.mark.parametrize(
    ("name", "line"),
    [
        (
            "alwia",
            "Alwia: action points 6, wound threshold 5, terminal damage 9, infernal resolve 6",
        ),
        (
            "vooruk",
            "Vooruk: action points 3, wound threshold 12, terminal damage 22, infernal resolve 3",
        ),
        (
            "giazza",
            "Giazza: action points 4, wound threshold 10, terminal damage 18, infernal resolve 4",
        ),
    ],
)
def test_validate_prints_the_derived_scores(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, line: str
) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(dump_record(MONGREL.example(name))))
    code, out, _ = _run(capsys, "mongrel", "validate", str(path))
    assert code == 1  # each example breaks the Expertise steps (see test_sheet)
    assert line in " ".join(out.split())


def test_interactive_weapons_armour_and_tasks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    path = tmp_path / "duel.json"
    path.write_text(json.dumps({"fighters": [{"example": "vooruk"}, {"example": "giazza"}]}))
    commands = (
        # Rend 6 dice all succeed under Physique 7: Effect 6 + Beast 4 = 10, +1 weapon -3 armour
        "attack vooruk giazza Rend weapon=1 armor=3 faces=1,1,1,1,1,1\n"
        # Sense 2 dice over 5: both succeed, Effect 2 + Beast 1 = 3
        "task giazza Sense tn=5 mode=over faces=5,6\n"
        "attack vooruk giazza Rend sword=2\n"
    )
    monkeypatch.setattr("sys.stdin", io.StringIO(commands))
    argv = ["mongrel", "conflict", str(path), "--interactive", "--seed", "1", "--json"]
    code, out, _ = _run(capsys, *argv)
    start = out.index("{\n")  # the interactive lines come before the JSON state
    data = json.loads(out[start:])
    assert code == 0 and "unexpected 'sword=2'" in out[:start]
    giazza = next(f for f in data["fighters"] if f["id"] == "giazza")
    assert giazza["damage"] == 8 and giazza["physique"] == 5 and giazza["ap"] == 3
    assert data["log"][-1].endswith("success, Effect 3")


def test_improve_and_credit_commands(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from referee.systems.mongrel.tables import HOUSES

    sheet = dump_record(MONGREL.example("giazza"))  # Social 4, House Nuin
    sheet["credit"] = {h: (2 if h == "Nuin" else 1) for h in HOUSES}  # Nuin reduced in play
    sheet["character_points"] = 19
    path, out_path = tmp_path / "g.json", tmp_path / "g2.json"
    path.write_text(json.dumps(sheet))
    # a session's 1 point makes 20 = Social 4 x 5; Social 5 lifts Nuin Credit 2 -> 3
    argv = ["improve", str(path), "--award", "1", "--attribute", "social", "--used", "social"]
    code, out, _ = _run(capsys, "mongrel", *argv, "--save", str(out_path), "--json")
    data = json.loads(out)
    assert code == 0 and (data["points_before"], data["points_left"]) == (19, 0)
    code, out, _ = _run(capsys, "mongrel", "credit", str(out_path), "--json")
    assert code == 0 and json.loads(out)["Nuin"] == 3 and json.loads(out)["Mekag"] == 1
    # 2:1 transfers: 2 from Nuin buys 1 with Mekag
    code, out, _ = _run(
        capsys, "mongrel", "credit", str(out_path), "--transfer", "Nuin:Mekag:1", "--json"
    )
    assert (json.loads(out)["Nuin"], json.loads(out)["Mekag"]) == (1, 2)
    code, out, _ = _run(capsys, "mongrel", "credit", str(out_path), "--sacrifice", "Nuin")
    assert code == 0 and "Nuin 2" in " ".join(out.split())
    for argv, message in (
        (["improve", str(path), "--expertise", "Melee"], "not used last session"),
        (["improve", str(path), "--expertise", "Melee", "--used", "Melee"], "costs 20"),
        (["improve", str(path), "--award", "3"], "1 or 2 points"),
        (["credit", str(path), "--transfer", "Nuin:Mekag"], "FROM:TO:N"),
        (["credit", str(path), "--transfer", "Nuin:Mekag:2"], "4 needed"),
    ):
        code, out, err = _run(capsys, "mongrel", *argv)
        assert code != 0 and message in err and len(err.strip().splitlines()) == 1


def test_referee_approval_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, approved = tmp_path / "g.json", tmp_path / "g2.json"
    path.write_text(json.dumps(dump_record(MONGREL.example("giazza"))))
    argv = ["approve", str(path), "--field", "expertise,expertise.Bureaucrat"]
    code, _, _ = _run(capsys, "mongrel", *argv, "--reason", "as printed", "--save", str(approved))
    assert code == 0
    code, out, _ = _run(capsys, "mongrel", "validate", str(approved), "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] is True
    assert [p["approved"] for p in data["problems"]] == ["as printed", "as printed"]
    for argv, message in (
        (["approve", str(path), "--field", "nope", "--reason", "x"], "no open problem at nope"),
        (["approve", str(path), "--reason", "x"], "--all"),
        (["approve", str(path), "--all", "--reason", " "], "--reason"),
    ):
        code, out, err = _run(capsys, "mongrel", *argv)
        assert code != 0 and message in err and len(err.strip().splitlines()) == 1
    code, out, _ = _run(capsys, "mongrel", "approve", str(path), "--all", "--reason", "GM says")
    assert code == 0 and "The referee approves Giazza's sheet: 2 problem(s) approved" in out


def test_validate_with_the_tables_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sheet, opts = tmp_path / "v.json", tmp_path / "o.json"
    sheet.write_text(json.dumps(dump_record(MONGREL.example("vooruk"))))
    opts.write_text(json.dumps({"max_score": 6}))
    code, out, _ = _run(capsys, "mongrel", "validate", str(sheet), "--options", str(opts), "--json")
    assert code == 1
    assert ("attributes.physique", 7) in {
        (p["field"], p["value"]) for p in json.loads(out)["problems"]
    }
    opts.write_text(json.dumps({"max_score": 0}))
    code, _, err = _run(capsys, "mongrel", "validate", str(sheet), "--options", str(opts))
    assert code != 0 and "max_score" in err and len(err.strip().splitlines()) == 1


def test_validate_an_example_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "mongrel", "validate", "ghiazza", "--json")
    data = json.loads(out)
    assert code == 1 and data["derived"]["action_points"] == 4
    assert [p["field"] for p in data["problems"]] == ["expertise", "expertise.Bureaucrat"]


def test_a_conflict_plays_on_a_throwaway_table_whose_log_undoes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 21: the script runs through the table service; undo is the table's (the
    start of the script is never undone, and a second undo goes one action further)."""
    from referee.table.scratch import Scratch, Words

    script = {
        "fighters": [{"example": "vooruk"}, {"example": "giazza"}],
        "order": ["giazza", "vooruk"],
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**script, "actions": [{"type": "undo"}]}))
    code, _, err = _run(capsys, "mongrel", "conflict", str(path))
    assert code == 1 and "actions[0]: nothing to undo" in err
    with Scratch.of_script("mongrel", script, seed=5) as table:
        list(table.run(Words(), [], ""))
        assert table.play("wait", {"actor": "giazza"}, None).startswith("Giazza waits")
        assert table.play("recover", {"actor": "vooruk"}, None)
        assert table.play(None, {}, None) == "undone"
        assert [e.payload["action"] for e in table.steps()] == ["wait"]
        kinds = [e.kind for e in table.service.store.events(table.ref_id)]
        assert kinds.count("action-resolved") == 2 and kinds[-1] == "undo"  # the log keeps it
        assert table.table.state.order == ("vooruk", "giazza")
    assert not table.root.exists()  # the throwaway table is gone


def test_session_words_read_short_commands() -> None:
    from referee.cli.mongrel import WORDS
    from referee.table.scratch import Scratch

    script = {
        "fighters": [{"example": "alwia"}, {"example": "vooruk"}],
        "order": ["alwia", "vooruk"],
    }
    with Scratch.of_script("mongrel", script, seed=1) as table:
        list(table.run(WORDS, [], ""))
        name, data, faces = table.command(
            "occult alwia vooruk resolve=2 resist range=1 faces=2,5", WORDS
        )
        assert (name, faces) == ("occult", [2, 5])
        assert data == {
            "actor": "alwia",
            "target": "vooruk",
            "resolve": 2,
            "resist": True,
            "range_modifier": 1,
        }
        assert table.command("spend alwia 2", WORDS)[:2] == (
            "spend-resolve",
            {"actor": "alwia", "points": 2},
        )
        assert table.command("attack alwia vooruk rend", WORDS)[1]["expertise"] == "Rend"
        with pytest.raises(RulesError, match="unknown command 'bogus'"):
            table.command("bogus x", WORDS)
        with pytest.raises(RulesError, match="unexpected 'sword=2'"):
            table.command("attack alwia vooruk Rend sword=2", WORDS)


def test_approve_writes_the_sheet_with_out_as_well(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "g.json"
    code, _, _ = _run(
        capsys, "mongrel", "approve", "giazza", "--all", "--reason", "ok", "--out", str(out)
    )
    assert code == 0 and json.loads(out.read_text())["approvals"]


def test_flags_come_from_the_actions_fields(capsys: pytest.CaptureFixture[str]) -> None:
    """No command declares --by, --resist-mode or --identity: each is its action's field."""
    argv = ["approve", "giazza", "--all", "--reason", "ok", "--by", "the GM", "--json"]
    code, out, _ = _run(capsys, "mongrel", *argv)
    assert code == 0 and {a["by"] for a in json.loads(out)["approvals"]} == {"the GM"}
    argv = ["occult", "--resolve", "3", "--resist-dice", "1", "--resist-tn", "4", "--faces", "2,3"]
    for mode, lost in (("subtract", 2), ("cancel", 0)):  # Effect 3 less 1, or cancelled
        code, out, _ = _run(capsys, "mongrel", *argv, "--resist-mode", mode, "--json")
        assert code == 0 and json.loads(out)["effect"] == lost
    code, out, _ = _run(
        capsys, "mongrel", "check", "--dice", "2", "--identity", "3", "--faces", "1,2"
    )
    assert code == 0 and "Effect 5" in out
    code, out, err = _run(capsys, "mongrel", "occult", "--resist-mode", "sideways")
    assert code != 0 and "--resist-mode" in err
