"""More of the command line's manners (issue 37): -h beside --help at every level,
completion answers, and ``serve`` refuses a taken port first, before it opens anything."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import app, run

REFEREE = [sys.executable, "-c", "import sys; from referee.cli.main import run; sys.exit(run())"]


@pytest.mark.parametrize("args", [["-h"], ["table", "-h"], ["mongrel", "validate", "-h"]])
def test_dash_h_is_help_at_every_level(args: list[str]) -> None:
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0
    assert done.output.startswith("Usage: referee")


def test_completion_answers_commands() -> None:
    env = {**os.environ, "COMP_WORDS": "referee ta", "COMP_CWORD": "1"}
    env["_REFEREE_COMPLETE"] = "bash_complete"
    done = subprocess.run(REFEREE, env=env, capture_output=True, text=True, timeout=60)
    assert "plain,table" in done.stdout.splitlines()


@pytest.mark.slow
def test_serve_refuses_a_taken_port_before_anything(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = tmp_path / "never.db"
        args = ["serve", "--port", str(port), "--db", f"sqlite:///{db}", "--demo"]
        done = subprocess.run([*REFEREE, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stdout == ""  # no demo links, no "serving on"
    assert done.stderr.strip() == (
        f"error: cannot serve on 127.0.0.1:{port}: the port is in use (another server?); "
        "choose another with --port"
    )
    assert not db.exists()  # the database was not even opened


def test_a_usage_error_exits_2() -> None:
    assert run(["roll", "--nope"]) == 2


def test_a_dash_reads_standard_input_and_writes_standard_output() -> None:
    """``-`` where a file goes: a sheet read from standard input, a table written to
    standard output."""
    import json

    from referee.systems.base import get

    sheet = json.dumps(get("mongrel").example_data("vooruk"))
    done = CliRunner().invoke(app, ["mongrel", "validate", "-"], input=sheet)
    assert done.exit_code == 1  # the text's Vooruk breaks five creation rules
    assert done.output.startswith("Vooruk: action points 3")
    csv = CliRunner().invoke(app, ["analyze", "compare", "arm", "--csv", "-"])
    assert csv.exit_code == 0
    assert csv.output.splitlines()[0] == "variant,result,exact,probability,at_least,at_most"
    assert "push never,-5,1/36," in csv.output


@pytest.mark.parametrize(
    ("argv", "said", "listed"),
    [
        (["mongrel", "odds", "--mode", "sideways"], "'under', 'over'", "[under|over]"),
        (
            ["arm", "odds", "--difficulty", "simple", "--total", "2", "--melee", "x"],
            "'attack', 'parry', 'dodge'",
            "[attack|parry|dodge]",
        ),
    ],
)
def test_a_word_outside_a_fields_choices_is_a_usage_error_with_the_choices_in_help(
    argv: list[str], said: str, listed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 37: ``mongrel odds --mode sideways`` exited 1 and help said ``--mode TEXT``;
    a field's fixed words are click's choices (in any case): exit 2 naming them, and
    listed in help."""
    assert run(argv) == 2 and said in capsys.readouterr().err
    assert run([*argv[:2], "--help"]) == 0 and listed in capsys.readouterr().out
    upper = [a.upper() if a in ("x", "sideways") else a for a in argv]
    capsys.readouterr()
    assert run([*upper[:-1], "DODGE" if "--melee" in argv else "OVER", "--json"]) != 2
    assert "Invalid value" not in capsys.readouterr().err  # any case is the word


def test_the_demo_speaks_json(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 37: ``referee demo --json`` was refused; it gives the tour as one object: the
    seeded rolls (the same faces as the text tour), 2d6's exact odds, each game's lines."""
    import json

    assert run(["demo", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["expression"] for r in data["rolls"]] == ["2d6+1", "3d6kh2", "3d12med", "4d6>=3"]
    assert data["odds"]["outcomes"]["7"] == "1/6"
    assert set(data["games"]) == {"mnemonic", "mongrel", "mneme", "arm"}
    assert run(["demo"]) == 0
    text = capsys.readouterr().out
    first = data["rolls"][0]
    assert f"= {first['total']}" in text.splitlines()[1]
    assert all(line in text for lines in data["games"].values() for line in lines)
