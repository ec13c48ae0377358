"""The example characters every game ships, read one way from its package's data.

A game package keeps each example character as a stored sheet,
``data/examples/<id>.json``, and may say more about them in ``data/examples.json``:
by id, in the order the examples are listed (the rest follow in name order), the
other spellings a rule text uses for one (``"aliases"``) and, for one that comes from
the rule text, where (``"from_text"``, ``"where"``, and its documented discrepancies,
``"notes"``: see :class:`~referee.systems.building.ExampleInfo`). The base's
:meth:`~referee.systems.base.Ruleset.examples`,
:meth:`~referee.systems.base.Ruleset.example`,
:meth:`~referee.systems.base.Ruleset.example_data` and
:meth:`~referee.systems.base.Ruleset.example_info` read them through :func:`shelf`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from referee.errors import RulesError
from referee.systems.outcome import JSONObject
from referee.systems.records import load_record

if TYPE_CHECKING:
    from referee.systems.building import ExampleInfo

__all__ = ["Shelf", "package_data", "shelf"]


@dataclass(frozen=True)
class Shelf:
    """A game's example characters as stored: each sheet's JSON by id (in order), the
    other names they answer to, and where each comes from."""

    package: str
    sheets: Mapping[str, JSONObject]
    aliases: Mapping[str, str]
    info: Mapping[str, ExampleInfo]

    def key(self, name: str) -> str:
        """The id of the example called ``name`` (an id or another spelling, any case);
        :class:`RulesError` listing the known ones."""
        key = name.strip().lower()
        key = self.aliases.get(key, key)
        if key not in self.sheets:
            known = ", ".join(self.sheets) or "none"
            raise RulesError(f"unknown example character {name!r}; known: {known}")
        return key


def _folder(package: str) -> Traversable | None:
    try:
        root = files(package)
    except (ModuleNotFoundError, TypeError, ValueError):  # no package: no data
        return None
    return root / "data"


def _json(path: Traversable) -> object:
    try:
        found: object = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as e:
        raise RulesError(f"{path}: not readable JSON ({e})") from None
    return found


def package_data(package: str, name: str) -> object | None:
    """The JSON file ``data/<name>`` of the game package ``package`` (``None`` if it has
    none); :class:`RulesError` for a file that is not JSON."""
    data = _folder(package)
    if data is None or not data.joinpath(name).is_file():
        return None
    return _json(data / name)


@cache
def shelf(package: str) -> Shelf:
    """The example characters of the game package ``package`` (read once; none when it
    has no ``data/examples/``). :class:`RulesError` names a malformed index file."""
    from referee.systems.building import ExampleInfo

    data = _folder(package)
    if data is None or not data.joinpath("examples").is_dir():
        return Shelf(package, {}, {}, {})
    found = {
        p.name.removesuffix(".json"): p
        for p in data.joinpath("examples").iterdir()
        if p.name.endswith(".json")
    }
    index_file = data / "examples.json"
    index = _json(index_file) if index_file.is_file() else {}
    if not isinstance(index, dict):
        raise RulesError(f"{package} data/examples.json: an object by example id expected")
    missing = [k for k in index if k not in found]
    if missing:
        raise RulesError(
            f"{package} data/examples.json: no data/examples/<id>.json for {', '.join(missing)}"
        )
    order = [*index, *sorted(k for k in found if k not in index)]
    sheets: dict[str, JSONObject] = {}
    for key in order:
        sheet = _json(found[key])
        if not isinstance(sheet, dict):
            raise RulesError(f"{package} data/examples/{key}.json: a sheet object expected")
        sheets[key] = sheet
    aliases: dict[str, str] = {}
    info: dict[str, ExampleInfo] = {}
    for key, entry in index.items():
        if not isinstance(entry, dict):
            raise RulesError(f"{package} data/examples.json: {key}: an object expected")
        for alias in entry.get("aliases", ()):
            aliases[str(alias).lower()] = key
        told = {k: v for k, v in entry.items() if k != "aliases"}
        if told:
            info[key] = load_record(ExampleInfo, told, rule=f"{package} data/examples.json {key}")
    return Shelf(package, sheets, aliases, info)
