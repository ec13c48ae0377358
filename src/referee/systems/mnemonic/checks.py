"""The Success Check (Referee's Guide p. 1, "applying chances", "success check options").

Check result = Aptitude - randomizer value (the product's ruling, COMPANION);
add the Chances modifier. A total of 0 or more succeeds with total + 1
Successes; a negative total fails with -total Failures. The optional degree
label reads the count on the Chances ladder (RULINGS.md).

One rule function serves both evaluations: :func:`check_procedure` wraps the
randomizer's procedure with :func:`check_rule`, so :func:`success_check` and
:func:`check_odds` cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution, fraction_text
from referee.dice.roller import ManualRoller, Roller, is_manual
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Change, Ladder, Modifier, Outcome, Procedure
from referee.systems.mnemonic.aptitude import Aptitude, check_aptitude
from referee.systems.mnemonic.deck import CardError, Deck, card_name
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.randomizers import (
    LETTERS,
    cards_needed,
    check_randomizer,
    drawn_cards,
    randomizer_procedure,
    spoken_faces,
    uses_cards,
)
from referee.systems.mnemonic.tables import (
    CHANCES,
    CHANCES_LIMIT,
    FAILURE_DEGREES,
    SUCCESS_DEGREES,
)

SYSTEM = "mnemonic"

DEFAULT_OPTIONS = Options()
"""The rulings, used when a caller passes no options (a frozen value, never mutated)."""


class CheckResult(int):
    """The final number of a Success Check (after Chances) and what it means.

    An ``int`` (the total) so that exact distributions over results hash and
    sort at C speed; the properties read it as Successes or Failures. Equality,
    hashing, ordering, JSON and pickling are the total's, so equal totals are
    one outcome whichever type built them. So is truthiness: a total of 0 is
    falsy although it succeeds - read :attr:`success`, never ``bool(result)``.
    Arithmetic gives plain ``int``s.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"CheckResult({int(self)})"

    @property
    def total(self) -> int:
        """The check result plus the Chances modifier."""
        return int(self)

    @property
    def success(self) -> bool:
        """A total of zero or more succeeds."""
        return self >= 0

    @property
    def successes(self) -> int:
        """Total + 1 on a success, else 0."""
        return int(self) + 1 if self >= 0 else 0

    @property
    def failures(self) -> int:
        """-total on a failure (not adjusted), else 0."""
        return -int(self) if self < 0 else 0

    @property
    def degree(self) -> str:
        """The optional degree label under the ruling's thresholds (RULINGS.md)."""
        if self.success:
            return SUCCESS_DEGREES.label(self.successes)
        return FAILURE_DEGREES.label(self.failures)

    def degree_in(self, options: Options) -> str:
        """The degree label under the table's thresholds (options ``success_degrees``,
        ``failure_degrees``): the count read on the Chances names."""
        if self.success:
            return Ladder(options.success_degrees).label(self.successes)
        return Ladder(options.failure_degrees).label(self.failures)

    def text(self, options: Options | None = None) -> str:
        """ "3 Successes", "1 Failure", with the degree when the option is on."""
        n, word = (self.successes, "Success") if self.success else (self.failures, "Failure")
        plural = "es" if word == "Success" else "s"
        shown = f"{n} {word}{'' if n == 1 else plural}"
        if options is not None and options.degree_labels:
            shown += f" ({self.degree_in(options)})"
        return shown


def chances_value(chances: int | str) -> int:
    """A Chances modifier from a number (``4``, ``"+4"``, ``"-5"``) or a ladder name
    (``"Good"``); in-between values are allowed, bounded to +-60."""
    if isinstance(chances, str):
        text = chances.strip()
        try:
            value = int(text)
        except ValueError:
            try:
                value = CHANCES.value(text)
            except RulesError:
                names = ", ".join(CHANCES.names())
                raise RulesError(
                    f"Chances {chances!r} is neither a number nor a rating ({names})"
                ) from None
    else:
        value = chances
    if not -CHANCES_LIMIT <= value <= CHANCES_LIMIT:
        raise IllegalAction(
            f"Chances modifier {value} is outside -{CHANCES_LIMIT}..+{CHANCES_LIMIT}"
        )
    return value


def chances_text(value: int) -> str:
    """``"Good (+6)"`` for a ladder value, ``"+4"`` for an in-between one."""
    for v, name in CHANCES.steps:
        if v == value:
            return f"{name} ({value:+d})"
    return f"{value:+d}"


def check_rule(aptitude: int, chances: int, formula: str = "minus") -> Callable[[int], CheckResult]:
    """The Success Check as a function of the randomizer value: the check result
    (Aptitude - value, or with ``formula="plus"`` Aptitude + value - 13) plus Chances.
    Every check of the package (plain, opposed, Agile, injury) reads a value through it."""
    if formula == "minus":
        base = aptitude + chances

        def rule(value: int) -> CheckResult:
            return CheckResult(base - value)

        return rule
    if formula != "plus":
        raise RulesError(f"unknown check formula {formula!r}; known: minus, plus")
    low = aptitude + chances - 13

    def plus(value: int) -> CheckResult:
        return CheckResult(low + value)

    return plus


def value_modifiers(value: int, source: str, formula: str) -> tuple[Modifier, ...]:
    """The randomizer's part of a check as modifiers: -value, or +value and -13."""
    if formula == "plus":
        return (Modifier(value, source, "randomizer"), Modifier(-13, "check formula", "formula"))
    return (Modifier(-value, source, "randomizer"),)


def check_procedure(
    aptitude: int, chances: int, randomizer: str, deck: Deck | None = None, formula: str = "minus"
) -> Procedure[int, CheckResult]:
    """The check as one procedure: the randomizer's faces and statistic, this rule."""
    base = randomizer_procedure(randomizer, deck)
    rule = check_rule(aptitude, chances, formula)
    return Procedure(base.groups, base.read, base.exact, rule)


def deck_for(
    randomizer: str, deck: Deck | None, options: Options, checks: int = 1
) -> tuple[Deck | None, bool]:
    """The deck ``checks`` checks draw from, and whether it had to be reshuffled first
    (always, with option ``reshuffle_every_check``, unless it is full)."""
    if not uses_cards(randomizer):
        return deck, False
    deck = Deck() if deck is None else deck
    if options.reshuffle_every_check:
        full = Deck()
        return full, len(deck) < len(full)
    need = cards_needed(randomizer) * checks
    if len(deck) >= need:
        return deck, False
    if options.reshuffle_when_short:
        return Deck(), True
    raise IllegalAction(f"the deck has {len(deck)} card(s) left, {need} needed: reshuffle it")


@dataclass(frozen=True)
class Draw:
    """One randomizer value with how it was produced."""

    randomizer: str
    value: int
    faces: tuple[int, ...]
    dice: tuple[DieRoll, ...]
    cards: tuple[int, ...] = ()
    deck: Deck | None = None
    reshuffled: bool = False
    manual: bool = False

    def describe(self) -> str:
        """The faces as a player would say them."""
        if self.cards:
            return ", ".join(card_name(c) for c in self.cards)
        if self.randomizer == "verbal-ab":
            n1, l1, n2, l2 = self.faces
            return f"player {n1}{LETTERS[l1]}, referee {n2}{LETTERS[l2]}"
        if self.randomizer == "verbal":
            return f"player {self.faces[0]}, referee {self.faces[1]}"
        return ", ".join(str(f) for f in self.faces)


Said = tuple[int | str, int | str]
"""The player's and the referee's numbers of a verbal method played live."""


def live_roller(
    name: str,
    roller: Roller,
    deck: Deck | None,
    *,
    cards: Sequence[int] | None = None,
    said: Said | None = None,
    checks: int = 1,
) -> tuple[Roller, bool]:
    """The roller a check uses and whether its faces were entered by hand.

    ``cards`` are card values drawn at a real table (each must still be in
    ``deck``, ``checks`` checks' worth); ``said`` the verbal numbers played
    live. Both become the faces that produce them, so a live check runs through
    the same rule as a rolled one.
    """
    if cards is not None and said is not None:
        raise RulesError("give card values or spoken numbers, not both")
    if said is not None:
        if checks != 1:
            raise RulesError("spoken numbers are for one check at a time")
        return ManualRoller(spoken_faces(name, *said)), True
    if cards is None:
        return roller, is_manual(roller)
    if not uses_cards(name):
        raise RulesError(f"card values are only for the card randomizers, not {name}")
    need = cards_needed(name) * checks
    if len(cards) != need:
        raise CardError(f"{name} draws {need} card(s) here; {len(cards)} given")
    assert deck is not None
    return ManualRoller(deck.positions_of(list(cards))), True


def draw(
    randomizer: str,
    roller: Roller,
    *,
    deck: Deck | None = None,
    options: Options | None = None,
    cards: Sequence[int] | None = None,
    said: Said | None = None,
) -> Draw:
    """Produce a randomizer value: roll dice, take the verbal numbers, or draw cards.

    ``cards`` are card values drawn at a real table; each must still be in the
    deck. ``said`` are the player's and the referee's numbers of a verbal
    method played live (see :func:`~.randomizers.spoken_faces`).
    """
    options = options or Options()
    name = check_randomizer(randomizer)
    deck, reshuffled = deck_for(name, deck, options)
    roller, manual = live_roller(name, roller, deck, cards=cards, said=said)
    proc = randomizer_procedure(name, deck)
    faces, value = proc.roll(roller)
    if uses_cards(name):
        assert deck is not None
        drawn, after = drawn_cards(deck, faces)
        median_at = sorted(range(len(drawn)), key=lambda i: drawn[i])[len(drawn) // 2]
        dice = tuple(DieRoll(c, 12, i == median_at) for i, c in enumerate(drawn))
        return Draw(name, _value(value), faces, dice, drawn, after, reshuffled, manual)
    if name == "3d12":
        median_at = sorted(range(3), key=lambda i: faces[i])[1]
        dice = tuple(DieRoll(f, 12, i == median_at) for i, f in enumerate(faces))
    else:
        sides = [s for count, s in proc.groups for _ in range(count)]
        dice = tuple(DieRoll(f, s) for f, s in zip(faces, sides, strict=True))
    return Draw(name, _value(value), faces, dice, manual=manual)


def _value(result: Any) -> int:
    return result.total if isinstance(result, CheckResult) else int(result)


def success_check(
    aptitude: int | Aptitude,
    chances: int | str,
    roller: Roller,
    *,
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
    cards: Sequence[int] | None = None,
    said: Said | None = None,
    action: str = "check",
    extra: Sequence[Modifier] = (),
) -> Outcome:
    """Resolve one Success Check; the outcome records every number and the new deck.

    ``cards`` / ``said``: the cards drawn or the verbal numbers said at a live table.
    """
    options = options or Options()
    name = check_randomizer(randomizer or options.randomizer)
    apt = aptitude if isinstance(aptitude, Aptitude) else Aptitude(check_aptitude(aptitude), ())
    chance = chances_value(chances) + sum(m.value for m in extra)
    got = draw(name, roller, deck=deck, options=options, cards=cards, said=said)
    result = check_rule(apt.value, chance, options.check_formula)(got.value)
    parts = apt.parts or (Modifier(apt.value, "Aptitude", "aptitude"),)
    modifiers = (
        *parts,
        *value_modifiers(got.value, f"randomizer {name}", options.check_formula),
        Modifier(
            chances_value(chances), f"Chances {chances_text(chances_value(chances))}", "chances"
        ),
        *extra,
    )
    changes: tuple[Change, ...] = ()
    details: dict[str, Any] = {
        "randomizer": name,
        "value": got.value,
        "aptitude": apt.value,
        "chances": chance,
        "check_result": check_rule(apt.value, 0, options.check_formula)(got.value).total,
        "total": result.total,
        "successes": result.successes,
        "failures": result.failures,
        "degree": result.degree_in(options) if options.degree_labels else None,
    }
    if got.cards:
        assert got.deck is not None
        details.update(cards=list(got.cards), deck_left=len(got.deck), reshuffled=got.reshuffled)
        changes = (Change("table", "deck", value=got.deck, reason=f"drew {got.describe()}"),)
    if name.startswith("verbal"):
        details["numbers"] = got.describe()
    return Outcome(
        system=SYSTEM,
        action=action,
        faces=got.dice,
        modifiers=modifiers,
        result=result.total,
        success=result.success,
        label=result.text(options),
        changes=changes,
        details=details,
        manual=got.manual,
        rolls=getattr(roller, "records", ()),
    )


def check_odds(
    aptitude: int,
    chances: int | str,
    *,
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
) -> Distribution[CheckResult]:
    """Exact distribution of the check's result; for cards, the next draw from ``deck``
    as it stands (a fresh deck when none is given; a reshuffled one when it is short
    and the table reshuffles automatically)."""
    options = options or DEFAULT_OPTIONS
    name = check_randomizer(randomizer or options.randomizer)
    deck, _ = deck_for(name, deck, options)
    apt, chance = check_aptitude(aptitude), chances_value(chances)
    return check_procedure(apt, chance, name, deck, options.check_formula).odds()


def odds_data(dist: Distribution[CheckResult]) -> dict[str, Any]:
    """``{"p_success", "successes": {n: p}, "failures": {n: p}}`` as reduced fractions."""
    total = dist.total
    wins = sum(w for r, w in dist.items() if r.success)
    successes: dict[str, str] = {}
    failures: dict[str, str] = {}
    for r, w in sorted(dist.items(), key=lambda rw: rw[0].total):
        p = fraction_text(Fraction(w, total))
        if r.success:
            successes[str(r.successes)] = p
        else:
            failures[str(r.failures)] = p
    return {
        "p_success": fraction_text(Fraction(wins, total)),
        "successes": successes,
        "failures": dict(sorted(failures.items(), key=lambda kv: int(kv[0]))),
    }
