"""How Mnemonic's outcomes read: an outcome (or its exact distribution) -> text lines or
JSON data, for the command line and anyone else printing them. Nothing here rolls,
prints or knows about flags; the rules that made the outcomes are in :mod:`.checks`,
:mod:`.conflict` and :mod:`.health`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from referee.dice.odds import fraction_text
from referee.errors import RulesError
from referee.systems.base import Outcome, outcome_data
from referee.systems.mnemonic.actions import Contender
from referee.systems.mnemonic.checks import odds_data
from referee.systems.mnemonic.conflict import first_of, order_label
from referee.systems.mnemonic.deck import card_name
from referee.systems.mnemonic.randomizers import uses_cards

if TYPE_CHECKING:
    from referee.dice.odds import Distribution
    from referee.systems.mnemonic.actions import Check
    from referee.systems.mnemonic.options import Options
    from referee.systems.mnemonic.ruleset import MnemonicRuleset
    from referee.systems.mnemonic.state import State

CHECK_KEYS = ("cards", "deck_left", "reshuffled", "degree", "hit", "status")
"""What a check's JSON adds from its details when the check has it."""


def deck_data(out: Outcome, after: State) -> dict[str, Any]:
    """The deck after a draw, and the cards out of it (pass them on as ``--drawn``)."""
    if not any(c.field == "deck" for c in out.changes):
        return {}
    return {"deck": list(after.deck.cards), "drawn": list(after.deck.drawn())}


def check_data(out: Outcome, after: State) -> dict[str, Any]:
    """A check's (an attack's, an injury's) JSON: the totals, the randomizer's value,
    what it drew, the deck after it, and the whole outcome."""
    d = out.details
    data: dict[str, Any] = {
        "success": out.success,
        "successes": d.get("successes"),
        "failures": d.get("failures"),
        "total": out.result,
        "randomizer": d.get("randomizer"),
        "value": d.get("value"),
        "label": out.label,
    }
    data |= {key: d[key] for key in CHECK_KEYS if key in d}
    data |= deck_data(out, after)
    return data | {"manual": out.manual, "outcome": outcome_data(out)}


def drawn_lines(title: str, d: Mapping[str, Any], label: str, sums: str = "") -> list[str]:
    """``title: randomizer [what came up]``, ``-> label`` and the cards left."""
    what = str(d.get("numbers") or d.get("value"))
    if "cards" in d:
        what = ", ".join(card_name(c) for c in d["cards"])
        what += " (deck reshuffled first)" if d.get("reshuffled") else ""
    lines = [f"{title}: {d.get('randomizer')} [{what}]", f"  {sums}-> {label}"]
    return lines + ([f"  {d['deck_left']} cards left in the deck"] if "deck_left" in d else [])


def check_lines(out: Outcome) -> list[str]:
    """A check as text: what came up, each modifier, the total and the label."""
    parts = " ".join(f"{m.value:+d} {m.source}" for m in out.modifiers)
    title = out.action + (" (entered by hand)" if out.manual else "")
    details = dict(out.details)
    details.setdefault("numbers", ", ".join(str(f.face) for f in out.faces) or None)
    return drawn_lines(title, details, out.label, f"{parts} = {out.result:+d} ")


def shares_lines(shares: Mapping[str, str]) -> list[str]:
    """``name: p (percent)`` for each share of a distribution."""
    return [f"{name}: {p} ({float(Fraction(p)) * 100:.2f}%)" for name, p in shares.items()]


def odds_lines(title: str, data: Mapping[str, Any]) -> list[str]:
    """A check's odds (:func:`~.checks.odds_data`): P(success), then each number of
    Failures (most first) and of Successes."""
    p = data["p_success"]
    fails = {f"{n} Failure{'s' if n != '1' else ''}": q for n, q in data["failures"].items()}
    wins = {f"{n} Success{'es' if n != '1' else ''}": q for n, q in data["successes"].items()}
    head = f"{title}: success {float(Fraction(p)) * 100:.2f}% ({p})"
    return [head, *shares_lines(dict(reversed(fails.items())) | wins)]


def check_title(action: Check, options: Options, state: State) -> str:
    """``Aptitude 7, Chances +3, d12`` (and the deck's size when cards are drawn)."""
    title = f"Aptitude {action.aptitude}, Chances {int(action.chances):+d}, {options.randomizer}"
    return title + (f" (deck of {len(state.deck)} cards)" if uses_cards(options.randomizer) else "")


def check_odds_lines(
    dist: Distribution[Any], action: Check, options: Options, state: State
) -> list[str]:
    """A Success Check's odds under its :func:`check_title` (:func:`odds_lines`)."""
    return odds_lines(check_title(action, options, state), odds_data(dist))


def status_odds(dist: Distribution[Hashable]) -> dict[str, Any]:
    """An injury's odds: ``{"status": {new Status: p}}``."""
    return {"status": {str(s): fraction_text(p) for s, p in dist.probabilities().items()}}


def status_lines(dist: Distribution[Hashable]) -> list[str]:
    """An injury's odds: each new Status with its chance."""
    return shares_lines(status_odds(dist)["status"])


def attack_odds_lines(dist: Distribution[Any]) -> list[str]:
    """An attack's odds (:func:`odds_lines` of the check it makes)."""
    return odds_lines("attack", odds_data(dist))


def order_odds(dist: Distribution[Any]) -> dict[str, Any]:
    """The odds of every order of action (likeliest first), and with two contenders who
    acts first (``first``)."""
    ranked = sorted(dist.probabilities().items(), key=lambda gp: -gp[1])
    data: dict[str, Any] = {"order": {order_label(g): fraction_text(p) for g, p in ranked}}
    if ranked and sum(map(len, ranked[0][0])) == 2:
        first = dist.map(first_of).probabilities()
        data["first"] = {str(w): fraction_text(p) for w, p in first.items()}
    return data


def order_odds_lines(dist: Distribution[Any]) -> list[str]:
    """Each order of action with its chance, likeliest first."""
    return shares_lines(order_odds(dist)["order"])


def order_data(out: Outcome, after: State) -> dict[str, Any]:
    """The order of action's JSON: the groups, each Agile check, the deck after."""
    deck = {"deck": list(after.deck.cards), "drawn": list(after.deck.drawn())}
    shown = {"order": out.details["order"], "checks": out.items("checks"), "manual": out.manual}
    return shown | deck | {"outcome": outcome_data(out)}


def order_lines(out: Outcome) -> list[str]:
    """Each Agile check, then the order."""
    lines = []
    for c in out.items("checks"):
        assert isinstance(c, dict)
        lines += drawn_lines(f"Agile check for {c['name']}", c, str(c["label"]))
    return [*lines, f"order: {out.label}"]


def sheet_lines(summary: Mapping[str, Any]) -> list[str]:
    """A character (:func:`~.sheet.sheet_summary`): name, Primary Role, Status, ratings."""
    lines = [f"{summary['name']} - {summary['primary_role']} ({summary['status']})"]
    for title in ("talents", "life_roles"):
        rows = ", ".join(f"{n} {v}" for n, v in summary[title].items()) or "none"
        lines.append(f"  {title.replace('_', ' ').title()}: {rows}")
    return lines


def contenders(texts: Sequence[str], state: State) -> list[Contender]:
    """Each contender of an order of action as written: ``NAME:APTITUDE[:CHANCES]``, or
    a seated character's id; :class:`RulesError` names a wrong one."""
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


def defense_of(text: str) -> int:
    """A defender's evasive action as typed: how many Chances steps (0..10) it worsens an
    attack by, as the modifier (:func:`~.conflict.defense_modifier`)."""
    from referee.systems.mnemonic.conflict import defense_modifier

    if not text.strip().isdigit():
        raise RulesError(f"a defence is a whole number of Chances steps (0..10), not {text!r}")
    return defense_modifier(int(text))


def tour(rules: MnemonicRuleset) -> list[str]:
    """A short seeded tour: odds for three randomizers, a deck that persists across
    three-card checks, an injury of the example boxer."""
    from referee.dice.roller import SeededRoller
    from referee.systems.mnemonic.actions import Check, Injury
    from referee.systems.mnemonic.options import Options

    lines, roller = [], SeededRoller(6)
    for r in ("d12", "3d12", "verbal-ab"):
        opts = Options(randomizer=r)
        dist = rules.odds(Check(7, "Fair"), rules.initial_state(opts), opts)
        lines.append(f"Aptitude 7, Chances Fair, {r}: P(success) = {odds_data(dist)['p_success']}")
    opts = Options(randomizer="3cards", degree_labels=True)
    state = rules.seat(rules.initial_state(opts), "mick", rules.examples()["boxer"], opts)
    for _ in range(3):
        c = rules.resolve(Check(6, "Moderate"), state, roller, opts)
        state = rules.apply(state, c)
        lines.append(f"three cards {c.details['cards']} -> {c.label}; {len(state.deck)} left")
    hit = rules.resolve(Injury("unconscious", victim="mick", chances="Good"), state, roller, opts)
    return [*lines, f"injury check for Mick: {hit.label}"]
