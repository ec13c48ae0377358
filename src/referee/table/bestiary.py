"""Seating adversaries from a game's bestiary at a live table, in one request.

The referee picks an entry of the game's bestiary (:mod:`referee.systems.bestiary`), how
many, a name pattern and the numbers they change before seating (the entry's dials). Each
adversary is seated as the referee's character (no player owns it), so under the table's
sheets setting its sheet is the referee's alone: the others read its name and its
tracker. Everything that can refuse is checked before the first one is written (the
referee's role, the entry, the count, the numbers, the names, every rule the sheet
breaks); each is then seated by :meth:`~referee.table.service.TableService.add_character`,
which checks again on the table as it is then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from referee.errors import RulesError
from referee.systems.base import JSONObject, JSONValue, slug
from referee.systems.bestiary import MAX_COUNT
from referee.table.names import check_name

if TYPE_CHECKING:
    from referee.table.service import Done, TableService
    from referee.table.state import TableState

__all__ = ["names_for", "seat"]


def names_for(pattern: str, count: int, taken: Sequence[str]) -> list[str]:
    """``count`` names from ``pattern`` that nobody at the table has (``taken``: the
    names and ids seated, any case): ``#`` in the pattern is the number (``"Raider #"``),
    else the number follows it (``"Raider 1"``, ``"Raider 2"``...), the first numbers
    free; one adversary whose plain name is free keeps it.

    Example::

        >>> names_for("Raider", 3, ["Raider 2"])
        ['Raider 1', 'Raider 3', 'Raider 4']
        >>> names_for("Wolf", 1, []), names_for("No. # guard", 2, [])
        (['Wolf'], ['No. 1 guard', 'No. 2 guard'])
    """
    base = check_name(pattern, "the name pattern")
    used = {t.lower() for t in taken}

    def free(name: str) -> bool:
        return name.lower() not in used and slug(name) not in used

    if count == 1 and "#" not in base and free(base):
        return [base]
    out: list[str] = []
    n = 0
    while len(out) < count:
        n += 1
        name = base.replace("#", str(n)) if "#" in base else f"{base} {n}"
        if free(name):
            out.append(check_name(name, "an adversary's name"))
    return out


def _taken(ts: TableState) -> list[str]:
    """Every seated character's name and id (the referee sees them all)."""
    out = list(ts.state.characters)
    for seat in ts.state.characters.values():
        name = getattr(getattr(seat, "sheet", None), "name", None)
        if isinstance(name, str):
            out.append(name)
    return out


def prepare(
    ts: TableState,
    entry: str,
    count: int,
    name: str | None,
    dials: Mapping[str, JSONValue],
    force: bool,
) -> list[tuple[str, JSONObject]]:
    """The names and sheets to seat, every refusal raised first (:class:`RulesError`
    naming what and where): the entry, the count, each number, each name, and the rules
    each sheet breaks unless ``force``."""
    rules = ts.ruleset
    found = rules.adversary(entry)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise RulesError(f"count: from 1 to {MAX_COUNT} adversaries at once (got {count!r})")
    out: list[tuple[str, JSONObject]] = []
    for each in names_for(name or found.name, count, _taken(ts)):
        sheet = found.tuned(dials, each)
        loaded = rules.load_sheet(sheet)
        problems = rules.validate(loaded, ts.options, ts.state)
        if problems and not force:
            listed = "; ".join(str(p) for p in problems)
            raise RulesError(
                f"{each}: the sheet breaks {len(problems)} rule(s): {listed} "
                "(the referee may seat it anyway, marked, with force)"
            )
        out.append((each, rules.dump_sheet(loaded)))
    return out


def seat(
    service: TableService,
    ref: str,
    entry: str,
    *,
    count: int = 1,
    name: str | None = None,
    dials: Mapping[str, JSONValue] | None = None,
    force: bool = False,
    by: str | None = None,
) -> list[Done]:
    """Seat ``count`` adversaries of the bestiary's ``entry`` as the referee's characters
    (``by``: a referee, or the local operator), named from ``name`` (default: the entry's
    name, numbered) with the numbers in ``dials`` changed; what each seating appended."""
    from referee.table.service import Forbidden

    ts = service.load(ref)
    if by is not None and ts.role_of(by) != "referee":
        raise Forbidden("only the referee seats adversaries from the bestiary")
    chosen = prepare(ts, entry, count, name, dials or {}, force)
    return [
        service.add_character(ref, sheet, owner=None, cid=slug(each), by=by, force=force)
        for each, sheet in chosen
    ]
