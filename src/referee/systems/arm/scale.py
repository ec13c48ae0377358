"""ARM's logarithmic scale: logs and measures, units, rounds and group efforts.

ARM 1.2, Scale: every +5 on a log multiplies its measure by ten. Two methods
convert between logs and measures: the chart (default for play) and the exact
base-10^(1/5) formula. ARM 1.2, Rounds: units convert by adding logs, with the
sign reversed for "per" units and both time units of an acceleration counted.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from typing import Literal

from referee.errors import RulesError
from referee.systems.arm.tables import (
    LENGTH_UNITS,
    LOG_PER_DECADE,
    LOG_STEPS,
    TIME_UNITS,
    UNIT_ALIASES,
)

Method = Literal["table", "exact"]
MAX_LOG = 1000
"""Logs beyond +-1000 are refused (their measures have hundreds of digits)."""

_NEAREST = (*LOG_STEPS, Decimal(10))
_MULTIPLIER = re.compile(r"^(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)?\s*(.*)$")


def _check_log(log: int) -> None:
    if isinstance(log, bool) or not isinstance(log, int):
        raise RulesError(f"a log is a whole number, not {log!r}")
    if abs(log) > MAX_LOG:
        raise RulesError(f"log {log} is out of range (-{MAX_LOG}..{MAX_LOG})")


def _check_measure(measure: Decimal | float | int) -> Decimal:
    try:
        value = Decimal(str(measure)) if not isinstance(measure, Decimal) else measure
    except Exception:
        raise RulesError(f"measure {measure!r} is not a number") from None
    if not value.is_finite() or value <= 0:
        raise RulesError(f"only a positive measure has a log, not {measure}")
    if abs(value.adjusted()) > MAX_LOG // LOG_PER_DECADE:
        raise RulesError(f"measure {measure} is out of range")
    return value


def measure_of(log: int, method: Method = "table") -> Decimal:
    """The measure of a log.

    Table method (ARM 1.2, Scale, steps 1-3): split the log into the multiple
    of five at or below it (a power of ten) and the rest (1, 1.5, 2.5, 4 or 6)
    and multiply: -3 -> 0.1 x 2.5 = 0.25. Exact method: 10^(log/5), given to
    six significant digits.
    """
    _check_log(log)
    decade, step = divmod(log, LOG_PER_DECADE)
    if method == "table":
        return _plain(LOG_STEPS[step].scaleb(decade))
    with localcontext() as ctx:
        ctx.prec = 6
        value = +(Decimal(10) ** (Decimal(log) / LOG_PER_DECADE))
    return _plain(value)


def _plain(value: Decimal) -> Decimal:
    """Trailing zeros dropped, whole numbers written without an exponent (100, not 1E+2)."""
    value = value.normalize()
    if value == value.to_integral_value():
        with localcontext() as ctx:
            ctx.prec = max(28, value.adjusted() + 2)
            return value.quantize(Decimal(1))
    return value


def log_of(measure: Decimal | float | int, method: Method = "table") -> int:
    """The log of a positive measure.

    Table method (ARM 1.2, Scale): take the first two digits, match them to the
    nearest of 1, 1.5, 2.5, 4, 6 (or 10, the next decade's 1; ties go up),
    then add five per power of ten: 1342 -> 13 ~ 1.5 (log 1) + 1000 (log 15)
    = 16. Exact method: 5 x log10(measure), rounded half up.
    """
    value = _check_measure(measure)
    if method == "exact":
        with localcontext() as ctx:
            ctx.prec = 40
            exact = value.log10() * LOG_PER_DECADE
        return math.floor(exact + Decimal("0.5"))
    power = value.adjusted()
    leading = value.scaleb(1 - power).to_integral_value(rounding="ROUND_FLOOR") / 10
    best = 0
    for i, step in enumerate(_NEAREST):
        if abs(leading - step) <= abs(leading - _NEAREST[best]):
            best = i
    return LOG_PER_DECADE * power + best


def number(value: Decimal) -> int | float:
    """A measure as a JSON number: an int when whole, else a float."""
    return int(value) if value == value.to_integral_value() else float(value)


# ---------------------------------------------------------------------------
# units (ARM 1.2, Rounds)


@dataclass(frozen=True)
class Unit:
    """A compound unit: a length (or none) per zero, one or two time units.

    ``scale`` is the log of a multiplier on the length ("1e6 km" has scale 30).
    """

    length: str | None
    per: tuple[str, ...]
    scale: int = 0
    time: str | None = None

    def to_standard(self, round_log: int | None = None) -> int:
        """Log to add to go from this unit to standard (metres, seconds)."""
        total = 0
        if self.length is not None:
            total += LENGTH_UNITS[self.length] + self.scale
        if self.time is not None:
            total += _time_log(self.time, round_log) + self.scale
        for t in self.per:
            total -= _time_log(t, round_log)
        return total


def _time_log(unit: str, round_log: int | None) -> int:
    if unit == "round":
        if round_log is None:
            raise RulesError("a unit 'per round' needs the round length (e.g. --round 3s)")
        return round_log
    return TIME_UNITS[unit]


def _name(part: str, text: str) -> str:
    key = part.strip().lower()
    key = UNIT_ALIASES.get(key, key)
    if key not in LENGTH_UNITS and key not in TIME_UNITS and key != "round":
        known = ", ".join([*LENGTH_UNITS, *TIME_UNITS, "round"])
        raise RulesError(f"unknown unit {part.strip()!r} in {text!r}; known: {known}")
    return key


def parse_unit(text: str, method: Method = "table") -> Unit:
    """Parse ``m``, ``ft/s``, ``1e6km/h/h``, ``m/s^2``, ``h`` or ``ft/round``.

    A leading number multiplies the first unit (its log is added as a scale).
    """
    raw = text.strip()
    if not raw or len(raw) > 60:
        raise RulesError(f"unit {text!r} is empty or too long")
    parts = raw.replace("^2", "/@").split("/")
    found = _MULTIPLIER.match(parts[0].strip())
    digits, head = (found.group(1) or "", found.group(2)) if found else ("", parts[0])
    scale = 0
    if digits:
        try:
            factor = Decimal(digits)
        except Exception:
            raise RulesError(f"bad multiplier {digits!r} in unit {text!r}") from None
        scale = log_of(factor, method) if factor != 1 else 0
    first = _name(head, text)
    per: list[str] = []
    for part in parts[1:]:
        if part == "@":
            if not per:
                raise RulesError(f"'^2' needs a time unit before it in {text!r}")
            per.append(per[-1])
            continue
        name = _name(part, text)
        if name in LENGTH_UNITS:
            raise RulesError(f"{part!r} is a length; only time units may follow '/' in {text!r}")
        per.append(name)
    if len(per) > 2:
        raise RulesError(f"at most two 'per' time units (an acceleration), in {text!r}")
    if first in LENGTH_UNITS:
        return Unit(first, tuple(per), scale)
    if per:
        raise RulesError(f"a unit per time must start with a length, not {head!r}")
    return Unit(None, (), scale, time=first)


def _kind(unit: Unit) -> tuple[bool, int]:
    return unit.length is not None, len(unit.per)


def convert(
    log: int,
    source: str,
    target: str,
    *,
    round_log: int | None = None,
    method: Method = "table",
) -> int:
    """Convert a log value between units by adding logs (ARM 1.2, Rounds).

    Corven: 5 m/s -> ft/s is 8; ft per 3-second round is 10. Decius:
    3 m/s/s -> 1e6km/h/h is -6.
    """
    _check_log(log)
    a, b = parse_unit(source, method), parse_unit(target, method)
    if _kind(a) != _kind(b):
        raise RulesError(f"cannot convert {source!r} to {target!r}: different kinds of unit")
    return log + a.to_standard(round_log) - b.to_standard(round_log)


def round_log(length: str, method: Method = "table") -> int:
    """The log, in seconds, of a round length written like ``3s``, ``2s``, ``10min``, ``1h``."""
    raw = length.strip()
    i = 0
    while i < len(raw) and (raw[i].isdigit() or raw[i] == "."):
        i += 1
    count, unit = raw[:i] or "1", raw[i:] or "s"
    name = _name(unit, length)
    if name not in TIME_UNITS:
        raise RulesError(f"a round is a length of time, not {length!r}")
    try:
        amount = Decimal(count)
    except Exception:
        raise RulesError(f"bad round length {length!r}") from None
    return log_of(amount, method) + TIME_UNITS[name]


# ---------------------------------------------------------------------------
# group efforts (ARM 1.2, Task Resolution)

GroupMethod = Literal["total", "helpers"]
GroupWay = Literal["shortcut", "sum"]


def group_log(
    logs: Sequence[int],
    *,
    method: Method = "table",
    count: GroupMethod = "total",
    way: GroupWay = "shortcut",
) -> tuple[int, str]:
    """The combined stat+mod log of people acting together, and how it was found.

    ARM 1.2, Task Resolution: the reasonable way is to convert every log to
    its measure, add the measures and convert the sum back (``way="sum"``).
    When nobody is more than 1 from anybody else the text allows a shortcut
    (``"shortcut"``, the default): one person's log plus the log of the number
    of people (``count="total"``, the ruling) or of the *other* helpers
    (``"helpers"``, the text's literal words). The person chosen is the one
    with the lowest log, so the result depends only on the values taking
    part, never on the order they are named in. Under the chart the shortcut
    and the sum can differ by one: two people at 6 are 6 + log 2 = 8 by the
    shortcut, but 15 + 15 = 30 is log 7 by the sum.
    """
    if not logs:
        raise RulesError("a group effort needs at least one person")
    if len(logs) > 10_000:
        raise RulesError("a group effort of more than 10000 people is out of range")
    for v in logs:
        _check_log(v)
    if way == "shortcut" and max(logs) - min(logs) <= 1:
        n = len(logs) if count == "total" else len(logs) - 1
        bonus = log_of(n, method) if n > 0 else 0
        return min(logs) + bonus, f"lowest log + log of {n}"
    total = sum((measure_of(v, method) for v in sorted(logs)), Decimal(0))
    return log_of(total, method), "sum of measures"
