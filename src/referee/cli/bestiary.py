"""``referee GAME bestiary``: the game's adversaries and templates, as a table seats them.

Every game's group has it (:func:`referee.cli.presets.add_generic_commands`): each entry
with what it is, where it comes from, whether the game's rules accept its sheet, and the
numbers a referee may change before seating it (``referee table char bestiary``).
"""

from __future__ import annotations

import click

from referee.cli.common import console, emit_json, handle_errors
from referee.systems.base import get
from referee.systems.bestiary import Entry


def lines(entry: Entry) -> list[str]:
    """One entry in words: its id and name, what it is, where it comes from, its
    numbers with their bounds, and the text's discrepancies."""
    numbers = ", ".join(
        f"{d['label']} {d['value']} ({d['ge']} to {d['le']}; key {d['key']})"
        for d in entry.data()["dials"]  # type: ignore[union-attr]
        if isinstance(d, dict)
    )
    out = [
        f"{entry.id}: {entry.name} - {entry.line}",
        f"  {entry.where}" + (" (the rule text's)" if entry.from_text else ""),
    ]
    out += [f"  numbers: {numbers}"] if numbers else []
    out += [f"  the rules do not accept it as the text gives it: {n}" for n in entry.notes]
    return out


def bestiary_command(game: str) -> click.Command:
    """``bestiary [ENTRY] [--json]``: every entry of the game's bestiary, or one."""

    @click.command("bestiary")
    @click.argument("entry", required=False)
    @click.option(
        "--json", "as_json", is_flag=True, help="Print machine-readable JSON instead of text."
    )
    @handle_errors
    def bestiary(entry: str | None, as_json: bool) -> None:
        """The game's adversaries and templates (ENTRY: one of them, by id or name), each
        with where it comes from and the numbers a referee changes before seating it with
        `referee table char bestiary`."""
        rules = get(game)
        chosen = [rules.adversary(entry)] if entry else list(rules.bestiary().values())
        if as_json:
            emit_json([e.data() for e in chosen])
            return
        for e in chosen:
            for line in lines(e):
                console.print(line)

    return bestiary
