"""How Mongrel's outcomes read: an outcome (or its exact distribution) -> text lines or
JSON data, for the command line and anyone else printing them. Nothing here rolls,
prints or knows about flags; the rules that made the outcomes are in :mod:`.conflict`,
:mod:`.sorcery`, :mod:`.wealth` and :mod:`.advancement`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from referee.dice.odds import fraction_text
from referee.systems.base import Outcome, Problem, outcome_data, probability_map
from referee.systems.mongrel.tables import canonical_expertise

if TYPE_CHECKING:
    from referee.dice.odds import Distribution
    from referee.systems.mongrel.actions import Check, OccultRoll
    from referee.systems.mongrel.ruleset import MongrelRuleset
    from referee.systems.mongrel.sheet import Sheet
    from referee.systems.mongrel.state import State

EFFECT_COLUMNS = ("Effect", "exact", "%")
"""The columns of :func:`effect_table`."""

FIGHTER_COLUMNS = ("fighter", "AP", "IR", "damage", "Physique", "state")
"""The columns of :func:`fighters_table`."""

HAND = " (faces entered by hand)"


def _share(p: Fraction) -> str:
    """``1/2 (50.00%)``."""
    return f"{fraction_text(p)} ({float(p) * 100:.2f}%)"


def effects(dist: Distribution[Hashable]) -> dict[str, str]:
    """Exact chance of each positive Effect in a distribution of Effects (0 = none)."""
    return {str(e): fraction_text(q) for e, q in dist.probabilities().items() if e > 0}  # type: ignore[operator]


def effect_table(title: str, effect: Mapping[str, str]) -> dict[str, Any]:
    """A table (as data) of each Effect with its chance as a fraction and a percentage."""
    rows = [(e, q, f"{float(Fraction(q)) * 100:.2f}") for e, q in effect.items()]
    return {"title": title, "columns": EFFECT_COLUMNS, "rows": rows, "justify": "right"}


def check_odds(dist: Distribution[Any], action: Check | None = None) -> dict[str, Any]:
    """A task roll's odds: ``{"p_success", "effect": {Effect: p}}`` (successes only)."""
    p = dist.probability_where(lambda r: r.success)
    effect = effects(dist.map(lambda r: r.effect if r.success else 0))
    return {"p_success": fraction_text(p), "effect": effect}


def check_odds_text(dist: Distribution[Any], action: Check) -> list[Any]:
    """``4d6 over 3: success 80/81 (98.77%)`` (the TN after any Modifier), then the chance
    of each Effect."""
    from referee.systems.mongrel.checks import target_number

    data = check_odds(dist)
    what = "zero Expertise (1 die twice)" if action.dice == 0 else f"{action.dice}d6"
    tn = target_number(action.tn, action.mode, action.difficulty)
    line = f"{what} {action.mode} {tn}: success {_share(Fraction(data['p_success']))}"
    return [line, effect_table("Effect on success", data["effect"])]


def check_data(out: Outcome, seed: int | None) -> dict[str, Any]:
    """A task roll's JSON: success, successes, Effect, the special case, the seed."""
    d = out.details
    seed = None if out.manual else seed
    head = {"success": out.success, "successes": d["successes"], "effect": out.result}
    return {**head, "special": d["special"], "seed": seed, **outcome_data(out)}


def check_line(out: Outcome, action: Check) -> str:
    """``4d6 over 3: [6, 3, 1, 1] -> 2 succeeding: success, Effect 6``."""
    shown = ", ".join(str(d.face) for d in out.faces)
    result = f"success, Effect {out.result}" if out.success else "failure"
    extra = f" [{out.details['special']}]" if out.details["special"] else ""
    return (
        f"{action.dice}d6 {action.mode} {out.target}: [{shown}] -> {out.details['successes']} "
        f"succeeding: {result}{extra}{HAND if out.manual else ''}"
    )


def buy_data(out: Outcome, dist: Distribution[Hashable]) -> dict[str, Any]:
    """A buying roll's JSON: the faces, the result, the odds of each result."""
    odds, rolled = probability_map(dist), [d.face for d in out.faces]
    return {"faces": rolled, "result": out.label, "odds": odds, "manual": out.manual}


def buy_line(out: Outcome, dist: Distribution[Hashable]) -> str:
    """``[4, 2] -> bought  odds {...}``."""
    rolled = ", ".join(str(d.face) for d in out.faces)
    return f"[{rolled}] -> {out.label}  odds {probability_map(dist)}"


def occult_odds(dist: Distribution[Any], action: OccultRoll) -> dict[str, Any]:
    """An Occult attack's odds: the working's success, harm (net Effect 1+), each net
    Effect, and the hours it takes."""
    from referee.systems.mongrel.sorcery import occult_hours

    p = dist.probability_where(lambda r: r.success)
    harm = dist.probability_where(lambda r: r.effect > 0)
    effect = effects(dist.map(lambda r: r.effect))
    hours = occult_hours(action.dice)
    return {"p_success": fraction_text(p), "p_harm": fraction_text(harm), "effect": effect} | {
        "hours": hours
    }


def occult_odds_text(dist: Distribution[Any], action: OccultRoll) -> list[Any]:
    """``Occult 2d6 under 4, 2 Resolve, 2 h: working succeeds ..., harms ...``, then the
    chance of each net Effect."""
    from referee.systems.mongrel.sorcery import occult_modifier

    a, data = action, occult_odds(dist, action)
    tn = a.tn - occult_modifier(a.range_modifier, a.scale_modifier, a.difficulty)
    p, harm = Fraction(data["p_success"]), Fraction(data["p_harm"])
    line = (
        f"Occult {a.dice}d6 under {tn}, {a.resolve} Resolve, {data['hours']} h: working "
        f"succeeds {_share(p)}, harms {_share(harm)}"
    )
    return [line, effect_table("Net Effect on Infernal Resolve", data["effect"])]


def occult_line(out: Outcome) -> str:
    """An Occult attack's label (and whether its faces were entered by hand)."""
    return out.label + (HAND if out.manual else "")


OCCULT_KEYS = ("working", "resist", "resolve_spent", "hours")


def occult_data(out: Outcome, seed: int | None) -> dict[str, Any]:
    """An Occult attack's JSON: the working's success, the net Effect, each roll."""
    d = out.details
    data: dict[str, Any] = {"success": out.success, "effect": out.result}
    data |= {k: d[k] for k in OCCULT_KEYS} | {"target": out.target}
    data |= {"faces": d["faces"], "resist_faces": d["resist_faces"], "manual": out.manual}
    return data | {"seed": None if out.manual else seed}


def validation_data(sheet: Sheet, found: Sequence[tuple[Problem, str | None]], valid: bool) -> Any:
    """A sheet's validation as JSON: valid, the derived scores, every problem (with the
    referee's approval, if any)."""
    from referee.systems.mongrel.sheet import derived

    problems: list[dict[str, Any]] = [
        {"rule": p.rule, "field": p.field, "message": p.message}
        | {"value": p.value if isinstance(p.value, int | str) else str(p.value)}
        | {"approved": reason}
        for p, reason in found
    ]
    return {"valid": valid, "derived": derived(sheet), "problems": problems}


def validation_lines(sheet: Sheet, found: Sequence[tuple[Problem, str | None]]) -> list[str]:
    """The derived scores, then every problem (an approved one with its reason)."""
    from referee.systems.mongrel.sheet import derived

    scores = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in derived(sheet).items())
    lines = [f"{sheet.name}: {scores}"]
    return lines + [f"{p}" + (f"  (approved: {r})" if r else "") for p, r in found]


def approval_lines(out: Outcome) -> list[str]:
    """Each approved problem, then how many are left open."""
    done = [p for p in out.items("approved") if isinstance(p, dict)]
    lines = [f"approved: {p['field']} [{p['rule']}]" for p in done]
    return [*lines, f"{out.number('left_open')} problem(s) left open"]


def points_data(before: Sheet, after: Sheet, dumped: Any) -> dict[str, Any]:
    """Character points spent: before, left, and the sheet after (``dumped``, as JSON)."""
    return {"points_before": before.character_points, "points_left": after.character_points} | {
        "sheet": dumped
    }


def points_line(before: Sheet, after: Sheet, raised: str) -> str:
    """``Giazza: social; character points 20 -> 0``."""
    points = f"{before.character_points} -> {after.character_points}"
    return f"{after.name}: {raised}; character points {points}"


def accounts_line(sheet: Sheet) -> str:
    """``Giazza (Nuin): Aggak-Ko 1, Mekag 2, ...``: each House Credit account."""
    from referee.systems.mongrel.sheet import credit

    shown = ", ".join(f"{h} {v}" for h, v in credit(sheet).items())
    return f"{sheet.name} ({sheet.house}): {shown}"


def fighter_rows(state: State) -> list[dict[str, Any]]:
    """Each seated character's numbers, as a conflict shows them."""
    keys = ("collapsed", "terminal", "dead", "rushed", "discombobulated", "condition")
    return [
        {"id": cid, "name": f.name, "ap": f.ap, "infernal_resolve": f.ir, "damage": f.damage}
        | {"physique": f.physique}
        | {k: getattr(f, k) for k in keys}
        for cid, f in state.characters.items()
    ]


def fighters_table(state: State) -> dict[str, Any]:
    """The fighters (:func:`fighter_rows`) as a table (as data) under who is next, the
    order and the clock."""
    keys = ("name", "ap", "infernal_resolve", "damage", "physique", "condition")
    rows = [tuple(str(r[k]) for k in keys) for r in fighter_rows(state)]
    title = f"next: {state.next}   order: {' > '.join(state.order)}   hours: {state.hours}"
    return {"title": title, "columns": FIGHTER_COLUMNS, "rows": rows}


def conflict_data(log: Sequence[str], state: State) -> dict[str, Any]:
    """A conflict's JSON: the log, the order, the clock, the decisions awaited, the
    fighters."""
    pending = [asdict(d) for d in state.pending]
    shown = {"log": list(log), "order": list(state.order), "hours": state.hours}
    return shown | {"pending": pending, "fighters": fighter_rows(state)}


def conflict_lines(log: Sequence[str], state: State) -> list[Any]:
    """The log, the decisions awaited, then the fighters' table."""
    waiting = [f"waiting for {d.actor}: {d.prompt}" for d in state.pending]
    return [*log, *waiting, fighters_table(state)]


ATTRIBUTE_NAMES = ("size", "spirit", "physique", "beauty", "speed", "social")
STEP_HEADINGS = {
    "identity": " (Man, Beast, Demon)",
    "size_spirit": " (Size, Spirit)",
    "physique_beauty": " (Physique, Beauty)",
    "speed_social": " (Speed, Social)",
    **{f"lower_{a}": " (voluntarily lower by; 0 keeps it)" for a in ATTRIBUTE_NAMES},
    "step2": " (+3 each, +1 to the rest of their Areas)",
    "step3": " (+2 each)",
    "step4": " (+1 each)",
}
"""What each step of the character builder (:mod:`.builder`) asks, after its name."""


def step_prompt(step: str, options: Sequence[object]) -> str:
    """A step of the character builder and its choices, numbered from 1."""
    listed = "".join(f"\n  {i}. {o}" for i, o in enumerate(options, 1))
    return f"{step}{STEP_HEADINGS.get(step, '')}:{listed}"


def field_paths(text: str) -> list[str]:
    """Field paths of a sheet as written, comma-separated (``expertise,expertise.Rend``)."""
    return [*filter(None, text.replace(" ", "").split(","))]


def tour(rules: MongrelRuleset) -> list[str]:
    """A seeded tour: Ahvia's Lie, the odds of Vooruk's Rend, a short fight, a working."""
    from referee.dice.roller import ScriptedRoller, SeededRoller
    from referee.systems.mongrel.actions import Attack, Occult, StartConflict
    from referee.systems.mongrel.actions import Check as Roll
    from referee.systems.mongrel.options import Options

    options, roller = Options(), SeededRoller(2026)
    empty = rules.initial_state(options)
    lie = rules.resolve(Roll(4, 3, "over", 4), empty, ScriptedRoller([6, 3, 1, 1]), options)
    rend: Distribution[Any] = rules.odds(Roll(6, 7, "under", 4), empty, options)
    p = rend.probability_where(lambda r: r.success)
    lines = [f"Ahvia lies: 4d6 over 3 [6, 3, 1, 1] -> Effect {lie.result}"]
    lines.append(f"Vooruk's Rend 6d6 under Physique 7: success {fraction_text(p)}")
    state = empty
    for cid, sheet in rules.examples().items():
        state = rules.seat(state, cid, sheet, options)
    duel = state
    fight = (StartConflict(("vooruk", "giazza")), Attack("vooruk", "giazza", "Rend", defend=True))
    for i, action in enumerate((*fight, Attack("giazza", "vooruk", "Melee"))):
        outcome = rules.resolve(action, state, roller, options)
        lines += [outcome.label] if i else []
        state = rules.apply(state, outcome)
    lines += [
        f"{state.character(c).name}: AP {state.character(c).ap}, damage {state.character(c).damage}"
        for c in ("vooruk", "giazza")
    ]
    working = Occult("alwia", resolve=3, target="vooruk", resist=True)
    odds: Distribution[Any] = rules.odds(working, duel, options)
    harm = odds.probability_where(lambda r: r.effect > 0)
    lines.append(f"Alwia's Occult on a resisting Vooruk harms him {fraction_text(harm)}:")
    return [*lines, rules.resolve(working, duel, ScriptedRoller([2, 3]), options).label]


SESSION_WORDS: dict[str, Any] = {
    "names": {
        "spend": "spend-resolve",
        "vow": "vow-refresh",
        "survive": "spend-resolve-to-survive",
        "accept": "accept-fate",
    },
    "keys": {
        "who": "actor",
        "attacker": "actor",
        "armour": "armor",
        "shunt": "shunt_to_beauty",
        "range": "range_modifier",
        "scale": "scale_modifier",
    },
    "order": {"occult": ("actor", "target")},
    "read": {"expertise": canonical_expertise},
    "opening": ("start-conflict", "order"),  # by the rules: Beast, Man, Demon, dice for ties
}
"""How a conflict's commands and script items are spelled (the fields of
:class:`referee.table.throwaway.Words`): other names for actions and fields, the fields
bare words fill, an Expertise's spellings, and the action a conflict opens with."""

SESSION_HELP = """Commands (one per line; faces=6,3,1 gives dice rolled at the table):
  attack ATT TGT EXPERTISE [defend] [weapon=N] [armor=N] [shunt=N] [attribute=A] [difficulty=N]
  task ID EXPERTISE [attribute=A | tn=N | target=ID] [mode=under|over] [difficulty=N]
  (attack and task: [power=P] adds a Power's dice)
  occult ID [TARGET] [resolve=N] [resist] [range=M] [scale=M] [difficulty=M]
  advance ID | recover ID | wait ID | spend ID N | rest ID HOURS | vow ID
  survive ID | accept ID   (answer a terminal hit: spend 1 Infernal Resolve, or die)
  ACTION key=value ...     (any action: see `referee mongrel actions`)
  undo | help | quit"""
"""What a conflict's ``help`` says: the commands :data:`SESSION_WORDS` reads."""
