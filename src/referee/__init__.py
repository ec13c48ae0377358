"""referee: a rules engine, exact-odds core and live table for four tabletop RPGs.

The package import is deliberately light: subpackages (``referee.dice``,
``referee.systems``, ``referee.cli``) are imported on demand.

The release is set once, in ``pyproject.toml``: :func:`version` reads it from the
installed package's metadata, or from ``pyproject.toml`` itself in a source checkout
(``PYTHONPATH=src``), where the metadata may belong to another copy.
"""

from __future__ import annotations

from functools import cache

__all__ = ["__version__", "version"]


@cache
def version() -> str:
    """This release of referee, as ``pyproject.toml`` gives it (e.g. ``"0.2.0"``).

    In a source checkout the checkout's own ``pyproject.toml`` wins; an installed
    package (a wheel) answers from its metadata; ``"0+unknown"`` if neither is found.
    """
    from pathlib import Path  # here, not at the top: ``referee odds`` never asks

    project = Path(__file__).resolve().parents[2] / "pyproject.toml"
    if project.is_file():
        import tomllib

        try:
            meta = tomllib.loads(project.read_text(encoding="utf-8")).get("project", {})
        except (OSError, tomllib.TOMLDecodeError):
            meta = {}
        if meta.get("name") == "referee" and isinstance(meta.get("version"), str):
            return str(meta["version"])
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("referee")
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> str:
    if name == "__version__":
        return version()
    raise AttributeError(f"module 'referee' has no attribute {name!r}")
