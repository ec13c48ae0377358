"""Variants of one check, as a game declares them for the analysis (issue 36).

Each game's ``variants.py`` declares ``VARIANTS``, a :class:`CheckVariants`: which
variants of its check are compared side by side (Mnemonic's randomizers, Mneme CE's
Advantage and Disadvantage, ARM's pushes, Mongrel's pools), the whole-number
statistic read from each result (the one the game shows), the main number a curve
sweeps, and the parameters a request may set. The analysis
(:mod:`referee.analysis.compare`) asks the game's ruleset for each variant's exact
odds; what succeeds is the plan's own word (:meth:`~referee.systems.plan.Plan.succeeds`),
never restated here. Nothing outside the games asks which game it is.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from referee.errors import RulesError

if TYPE_CHECKING:
    from referee.systems.base import Action, Ruleset

OptionsT = TypeVar("OptionsT")

Params = Mapping[str, object]
"""A request's parameters by name (from ``-p NAME=VALUE`` or a page's query)."""


@dataclass(frozen=True)
class Variant:
    """One variant of the check: its label, the game's action, the table's options it is
    rolled under and, if it needs one, the state it is rolled in (none: a new table)."""

    label: str
    action: Action
    options: object
    state: object | None = None


@dataclass(frozen=True)
class Variants:
    """What one request compares: a title in the game's words and the variants."""

    title: str
    variants: tuple[Variant, ...]


@dataclass(frozen=True)
class CheckVariants(Generic[OptionsT]):
    """How a game's check is compared (see the module text).

    ``build(rules, params, x, options)`` gives the variants for ``params`` under the
    table's ``options`` (``x``: the swept number's value on a curve, else ``None``);
    ``read`` turns one value the odds report into the statistic named ``stat``;
    ``x`` names the number a curve sweeps over ``xs``."""

    stat: str
    x: str
    xs: range
    build: Callable[[Ruleset[Any, Any, OptionsT], Params, int | None, OptionsT], Variants]
    read: Callable[[Hashable], int]


def number(value: Hashable) -> int:
    """A whole-number result as the statistic (a check total, an Effect)."""
    if isinstance(value, int):
        return int(value)
    raise RulesError(f"not a number: {value!r}")


def whole(params: Params, name: str, default: int) -> int:
    """The parameter ``name`` as a whole number (``default`` if not given)."""
    value = params.get(name, default)
    try:
        if isinstance(value, int | float | str):
            return int(value)
    except (ValueError, OverflowError):
        pass
    raise RulesError(f"{name} must be a whole number, not {value!r}")


def listed(params: Params, name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """The parameter ``name`` as a list of words (a list, or text split at commas)."""
    value = params.get(name)
    if value is None:
        return default
    items = tuple(str(v).strip() for v in (value if isinstance(value, list | tuple) else [value]))
    out: list[str] = []
    for item in items:
        out += [p.strip() for p in item.split(",") if p.strip()]
    return tuple(out)


def chosen(params: Params, name: str, known: tuple[str, ...], what: str) -> tuple[str, ...]:
    """:func:`listed`, each word one of ``known`` (all of them if none is given)."""
    words = listed(params, name, known)
    for word in words:
        if word not in known:
            raise RulesError(f"unknown {what} {word!r}; known: {', '.join(known)}")
    return words
