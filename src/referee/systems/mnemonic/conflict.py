"""Fussing and fighting (Referee's Guide p. 1): order of action and attacks.

* Order of action: the referee's order (groups acting simultaneously), or
  Success Checks using Agile - most Successes first, ties act simultaneously
  (RULINGS.md); every failed check has 0 Successes, so failures tie after
  every success. Option ``rank_failures``: failures rank fewest Failures first.
* Attacks: only the attacker rolls; a defender who makes himself a harder
  target worsens the attacker's Chances. A failed attack leaves the victim
  unharmed; a successful one may injure (see :mod:`.health`).
* Opposed rolls (option): both roll; the attacker's check result minus the
  defender's Successes (0 if the defender failed), plus the attacker's Chances.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.errors import IllegalAction, OddsTooComplex
from referee.systems.base import Change, Modifier, Outcome, Procedure
from referee.systems.mnemonic.aptitude import check_aptitude
from referee.systems.mnemonic.checks import (
    SYSTEM,
    CheckResult,
    Said,
    chances_text,
    chances_value,
    check_odds,
    check_rule,
    deck_for,
    live_roller,
    success_check,
    value_modifiers,
)
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.randomizers import (
    cards_needed,
    check_randomizer,
    drawn_cards,
    pair_procedure,
    randomizer_procedure,
    read_median,
    uses_cards,
)
from referee.systems.mnemonic.tables import CHANCES_STEP

MAX_CONTENDERS = 50
"""Bound on how many characters one order-of-action check ranks."""


# -- order of action ---------------------------------------------------


@dataclass(frozen=True)
class Contender:
    """A character checking Agile for the order of action: its Aptitude and Chances."""

    name: str
    aptitude: int
    chances: int | str = 0


def referee_order(groups: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    """The referee's order: groups in turn, each group acting simultaneously."""
    seen: set[str] = set()
    out = []
    for group in groups:
        names = tuple(group)
        if not names:
            raise IllegalAction("an empty group in the order of action")
        for n in names:
            if n in seen:
                raise IllegalAction(f"{n!r} appears twice in the order of action")
            seen.add(n)
        out.append(names)
    return tuple(out)


def initiative(result: CheckResult, options: Options) -> int:
    """How an Agile check ranks in the order of action (higher acts first): its
    Successes (RULINGS.md), or with ``rank_failures`` its total (fewest Failures
    first among failed checks)."""
    return result.total if options.rank_failures else result.successes


def rank(
    results: Sequence[tuple[str, CheckResult]], options: Options | None = None
) -> tuple[tuple[str, ...], ...]:
    """Order by :func:`initiative` (most Successes first); equal ranks act together."""
    options = options or Options()
    return _groups([(n, initiative(r, options)) for n, r in results])


def _groups(keys: Sequence[tuple[str, int]]) -> tuple[tuple[str, ...], ...]:
    """Names by rank, highest first; equal ranks form one group acting together."""
    ranks = sorted({k for _, k in keys}, reverse=True)
    return tuple(tuple(n for n, k in keys if k == t) for t in ranks)


def agile_order(
    contenders: Sequence[Contender],
    roller: Roller,
    *,
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
) -> tuple[Outcome, tuple[Outcome, ...]]:
    """Each contender makes an Agile check in turn; the order they act in.

    Returns the order outcome (``details["order"]``: groups acting together)
    and each contender's check. With cards, the checks share the deck in turn.
    """
    options = options or Options()
    if not 1 <= len(contenders) <= MAX_CONTENDERS:
        raise IllegalAction(f"an order of action needs 1..{MAX_CONTENDERS} characters")
    names = [c.name for c in contenders]
    if len(set(names)) != len(names):
        raise IllegalAction("each character may check only once for the order of action")
    checks = []
    for c in contenders:
        out = success_check(
            c.aptitude,
            c.chances,
            roller,
            options=options,
            deck=deck,
            randomizer=randomizer,
            action=f"Agile check for {c.name}",
        )
        deck = _deck_after(out, deck)
        checks.append(out)
    order = rank(
        [(c.name, CheckResult(o.result or 0)) for c, o in zip(contenders, checks, strict=True)],
        options,
    )
    changes = tuple(ch for o in checks[-1:] for ch in o.changes)
    outcome = Outcome(
        system=SYSTEM,
        action="order of action",
        faces=tuple(f for o in checks for f in o.faces),
        result=None,
        label=" then ".join(" & ".join(g) for g in order),
        changes=changes,
        details={
            "order": [list(g) for g in order],
            "checks": {
                c.name: {"total": o.result, "label": o.label}
                for c, o in zip(contenders, checks, strict=True)
            },
        },
        manual=any(o.manual for o in checks),
        rolls=getattr(roller, "records", ()),
    )
    return outcome, tuple(checks)


def _deck_after(outcome: Outcome, deck: Deck | None) -> Deck | None:
    for ch in outcome.changes:
        if ch.field == "deck" and isinstance(ch.value, Deck):
            return ch.value
    return deck


def first_odds(
    a: Contender,
    b: Contender,
    *,
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
) -> Distribution[str]:
    """Exact odds of who acts first between two contenders: a name, or ``"simultaneous"``
    (read off :func:`order_odds`, so with cards ``a`` draws first and ``b`` from what
    is left, or from a reshuffled deck, as :func:`agile_order` does)."""
    order = order_odds((a, b), options=options, deck=deck, randomizer=randomizer)
    return order.map(lambda groups: groups[0][0] if len(groups[0]) == 1 else "simultaneous")


ORDER_ODDS_LIMITS = {"cards": 3, "3cards": 2}
"""How many Agile checks the exact order odds follow (dice and verbal: 4); more
would mean too many deck states or result combinations to count."""


def order_odds(
    contenders: Sequence[Contender],
    *,
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
) -> Distribution[tuple[tuple[str, ...], ...]]:
    """Exact odds of the whole order of action that :func:`agile_order` produces
    (``details["order"]`` as tuples): the checks in turn, with cards each from
    what the previous ones left (reshuffled when short, or every check, as the
    options say)."""
    options = options or Options()
    name = check_randomizer(randomizer or options.randomizer)
    names = [c.name for c in contenders]
    limit = ORDER_ODDS_LIMITS.get(name, 4)
    if not 1 <= len(names) <= limit or len(set(names)) != len(names):
        raise OddsTooComplex(f"exact order odds follow 1..{limit} different characters with {name}")
    rules = [
        check_rule(check_aptitude(c.aptitude), chances_value(c.chances), options.check_formula)
        for c in contenders
    ]
    k = cards_needed(name)
    State = tuple[Deck | None, tuple[int, ...]]

    def step(
        rule: Callable[[int], CheckResult], last: bool
    ) -> Callable[[State], Distribution[State]]:
        def then(state: State) -> Distribution[State]:
            left, keys = state
            if uses_cards(name):
                left, _ = deck_for(name, left, options)
            if not uses_cards(name) or last:  # no later check needs the deck it leaves
                values = randomizer_procedure(name, left).exact()
                return values.map(lambda v: (None, (*keys, initiative(rule(v), options))))
            assert left is not None
            now = left

            def after(hand: tuple[int, ...]) -> State:
                value = hand[0] if k == 1 else read_median(hand)
                return now.without(hand), (*keys, initiative(rule(value), options))

            return now.hands(k).map(after)

        return then

    dist: Distribution[State] = Distribution.constant(
        ((deck or Deck()) if uses_cards(name) else None, ())
    )
    for i, rule in enumerate(rules):
        dist = dist.bind(step(rule, i == len(rules) - 1))

    return dist.map(lambda state: _groups(list(zip(names, state[1], strict=True))))


# -- attacks -------------------------------------------------------------


def defense_modifier(steps: int) -> int:
    """How much a defender's evasive action worsens the Chances: ``steps`` Chances steps."""
    if not 0 <= steps <= 10:
        raise IllegalAction(f"a defence worsens the Chances by 0..10 steps, not {steps}")
    return -CHANCES_STEP * steps


def attack(
    aptitude: int,
    chances: int | str,
    roller: Roller,
    *,
    defense: int = 0,
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
    cards: Sequence[int] | None = None,
    said: Said | None = None,
) -> Outcome:
    """An attack where only the attacker rolls; ``defense`` (<= 0) worsens the Chances.

    A success hits (the victim may be injured); a failure means the victim
    escapes unharmed.
    """
    if defense > 0:
        raise IllegalAction("a defender's action can only worsen the Chances (defense <= 0)")
    extra = (Modifier(defense, "defender's action", "defense"),) if defense else ()
    out = success_check(
        aptitude,
        chances,
        roller,
        options=options,
        deck=deck,
        randomizer=randomizer,
        cards=cards,
        said=said,
        action="attack",
        extra=extra,
    )
    return _as_attack(out)


def _as_attack(out: Outcome) -> Outcome:
    hit = bool(out.success)
    return replace(out, label=attack_label(hit, out.label), details={**out.details, "hit": hit})


def attack_label(hit: bool, text: str) -> str:
    """ "hit, 3 Successes" / "miss, 2 Failures: the victim escapes unharmed"."""
    return f"hit, {text}" if hit else f"miss, {text}: the victim escapes unharmed"


def attack_odds(
    aptitude: int,
    chances: int | str,
    *,
    defense: int = 0,
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
) -> Distribution[CheckResult]:
    """Exact odds of an attack where only the attacker rolls."""
    if defense > 0:
        raise IllegalAction("a defender's action can only worsen the Chances (defense <= 0)")
    return check_odds(
        aptitude,
        chances_value(chances) + defense,
        options=options,
        deck=deck,
        randomizer=randomizer,
    )


def opposed_rule(
    attacker: int, chances: int, defender: int, defender_chances: int, formula: str = "minus"
) -> Callable[[tuple[int, int]], CheckResult]:
    """Opposed rolls (RULINGS.md): the attacker's check result minus the defender's
    Successes (0 on a failed defence), plus the attacker's Chances."""
    attack_check = check_rule(attacker, 0, formula)
    defence = check_rule(defender, defender_chances, formula)

    def rule(pair: tuple[int, int]) -> CheckResult:
        return CheckResult(attack_check(pair[0]) - defence(pair[1]).successes + chances)

    return rule


def opposed_procedure(
    attacker: int,
    chances: int | str,
    defender: int,
    defender_chances: int | str,
    randomizer: str,
    deck: Deck | None = None,
    formula: str = "minus",
) -> Procedure[tuple[int, int], CheckResult]:
    """The opposed attack as one procedure over the pair of randomizer values."""
    pair = pair_procedure(randomizer, deck)
    rule = opposed_rule(
        check_aptitude(attacker),
        chances_value(chances),
        check_aptitude(defender),
        chances_value(defender_chances),
        formula,
    )
    return Procedure(pair.groups, pair.read, pair.exact, rule)


def opposed_attack(
    attacker: int,
    chances: int | str,
    defender: int,
    defender_chances: int | str,
    roller: Roller,
    *,
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
    cards: Sequence[int] | None = None,
) -> Outcome:
    """Resolve an opposed attack: both roll (attacker first; with cards, from one deck)."""
    options = options or Options()
    name = check_randomizer(randomizer or options.randomizer)
    deck, reshuffled = deck_for(name, deck, options, checks=2)
    roller, manual = live_roller(name, roller, deck, cards=cards, checks=2)
    formula = options.check_formula
    proc = opposed_procedure(attacker, chances, defender, defender_chances, name, deck, formula)
    faces, result = proc.roll(roller)
    va, vd = proc.read(faces)
    defended = check_rule(defender, chances_value(defender_chances), formula)(vd)
    attack_check = check_rule(attacker, 0, formula)(va)
    changes: tuple[Change, ...] = ()
    details: dict[str, Any] = {
        "randomizer": name,
        "attacker_value": va,
        "defender_value": vd,
        "attacker_check": attack_check.total,
        "defender_total": defended.total,
        "defender_successes": defended.successes,
        "total": result.total,
        "successes": result.successes,
        "failures": result.failures,
        "hit": result.success,
        "degree": result.degree_in(options) if options.degree_labels else None,
    }
    if uses_cards(name):
        assert deck is not None
        drawn, after = drawn_cards(deck, faces)
        dice = tuple(DieRoll(c, 12) for c in drawn)
        details.update(cards=list(drawn), deck_left=len(after), reshuffled=reshuffled)
        changes = (Change("table", "deck", value=after, reason="opposed attack"),)
    else:
        sides = [s for count, s in proc.groups for _ in range(count)]
        dice = tuple(DieRoll(f, s) for f, s in zip(faces, sides, strict=True))
    label = attack_label(result.success, result.text(options))
    return Outcome(
        system=SYSTEM,
        action="opposed attack",
        faces=dice,
        modifiers=(
            Modifier(attacker, "attacker's Aptitude", "aptitude"),
            *value_modifiers(va, f"attacker's randomizer {name}", formula),
            Modifier(-defended.successes, "defender's Successes", "defense"),
            Modifier(
                chances_value(chances), f"Chances {chances_text(chances_value(chances))}", "chances"
            ),
        ),
        result=result.total,
        success=result.success,
        label=label,
        changes=changes,
        details=details,
        manual=manual,
        rolls=getattr(roller, "records", ()),
    )


def opposed_odds(
    attacker: int,
    chances: int | str,
    defender: int,
    defender_chances: int | str,
    *,
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
) -> Distribution[CheckResult]:
    """Exact odds of an opposed attack (for cards, from ``deck`` as it stands)."""
    options = options or Options()
    name = check_randomizer(randomizer or options.randomizer)
    deck, _ = deck_for(name, deck, options, checks=2)
    return opposed_procedure(
        attacker, chances, defender, defender_chances, name, deck, options.check_formula
    ).odds()
