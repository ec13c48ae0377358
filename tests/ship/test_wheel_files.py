"""The wheel carries every file of the package (issue 24): a template, a stylesheet, a
migration or a game's data file missing from it would only show once installed.

Every file under ``src/referee`` but ``__pycache__`` must be in the wheel, under the same
path, with the same bytes; and the wheel holds nothing else but its metadata. The wheel
is the one ``REFEREE_WHEEL`` names (scripts/smoke-wheel.sh passes the one CI installs),
else one built here with ``python -m build --wheel --no-isolation`` (the dev extra has
``build`` and ``hatchling``)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "referee"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[zipfile.ZipFile]:
    named = os.environ.get("REFEREE_WHEEL")
    if named:
        path = Path(named)
    else:
        out = tmp_path_factory.mktemp("dist")
        done = subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        (path,) = out.glob("referee-*.whl")
    with zipfile.ZipFile(path) as zf:
        yield zf


def _source_files() -> dict[str, Path]:
    return {
        "referee/" + p.relative_to(PACKAGE).as_posix(): p
        for p in PACKAGE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def test_every_source_file_is_in_the_wheel_with_its_bytes(wheel: zipfile.ZipFile) -> None:
    source = _source_files()
    names = set(wheel.namelist())
    missing = sorted(set(source) - names)
    assert missing == [], f"not in the wheel: {missing}"
    for name, path in source.items():
        assert wheel.read(name) == path.read_bytes(), f"{name} differs from the source"
    # what the checks above cover: templates, static files, migrations, game data
    kinds = {
        "templates": "referee/web/templates/table.html",
        "static": "referee/web/static/app.js",
        "migrations": "referee/table/migrations/env.py",
        "data": "referee/systems/mongrel/data/examples/vooruk.json",
    }
    for kind, name in kinds.items():
        assert name in source, kind
    assert any(n.startswith("referee/table/migrations/versions/") for n in source)
    assert sum(1 for n in source if "/data/" in n and n.endswith(".json")) >= 11


def test_the_wheel_holds_the_package_and_its_metadata_only(wheel: zipfile.ZipFile) -> None:
    source = set(_source_files())
    meta = f"referee-{VERSION}.dist-info/"
    extra = [n for n in wheel.namelist() if n not in source and not n.startswith(meta)]
    assert extra == []
    entry = wheel.read(meta + "entry_points.txt").decode()
    assert "referee = referee.cli.dice:main" in entry
    metadata = wheel.read(meta + "METADATA").decode()
    assert f"Version: {VERSION}\n" in metadata
    assert "Provides-Extra: analysis" in metadata


def test_the_wheel_says_it_is_typed_and_carries_its_licence(wheel: zipfile.ZipFile) -> None:
    """A user's mypy found no ``py.typed``; the metadata said MIT with no licence file."""
    names = set(wheel.namelist())
    assert "referee/py.typed" in names
    assert "referee/__main__.py" in names  # python -m referee
    assert "referee/cli/helps.json" in names  # the help screens, printed without click
    licences = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
    assert len(licences) == 1 and b"MIT License" in wheel.read(licences[0])
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = wheel.read(metadata).decode()
    assert "Classifier: Typing :: Typed" in text
    assert "Provides-Extra: postgres" in text
    assert "Provides-Extra: dev" not in text and "Provides-Extra: docs" not in text
    assert "Requires-Dist: rich" not in text and "uvicorn[standard]" not in text
