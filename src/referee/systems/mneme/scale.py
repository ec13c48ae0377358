"""Deka / Heka / Kilo scale notation as a referee writes it (Mneme CE ch. 7, Damage
Scale, Armor Scale, Hit Point Scale).

``D 3d3`` is a damage roll of scale D (3d3 x 10), ``DAR 2`` an armour rating of scale D
(20 AR) and ``20 DHP`` hit points of scale D (200 HP). These functions split such text
into the plain value and its scale; :func:`points` gives the value in plain points.
"""

from __future__ import annotations

import re

from referee.errors import RulesError
from referee.systems.mneme.tables import SCALES

MAX_VALUE = 1_000_000
"""Largest armour or HP number accepted from text."""

_DAMAGE = re.compile(r"^\s*([DHK])\s+(\S.*?)\s*$", re.IGNORECASE)
_ARMOUR = re.compile(r"^\s*(?:([DHK]?)AR\s*)?(\d+)\s*$", re.IGNORECASE)
_HP = re.compile(r"^\s*(\d+)\s*(?:([DHK]?)HP)?\s*$", re.IGNORECASE)


def points(value: int, scale: str) -> int:
    """The value in plain points: x1, D x10, H x100, K x1,000 (ch. 7, Damage Scale)."""
    if scale not in SCALES:
        raise RulesError(f"unknown scale {scale!r}; use '', 'D', 'H' or 'K'")
    return value * SCALES[scale]


def damage_notation(text: str) -> tuple[str, str]:
    """``"H 2d6-2"`` -> ``("2d6-2", "H")``; an expression without a prefix is scale ''."""
    m = _DAMAGE.match(text)
    if m is None:
        if not text.strip():
            raise RulesError("a damage expression is needed (e.g. 3d6-2 or D 3d3)")
        return text.strip(), ""
    return m.group(2), m.group(1).upper()


def _number(text: str, m: re.Match[str] | None, what: str, example: str, group: int) -> int:
    if m is None:
        raise RulesError(f"{what} {text!r} is not understood; write e.g. {example}")
    value = int(m.group(group))
    if value > MAX_VALUE:
        raise RulesError(f"{what} {value} is out of range (at most {MAX_VALUE:,})")
    return value


def armour_notation(text: str) -> tuple[int, str]:
    """``"DAR 2"`` -> ``(2, "D")``; ``"AR 4"`` or ``"4"`` -> ``(4, "")`` (ch. 7, Armor Scale)."""
    m = _ARMOUR.match(text)
    value = _number(text, m, "armour", "4, AR 4 or DAR 2", 2)
    assert m is not None
    return value, (m.group(1) or "").upper()


def hp_notation(text: str) -> tuple[int, str]:
    """``"20 DHP"`` -> ``(20, "D")``; ``"20 HP"`` or ``"20"`` -> ``(20, "")`` (ch. 7, Hit
    Point Scale)."""
    m = _HP.match(text)
    value = _number(text, m, "hit points", "20, 20 HP or 20 DHP", 1)
    assert m is not None
    return value, (m.group(2) or "").upper()
