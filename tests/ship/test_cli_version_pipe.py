"""The command line as a Unix tool: ``--version`` from pyproject.toml, and a reader that
leaves early (``| head``) ends the command quietly."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import EXIT_PIPE, app

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
PROJECT_VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
RUN = "import sys; from referee.cli.dice import main; sys.argv[0] = 'referee'; main()"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC)}


def test_version_is_pyprojects() -> None:
    import referee

    assert referee.version() == PROJECT_VERSION
    assert referee.__version__ == PROJECT_VERSION
    done = CliRunner().invoke(app, ["--version"])
    assert done.exit_code == 0
    assert done.output == f"referee {PROJECT_VERSION}\n"


def test_version_in_a_fresh_interpreter_from_elsewhere(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", RUN, "--version"],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=tmp_path,
        check=True,
    )
    assert done.stdout == f"referee {PROJECT_VERSION}\n"


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "3d6", "--seed", "1"],
        ["odds", "20d6"],  # a table of many rows
        ["odds", "2d6", "--json"],
        ["--help"],
        ["mongrel", "--help"],
        ["--version"],
    ],
)
def test_a_pipe_whose_reader_is_gone_ends_quietly_with_141(args: list[str]) -> None:
    """Standard output is a pipe whose read end is closed before the command starts (a
    reader that left): no message, and the status a shell reports for a Unix tool ended
    by SIGPIPE (128 + 13)."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-c", RUN, *args],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(),
            check=False,
        )
    finally:
        os.close(write)
    assert done.stderr == ""
    assert done.returncode == EXIT_PIPE == 141


def test_the_issues_own_command_through_head_is_quiet(tmp_path: Path) -> None:
    """``referee roll 3d6 --seed 1 | head -0`` in a shell, as the issue wrote it: nothing on
    stderr; the status is 141 when ``head`` has left before the roll is written (as it
    almost always has), 0 if the roll still fitted in the pipe before that."""
    shell = f'{sys.executable} -c "{RUN}" roll 3d6 --seed 1 2> {tmp_path / "err"} | head -0'
    done = subprocess.run(
        ["bash", "-c", shell + '; echo "${PIPESTATUS[0]} ${PIPESTATUS[1]}"'],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=tmp_path,
        check=True,
    )
    assert (tmp_path / "err").read_text() == ""
    status, head = done.stdout.split()
    assert head == "0" and status in ("141", "0")
    assert done.stderr == ""


def test_a_reader_that_takes_some_lines_gets_them(tmp_path: Path) -> None:
    done = subprocess.run(
        ["bash", "-c", f'{sys.executable} -c "{RUN}" odds 2d6 --json | head -3'],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=tmp_path,
        check=True,
    )
    assert done.stdout.splitlines()[0] == "{"
    assert len(done.stdout.splitlines()) == 3
    assert done.stderr == ""
