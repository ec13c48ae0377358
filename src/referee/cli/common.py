"""What every command shares: the shared click options, one-line errors, JSON output,
hand-entered faces."""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import reduce, wraps
from typing import TYPE_CHECKING, Any, Final, NoReturn, ParamSpec, TypeVar

import click

from referee.cli.dice import emit_json as emit_json
from referee.cli.dice import faces_option as faces_option
from referee.cli.dice import make_roller as make_roller
from referee.cli.text import Console
from referee.errors import DiceError, RulesError

P = ParamSpec("P")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:
    from referee.dice.roller import Roller


console = Console()
err_console = Console(stderr=True)


def stacked(*decorators: Callable[[Any], Any]) -> Callable[[F], F]:
    """Several option decorators as one, in the order written (``@stacked(A, B)`` is
    ``@A @B``): the options a family of commands shares, listed once."""
    return lambda func: reduce(lambda done, decorate: decorate(done), reversed(decorators), func)


JSON_OPTION = click.option(
    "--json", "as_json", is_flag=True, help="Print machine-readable JSON instead of text."
)
FACES_HELP = (
    "Faces rolled on physical dice, e.g. 6,3,1,1: used instead of the roller and "
    "checked against the dice this roll needs."
)
SEED_HELP = "Seed for a reproducible roll (default: the system's secure generator)."
FACES_OPTION = click.option("--faces", help=FACES_HELP)
SEED_OPTION = click.option("--seed", type=int, help=SEED_HELP)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print one clear line to stderr and exit non-zero."""
    err_console.print(f"error: {message}")
    raise click.exceptions.Exit(code)


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn any :class:`RulesError` (bad input, illegal action) into one line on stderr."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except RulesError as e:
            fail(str(e))
        except BrokenPipeError:
            raise  # the reader of our output left: not an error (referee.cli.main.run)
        except OSError as e:
            fail(f"{e.strerror or e}: {e.filename}" if e.filename else str(e))

    return wrapper


STDIO: Final = "-"
"""A file argument that means standard input (read) or standard output (written)."""


def write_json_file(path: str, data: Any) -> None:
    """Write JSON to ``path`` (``-``: standard output); a clear :class:`RulesError` if the
    file cannot be written."""
    if path == STDIO:
        emit_json(data)
        return
    try:
        with open(path, "w", encoding="utf-8") as fh:
            emit_json(data, fh)
    except OSError as e:
        raise RulesError(f"cannot write {path}: {e.strerror or e}") from None


def all_faces_used(roller: Roller) -> None:
    """Typed-in faces beyond what the roll needed are an error, never silently dropped."""
    if roller.kind == "manual" and (left := list(getattr(roller, "remaining", ()))):
        raise DiceError(f"{len(left)} face(s) more than this roll needs: {left}")


def load_json_file(path: str) -> Any:
    """Read a JSON file (``-``: standard input); a clear :class:`RulesError` if it is
    missing or malformed."""
    import json

    try:
        if path == STDIO:
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        raise RulesError(f"no such file: {path}") from None
    except json.JSONDecodeError as e:
        raise RulesError(
            f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
        ) from None
    except UnicodeDecodeError:
        raise RulesError(f"{path}: not UTF-8 text") from None


# ---------------------------------------------------------------------------
# the contract at the edge: options, state, actions, outcomes

OPTIONS_HELP = (
    "A file of the table's house rules, as JSON (a game's options; missing ones take "
    "defaults; - reads standard input)."
)
OPTIONS_OPTION = click.option("--options", "options_file", help=OPTIONS_HELP)
STATE_HELP = "A file of the table's state, as JSON (from --save or `referee table show --json`)."
SEAT_HELP = (
    "Seat a character: ID=FILE (a sheet as JSON) or ID=example:NAME (one of the rule "
    "text's example characters; ID=NAME when no file has that name); repeatable."
)


def load_options(ruleset: Any, path: str | None) -> Any:
    """The options in ``path`` (JSON), or the game's defaults when no file is given."""
    if path is None:
        return ruleset.options_type()  # no validation to load (pydantic): a quick start
    return ruleset.load_options(load_json_file(path))


def load_state(
    ruleset: Any, path: str | None, options: Any, seats: Sequence[str] | None = None
) -> Any:
    """The state in ``path`` (or a new table's), with each ``ID=FILE`` / ``ID=example:NAME``
    of ``seats`` seated."""
    state = (
        ruleset.initial_state(options) if path is None else ruleset.load_state(load_json_file(path))
    )
    for spec in seats or ():
        cid, sep, where = spec.partition("=")
        if not sep or not cid.strip() or not where.strip():
            raise RulesError(f"--seat {spec!r}: write ID=FILE or ID=example:NAME")
        state = ruleset.seat(state, cid.strip(), sheet_from(ruleset, where.strip()), options)
    return state


def sheet_from(ruleset: Any, where: str) -> Any:
    """A sheet from a JSON file, or ``example:NAME`` for one of the text's examples (or
    ``NAME`` alone, when no file has that name)."""
    import os.path

    name = where.removeprefix("example:")
    if where == STDIO:
        return ruleset.load_sheet(load_json_file(where))
    if where.startswith("example:"):
        return ruleset.example(name)
    if not os.path.exists(where) and ruleset.examples():
        with contextlib.suppress(RulesError):  # no such example either: say the file is missing
            return ruleset.example(name)
    return ruleset.load_sheet(load_json_file(where))


def outcome_text(outcome: Any, state: Any = None, action: Any = None) -> str:
    """An outcome in the game's words (:meth:`~referee.systems.base.Ruleset.words`), as
    the table's log says it: who did what (``action``, when given) and how it went, then
    its dice by role, modifiers with their sources, numbers and every state change; with
    ``state`` (the table after it), its characters by name."""
    from referee.systems.base import get, outcome_data

    rules = get(outcome.system)
    seated = getattr(state, "characters", None) or {}
    names = {c: str(getattr(s.sheet, "name", "") or c) for c, s in seated.items()}
    name = rules.action_name(action) if action is not None else ""
    fields = rules.action_data(action) if action is not None else {}
    said = rules.words(names).outcome(outcome_data(outcome), name, fields)
    facts = list(said.facts)
    if outcome.manual and said.dice:
        facts[0] += " (entered by hand)"
    return "\n  ".join([said.sentence, *facts])


def print_odds(dist: Any, *, as_json: bool) -> None:
    """An exact distribution of any outcomes: JSON rows ``{"outcome", "probability"}`` with
    reduced fractions, or a table of each outcome's fraction and percentage."""
    from referee.dice.odds import fraction_text
    from referee.systems.base import jsonable

    odds = dist.probabilities().items()
    rows = [[jsonable(o), fraction_text(p), f"{float(p) * 100:.3f}"] for o, p in odds]
    if as_json:
        emit_json([{"outcome": o, "probability": p} for o, p, _ in rows])
    else:
        console.print({"columns": ["outcome", "exact", "%"], "rows": rows, "justify": "right"})


CHANCE = re.compile(r"^-?\d+(/\d+)?$")
"""An exact chance as the odds' JSON writes it (``7/12``, ``0``, ``1``)."""


def _said(key: object) -> str:
    """A key of the odds' JSON as a heading: ``p_success`` -> ``chance of success``."""
    from referee.systems.words import humanize

    text = str(key)
    return "chance of " + humanize(text[2:]) if text.startswith("p_") else humanize(text)


def _chance(value: object) -> str:
    """``7/12 (58.33%)`` for an exact chance, else the value as it is."""
    from fractions import Fraction

    if isinstance(value, str) and CHANCE.match(value):
        return f"{value} ({float(Fraction(value)) * 100:.2f}%)"
    return "none" if value is None else str(value)


def _sides(rows: Sequence[tuple[str, ...]]) -> list[str]:
    """Numbers to the right; a column of words (names, orders of action) to the left."""
    words = any(not CHANCE.match(r[0].lstrip("+")) for r in rows)
    return ["left" if words else "right", "right", "right"]


def odds_lines(data: Mapping[str, Any], title: str = "") -> list[Any]:
    """Any game's odds as its JSON gives them, in lines and tables, the same way for
    every game: a chance as ``chance of success: 7/12 (58.33%)``, a map of chances as a
    table of each value with its exact chance and percentage (a map of maps, a table
    each), a list of records as a table of their fields, anything else ``key: value``."""
    lines: list[Any] = []
    for key, value in data.items():
        if value is None or value == {}:
            continue  # nothing to give (a check that rolls nothing has no chance of success)
        heading = f"{title}: {key}" if title else _said(key)  # a name inside stays as written
        if (
            isinstance(value, Mapping)
            and value
            and all(isinstance(v, Mapping) for v in value.values())
        ):
            for inner, sub in value.items():
                lines += odds_lines({inner: sub}, heading)
        elif isinstance(value, Mapping):
            said = {"True": "yes", "False": "no"}
            rows = [
                (said.get(str(k), str(k)), str(v), _chance(v).partition(" ")[2].strip("()%"))
                for k, v in value.items()
            ]
            columns = (heading, "exact", "%")
            lines.append(
                {"columns": columns, "rows": rows or [("none", "", "")], "justify": _sides(rows)}
            )
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            columns = tuple(dict.fromkeys(k for v in value for k in v))
            cells = [tuple(_chance(v.get(c, "")) for c in columns) for v in value]
            lines.append({"title": heading, "columns": tuple(map(_said, columns)), "rows": cells})
        else:
            lines.append(f"{heading}: {_chance(value)}")
    return lines
