"""Fussing and fighting (Referee's Guide p. 1): order of action and attacks.

* Timing of actions: the referee's order (groups acting simultaneously), or
  Success Checks using Agile - most Successes first, ties act simultaneously
  (RULINGS.md); every failed check has 0 Successes, so failures tie after
  every success. Option ``rank_failures``: failures rank fewest Failures first.
* Attacking and dodging: only the attacker rolls; a defender who makes himself
  a harder target worsens the attacker's Chances. A failed attack leaves the
  victim unharmed; a successful one may injure (see :mod:`.health`).
* Opposed rolls (option): both roll; the attacker's check result minus the
  defender's Successes (0 if the defender failed), plus the attacker's Chances.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution, fraction_text
from referee.errors import IllegalAction, OddsTooComplex, RulesError
from referee.systems.base import (
    TABLE,
    Change,
    Dice,
    Modifier,
    Outcome,
    Plan,
    Procedure,
    Trace,
)
from referee.systems.mnemonic.aptitude import (
    Aptitude,
    aptitude,
    chances_value,
    check_aptitude,
    given_aptitude,
)
from referee.systems.mnemonic.checks import (
    SYSTEM,
    CheckResult,
    chances_text,
    check_rule,
    deck_for,
    deck_left,
    prepare_check,
    read_draw,
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
from referee.systems.mnemonic.state import State
from referee.systems.mnemonic.tables import CHANCES_STEP

if TYPE_CHECKING:
    from referee.systems.mnemonic.actions import (
        AgileOrder,
        Attack,
        Contender,
        NextTurn,
        RefereeOrder,
    )

MAX_CONTENDERS = 50
"""Bound on how many characters one order-of-action check ranks."""

Groups = tuple[tuple[str, ...], ...]
"""An order of action: groups in turn, each acting simultaneously."""

# -- order of action ---------------------------------------------------


def referee_order(groups: Sequence[Sequence[str]]) -> Groups:
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
    if not out:
        raise IllegalAction("an order of action needs at least one group")
    return tuple(out)


def order_label(groups: Groups) -> str:
    """``"Ann & Bo then Cy"``."""
    return " then ".join(" & ".join(g) for g in groups)


def first_of(groups: Groups) -> str:
    """Who acts first: a name, or ``"simultaneous"`` when the first group is larger."""
    return groups[0][0] if len(groups[0]) == 1 else "simultaneous"


def initiative(result: CheckResult, options: Options) -> int:
    """How an Agile check ranks in the order of action (higher acts first): its
    Successes (RULINGS.md), or with ``rank_failures`` its total (fewest Failures
    first among failed checks)."""
    return result.total if options.rank_failures else result.successes


def rank(results: Sequence[tuple[str, CheckResult]], options: Options | None = None) -> Groups:
    """Order by :func:`initiative` (most Successes first); equal ranks act together."""
    options = options or Options()
    return _groups([(n, initiative(r, options)) for n, r in results])


def _groups(keys: Sequence[tuple[str, int]]) -> Groups:
    """Names by rank, highest first; equal ranks form one group acting together."""
    ranks = sorted({k for _, k in keys}, reverse=True)
    return tuple(tuple(n for n, k in keys if k == t) for t in ranks)


@dataclass(frozen=True)
class Agile:
    """One character's Agile check for the order of action: the name it is ranked
    under, its Aptitude and its Chances modifier."""

    name: str
    aptitude: Aptitude
    chances: int = 0


ORDER_ODDS_LIMITS = {"cards": 3, "3cards": 2}
"""How many Agile checks the exact order odds follow (dice and verbal: 4); more
would mean too many deck states or result combinations to count."""


def agile_plan(people: Sequence[Agile], deck: Deck | None, options: Options) -> Plan:
    """Each character makes an Agile check in turn ("timing of actions"); the order
    they act in. With cards each check draws from what the previous ones left
    (reshuffled when short, or every check, as the options say).

    The program's result is each check's rank (:func:`initiative`); the outcome
    re-reads every check from the faces. The odds are of the whole order
    (groups acting together), for up to :data:`ORDER_ODDS_LIMITS` characters.
    """
    if not 1 <= len(people) <= MAX_CONTENDERS:
        raise IllegalAction(f"an order of action needs 1..{MAX_CONTENDERS} characters")
    names = [p.name for p in people]
    if len(set(names)) != len(names):
        raise IllegalAction("each character may check only once for the order of action")
    name = check_randomizer(options.randomizer)
    cards = uses_cards(name)
    k = cards_needed(name)
    checks = [
        prepare_check(p.aptitude, p.chances, options, None, action=f"Agile check for {p.name}")
        for p in people
    ]
    rules = [c.rule for c in checks]
    start = (deck or Deck()) if cards else None

    def pick(hand: tuple[int, ...]) -> int:
        return hand[0] if k == 1 else read_median(hand)

    Keys = tuple[int, ...]
    dice_values = None if cards else randomizer_procedure(name).exact()

    def last_step(i: int, keys: Keys, left: Deck | None) -> Dice[Keys]:
        """The last check (drawn from ``left``): the ranks of every check."""
        rule = rules[i]
        proc = randomizer_procedure(name, left)
        values = dice_values

        def ranks(value: int) -> Keys:
            return (*keys, initiative(rule(value), options))

        exact = proc.exact if values is None else (lambda: values)
        return Dice.of(Procedure(proc.groups, proc.read, exact, ranks))

    def step(i: int, keys: Keys, left: Deck | None) -> Dice[tuple[Keys, Deck | None]]:
        """Check ``i`` (drawn from ``left``): the ranks so far and the deck it leaves."""
        rule = rules[i]
        if not cards:
            proc = randomizer_procedure(name)
            values = dice_values
            assert values is not None

            def ranked(value: int) -> tuple[Keys, Deck | None]:
                return (*keys, initiative(rule(value), options)), None

            return Dice.of(Procedure(proc.groups, proc.read, lambda: values, ranked))
        assert left is not None
        now = left
        groups = tuple((1, len(now) - j) for j in range(k))

        def read(faces: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(sorted(drawn_cards(now, faces)[0]))

        def after(hand: tuple[int, ...]) -> tuple[Keys, Deck | None]:
            return (*keys, initiative(rule(pick(hand)), options)), now.without(hand)

        return Dice.of(Procedure(groups, read, lambda: now.hands(k), after))

    def from_(i: int, keys: Keys, left: Deck | None) -> Dice[Keys]:
        ready = deck_for(name, left, options)[0] if cards else None
        if i == len(rules) - 1:
            return last_step(i, keys, ready)
        return step(i, keys, ready).bind(lambda r: from_(i + 1, r[0], r[1]))

    program = from_(0, (), start)

    def order_of(keys: tuple[int, ...]) -> Groups:
        return _groups(list(zip(names, keys, strict=True)))

    def finish(keys: tuple[int, ...], trace: Trace) -> Outcome:
        left = start
        outs: list[Outcome] = []
        for check, faces in zip(checks, trace, strict=True):
            ready, reshuffled = deck_for(name, left, options) if cards else (None, False)
            one = replace(check, deck=ready, reshuffled=reshuffled).outcome(faces)
            outs.append(one)
            if cards:
                assert ready is not None
                left = drawn_cards(ready, faces)[1]
        groups = order_of(keys)
        changes: list[Change] = []
        if left is not None:  # cards were drawn (start is a deck exactly then)
            changes.append(deck_left(left, "Agile checks"))
        changes.append(Change(TABLE, "order", value=groups, reason="Agile checks"))
        changes.append(Change(TABLE, "turn", value=0, reason="a new order of action"))
        return Outcome(
            system=SYSTEM,
            action="order of action",
            faces=tuple(f for o in outs for f in o.faces),
            label=order_label(groups),
            changes=tuple(changes),
            details={
                "order": groups,
                "first": first_of(groups),
                "checks": [
                    {"name": p.name, "label": o.label, **o.details}
                    for p, o in zip(people, outs, strict=True)
                ],
            },
        )

    plan = Plan.of(program, finish, order_of)
    limit = ORDER_ODDS_LIMITS.get(name, 4)
    if len(people) <= limit:
        return plan

    def refuse() -> Distribution[Hashable]:
        raise OddsTooComplex(f"exact order odds follow 1..{limit} characters with {name}")

    return Plan(plan.resolve, refuse, refuse, plan.dice)


def order_plan(groups: Sequence[Sequence[str]]) -> Plan:
    """The referee's order of action ("timing of actions"): nothing rolled."""
    order = referee_order(groups)
    done = Outcome(
        system=SYSTEM,
        action="order of action",
        label=order_label(order),
        changes=(
            Change(TABLE, "order", value=order, reason="the referee's order"),
            Change(TABLE, "turn", value=0, reason="a new order of action"),
        ),
        details={"order": order, "first": first_of(order)},
    )
    return Plan.fixed(done, order)


# -- attacks -------------------------------------------------------------


def defense_modifier(steps: int) -> int:
    """How much a defender's evasive action worsens the Chances: ``steps`` Chances steps."""
    if not 0 <= steps <= 10:
        raise IllegalAction(f"a defence worsens the Chances by 0..10 steps, not {steps}")
    return -CHANCES_STEP * steps


def defense_of(text: str) -> int:
    """A defender's evasive action as typed: how many Chances steps (0..10) it worsens an
    attack by, as the modifier (:func:`defense_modifier`)."""
    if not text.strip().isdigit():
        raise RulesError(f"a defence is a whole number of Chances steps (0..10), not {text!r}")
    return defense_modifier(int(text))


def contenders(texts: Sequence[str], state: State) -> list[Contender]:
    """Each contender of an order of action as written: ``NAME:APTITUDE[:CHANCES]``, or
    a seated character's id; :class:`RulesError` names a wrong one."""
    from referee.systems.mnemonic.actions import Contender

    found = []
    for text in texts:
        parts = text.split(":")
        if len(parts) == 1 and parts[0] in state.characters:
            found.append(Contender(parts[0]))
            continue
        if len(parts) not in (2, 3) or not parts[0]:
            raise RulesError(
                f"{text!r}: write NAME:APTITUDE or NAME:APTITUDE:CHANCES, or a seated id"
            )
        if not parts[1].strip().lstrip("-").isdigit():
            raise RulesError(f"{text!r}: the Aptitude must be a whole number")
        found.append(Contender(parts[0], int(parts[1]), parts[2] if len(parts) == 3 else 0))
    return found


def order_odds(dist: Distribution[Any]) -> dict[str, Any]:
    """The odds of every order of action (likeliest first), and with two contenders who
    acts first (``first``)."""
    ranked = sorted(dist.probabilities().items(), key=lambda gp: -gp[1])
    data: dict[str, Any] = {"order": {order_label(g): fraction_text(p) for g, p in ranked}}
    if ranked and sum(map(len, ranked[0][0])) == 2:
        first = dist.map(first_of).probabilities()
        data["first"] = {str(w): fraction_text(p) for w, p in first.items()}
    return data


def attack_label(hit: bool, text: str) -> str:
    """ "hit, 3 Successes" / "miss, 2 Failures: the victim escapes unharmed"."""
    return f"hit, {text}" if hit else f"miss, {text}: the victim escapes unharmed"


def _hit_details(out: Outcome, attacker: str | None, target: str | None) -> dict[str, Any]:
    hit = bool(out.success)
    details: dict[str, Any] = {**out.details, "hit": hit}
    if attacker is not None:
        details["attacker"] = attacker
    if target is not None:
        details["target"] = target
    return details


def attack_plan(
    aptitude: Aptitude,
    chances: int,
    defense: int,
    deck: Deck | None,
    options: Options,
    *,
    attacker: str | None = None,
    target: str | None = None,
) -> Plan:
    """An attack where only the attacker rolls ("attacking and dodging"): the
    defender's action (``defense`` <= 0) worsens the Chances. A success hits (the
    victim may be injured); a failure means the victim escapes unharmed."""
    if defense > 0:
        raise IllegalAction("a defender's action can only worsen the Chances (defense <= 0)")
    extra = (Modifier(defense, "defender's action", "defense"),) if defense else ()
    check = prepare_check(aptitude, chances, options, deck, action="attack", extra=extra)

    def hit(out: Outcome, result: CheckResult) -> Outcome:
        return replace(
            out,
            label=attack_label(result.success, out.label),
            details=_hit_details(out, attacker, target),
        )

    return check.plan(hit)


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


def opposed_plan(
    attack: Aptitude,
    chances: int,
    defence: Aptitude,
    defence_chances: int,
    deck: Deck | None,
    options: Options,
    *,
    attacker: str | None = None,
    target: str | None = None,
) -> Plan:
    """Opposed rolls ("attacking and dodging", the option): both roll, the attacker
    first; with cards both hands come from the table's ``deck``, reshuffled first
    when it cannot supply both."""
    name, formula = check_randomizer(options.randomizer), options.check_formula
    deck, reshuffled = deck_for(name, deck, options, checks=2)
    att, dfd = check_aptitude(attack.value), check_aptitude(defence.value)
    rule = opposed_rule(att, chances, dfd, defence_chances, formula)
    pair = pair_procedure(name, deck)

    def finish(values: tuple[int, int], trace: Trace) -> Outcome:
        va, vd = values
        faces = trace[0]
        result = rule(values)
        defended = check_rule(dfd, defence_chances, formula)(vd)
        attack_check = check_rule(att, 0, formula)(va)
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
        if attacker is not None:
            details["attacker"] = attacker
        if target is not None:
            details["target"] = target
        changes: tuple[Change, ...] = ()
        if uses_cards(name):
            assert deck is not None
            drawn, after = drawn_cards(deck, faces)
            dice = tuple(DieRoll(c, 12) for c in drawn)
            details.update(cards=list(drawn), deck_left=len(after), reshuffled=reshuffled)
            changes = (deck_left(after, "opposed attack"),)
        else:
            width = len(faces) // 2
            dice = (
                read_draw(name, faces[:width], None).dice
                + read_draw(name, faces[width:], None).dice
            )
        parts = attack.parts or (Modifier(att, "attacker's Aptitude", "aptitude"),)
        return Outcome(
            system=SYSTEM,
            action="opposed attack",
            faces=dice,
            modifiers=(
                *parts,
                *value_modifiers(va, f"attacker's randomizer {name}", formula),
                Modifier(-defended.successes, "defender's Successes", "defense"),
                Modifier(chances, f"Chances {chances_text(chances)}", "chances"),
            ),
            result=result.total,
            success=result.success,
            label=attack_label(result.success, result.text(options)),
            changes=changes,
            details=details,
        )

    return Plan.of(Dice.of(pair), finish, rule)


# -- the actions' planners ---------------------------------------------------


def _traits(
    state: State,
    cid: str | None,
    value: int | None,
    talent: str,
    life_role: str | None,
    fallback: str,
    options: Options,
    role: str,
) -> Aptitude:
    """An Aptitude given as a number, or from a seated character's sheet."""
    if value is not None:
        return given_aptitude(value, f"{role}'s Aptitude")
    if cid is None:
        raise IllegalAction(f"give the {role}'s Aptitude or the {role}'s id at the table")
    who = state.character(cid).sheet
    return aptitude(who, talent, life_role, fallback=fallback, options=options)


def _defends(state: State, cid: str | None, options: Options) -> bool:
    """Whether the target ``cid`` defends with opposed rolls: not an inactive one, who
    rolls nothing (:mod:`.conditions`); one not seated rolls from its given Aptitude."""
    from referee.systems.mnemonic.conditions import helpless

    seat = state.characters.get(cid) if cid is not None else None
    found = helpless(seat, options) if seat is not None else None
    return found is None or not found.forbids("defend")


def plan_attack(action: Attack, state: State, options: Options) -> Plan:
    """An attack: the attacker's check, the defence worsening its Chances, or with the
    option ``opposed_rolls`` the defender's check against it (Mnemonic, conflict); an
    inactive defender makes no defence and rolls nothing."""
    for cid in (action.actor, action.target):
        if cid is not None:
            state.character(cid)
    att = _traits(
        state,
        action.actor,
        action.aptitude,
        action.talent,
        action.life_role,
        action.fallback,
        options,
        "attacker",
    )
    chances = chances_value(action.chances)
    names = {"attacker": action.actor, "target": action.target}
    if not options.opposed_rolls or not _defends(state, action.target, options):
        return attack_plan(att, chances, action.defense, state.deck, options, **names)
    if action.defense:
        raise IllegalAction(
            "with opposed rolls the defender rolls instead of worsening the Chances"
        )
    if action.defender_aptitude is None and action.target is None:
        raise IllegalAction("opposed rolls need the defender's Aptitude or the target's id")
    dfd = _traits(
        state,
        action.target,
        action.defender_aptitude,
        action.defender_talent,
        action.defender_life_role,
        action.defender_fallback,
        options,
        "defender",
    )
    dch = chances_value(action.defender_chances)
    return opposed_plan(att, chances, dfd, dch, state.deck, options, **names)


def plan_agile_order(action: AgileOrder, state: State, options: Options) -> Plan:
    """The order of action from every contender's Agile check (option initiative
    'agile')."""
    people = []
    for c in action.contenders:
        if c.aptitude is not None:
            apt = given_aptitude(c.aptitude, f"{c.name}'s Agile Aptitude")
        else:
            who = state.character(c.name).sheet
            apt = aptitude(who, c.talent, c.life_role, fallback="relevant", options=options)
        people.append(Agile(c.name, apt, chances_value(c.chances)))
    return agile_plan(people, state.deck, options)


def plan_order(action: RefereeOrder, state: State, options: Options) -> Plan:
    """The order of action as the referee sets it (the text's reading); refused where
    the table's order comes from Agile checks."""
    if options.initiative == "agile":
        raise IllegalAction(
            "this table's order of action comes from Agile checks (option "
            "initiative 'agile'): use agile-order"
        )
    return order_plan(action.groups)


def plan_next_turn(action: NextTurn, state: State, options: Options) -> Plan:
    """The next group in the order of action acts ("timing of actions"); nothing rolled.
    Refused while no order is set."""
    if not state.order:
        raise IllegalAction("no order of action is set: set one first (order or agile-order)")
    turn = state.turn + 1
    group = state.order[turn % len(state.order)]
    names = " & ".join(
        state.characters[c].sheet.name if c in state.characters else c for c in group
    )
    done = Outcome(
        system=SYSTEM,
        action="next turn",
        label=f"{names} to act (round {turn // len(state.order) + 1})",
        changes=(Change(TABLE, "turn", value=turn, reason="the next in the order of action"),),
        details={"acting": list(group), "round": turn // len(state.order) + 1},
    )
    return Plan.fixed(done)
