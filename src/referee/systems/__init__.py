"""The four games' rules, one subpackage each, behind the protocol in :mod:`.base`."""

from __future__ import annotations

SYSTEMS: dict[str, str] = {
    "mnemonic": "referee.systems.mnemonic",
    "mongrel": "referee.systems.mongrel",
    "mneme": "referee.systems.mneme",
    "arm": "referee.systems.arm",
}
"""Game name -> the package that implements it (imported on first use). Kept here, not in
:mod:`.base`, so the command line can name the games without importing the contract."""


def about(name: str) -> dict[str, object]:
    """What game ``name`` says of itself in its package's ``data/about.json``, read without
    importing the package (its rules): ``summary``, one line of what it offers (the help
    line of its command group), and ``tour``, a few of its actions to show it (each an
    ``action`` name, its ``fields`` and the ``faces`` it rolls, ``null`` for a seeded
    roller's). Empty for a game that says nothing, or is not installed."""
    import json
    from importlib.util import find_spec
    from pathlib import Path

    package = SYSTEMS.get(name)
    spec = find_spec(package) if package is not None else None
    places = spec.submodule_search_locations if spec is not None else None
    if not places:
        return {}
    path = Path(next(iter(places))) / "data" / "about.json"
    if not path.is_file():
        return {}
    found = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(found, dict):
        raise ValueError(f"{path}: not an object")
    return found
