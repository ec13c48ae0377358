"""docs/deploy.md's one table of settings is the server's: every ``referee serve`` option
has a ``REFEREE_*`` variable, and the table lists each with its option and default;
every ``REFEREE_*`` variable the package reads is in the table, and the table names no
variable the package does not read."""

from __future__ import annotations

import re
from pathlib import Path

import click

from referee.cli.serve import serve

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "deploy.md"
TEST_ONLY = {"REFEREE_REQUIRE_POSTGRES", "REFEREE_REQUIRE_BROWSER", "REFEREE_ARTIFACTS"}


def _rows() -> dict[str, tuple[str, str]]:
    """The settings table: variable -> (option cell, default cell)."""
    rows: dict[str, tuple[str, str]] = {}
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"`REFEREE_[A-Z_]+`", cells[0]):
            rows[cells[0].strip("`")] = (cells[1], cells[2])
    return rows


def test_every_serve_option_has_a_variable_listed_with_its_default() -> None:
    rows = _rows()
    for param in serve.params:
        assert isinstance(param, click.Option)
        assert isinstance(param.envvar, str) and param.envvar.startswith("REFEREE_"), param.name
        assert param.envvar in rows, f"{param.envvar} is not in docs/deploy.md's table"
        option, default = rows[param.envvar]
        assert f"`{param.opts[0]}`" in option, (param.envvar, option)
        if param.is_flag:
            assert default == "off", param.envvar
        elif isinstance(param.default, int | float | str) and param.name != "db":
            assert default == f"`{param.default}`", (param.envvar, default, param.default)


def test_the_table_and_the_packages_variables_are_the_same() -> None:
    used: set[str] = set()
    for path in (ROOT / "src" / "referee").rglob("*.py"):
        used |= set(re.findall(r"REFEREE_[A-Z][A-Z_]*[A-Z]", path.read_text()))
    # the options' variables are made from their fields' names (cli/serve.py, _option)
    used |= {p.envvar for p in serve.params if isinstance(p.envvar, str)}
    used -= {"REFEREE_HELP"}  # a Python constant in cli/mnemonic.py, not a variable
    used -= {"REFEREE_COMPLETE"}  # click's shell completion asks by _REFEREE_COMPLETE
    assert set(_rows()) == used - TEST_ONLY
    assert all(name in DOC.read_text() for name in TEST_ONLY)
