"""Every game's adversaries and templates, read one way from its package's data.

A game package keeps its bestiary in ``data/bestiary.json``: the numbers a referee
changes most at that game (``"dials"``: a characteristic, a skill level, armour), and
its ``"entries"`` by id, each with its name, a line in our words, where it comes from
(the rule text's section, or the package) and its sheet: written out (``"sheet"``), or
one of the package's example characters (``"example"``, :mod:`referee.systems.examples`).
An entry the text gives with numbers the game's own rules do not accept lists the
discrepancies (``"notes"``); its validator reports them, and a table seats it only when
the referee forces it in. The base's :meth:`~referee.systems.base.Ruleset.bestiary` and
:meth:`~referee.systems.base.Ruleset.adversary` read it through :func:`bestiary`.

A :class:`Dial` names one number of an entry's sheet by its path (``"skills.Melee"``,
``"armour.0.rating"``), its bounds and, where play raises a number on top of the one the
creation rules fix (Mongrel's character points), the path of that fixed number
(``"base"``): the dial shows the sum and writes only the raise, so the sheet stays one
its rules accept.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from referee.errors import RulesError
from referee.systems.examples import shelf
from referee.systems.outcome import JSONObject, JSONValue
from referee.systems.records import load_record

__all__ = ["MAX_COUNT", "Bestiary", "Dial", "Entry", "bestiary"]

MAX_COUNT = 12
"""The most adversaries of one entry seated at once."""


@dataclass(frozen=True)
class Dial:
    """One number of a sheet a referee tunes before seating: ``key`` (how a request names
    it), ``label`` (in the game's words), ``path`` into the sheet (dotted; a list's item
    by its index), ``ge``..``le`` its bounds, and ``base``: the path of the number the
    creation rules fix, when the dial's value is that plus a raise kept at ``path``."""

    key: str
    label: str
    path: str
    ge: int = 0
    le: int = 20
    base: str = ""

    def value(self, sheet: JSONObject) -> int | None:
        """The number as the sheet holds it (with its base, if any); ``None`` where the
        sheet has no such number (the dial does not apply to it)."""
        found = _at(sheet, self.path)
        if self.base:
            fixed = _at(sheet, self.base)
            if not isinstance(fixed, int):
                return None
            return fixed + (found if isinstance(found, int) else 0)
        return found if isinstance(found, int) and not isinstance(found, bool) else None

    def low(self, sheet: JSONObject) -> int:
        """The lowest value a referee may give it on this sheet (a raise is never
        negative: at least the fixed number)."""
        fixed = _at(sheet, self.base) if self.base else None
        return max(self.ge, fixed) if isinstance(fixed, int) else self.ge

    def set(self, sheet: JSONObject, value: int) -> None:
        """Write ``value`` into ``sheet`` (in place); :class:`RulesError` naming the
        dial and its bounds for a value outside them."""
        low = self.low(sheet)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= self.le:
            raise RulesError(
                f"{self.label}: a whole number from {low} to {self.le} (got {value!r})"
            )
        if self.base:
            fixed = _at(sheet, self.base)
            assert isinstance(fixed, int)
            _put(sheet, self.path, value - fixed)
        else:
            _put(sheet, self.path, value)


@dataclass(frozen=True)
class _Dials:
    """The dials a game's bestiary file lists for all its entries."""

    dials: tuple[Dial, ...] = ()


@dataclass(frozen=True)
class _Stored:
    """An entry as ``data/bestiary.json`` writes it (its sheet read apart)."""

    name: str
    line: str
    where: str
    from_text: bool = False
    example: str = ""
    notes: tuple[str, ...] = ()
    dials: tuple[Dial, ...] | None = None


@dataclass(frozen=True)
class Entry:
    """One adversary or template: its ``id``, ``name``, a ``line`` saying what it is,
    where it comes from (``from_text``: the rule text, whose section ``where`` cites;
    else the package's own), its stored ``sheet`` (JSON), the ``notes`` on what the text
    gives that the rules do not accept (empty: the game's validator accepts it), and the
    ``dials`` that apply to its sheet."""

    id: str
    name: str
    line: str
    where: str
    from_text: bool
    sheet: JSONObject
    notes: tuple[str, ...]
    dials: tuple[Dial, ...]

    def values(self) -> dict[str, int]:
        """Each dial's number on the stored sheet, by key."""
        out: dict[str, int] = {}
        for d in self.dials:
            found = d.value(self.sheet)
            if found is not None:
                out[d.key] = found
        return out

    def tuned(self, values: Mapping[str, JSONValue], name: str | None = None) -> JSONObject:
        """A copy of the sheet with the dials set to ``values`` (by key; the others as
        stored) and called ``name`` if given; :class:`RulesError` naming an unknown dial
        (and the known ones) or a value out of its bounds."""
        sheet = copy.deepcopy(self.sheet)
        known = {d.key: d for d in self.dials}
        for key, value in values.items():
            dial = known.get(key)
            if dial is None:
                listed = ", ".join(known) or "none"
                raise RulesError(f"{self.name} has no number {key!r} to change; known: {listed}")
            dial.set(sheet, value)  # type: ignore[arg-type]  # checked there, with its words
        if name is not None:
            sheet["name"] = name
        return sheet

    def data(self, *, sheet: bool = True) -> JSONObject:
        """As JSON (the page's and the API's listing): every field (the sheet too, unless
        ``sheet`` is false), each dial with its value on this sheet and its bounds."""
        found: JSONObject = {
            "id": self.id,
            "name": self.name,
            "line": self.line,
            "where": self.where,
            "from_text": self.from_text,
            "notes": list(self.notes),
            "dials": [
                {
                    "key": d.key,
                    "label": d.label,
                    "value": d.value(self.sheet),
                    "ge": d.low(self.sheet),
                    "le": d.le,
                }
                for d in self.dials
            ],
        }
        if sheet:
            found["sheet"] = copy.deepcopy(self.sheet)
        return found


@dataclass(frozen=True)
class Bestiary:
    """A game's entries by id, in the order its file lists them."""

    package: str
    entries: Mapping[str, Entry]

    def entry(self, name: str) -> Entry:
        """The entry called ``name`` (its id or its name, any case); :class:`RulesError`
        listing the known ones."""
        key = name.strip().lower()
        for entry in self.entries.values():
            if key in (entry.id, entry.name.lower()):
                return entry
        known = ", ".join(self.entries) or "none"
        raise RulesError(f"no adversary {name!r} in the bestiary; known: {known}")


def _at(data: JSONValue, path: str) -> JSONValue:
    """The value at a dotted path (``None`` where there is none)."""
    node = data
    for step in path.split("."):
        if isinstance(node, dict):
            node = node.get(step)
        elif isinstance(node, list) and step.isdigit() and int(step) < len(node):
            node = node[int(step)]
        else:
            return None
    return node


def _put(data: JSONObject, path: str, value: int) -> None:
    """Set the value at a dotted path, making the objects on the way."""
    *steps, last = path.split(".")
    node: JSONValue = data
    for step in steps:
        if isinstance(node, list) and step.isdigit() and int(step) < len(node):
            node = node[int(step)]
        elif isinstance(node, dict):
            node = node.setdefault(step, {})
        else:
            raise RulesError(f"the sheet has no {path!r} to change")
    if isinstance(node, list) and last.isdigit() and int(last) < len(node):
        node[int(last)] = value
    elif isinstance(node, dict):
        node[last] = value
    else:
        raise RulesError(f"the sheet has no {path!r} to change")


def _read(package: str) -> object:
    try:
        found = files(package) / "data" / "bestiary.json"
    except (ModuleNotFoundError, TypeError, ValueError):
        return None
    if not found.is_file():
        return None
    try:
        data: object = json.loads(found.read_text("utf-8"))
    except (OSError, ValueError) as e:
        raise RulesError(f"{package} data/bestiary.json: not readable JSON ({e})") from None
    return data


@cache
def bestiary(package: str) -> Bestiary:
    """The bestiary of the game package ``package`` (read once; empty when it has no
    ``data/bestiary.json``). :class:`RulesError` names what is malformed."""
    data = _read(package)
    if data is None:
        return Bestiary(package, {})
    where = f"{package} data/bestiary.json"
    if not isinstance(data, dict) or not isinstance(data.get("entries"), dict):
        raise RulesError(f"{where}: an object with 'dials' and 'entries' expected")
    common = load_record(_Dials, {"dials": data.get("dials", [])}, rule=where).dials
    books = shelf(package)
    entries: dict[str, Entry] = {}
    for key, raw in data["entries"].items():
        if not isinstance(raw, dict):
            raise RulesError(f"{where}: {key}: an object expected")
        told = {k: v for k, v in raw.items() if k != "sheet"}
        stored = load_record(_Stored, told, rule=f"{where} {key}")
        sheet = raw.get("sheet")
        if stored.example:
            sheet = books.sheets.get(books.key(stored.example))
        if not isinstance(sheet, dict) or (raw.get("sheet") is not None) == bool(stored.example):
            raise RulesError(f"{where}: {key}: give either a 'sheet' object or an 'example' id")
        sheet = copy.deepcopy(sheet)
        dials = common if stored.dials is None else stored.dials
        fits = tuple(d for d in dials if d.value(sheet) is not None)
        entries[key] = Entry(
            key,
            stored.name,
            stored.line,
            stored.where,
            stored.from_text,
            sheet,
            stored.notes,
            fits,
        )
    return Bestiary(package, entries)
