"""What a preview says when the chance reads a sheet its asker may not see.

A player may not read the referee's characters' sheets (the table's sheets setting), so
no number read from one may reach them: not the chance, not the shape of the odds, not a
refusal quoting it (principle 10, non-interference). What they may know is the rules:
where a game declares the one number an action reads from that sheet
(:meth:`~referee.systems.base.Ruleset.unknown`), the preview gives the chance for every
value the rules allow, and its range; elsewhere it says whose sheet the chance depends on.
Either way it is computed from the rules and the asker's own view, never the sheet.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from referee.dice.odds import Distribution
from referee.errors import DiceError, IllegalAction, RulesError
from referee.systems.base import JSONObject, Unknown

TRUE_ODDS_HINT = "the referee may show players the true odds, in the table's Fair play settings"


@dataclass(frozen=True)
class Tried:
    """The odds with one value of the hidden number: its chance of success (``None``
    where the action has none) and the mean of what it reports (``None`` unless a number
    and the chance is ``None``)."""

    value: int
    chance: Fraction | None
    mean: Fraction | None = None

    def data(self) -> JSONObject:
        """As JSON: the value, and the exact chance and mean as text."""
        return {
            "value": self.value,
            "chance": None if self.chance is None else str(self.chance),
            "mean": None if self.mean is None else str(self.mean),
        }


class HiddenOdds(RulesError):
    """No single number for this preview: it depends on a sheet the participant may not
    see (the message says whose). ``what`` names the hidden number where the game
    declares it, and ``tried`` holds the odds for each value the rules allow
    (``allowed`` says which, in words)."""

    def __init__(
        self, message: str, what: str = "", tried: Sequence[Tried] = (), allowed: str = ""
    ) -> None:
        super().__init__(message)
        self.what = what
        self.tried = tuple(tried)
        self.allowed = allowed

    def data(self) -> JSONObject:
        """As JSON: the sentence, the hidden number's name, where its values come from and
        the odds per value."""
        return {
            "detail": str(self),
            "what": self.what,
            "allowed": self.allowed,
            "values": [t.data() for t in self.tried],
        }

    @classmethod
    def from_data(cls, data: JSONObject) -> HiddenOdds:
        """Read back :meth:`data` (from the odds worker's process)."""
        rows = data.get("values")
        tried = []
        for row in rows if isinstance(rows, list) else []:
            if isinstance(row, dict):
                chance, mean, value = row.get("chance"), row.get("mean"), row.get("value")
                tried.append(
                    Tried(
                        int(value) if isinstance(value, int) else 0,
                        None if chance is None else Fraction(str(chance)),
                        None if mean is None else Fraction(str(mean)),
                    )
                )
        return cls(
            str(data.get("detail", "")),
            str(data.get("what", "")),
            tried,
            str(data.get("allowed", "")),
        )


def _mean(dist: Distribution[Hashable]) -> Fraction | None:
    probs = dist.probabilities()
    numbers = [(o, p) for o, p in probs.items() if isinstance(o, int) and not isinstance(o, bool)]
    if not probs or len(numbers) != len(probs):
        return None
    return sum((Fraction(o) * p for o, p in numbers), Fraction(0))


def tried_values(unknown: Unknown) -> list[Tried]:
    """The odds for each value the rules allow (a value the rules refuse is left out)."""
    out: list[Tried] = []
    for value in unknown.values:
        try:
            plan = unknown.plan(value)
            chance = plan.chance()
            mean = _mean(plan.odds()) if chance is None else None
        except (IllegalAction, DiceError, RulesError):
            continue
        out.append(Tried(value, chance, mean))
    return out


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.0f}%"


def hidden_odds(whose: str, unknown: Unknown | None) -> HiddenOdds:
    """What a preview reading ``whose`` hidden sheet says: with the game's ``unknown``
    (the number it reads, per value), the chance's range over the values the rules allow;
    without, whose sheet it depends on."""
    tried = tried_values(unknown) if unknown is not None else []
    if unknown is None or not tried:
        return HiddenOdds(
            f"the chance depends on {whose}'s sheet, which only the referee sees ({TRUE_ODDS_HINT})"
        )
    what = f"{whose}'s {unknown.what}"
    span = f"{min(unknown.values)} to {max(unknown.values)}"
    allowed = unknown.allowed or span
    chances = [t.chance for t in tried if t.chance is not None]
    means = [t.mean for t in tried if t.mean is not None]
    if chances:
        low, high = min(chances), max(chances)
        if low == high:
            said = f"the chance is {_pct(low)} whatever {what} ({allowed})"
        else:
            said = (
                f"the chance depends on {what}, which only the referee sees: from "
                f"{_pct(low)} to {_pct(high)} over {allowed}"
            )
    elif means:
        low, high = min(means), max(means)
        said = (
            f"the odds depend on {what}, which only the referee sees: the mean from "
            f"{float(low):.3g} to {float(high):.3g} over {allowed}"
        )
    else:
        said = f"the odds depend on {what}, which only the referee sees ({allowed})"
    return HiddenOdds(f"{said}; {TRUE_ODDS_HINT}", unknown.what, tried, allowed)
