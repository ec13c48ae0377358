"""A character sheet as people read it: one presentation shared by every game.

Each game lays its sheet out the way its own rule text does (its
``present.py``, behind :meth:`referee.systems.base.Ruleset.sheet_view`); the
web card, the print stylesheet and the JSON API show the result without
knowing any game. A :class:`SheetView` is a title and :class:`Section` values;
a section holds labelled :class:`Row` values, a :class:`Grid` (a small table:
Expertise with levels, weapons with their damage), or both. Every value is
already text for people ("+1", "4 / 6", "Hurt"), never a field name or a
program's repr.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from referee.systems.outcome import JSONObject, JSONValue


@dataclass(frozen=True)
class Roll:
    """What a sheet entry rolls when it is clicked: one of the game's actions (by its
    name) and the fields the entry fills in (dotted paths into a nested record, as the
    action's form names them: ``check.skill``), the character whose sheet it is being the
    actor. Each game declares these in its ``present.py``; the web edge reads them for
    every game alike (a sheet entry becomes a button that opens the action filled in)."""

    action: str
    fields: tuple[tuple[str, JSONValue], ...]
    aims: bool = False
    """The roll is aimed at someone (a weapon's attack): a page opening it with no target
    yet starts at the first other character, shown with its odds before anything rolls."""

    def data(self) -> JSONObject:
        """The roll as JSON: ``{"action": ..., "fields": {...}}`` (and ``"aims": true``)."""
        out: JSONObject = {"action": self.action, "fields": dict(self.fields)}
        if self.aims:
            out["aims"] = True
        return out


def rolls(
    action: str, field_name: str, values: Iterable[str | None], *, aims: bool = False
) -> tuple[Roll | None, ...]:
    """One :class:`Roll` of ``action`` per value, filling ``field_name`` with it (``None``:
    that entry rolls nothing); ``aims``: each is aimed at someone (:attr:`Roll.aims`)."""
    return tuple(None if v is None else Roll(action, ((field_name, v),), aims) for v in values)


@dataclass(frozen=True)
class Row:
    """One labelled value: ``Spirit`` - ``6``; ``note`` says more (how it is derived);
    ``roll``, what clicking it rolls (:class:`Roll`), if anything."""

    label: str
    value: str
    note: str = ""
    roll: Roll | None = None

    def data(self) -> JSONObject:
        """The row as JSON."""
        out: JSONObject = {"label": self.label, "value": self.value}
        if self.note:
            out["note"] = self.note
        if self.roll is not None:
            out["roll"] = self.roll.data()
        return out


@dataclass(frozen=True)
class Grid:
    """A small table: column headings and rows of text cells (as many as headings).

    ``rolls`` says what clicking a row rolls, one entry per row (its first cell is the
    button; ``None``: that row rolls nothing); ``cell_rolls`` the same for single cells,
    as ``(row, column, roll)`` (Mongrel's attribute pairs: two rollable cells a row)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    rolls: tuple[Roll | None, ...] = ()
    cell_rolls: tuple[tuple[int, int, Roll], ...] = ()

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"a grid row of {len(row)} cells under {len(self.columns)}")
        if self.rolls and len(self.rolls) != len(self.rows):
            raise ValueError(f"{len(self.rolls)} rolls for {len(self.rows)} grid rows")

    def roll_at(self, row: int, column: int) -> Roll | None:
        """What the cell at ``row``, ``column`` rolls, if anything."""
        for r, c, roll in self.cell_rolls:
            if (r, c) == (row, column):
                return roll
        if column == 0 and row < len(self.rolls):
            return self.rolls[row]
        return None

    def every_roll(self) -> tuple[Roll, ...]:
        """Every roll of the grid, rows first."""
        found = [r for r in self.rolls if r is not None]
        return (*found, *(roll for _, _, roll in self.cell_rolls))

    def data(self) -> JSONObject:
        """The grid as JSON (with ``rolls``, each cell's roll by ``[row, column]``, when
        any)."""
        out: JSONObject = {"columns": list(self.columns), "rows": [list(r) for r in self.rows]}
        found: list[JSONValue] = []
        for i, row in enumerate(self.rows):
            for j in range(len(row)):
                roll = self.roll_at(i, j)
                if roll is not None:
                    found.append({"row": i, "column": j, **roll.data()})
        if found:
            out["rolls"] = found
        return out


@dataclass(frozen=True)
class Section:
    """One box of the sheet (Identity, Expertise, Weapons...): its rows, its grid, or both,
    and an optional line of text under the title."""

    title: str
    rows: tuple[Row, ...] = ()
    grid: Grid | None = None
    note: str = ""

    def data(self) -> JSONObject:
        """The section as JSON."""
        out: JSONObject = {"title": self.title, "rows": [r.data() for r in self.rows]}
        if self.grid is not None:
            out["grid"] = self.grid.data()
        if self.note:
            out["note"] = self.note
        return out

    def values(self) -> dict[str, str]:
        """Each row's value by its label (what a reader looks up: "Toughness" -> "5")."""
        return {r.label: r.value for r in self.rows}

    def table(self) -> dict[str, tuple[str, ...]]:
        """The grid's rows by their first cell; empty without a grid."""
        return {row[0]: tuple(row[1:]) for row in (self.grid.rows if self.grid else ())}

    def every_roll(self) -> tuple[Roll, ...]:
        """Every roll the section's rows and grid declare."""
        own = tuple(r.roll for r in self.rows if r.roll is not None)
        return (*own, *(self.grid.every_roll() if self.grid else ()))

    @property
    def empty(self) -> bool:
        """Whether the section shows nothing (no rows, no grid rows, no note)."""
        return not self.rows and (self.grid is None or not self.grid.rows) and not self.note


@dataclass(frozen=True)
class SheetView:
    """A whole sheet: whose it is, what it is (``kind``: "Demon, House Mekag"), its
    sections in the order the game's own sheet has them, and the rule text's section
    the layout follows (``source``)."""

    name: str
    sections: tuple[Section, ...]
    kind: str = ""
    source: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    def data(self) -> JSONObject:
        """The sheet as JSON (the API's ``sheet_view``)."""
        return {
            "name": self.name,
            "kind": self.kind,
            "source": self.source,
            "sections": [s.data() for s in self.sections if not s.empty],
            "notes": list(self.notes),
        }

    def every_roll(self) -> tuple[Roll, ...]:
        """Every roll the sheet declares (what its buttons roll)."""
        return tuple(r for s in self.sections for r in s.every_roll())

    def section(self, title: str) -> Section:
        """The section called ``title``; :class:`KeyError` naming those there are."""
        for s in self.sections:
            if s.title == title:
                return s
        raise KeyError(
            f"no section {title!r}; sections: {', '.join(s.title for s in self.sections)}"
        )


# ---------------------------------------------------------------------------
# helpers the games share


def signed(value: int) -> str:
    """A modifier as people write it: ``+2``, ``-1``, ``+0``."""
    return f"{value:+d}"


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def words(name: str) -> str:
    """A field name in words: ``rate_of_attack`` -> ``Rate of attack``, ``talentList`` ->
    ``Talent list`` (text that is already words is kept, first letter raised)."""
    text = _CAMEL.sub(" ", name.replace("_", " ").replace("-", " ")).strip()
    text = re.sub(r"\s+", " ", text)
    if text and text == text.lower():
        text = text[0].upper() + text[1:]
    return text


def value_words(value: JSONValue, empty: str = "none") -> str:
    """A JSON value as short text for people (no brackets, no quotes, no ``None``); an
    empty list or mapping reads ``empty``."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(value_words(v, empty) for v in value) or empty
    if isinstance(value, dict):
        inner = ", ".join(f"{words(str(k))} {value_words(v, empty)}" for k, v in value.items())
        return inner or empty
    return str(value)


def rows_of(pairs: Iterable[tuple[str, object]]) -> tuple[Row, ...]:
    """Rows from ``(label, value)`` pairs, each value as text."""
    return tuple(Row(label, str(value)) for label, value in pairs)


def ratings_grid(ratings: Mapping[str, int], heading: str, level: str = "Level") -> Grid:
    """A two-column grid of names and their numbers, in the sheet's order."""
    return Grid((heading, level), tuple((n, str(v)) for n, v in ratings.items()))


def neutral_view(name: str, data: JSONObject) -> SheetView:
    """A sheet no game laid out: every field of its JSON in words, nested records as their
    own sections (the base's default for :meth:`~referee.systems.base.Ruleset.sheet_view`)."""
    plain: list[Row] = []
    sections: list[Section] = []
    for key, value in data.items():
        if key in ("schema", "name"):
            continue
        if (
            isinstance(value, dict)
            and value
            and all(not isinstance(v, dict | list) for v in value.values())
        ):
            sections.append(
                Section(
                    words(key),
                    rows=tuple(Row(words(str(k)), value_words(v)) for k, v in value.items()),
                )
            )
        else:
            plain.append(Row(words(key), value_words(value)))
    return SheetView(name, (Section("Character", tuple(plain)), *sections))
