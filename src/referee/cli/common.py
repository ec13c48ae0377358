"""What every command shares: one-line errors, JSON output, hand-entered faces."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console

from referee.dice.roller import ManualRoller, Roller, SeededRoller, SystemRoller, parse_faces
from referee.errors import DiceError, Problem, RulesError

P = ParamSpec("P")
R = TypeVar("R")

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

JSON_OPTION = typer.Option(False, "--json", help="Print machine-readable JSON instead of text.")
FACES_HELP = (
    "Faces rolled on physical dice, e.g. 6,3,1,1: used instead of the roller and "
    "checked against the dice this roll needs."
)
SEED_HELP = "Seed for a reproducible roll (default: the system's secure generator)."
FACES_OPTION: Any = typer.Option(None, "--faces", help=FACES_HELP)
SEED_OPTION: Any = typer.Option(None, "--seed", help=SEED_HELP)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print one clear line to stderr and exit non-zero."""
    err_console.print(f"error: {message}", markup=False, soft_wrap=True)
    raise typer.Exit(code)


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn any :class:`RulesError` (bad input, illegal action) into one line on stderr."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except RulesError as e:
            fail(str(e))
        except OSError as e:
            fail(f"{e.strerror or e}: {e.filename}" if e.filename else str(e))

    return wrapper


def emit_json(data: Any) -> None:
    """Write JSON to stdout (sorted keys off: the order is part of the meaning)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def faces_option(text: str | None) -> tuple[int, ...] | None:
    """Parse a ``--faces`` value (``"6,3,1,1"``); ``None`` when not given."""
    return None if text is None else parse_faces(text)


def make_roller(faces: Sequence[int] | None, seed: int | None) -> Roller:
    """Hand-entered faces, else a seeded roller, else the system roller."""
    if faces is not None:
        return ManualRoller(faces)
    if seed is not None:
        return SeededRoller(seed)
    return SystemRoller()


def write_json_file(path: str, data: Any) -> None:
    """Write JSON to ``path``; a clear :class:`RulesError` if the file cannot be written."""
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    except OSError as e:
        raise RulesError(f"cannot write {path}: {e.strerror or e}") from None


def report_problems(
    problems: Sequence[Problem],
    *,
    as_json: bool,
    valid_text: str,
    extra: dict[str, Any] | None = None,
) -> None:
    """Print a validator's findings (every problem, or ``valid_text``); exit 1 if any.

    JSON: ``{"valid": bool, "problems": [{"rule", "field", "message", "value"}], **extra}``.
    """
    if as_json:
        from referee.systems.base import problem_data

        emit_json(
            {"valid": not problems, "problems": [problem_data(p) for p in problems]} | (extra or {})
        )
    elif problems:
        for p in problems:
            console.print(str(p), markup=False)
    else:
        console.print(valid_text, markup=False)
    if problems:
        raise typer.Exit(1)


def all_faces_used(roller: Roller) -> None:
    """Typed-in faces beyond what the roll needed are an error, never silently dropped."""
    left = tuple(getattr(roller, "remaining", ()))
    if roller.kind == "manual" and left:
        raise DiceError(f"{len(left)} face(s) more than this roll needs: {list(left)}")


def load_json_file(path: str) -> Any:
    """Read a JSON file; a clear :class:`RulesError` if it is missing or malformed."""
    try:
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
