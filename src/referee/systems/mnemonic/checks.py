"""The Success Check (Referee's Guide p. 1, "applying chances", "success check options").

Check result = Aptitude - randomizer value (the product's ruling, COMPANION);
add the Chances modifier. A total of 0 or more succeeds with total + 1
Successes; a negative total fails with -total Failures. The optional degree
label reads the count on the Chances ladder (RULINGS.md).

One rule serves both evaluations: a :class:`PreparedCheck` rolls the
randomizer's procedure and reads its value through :func:`check_rule`, both
when it resolves a roll and when it maps the randomizer's exact distribution
(:meth:`CheckRule.over` applies the same map to every value at once), so a
check's odds cannot disagree with its roll. Every check of the package
(plain, attack, opposed, Agile order, injury) is built from it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution, fraction_text
from referee.dice.roller import Roller, is_manual
from referee.errors import IllegalAction, RulesError
from referee.systems.base import (
    TABLE,
    Change,
    Dice,
    Ladder,
    Modifier,
    Outcome,
    Plan,
    Procedure,
    Trace,
    jsonable,
)
from referee.systems.mnemonic.aptitude import (
    APTITUDE_MAX,
    Aptitude,
    aptitude,
    chances_value,
    check_aptitude,
    given_aptitude,
)
from referee.systems.mnemonic.deck import Deck, card_name
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.randomizers import (
    LETTERS,
    cards_needed,
    check_randomizer,
    drawn_cards,
    randomizer_odds,
    randomizer_procedure,
    read_median,
    uses_cards,
)
from referee.systems.mnemonic.tables import (
    CHANCES,
    CHANCES_LIMIT,
    FAILURE_DEGREES,
    SUCCESS_DEGREES,
)

if TYPE_CHECKING:
    from referee.systems.mnemonic.actions import Check, Reshuffle, SheetCheck
    from referee.systems.mnemonic.state import State

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


def chances_text(value: int) -> str:
    """``"Good (+6)"`` for a ladder value, ``"+4"`` for an in-between one."""
    for v, name in CHANCES.steps:
        if v == value:
            return f"{name} ({value:+d})"
    return f"{value:+d}"


RESULT_SPAN = APTITUDE_MAX + CHANCES_LIMIT + 13
"""Every check result that valid inputs can give lies within +-RESULT_SPAN."""

RESULTS = tuple(CheckResult(total) for total in range(-RESULT_SPAN, RESULT_SPAN + 1))
"""Those results made once (immutable ints), so exact odds label outcomes from a table."""


class CheckRule:
    """The Success Check as a function of the randomizer value: ``offset + sign * value``.

    Aptitude - value + Chances (``sign`` -1), or with the ``"plus"`` formula
    Aptitude + value - 13 + Chances (``sign`` +1). Calling it reads one value
    (a roll); :meth:`over` applies the same map to a whole distribution (the odds).
    A plain slotted class: made per check, it costs less than a frozen record.
    """

    __slots__ = ("offset", "sign")

    def __init__(self, offset: int, sign: int) -> None:
        self.offset = offset
        self.sign = sign

    def __repr__(self) -> str:
        return f"CheckRule(offset={self.offset}, sign={self.sign})"

    def __call__(self, value: int) -> CheckResult:
        return CheckResult(self.offset + self.sign * value)

    def over(self, values: Distribution[int]) -> Distribution[CheckResult]:
        """The rule over every randomizer value at once: one-to-one, so nothing merges;
        results come from :data:`RESULTS` (any other range falls back to calling it)."""
        try:
            return values.relabel(self.offset + RESULT_SPAN, self.sign, RESULTS)
        except IndexError:
            return values.map(self)


def check_rule(aptitude: int, chances: int, formula: str = "minus") -> CheckRule:
    """The Success Check's rule: the check result (Aptitude - value, or with
    ``formula="plus"`` Aptitude + value - 13) plus Chances."""
    if formula == "minus":
        return CheckRule(aptitude + chances, -1)
    if formula != "plus":
        raise RulesError(f"unknown check formula {formula!r}; known: minus, plus")
    return CheckRule(aptitude + chances - 13, 1)


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
    (always, with option ``reshuffle_every_check``, unless it is full; when it is
    short, with option ``reshuffle_when_short``; otherwise a short deck is refused)."""
    if not uses_cards(randomizer):
        return deck, False
    deck = Deck() if deck is None else deck
    if options.reshuffle_every_check:
        full = Deck()
        return full, len(deck) < len(full)
    need = cards_needed(randomizer) * checks
    if len(deck.cards) >= need:
        return deck, False
    if options.reshuffle_when_short:
        return Deck(), True
    raise IllegalAction(f"the deck has {len(deck)} card(s) left, {need} needed: reshuffle it")


# -- one draw of the randomizer, read from the faces a roll left -------------


@dataclass(frozen=True)
class Draw:
    """One randomizer value with how it was produced: the faces rolled (for cards,
    positions among the cards left), the dice as shown, the cards drawn and the
    deck they left."""

    randomizer: str
    value: int
    faces: tuple[int, ...]
    dice: tuple[DieRoll, ...]
    cards: tuple[int, ...] = ()
    deck: Deck | None = None
    reshuffled: bool = False

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


def read_draw(
    randomizer: str, faces: tuple[int, ...], deck: Deck | None, reshuffled: bool = False
) -> Draw:
    """The :class:`Draw` that ``faces`` make (for cards: drawn from ``deck``); the
    median of three dice or cards is marked as the one kept."""
    if uses_cards(randomizer):
        assert deck is not None
        drawn, after = drawn_cards(deck, faces)
        value = drawn[0] if len(drawn) == 1 else read_median(drawn)
        median_at = sorted(range(len(drawn)), key=lambda i: drawn[i])[len(drawn) // 2]
        dice = tuple(DieRoll(c, 12, i == median_at) for i, c in enumerate(drawn))
        return Draw(randomizer, value, faces, dice, drawn, after, reshuffled)
    proc = randomizer_procedure(randomizer)
    value = proc.read(faces)
    if randomizer == "3d12":
        median_at = sorted(range(3), key=lambda i: faces[i])[1]
        dice = tuple(DieRoll(f, 12, i == median_at) for i, f in enumerate(faces))
    else:
        sides = [s for count, s in proc.groups for _ in range(count)]
        dice = tuple(DieRoll(f, s) for f, s in zip(faces, sides, strict=True))
    return Draw(randomizer, value, faces, dice)


def deck_left(deck: Deck, reason: str) -> Change:
    """The change that leaves ``deck`` as the table's deck (after a draw, a reshuffle)."""
    return Change(TABLE, "deck", value=jsonable(deck), reason=reason)


def deck_change(draw: Draw, reason: str) -> tuple[Change, ...]:
    """The table's deck after a card draw (nothing for dice and verbal methods)."""
    return () if draw.deck is None else (deck_left(draw.deck, reason),)


# -- one Success Check, ready to roll -----------------------------------------


@dataclass(frozen=True)
class PreparedCheck:
    """One Success Check ready to roll: the Aptitude (with the ratings it came from),
    the named Chances, other modifiers to the Chances (a defender's action, earlier
    injuries), the table's randomizer and the deck it draws from (after any
    reshuffle the table's options call for)."""

    aptitude: Aptitude
    chances: int
    extra: tuple[Modifier, ...]
    randomizer: str
    deck: Deck | None
    reshuffled: bool
    options: Options
    action: str

    @property
    def rule(self) -> Callable[[int], CheckResult]:
        """Randomizer value -> the check's result (:func:`check_rule`)."""
        total = self.chances + sum(m.value for m in self.extra)
        return check_rule(self.aptitude.value, total, self.options.check_formula)

    def dice(self) -> Dice[int]:
        """The randomizer's roll; its result is the randomizer value 1..12."""
        return Dice.of(randomizer_procedure(self.randomizer, self.deck))

    def outcome(self, faces: tuple[int, ...]) -> Outcome:
        """The outcome of the check whose randomizer rolled ``faces``."""
        got = read_draw(self.randomizer, faces, self.deck, self.reshuffled)
        result = self.rule(got.value)
        formula = self.options.check_formula
        parts = self.aptitude.parts or (Modifier(self.aptitude.value, "Aptitude", "aptitude"),)
        details: dict[str, Any] = {
            "randomizer": self.randomizer,
            "value": got.value,
            "aptitude": self.aptitude.value,
            "chances": self.chances + sum(m.value for m in self.extra),
            "check_result": check_rule(self.aptitude.value, 0, formula)(got.value).total,
            "total": result.total,
            "successes": result.successes,
            "failures": result.failures,
            "degree": result.degree_in(self.options) if self.options.degree_labels else None,
        }
        if got.cards:
            assert got.deck is not None
            details.update(
                cards=list(got.cards), deck_left=len(got.deck), reshuffled=got.reshuffled
            )
        if self.randomizer.startswith("verbal"):
            details["numbers"] = got.describe()
        return Outcome(
            system=SYSTEM,
            action=self.action,
            faces=got.dice,
            modifiers=(
                *parts,
                *value_modifiers(got.value, f"randomizer {self.randomizer}", formula),
                Modifier(self.chances, f"Chances {chances_text(self.chances)}", "chances"),
                *self.extra,
            ),
            result=result.total,
            success=result.success,
            label=result.text(self.options),
            changes=deck_change(got, f"drew {got.describe()}"),
            details=details,
        )

    def plan(
        self,
        after: Callable[[Outcome, CheckResult], Outcome] | None = None,
        view: Callable[[CheckResult], Hashable] | None = None,
    ) -> Plan:
        """The check as a plan: roll, build the outcome (then ``after(outcome, result)``);
        the odds are of the :class:`CheckResult` (or of ``view(result)``)."""
        rule = self.rule

        def finish(value: int, trace: Trace) -> Outcome:
            out = self.outcome(trace[0])
            return out if after is None else after(out, rule(value))

        if view is None:
            return Plan.of(self.dice(), finish, rule)
        shown = view
        return Plan.of(self.dice(), finish, lambda v: shown(rule(v)))


def prepare_check(
    aptitude: int | Aptitude,
    chances: int | str,
    options: Options,
    deck: Deck | None = None,
    *,
    action: str = "check",
    extra: Sequence[Modifier] = (),
) -> PreparedCheck:
    """A Success Check at a table with ``options`` whose deck stands at ``deck``
    (a fresh one when none is given)."""
    name = check_randomizer(options.randomizer)
    apt = aptitude if isinstance(aptitude, Aptitude) else Aptitude(check_aptitude(aptitude), ())
    check_aptitude(apt.value)
    ready, reshuffled = deck_for(name, deck, options)
    return PreparedCheck(
        apt, chances_value(chances), tuple(extra), name, ready, reshuffled, options, action
    )


def with_randomizer(options: Options | None, randomizer: str | None) -> Options:
    """``options`` (or the rulings) with the randomizer replaced when one is named."""
    options = options or DEFAULT_OPTIONS
    if randomizer is None:
        return options
    return replace(options, randomizer=check_randomizer(randomizer))


def resolve_plan(plan: Plan, roller: Roller) -> Outcome:
    """Resolve a plan outside a table, as :meth:`~referee.systems.base.Ruleset.resolve`
    does: the outcome records exactly its own rolls and whether they were typed in."""
    before = len(roller.records)
    out = plan.resolve(roller)
    return replace(out, rolls=roller.records[before:], manual=is_manual(roller))


def success_check(
    aptitude: int | Aptitude,
    chances: int | str,
    roller: Roller,
    *,
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
) -> Outcome:
    """Resolve one Success Check (the ``check`` action without a table): the outcome
    records every number; a card draw's new deck is its change to the table."""
    opts = with_randomizer(options, randomizer)
    return resolve_plan(prepare_check(aptitude, chances, opts, deck).plan(), roller)


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
    and the table reshuffles automatically). The same procedure and rule as
    :class:`PreparedCheck`, without building an outcome (the fast path)."""
    options = options or DEFAULT_OPTIONS
    name = check_randomizer(randomizer or options.randomizer)
    deck, _ = deck_for(name, deck, options)
    rule = check_rule(check_aptitude(aptitude), chances_value(chances), options.check_formula)
    return rule.over(randomizer_odds(name, deck))


def odds_data(dist: Distribution[Any]) -> dict[str, Any]:
    """``{"p_success", "successes": {n: p}, "failures": {n: p}}`` as reduced fractions,
    from a distribution of check totals."""
    total = dist.total
    rows = sorted((CheckResult(r), w) for r, w in dist.items())
    wins = sum(w for r, w in rows if r.success)
    successes: dict[str, str] = {}
    failures: dict[str, str] = {}
    for r, w in rows:
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


def plan_check(action: Check, state: State, options: Options) -> Plan:
    """A check at an Aptitude the referee gives, from the table's deck (Mnemonic, making
    a check)."""
    check = prepare_check(given_aptitude(action.aptitude), action.chances, options, state.deck)
    return check.plan()


def plan_sheet_check(action: SheetCheck, state: State, options: Options) -> Plan:
    """A check at the Aptitude of a seated character's Talent and Life Role (Mnemonic,
    determining aptitude)."""
    who = state.character(action.actor).sheet
    apt = aptitude(who, action.talent, action.life_role, fallback=action.fallback, options=options)
    name = f"{who.name}: {action.talent} check"
    return prepare_check(apt, action.chances, options, state.deck, action=name).plan()


def plan_reshuffle(action: Reshuffle, state: State, options: Options) -> Plan:
    """The referee reshuffles the deck: all 48 cards back (Mnemonic, the deck)."""
    done = Outcome(
        system=SYSTEM,
        action="reshuffle",
        label="the deck is reshuffled (48 cards)",
        changes=(deck_left(Deck(), "reshuffle"),),
    )
    return Plan.fixed(done)
