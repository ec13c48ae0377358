"""Variants of one check side by side, in every game, from the game's own exact odds.

Each game names its variants of a check as actions (and options) of its
ruleset; :func:`compare` asks the ruleset for each one's exact odds and reads
one whole-number statistic from every result - the same number the game shows:

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
import dataclasses
import io
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.dice.odds import Distribution
from referee.systems.base import Action, Modifier, get

from .errors import AnalysisError

GAMES = ("mnemonic", "mneme", "arm", "mongrel")
RANDOMIZERS = ("d12", "3d12", "cards", "3cards", "verbal", "verbal-ab")
LEVELS = ("disadvantage", "plain", "advantage")
PUSHES = ("never", "always", "if-needed")


@dataclass(frozen=True)
class Variant:
    """One variant of the check: its label, the game's action and the table's options."""

    label: str
    action: Action
    options: Any
    state: Any = None


@dataclass
class Comparison:
    """Exact distributions of one statistic, one per variant (see the module text)."""

    game: str
    title: str
    stat: str
    success: int
    series: dict[str, Distribution[int]] = field(default_factory=dict)

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
        """P(statistic >= the success threshold) per variant."""
        return {k: d.at_least(self.success) for k, d in self.series.items()}

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
# the games' variants


def _int(params: Mapping[str, Any], name: str, default: int) -> int:
    value = params.get(name, default)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise AnalysisError(f"{name} must be a whole number, not {value!r}") from None


def _list(params: Mapping[str, Any], name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    value = params.get(name)
    if value is None:
        return default
    items = tuple(str(v).strip() for v in (value if isinstance(value, list | tuple) else [value]))
    out: list[str] = []
    for item in items:
        out += [p.strip() for p in item.split(",") if p.strip()]
    return tuple(out)


def _mnemonic(
    params: Mapping[str, Any], x: int | None, base: Any = None
) -> tuple[str, str, list[Variant]]:
    from referee.systems.mnemonic.actions import Check

    rs = get("mnemonic")
    aptitude = _int(params, "aptitude", 6) if x is None else x
    chances = params.get("chances", 0)
    randomizers = _list(params, "randomizers", RANDOMIZERS)
    for r in randomizers:
        if r not in RANDOMIZERS:
            raise AnalysisError(f"unknown randomizer {r!r}; known: {', '.join(RANDOMIZERS)}")
    out = []
    for r in randomizers:
        opts = _with(rs.options_type, base, randomizer=r)
        out.append(Variant(r, Check(aptitude, chances), opts))
    return (
        f"Mnemonic Success Check, Aptitude {aptitude}, Chances {chances}",
        "check total",
        out,
    )


def _mneme(
    params: Mapping[str, Any], x: int | None, base: Any = None
) -> tuple[str, str, list[Variant]]:
    from referee.systems.mneme.actions import Check

    rs = get("mneme")
    difficulty = _int(params, "difficulty", 8) if x is None else x
    bonus = _int(params, "bonus", 0)
    levels = _list(params, "levels", LEVELS)
    opts = _with(rs.options_type, base)
    out = []
    mods = (Modifier(bonus, "bonus", "other"),) if bonus else ()
    for level in levels:
        if level not in LEVELS:
            raise AnalysisError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
        adv, dis = int(level == "advantage"), int(level == "disadvantage")
        action = Check(difficulty=difficulty, modifiers=mods, advantage=adv, disadvantage=dis)
        out.append(Variant(level, action, opts))
    return f"Mneme CE check, 2d6 {bonus:+d} against Difficulty {difficulty}", "Effect", out


def _arm(
    params: Mapping[str, Any], x: int | None, base: Any = None
) -> tuple[str, str, list[Variant]]:
    from referee.systems.arm.actions import Task

    rs = get("arm")
    difficulty = _int(params, "difficulty", 6)
    total = _int(params, "total", 6) if x is None else difficulty + x
    pushes = _list(params, "pushes", PUSHES)
    opts = _with(rs.options_type, base, pushing=True)
    state = rs.seat(rs.initial_state(opts), "roller", rs.examples()["alex"], opts)
    out = []
    for push in pushes:
        if push not in PUSHES:
            raise AnalysisError(f"unknown push {push!r}; known: {', '.join(PUSHES)}")
        action: Action = Task("roller", difficulty, total=total, push=push)  # type: ignore[arg-type]
        out.append(Variant(f"push {push}", action, opts, state))
    return f"ARM task, total {total} against difficulty {difficulty}", "result", out


def _mongrel(
    params: Mapping[str, Any], x: int | None, base: Any = None
) -> tuple[str, str, list[Variant]]:
    from referee.systems.mongrel.actions import Check

    rs = get("mongrel")
    tn = _int(params, "tn", 4) if x is None else x
    identity = _int(params, "identity", 0)
    modes = _list(params, "modes", ("under", "over"))
    dice = [int(d) for d in _list(params, "dice", ("1", "2", "3", "4", "5", "6"))]
    opts = _with(rs.options_type, base)
    out = []
    for mode in modes:
        if mode not in ("under", "over"):
            raise AnalysisError(f"mode must be under or over, not {mode!r}")
        for n in dice:
            action = Check(n, tn, mode, identity)  # type: ignore[arg-type]
            out.append(Variant(f"{n}d6 {mode}", action, opts))
    return f"Mongrel task roll against TN {tn} (Identity {identity})", "Effect", out


def _with(kind: Callable[..., Any], base: Any, **fixed: Any) -> Any:
    """The options of a variant: a table's own house rules (``base``; default: the game's
    defaults) with what the variant itself sets (``fixed``: the randomizer compared, the
    pushing that ARM's push variants need)."""
    if base is None:
        return kind(**fixed)
    return dataclasses.replace(base, **fixed) if fixed else base


Variants = Callable[[Mapping[str, Any], int | None, Any], tuple[str, str, list[Variant]]]

VARIANTS: dict[str, Variants] = {
    "mnemonic": _mnemonic,
    "mneme": _mneme,
    "arm": _arm,
    "mongrel": _mongrel,
}


def _number(value: Hashable) -> int:
    """A whole-number result (Mnemonic's CheckResult and Mneme's Effect are ints)."""
    if isinstance(value, int):
        return int(value)
    raise AnalysisError(f"not a number: {value!r}")


STATS: dict[str, Callable[[Hashable], int]] = {
    "mnemonic": _number,
    "mneme": _number,
    "arm": lambda r: _number(getattr(r, "result", r)),  # a pushed roll: its result
    "mongrel": lambda r: _number(getattr(r, "effect", 0)),
}
SUCCESS = {"mnemonic": 0, "mneme": 0, "arm": 0, "mongrel": 1}
"""The smallest statistic that is a success."""

CURVES: dict[str, tuple[str, range]] = {
    "mnemonic": ("aptitude", range(0, 13)),
    "mneme": ("difficulty", range(2, 17)),
    "arm": ("total - difficulty", range(-7, 8)),
    "mongrel": ("tn", range(1, 8)),
}


def _known(game: str) -> str:
    key = game.strip().lower()
    if key not in VARIANTS:
        raise AnalysisError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    return key


def _odds(game: str, v: Variant) -> Distribution[int]:
    rs = get(game)
    state = v.state if v.state is not None else rs.initial_state(v.options)
    return rs.odds(v.action, state, v.options).map(STATS[game])


def compare(game: str, params: Mapping[str, Any] | None = None, options: Any = None) -> Comparison:
    """The exact distribution of the game's statistic for each variant of one check,
    under ``options`` (a table's house rules; default: the game's defaults)."""
    key = _known(game)
    title, stat, variants = VARIANTS[key](params or {}, None, options)
    comp = Comparison(key, title, stat, SUCCESS[key])
    for v in variants:
        comp.series[v.label] = _odds(key, v)
    return comp


def curve(game: str, params: Mapping[str, Any] | None = None, options: Any = None) -> Curve:
    """P(success) of each variant over the check's main number (see :data:`CURVES`),
    under ``options`` as :func:`compare`."""
    key = _known(game)
    x_name, xs = CURVES[key]
    series: dict[str, list[Fraction]] = {}
    title = ""
    for x in xs:
        title, _stat, variants = VARIANTS[key](params or {}, x, options)
        for v in variants:
            series.setdefault(v.label, []).append(_odds(key, v).at_least(SUCCESS[key]))
    base = title.split(",")[0]
    return Curve(key, f"{base}: P(success)", x_name, list(xs), series)
