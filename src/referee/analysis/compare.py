"""Variants of one check side by side, in every game, from the game's own exact odds.

Each game declares its variants of a check in its ``variants.py``
(:mod:`referee.systems.variants`): actions (and options) of its ruleset, the
whole-number statistic read from every result (the same number the game shows), and
the main number a curve sweeps. :func:`compare` asks the ruleset for each variant's
exact odds; what succeeds is what the variant's plan says
(:meth:`~referee.systems.plan.Plan.succeeds`). The games' declarations today:

* Mnemonic: the check total (0 or more succeeds) for each of the six
  randomizers, at one Aptitude and Chances;
* Mneme CE: the Effect (0 or more succeeds) with Disadvantage, plain and
  Advantage, at one Difficulty;
* ARM: the result (0 or more succeeds) plain, pushed always, pushed when needed,
  at one total and difficulty;
* Mongrel: the Effect (0 is a failure) for each pool size, at one target number
  rolled under or over.

:func:`curve` sweeps the check's main number instead (Aptitude, Difficulty,
total − difficulty, target number) and gives P(success) per variant.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.dice.odds import Distribution
from referee.errors import RulesError
from referee.systems.base import Ruleset, get, names
from referee.systems.variants import CheckVariants, Variant, Variants

from .errors import AnalysisError


@dataclass
class Comparison:
    """Exact distributions of one statistic, one per variant (see the module text)."""

    game: str
    title: str
    stat: str
    success: int
    """The smallest statistic that succeeds (as the variants' plans say)."""
    series: dict[str, Distribution[int]] = field(default_factory=dict)
    won: dict[str, Fraction] = field(default_factory=dict)
    """P(success) per variant, from its plan (:meth:`~referee.systems.plan.Plan.succeeds`)."""

    def values(self) -> list[int]:
        """Every value any variant can take, ascending."""
        return sorted({v for d in self.series.values() for v in d.outcomes()})

    def table(self, show: str = "exact") -> list[list[Fraction]]:
        """One row per value, one column per variant: P(exact), P(at least) or P(at most)."""
        fn = _SHOW.get(show)
        if fn is None:
            raise AnalysisError(f"show must be one of {', '.join(_SHOW)}, not {show!r}")
        return [[fn(d, v) for d in self.series.values()] for v in self.values()]

    def p_success(self) -> dict[str, Fraction]:
        """P(success) per variant: its plan's (:attr:`won`), else P(statistic >= the
        success threshold)."""
        return {k: self.won.get(k, d.at_least(self.success)) for k, d in self.series.items()}

    def table_data(self, show: str = "at-least") -> dict[str, Any]:
        """The table as text shows it (``{"title", "columns", "rows", "justify"}``): one
        row per value with P(exact / at least / at most) per variant in percent, then
        P(success)."""
        rows: list[list[Any]] = [
            [v, *(f"{float(p) * 100:.2f}%" if p else "-" for p in row)]
            for v, row in zip(self.values(), self.table(show), strict=True)
        ]
        rows.append(["success", *(f"{float(p) * 100:.2f}%" for p in self.p_success().values())])
        title = f"{self.title}: P({show.replace('-', ' ')})"
        columns = [self.stat, *self.series]
        return {
            "title": title,
            "title_justify": "left",
            "columns": columns,
            "rows": rows,
            "justify": "right",
        }

    def data(self) -> dict[str, Any]:
        """JSON: every variant's exact, at-least and at-most probabilities per value."""
        out: dict[str, Any] = {
            "game": self.game,
            "title": self.title,
            "stat": self.stat,
            "success_at": self.success,
            "p_success": {k: _frac(v) for k, v in self.p_success().items()},
            "variants": {},
        }
        for label, d in self.series.items():
            out["variants"][label] = {
                str(v): {
                    "exact": _frac(d.probability(v)),
                    "at_least": _frac(d.at_least(v)),
                    "at_most": _frac(d.at_most(v)),
                }
                for v in d.outcomes()
            }
        return out

    def csv(self) -> str:
        """CSV: variant, value, exact fraction, probability, at least, at most."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["variant", self.stat, "exact", "probability", "at_least", "at_most"])
        for label, d in self.series.items():
            for v in d.outcomes():
                p = d.probability(v)
                w.writerow(
                    [
                        label,
                        v,
                        f"{p.numerator}/{p.denominator}",
                        f"{float(p):.10g}",
                        f"{float(d.at_least(v)):.10g}",
                        f"{float(d.at_most(v)):.10g}",
                    ]
                )
        return buf.getvalue()


def _frac(x: Fraction) -> dict[str, Any]:
    return {"exact": f"{x.numerator}/{x.denominator}", "value": float(x)}


_SHOW: dict[str, Callable[[Distribution[int], int], Fraction]] = {
    "exact": lambda d, v: d.probability(v),
    "at-least": lambda d, v: d.at_least(v),
    "at-most": lambda d, v: d.at_most(v),
}


@dataclass
class Curve:
    """P(success) of each variant over a range of the check's main number."""

    game: str
    title: str
    x: str
    xs: list[int]
    series: dict[str, list[Fraction]]

    def data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "title": self.title,
            "x": self.x,
            "xs": self.xs,
            "p_success": {k: [_frac(p) for p in v] for k, v in self.series.items()},
        }

    def table_data(self) -> dict[str, Any]:
        """The table as text shows it: one row per value of :attr:`x`, P(success) per
        variant in percent."""
        rows = [
            [x, *(f"{float(ps[i]) * 100:.1f}%" for ps in self.series.values())]
            for i, x in enumerate(self.xs)
        ]
        columns = [self.x, *self.series]
        return {
            "title": self.title,
            "title_justify": "left",
            "columns": columns,
            "rows": rows,
            "justify": "right",
        }

    def csv(self) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["variant", self.x, "exact", "p_success"])
        for label, ps in self.series.items():
            for x, p in zip(self.xs, ps, strict=True):
                w.writerow([label, x, f"{p.numerator}/{p.denominator}", f"{float(p):.10g}"])
        return buf.getvalue()


# ---------------------------------------------------------------------------
# each game's variants, as the game declares them


def _declared(game: str) -> tuple[str, Ruleset[Any, Any, Any], CheckVariants[Any]]:
    """The game's name, ruleset and declared check variants; :class:`AnalysisError` naming
    the games that declare some."""
    key = game.strip().lower()
    rules = get(key) if key in names() else None
    declared = None if rules is None else rules.variants()
    if rules is None or declared is None:
        known = ", ".join(n for n in names() if get(n).variants() is not None)
        raise AnalysisError(f"unknown game {game!r}; known: {known}")
    return key, rules, declared


def _variants(
    rules: Ruleset[Any, Any, Any],
    declared: CheckVariants[Any],
    params: Mapping[str, Any],
    x: int | None,
    options: Any,
) -> Variants:
    """The variants the game builds for ``params`` under ``options`` (a table's house
    rules; default: the game's defaults); a refused parameter as :class:`AnalysisError`."""
    opts = rules.options_type() if options is None else options
    try:
        return declared.build(rules, params, x, opts)
    except AnalysisError:
        raise
    except RulesError as e:
        raise AnalysisError(str(e)) from None


def _odds(
    rules: Ruleset[Any, Any, Any], declared: CheckVariants[Any], v: Variant
) -> tuple[Distribution[int], Fraction, dict[int, bool | None]]:
    """The variant's statistic's exact distribution, its chance of success (what its plan
    says succeeds, :meth:`~referee.systems.plan.Plan.succeeds`) and whether each value of
    the statistic succeeds."""
    state = v.state if v.state is not None else rules.initial_state(v.options)
    plan = rules.planned(v.action, state, v.options)
    reported = plan.odds()
    won = 0
    verdicts: dict[int, bool | None] = {}
    for value, weight in reported.items():
        ok, stat = plan.succeeds(value), declared.read(value)
        won += weight if ok else 0
        verdicts[stat] = ok if verdicts.get(stat, ok) == ok else None
    return reported.map(declared.read), Fraction(won, reported.total), verdicts


def _threshold(verdicts: Mapping[int, bool | None]) -> int:
    """Where success starts on the statistic: just past the largest value that fails
    (the smallest that succeeds if none fails)."""
    fails = [stat for stat, ok in verdicts.items() if ok is False]
    if fails:
        return max(fails) + 1
    return min(verdicts, default=0)


def compare(game: str, params: Mapping[str, Any] | None = None, options: Any = None) -> Comparison:
    """The exact distribution of the game's statistic for each variant of one check,
    under ``options`` (a table's house rules; default: the game's defaults)."""
    key, rules, declared = _declared(game)
    built = _variants(rules, declared, params or {}, None, options)
    seen: dict[int, bool | None] = {}
    series: dict[str, Distribution[int]] = {}
    won: dict[str, Fraction] = {}
    for v in built.variants:
        series[v.label], won[v.label], verdicts = _odds(rules, declared, v)
        seen.update(verdicts)
    if not any(seen.values()):  # nothing here succeeds: where success starts, at the ends
        for x in (declared.xs[0], declared.xs[-1]):  # of the main number's range
            for v in _variants(rules, declared, params or {}, x, options).variants:
                seen.update(_odds(rules, declared, v)[2])
    return Comparison(key, built.title, declared.stat, _threshold(seen), series, won)


def curve(game: str, params: Mapping[str, Any] | None = None, options: Any = None) -> Curve:
    """P(success) of each variant over the check's main number (the game's declared
    ``x`` and ``xs``), under ``options`` as :func:`compare`."""
    key, rules, declared = _declared(game)
    series: dict[str, list[Fraction]] = {}
    title = ""
    for x in declared.xs:
        built = _variants(rules, declared, params or {}, x, options)
        title = built.title
        for v in built.variants:
            series.setdefault(v.label, []).append(_odds(rules, declared, v)[1])
    base = title.split(",")[0]
    return Curve(key, f"{base}: P(success)", declared.x, list(declared.xs), series)
