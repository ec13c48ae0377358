"""``referee table ...``: every command answers --json, and errors are one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli.main import run


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_session_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    code, out, _ = _run(
        capsys,
        "table",
        "new",
        "arm",
        "--name",
        "Duel",
        "--referee",
        "Dana",
        "--seed",
        "4",
        "--db",
        db,
        "--json",
    )
    assert code == 0 and json.loads(out)["game"] == "arm"
    assert _run(capsys, "table", "join", "Duel", "Ann", "--role", "player", "--db", db)[0] == 0
    # Ann types her physical dice: the referee lets everyone at this table
    settings = ("table", "settings", "Duel", "--typed-dice", "everyone", "--db", db)
    assert _run(capsys, *settings)[0] == 0
    assert (
        _run(capsys, "table", "char", "add", "Duel", "alex", "--owner", "Ann", "--db", db)[0] == 0
    )
    code, out, _ = _run(
        capsys,
        "table",
        "act",
        "Duel",
        "task",
        "actor=alex",
        "stat=Fitness",
        "difficulty=6",
        "push=never",
        "--as",
        "Ann",
        "--faces",
        "4,2",
        "--db",
        db,
        "--json",
    )
    outcome = json.loads(out)["payload"]["outcome"]
    fitness = sum(m["value"] for m in outcome["modifiers"])
    assert code == 0 and outcome["result"] == fitness + 4 - 2 - 6  # stat + d6 - d6 - difficulty
    code, out, _ = _run(
        capsys,
        "table",
        "odds",
        "Duel",
        "task",
        "actor=alex",
        "stat=Fitness",
        "difficulty=6",
        "push=never",
        "--as",
        "Ann",
        "--db",
        db,
        "--json",
    )
    rows = json.loads(out)
    assert code == 0 and sum(1 for _ in rows) == 11  # results -5..5 of 7 + d6 - d6 - 6, capped
    code, out, _ = _run(
        capsys,
        "table",
        "note",
        "Duel",
        "watch the door",
        "--as",
        "Dana",
        "--visibility",
        "private",
        "--to",
        "Ann",
        "--db",
        db,
    )
    assert code == 0
    code, out, _ = _run(capsys, "table", "log", "Duel", "--as", "Ann", "--after", "4", "--db", db)
    assert code == 0 and "watch the door" in out and "#5" in out and "task" in out
    code, out, _ = _run(capsys, "table", "undo", "Duel", "--as", "Dana", "--db", db, "--json")
    assert code == 0 and json.loads(out)["payload"] == {"seq": 5}
    code, out, _ = _run(
        capsys,
        "table",
        "edit",
        "Duel",
        "--as",
        "Dana",
        "--add",
        "alex.shock=1",
        "--reason",
        "a fall",
        "--db",
        db,
        "--json",
    )
    assert code == 0 and json.loads(out)["kind"] == "state-edited"
    code, out, _ = _run(capsys, "table", "show", "Duel", "--db", db, "--json")
    shown = json.loads(out)
    assert (
        code == 0 and shown["state"]["characters"]["alex"]["shock"] == 1 and shown["undone"] == [5]
    )
    code, out, _ = _run(capsys, "table", "verify", "Duel", "--db", db, "--json")
    assert code == 0 and json.loads(out)["ok"] is True
    exported = tmp_path / "duel.json"
    assert _run(capsys, "table", "export", "Duel", "--out", str(exported), "--db", db)[0] == 0
    other = f"sqlite:///{tmp_path / 'other.db'}"
    code, out, _ = _run(capsys, "table", "import", str(exported), "--db", other, "--json")
    assert code == 0 and json.loads(out)["events"] == 8
    code, out, _ = _run(capsys, "table", "list", "--db", other, "--json")
    assert [t["name"] for t in json.loads(out)] == ["Duel"]


def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    _run(capsys, "table", "new", "arm", "--name", "Duel", "--db", db)
    for args, expected in (
        (("table", "act", "Nope", "task", "--as", "A"), "no table 'Nope'"),
        (
            ("table", "act", "Duel", "task", "actor", "--as", "Referee"),
            "write each field as key=value",
        ),
        (("table", "act", "Duel", "fly", "--as", "Referee"), "has no action 'fly'"),
        (("table", "join", "Duel", "Bo", "--role", "king"), "'--role': 'king' is not one of"),
        (
            ("table", "edit", "Duel", "--as", "Referee", "--add", "x=1", "--reason", "r"),
            "write ID.FIELD=VALUE",
        ),
        (("table", "import", str(tmp_path / "missing.json")), "no such file"),
        (("table", "list", "--db", "mysql://x/y"), "unsupported database URL"),
    ):
        full = [*args, "--db", db] if "--db" not in args else list(args)
        code, _out, err = _run(capsys, *full)
        assert code != 0 and expected in err, (args, err)
        assert err.count("\n") == 1 and "Traceback" not in err
