"""``make run`` installs only what serving needs (issue 37): the package with its runtime
dependencies, no extra and no dependency group; everything else is for ``make test``."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _recipe(target: str) -> list[str]:
    text = (ROOT / "Makefile").read_text()
    found = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", text, re.M)
    assert found, f"no {target} rule in the Makefile"
    return [line.strip() for line in found[1].splitlines()]


def test_make_run_installs_the_runtime_only() -> None:
    assert "$(RUNTIME)" in re.search(r"^run: (.*)$", (ROOT / "Makefile").read_text(), re.M)[1]  # type: ignore[index]
    installs = [line for line in _recipe("$(RUNTIME)") if "pip install" in line]
    assert installs == [
        "$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile -e ."
    ]  # the package alone: its [project] dependencies, no extras, no groups


def test_the_runtime_is_what_the_core_uses() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    core = {
        re.split(r"[<>=\[; ]", d, maxsplit=1)[0].lower() for d in project["project"]["dependencies"]
    }
    assert core == {
        "click",
        "pydantic",
        "sqlalchemy",
        "alembic",
        "platformdirs",
        "fastapi",
        "uvicorn",
        "websockets",
        "httptools",
        "jinja2",
        "cryptography",
        "regex",
        "confusables",
    }
    extras = project["project"]["optional-dependencies"]
    assert set(extras) == {"analysis", "fast", "postgres"}
    assert set(project["dependency-groups"]) == {"dev", "docs"}
