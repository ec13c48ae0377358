"""How Mneme CE's outcomes read: an outcome (or its exact odds) -> text lines or JSON data,
for the command line and anyone else printing them, and the other way, how the text's
notations a user types read (a Difficulty by name, ``DAR 2``, ``D 3d3``). Nothing here
rolls, prints or knows about flags; the rules that made the outcomes are in
:mod:`.resolve`, :mod:`.treatment`, :mod:`.clock` and :mod:`.initiative`. Tables are
data (:func:`grid`) for the reader to draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, get_args

from referee.dice.odds import fraction_text
from referee.errors import RulesError
from referee.systems.base import Outcome, outcome_data
from referee.systems.mneme.actions import ModifierKind
from referee.systems.mneme.damage import Target, as_scale
from referee.systems.mneme.scale import armour_notation, damage_notation
from referee.systems.mneme.tables import CONDITIONS, DIFFICULTY, DIFFICULTY_ALIASES

if TYPE_CHECKING:
    from referee.dice.odds import Distribution

Table = dict[str, Any]
"""A table as data: ``title``, ``columns``, ``rows`` (text cells) and each column's
``justify``, for the reader to draw."""

Lines = list["str | Table"]
"""What a text renderer gives: lines and tables, in order."""


def grid(
    title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], left: Sequence[str] = ()
) -> Table:
    """A table under a left-aligned title; the ``left`` columns read left to right, the
    others are numbers (right-aligned)."""
    justify = ["left" if c in left else "right" for c in columns]
    return {
        "title": title,
        "columns": list(columns),
        "rows": [list(r) for r in rows],
        "justify": justify,
        "title_justify": "left",
    }


def _pct(p: Any) -> str:
    return f"{float(p) * 100:.2f}"


def fractions(dist: Distribution[Any]) -> dict[str, str]:
    """Every value of a distribution (as text) with its reduced fraction."""
    return {str(v): fraction_text(q) for v, q in dist.probabilities().items()}


def faces_text(out: Outcome) -> str:
    """The faces rolled, the ones not kept in parentheses."""
    return " ".join(str(d.face) if d.kept else f"({d.face})" for d in out.faces)


def _kept(dealt: Any, kept: Any) -> str:
    return ", ".join(str(x) if k else f"({x})" for x, k in zip(dealt, kept, strict=True))


def rolls_text(out: Outcome, key: str) -> str:
    """Damage rolls as dealt (ch. 7, Damage Rolls), the ones not kept in parentheses."""
    r = out.record(key)
    return _kept(r.get("dealt"), r.get("kept"))


def _versus(out: Outcome) -> str:
    dice = f"[{faces_text(out)}] " if out.faces else ""
    return f"{dice}{out.details['roll']} vs {out.details['difficulty']}"


# ---------------------------------------------------------------------------
# what a user types


def difficulty(text: str) -> int:
    """A Difficulty as a number or by its name on the ladder (Easy ... Formidable; ch. 2)."""
    t = text.strip()
    if t.lstrip("-").isdigit():
        return int(t)
    return DIFFICULTY_ALIASES.get(t.lower()) or DIFFICULTY.value(t)


def _parts(text: str, form: str) -> list[str]:
    """``A:B`` or ``A:B:C`` (``form``)."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) not in (2, 3) or not parts[0]:
        raise RulesError(f"write {form}")
    return parts


def _whole(texts: list[str], refusal: str) -> list[int]:
    if not all(t.lstrip("-").isdigit() for t in texts):
        raise RulesError(refusal)
    return [int(t) for t in texts]


def typed_modifier(text: str) -> dict[str, Any]:
    """``VALUE:KIND[:SOURCE]`` -> a modifier of one of the text's kinds (ch. 2, Modifiers
    to Rolls): ``2:equipment:scope``; ``conditions`` and ``Condition`` are one kind."""
    value, kind, *source = _parts(text, "VALUE:KIND or VALUE:KIND:SOURCE")
    kind = kind.lower().removesuffix("s")
    if kind not in get_args(ModifierKind):
        raise RulesError(f"kind must be one of {', '.join(get_args(ModifierKind))}")
    number = _whole([value], f"{value!r} is not a whole number")[0]
    return {"value": number, "source": source[0] if source else kind, "kind": kind}


def initiative_entry(text: str) -> dict[str, Any]:
    """``NAME:MOD[:CHM]``: a PC rolling Initiative without a sheet, by their whole
    modifier (and characteristic modifier, for ties)."""
    who, *numbers = _parts(text, "NAME:MOD or NAME:MOD:CHM")
    mod, *chm = _whole(numbers, "MOD and CHM are whole numbers")
    return {"who": who, "modifier": mod, "characteristic_modifier": chm[0] if chm else None}


def skills(text: str) -> list[str]:
    """``Melee,Athletics``: the skills a task combines, the rolled one first (ch. 2,
    Combined Difficulties)."""
    return [p.strip() for p in text.split(",") if p.strip()]


def mitigating(text: str) -> dict[str, int]:
    """``conditions,cover,skill``: the three Mitigating Factors by priority (ch. 2)."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise RulesError("write three whole numbers: conditions,cover,skill")
    return dict(zip(("conditions", "cover", "skill"), map(int, parts), strict=True))


def _scale(written: str, given: str, what: str) -> str:
    if written and given and written != given:
        raise RulesError(
            f"{what} is scale {written}, but the {what.split()[0]} scale given is {given}"
        )
    return written or given


def armour(text: str, scale: str = "", target_scale: str = "") -> Target:
    """Armour written ``4``, ``AR 4`` or scaled ``DAR 2`` (ch. 7, Armor Scale), or on
    ``scale``; ``target_scale`` is the target's own."""
    rating, written = armour_notation(text)
    return Target(
        rating, as_scale(_scale(written, scale, f"armour {text!r}")), as_scale(target_scale)
    )


def scaled_damage(text: str, scale: str = "") -> str:
    """A damage expression with its scale written as the text does (``D 3d3``)."""
    expression, written = damage_notation(text)
    return f"{_scale(written, scale, f'damage {text!r}')} {expression}".strip()


# ---------------------------------------------------------------------------
# checks and their odds (ch. 2)


CHECK_KEYS = ("roll", "dice", "modifier", "difficulty", "effect")
"""What a rolled check's JSON shows on top: the roll, dice, modifier, Difficulty, Effect."""


def check_lines(out: Outcome) -> Lines:
    """A check: dice + modifier vs Difficulty, the Effect and label, then the modifiers
    not stacked, the condition presets, the mitigation and the time the task took. A
    check with nothing at stake rolls nothing: its label says so."""
    d = out.details
    if "roll" not in d:
        return [out.label]
    manual = " (faces entered by hand)" if out.manual else ""
    sums = f"[{faces_text(out)}] = {d['dice']} {d['modifier']:+d} = {d['roll']}"
    lines: Lines = [f"{sums} vs {d['difficulty']}: Effect {d['effect']:+d} -> {out.label}{manual}"]
    for key, title in (("dropped_modifiers", "not stacked"), ("conditions", "conditions")):
        lines += [f"{title}: " + ", ".join(map(str, out.items(key)))] if out.items(key) else []
    if "mitigation" in d:
        lines.append("mitigation: " + " -> ".join(map(str, out.items("mitigation"))))
    if "time" in d:
        lines.append(f"time: {d['time']} (median {d['median_time']})")
    return lines


def check_data(out: Outcome) -> dict[str, Any]:
    """A check's JSON: the whole outcome plus the roll, dice, modifier, Difficulty and
    Effect (each null when nothing was rolled)."""
    return {**outcome_data(out), **{k: out.details.get(k) for k in CHECK_KEYS}}


def _no_roll(dist: Distribution[Any]) -> str | None:
    """The label of a check that rolls nothing (no stakes), else None: its odds are that
    label for certain, not Effects."""
    first = next(iter(dist.probabilities()))
    return first if isinstance(first, str) else None


def effect_odds_data(dist: Distribution[Any]) -> dict[str, Any]:
    """A check's odds: the chance of success and of every Effect, failures included. A
    check that rolls nothing has neither: ``p_success`` is null, ``no_roll`` its label."""
    if (label := _no_roll(dist)) is not None:
        return {"p_success": None, "effect": {}, "no_roll": label}
    return {"p_success": fraction_text(dist.at_least(0)), "effect": fractions(dist)}


def effect_odds_lines(dist: Distribution[Any]) -> Lines:
    """A check's odds as a table of Effects under the chance of success (a check that
    rolls nothing: its label)."""
    if (label := _no_roll(dist)) is not None:
        return [label]
    p = dist.at_least(0)
    rows = [(f"{e:+d}", fraction_text(q), _pct(q)) for e, q in dist.probabilities().items()]
    return [grid(f"success {fraction_text(p)} = {_pct(p)}%", ("Effect", "exact", "%"), rows)]


# ---------------------------------------------------------------------------
# damage (ch. 7)

FLAGS = (("p_bleeding", "bleeding"), ("p_massive_damage", "massive"))
"""The yes/no odds of damage against a target: Bleeding from one roll, massive damage."""


def damage_odds(rules: Any, action: Any, state: Any, options: Any) -> dict[str, Any]:
    """The damage an attack (or damage rolls) deals; against a target also the condition
    it ends in, whether it Bleeds and whether it takes massive damage."""
    reports = ["damage"] + (["condition", "bleeding", "massive"] if action.target else [])
    return {r: rules.odds(replace(action, report=r), state, options) for r in reports}


def damage_odds_data(odds: Mapping[str, Distribution[Any]]) -> dict[str, Any]:
    """Damage odds as JSON: each total's fraction and the mean; with a target the chance
    of each condition, ``p_bleeding`` and ``p_massive_damage``."""
    data: dict[str, Any] = {"damage": fractions(odds["damage"])}
    data["mean"] = fraction_text(odds["damage"].mean())
    if "condition" in odds:
        conds = odds["condition"]
        data["conditions"] = {
            c: fraction_text(conds.probability(c)) for c in CONDITIONS if c in conds
        }
        data |= {k: fraction_text(odds[r].probability(True)) for k, r in FLAGS}
    return data


def damage_odds_title(action: Any) -> str:
    """What the odds are of: the rolls, the damage or weapon, the armour, the RoA."""
    count = f"{action.rolls} x" if hasattr(action, "rolls") else "attack: damage rolls"
    armour = action.armour
    what = f"({action.damage or action.weapon}) vs {armour.armour_scale}AR {armour.armour}"
    return f"{count} {what}, RoA {action.rate_of_attack or 'of the weapon'}"


def target_odds_lines(data: Mapping[str, Any]) -> Lines:
    """A target's condition, Bleeding and massive-damage odds as ``name: p`` lines."""
    lines: Lines = [f"{c}: {p}" for c, p in data.get("conditions", {}).items()]
    return lines + [f"{k}: {data[k]}" for k, _ in FLAGS if k in data]


def attack_lines(out: Outcome) -> Lines:
    """An attack: the check, the damage rolls after armour and the target's condition."""
    d = out.details
    check = f"check {d['roll']} vs {d['difficulty']}: Effect {d['effect']:+d}"
    lines: Lines = [f"{check} -> {out.label}"]
    if "weapon_rolls" in d:
        total = out.record("weapon_rolls")["total"]
        lines.append(f"damage rolls after armour: {rolls_text(out, 'weapon_rolls')} = {total}")
    return lines + ([f"target: {out.record('target')['condition']}"] if "target" in d else [])


def take_damage_lines(out: Outcome) -> Lines:
    """Damage from a Fail Effect: its mitigation, the cover's rolls, the character's rolls,
    Bleeding, massive damage and the condition it leaves."""
    d = out.details
    lines: Lines = ["Fail Effect: " + " -> ".join(map(str, out.items("mitigation")))]
    if "cover_rolls" in d:
        gone = " (destroyed)" if d.get("cover_destroyed") else ""
        dealt = out.record("cover_rolls")["dealt"]
        lines.append(f"cover takes {dealt}: {d['cover_damage']} damage{gone}")
    lines.append(f"you take [{rolls_text(out, 'damage_rolls')}]: {out.label}")
    if d.get("bleeding"):
        lines.append("Bleeding: one roll reached the Seriously Wounded threshold")
    if "massive_roll" in d:
        m = out.record("massive_roll")
        lines.append(f"massive damage: End {m['roll']} vs {m['difficulty']} -> {m['result']}")
    elif d.get("massive_damage"):
        lines.append(
            "massive damage: an End roll at 8 is due (referee mneme survival FILE massive "
            "--damage-before N, the damage before this hit)"
        )
    if "condition" in d:
        moves = out.record("movement")
        extra = f" (speed {moves['speed']}, no Dash)" if moves else ""
        lines.append(f"condition: {d['condition']}{extra}")
    return lines


# ---------------------------------------------------------------------------
# time, dying and treatment (ch. 7)


def one_character(out: Outcome, cid: str) -> dict[str, Any]:
    """An outcome over the table as JSON with one character's details on top."""
    details = dict(out.details)
    per = out.record("characters").get(cid)
    if isinstance(per, dict):
        details = {**per, **{k: v for k, v in details.items() if k != "characters"}}
    return {**outcome_data(out), "details": details}


def clock_lines(out: Outcome, cid: str) -> Lines:
    """Time passed for one character: damage before (the damage after less the changes'
    deltas) and after, condition, healing progress, then each note (bleeding,
    stabilisation, dying rolls)."""
    d = one_character(out, cid)["details"]
    moved = sum(c.delta or 0 for c in out.changes if (c.target, c.field) == (cid, "sheet.damage"))
    head = f"damage {d['damage'] - moved} -> {d['damage']} ({d['condition']})"
    return [f"{head}, progress {d['healing_progress']}", *(f"  {n}" for n in d.get("notes", []))]


def survival(rules: Any, action: Any, state: Any, options: Any) -> dict[str, Any]:
    """The chance a Dying character (``action.who``'s first) lives through the rounds."""
    fates = rules.odds(action, state, options)
    dead = fates.probability_where(lambda f: dict(f)[action.who[0]] == "Dead")
    return {"rounds": action.rounds, "Alive": 1 - dead, "Dead": dead}


def survival_data(odds: Mapping[str, Any]) -> dict[str, Any]:
    """``{"rounds", "Alive", "Dead"}``, the chances as fractions."""
    return {"rounds": odds["rounds"]} | {k: fraction_text(odds[k]) for k in ("Alive", "Dead")}


def survival_lines(odds: Mapping[str, Any]) -> Lines:
    """The chance of surviving the rounds, as a fraction and a percentage."""
    alive = odds["Alive"]
    shown = f"{fraction_text(alive)} = {float(alive) * 100:.4g}%"
    return [f"survives {odds['rounds']} round(s): {shown}"]


def rolled_lines(out: Outcome, odds: Distribution[Any] | None = None) -> Lines:
    """A roll that decides one result (a dying round, an End roll, a stimulant): the
    faces and the label, with the exact odds of each result when given."""
    dice = f"[{faces_text(out)}] " if out.faces else ""
    shown = (
        ", ".join(f"{k} {fraction_text(v)}" for k, v in odds.probabilities().items())
        if odds
        else ""
    )
    return [f"{dice}-> {out.label}" + (f"  (odds: {shown})" if shown else "")]


def first_aid_lines(out: Outcome) -> Lines:
    """First aid: the Medic check against its Difficulty and what it did."""
    return [f"{_versus(out)} -> {out.label}"]


def surgery_lines(out: Outcome) -> Lines:
    """Surgery: the check, the label, the minutes it took and any harm to the patient."""
    d = out.details
    harm = f"; the patient takes {d['harm']} damage" if d["harm"] else ""
    return [f"{_versus(out)} -> {out.label}; {d['minutes']} minutes{harm}"]


def stimulant_lines(out: Outcome) -> Lines:
    """A stimulant: whether the character wakes (its label)."""
    return [out.label]


def care_data(out: Outcome) -> dict[str, Any]:
    """A ward as JSON: each patient's care, the load, the capacity and the supervision."""
    return dict(out.details)


def care_lines(out: Outcome) -> Lines:
    """A ward: each patient's care level, the load against the capacity, supervision."""
    lines: Lines = [
        f"{r['condition']}: {r['care']} care" for r in out.items("patients") if isinstance(r, dict)
    ]
    lines.append(out.label)
    return lines + (
        [f"supervision: {out.text('supervision')}"] if "supervision" in out.details else []
    )


# ---------------------------------------------------------------------------
# Initiative (companion facts, turn economy)


def initiative_data(out: Outcome) -> dict[str, Any]:
    """The roll as JSON with the order (first to act first) and the tied steps on top."""
    return {**outcome_data(out), "order": out.details["order"], "steps": out.details["steps"]}


def initiative_lines(out: Outcome) -> Lines:
    """The turn order as a table (turn, PC, dice, modifier, Initiative), the tie rerolls."""
    rolled = {str(p["id"]): p for p in out.items("pcs") if isinstance(p, dict)}
    rows = []
    for n, step in enumerate(out.items("steps"), 1):
        for p in (rolled[str(cid)] for cid in (step if isinstance(step, list) else ())):
            dice = _kept(p["faces"], p["kept"]).replace(",", "")
            rows.append((str(n), str(p["name"]), dice, f"{p['modifier']:+d}", str(p["initiative"])))
    cols = ("turn", "PC", "dice", "modifier", "Initiative")
    ties = out.details["ties"]
    lines: Lines = [grid(f"Initiative (ties: {ties})", cols, rows, left=("PC", "dice"))]
    for group in out.items("rerolls"):
        rerolled = [f"{r['name']} {r['initiative']}" for r in group if isinstance(r, dict)]  # type: ignore[union-attr]
        lines.append("tie reroll: " + ", ".join(rerolled))
    return lines + (["(faces entered by hand)"] if out.manual else [])


def initiative_odds(rules: Any, action: Any, state: Any, options: Any) -> dict[str, Any]:
    """Each PC's Initiative, who acts first of each pair and (up to 4 PCs) the whole
    order, all from the ruleset's odds of Initiative rolls."""
    from referee.systems.mneme.initiative import MAX_ODDS_PCS, entrants

    es = entrants(action, state, options)

    def weigh(pcs: Any, report: str = "order") -> Any:
        return rules.odds(replace(action, pcs=pcs, report=report), state, options)

    totals = {
        e.name: weigh((pc,), "totals").map(lambda t: t[0][1])
        for e, pc in zip(es, action.pcs, strict=True)
    }
    pairs = []
    for i, j in ((m, n) for m in range(len(es)) for n in range(m + 1, len(es))):
        two, a, b = weigh((action.pcs[i], action.pcs[j])), es[i].id, es[j].id
        steps = {"p_first": ((a,), (b,)), "p_second": ((b,), (a,)), "p_tie": ((a, b),)}
        pairs.append(
            {"first": es[i].name, "second": es[j].name}
            | {k: fraction_text(two.probability(v)) for k, v in steps.items()}
        )
    order = weigh(action.pcs) if len(es) <= MAX_ODDS_PCS else None
    return {"initiative": totals, "pairs": pairs, "order": order, "ties": options.initiative_ties}


def _order_text(steps: Any) -> str:
    return " > ".join(" = ".join(s) for s in steps)


def initiative_odds_data(odds: Mapping[str, Any]) -> dict[str, Any]:
    """``{"initiative": {PC: {total: p}}, "pairs": [...], "order": {"A > B": p} | None}``."""
    order = odds["order"]
    shown = (
        None
        if order is None
        else {_order_text(o): fraction_text(p) for o, p in order.probabilities().items()}
    )
    return {
        "initiative": {n: fractions(d) for n, d in odds["initiative"].items()},
        "pairs": odds["pairs"],
        "order": shown,
    }


def initiative_odds_lines(odds: Mapping[str, Any]) -> Lines:
    """Each PC's range and mean, a table of who acts first per pair, the likeliest orders."""
    from fractions import Fraction

    lines: Lines = [
        f"{n}: Initiative {d.min()}..{d.max()}, mean {float(d.mean()):.2f}"
        for n, d in odds["initiative"].items()
    ]
    rows = []
    for p in odds["pairs"]:
        probs = [Fraction(str(p[k])) for k in ("p_first", "p_second", "p_tie")]
        rows.append((p["first"], p["second"], *(f"{_pct(q)}% ({q})" for q in probs)))
    cols = ("A", "B", "A first", "B first", "tie")
    lines.append(grid(f"who acts first (ties: {odds['ties']})", cols, rows, left=("A", "B")))
    ranked = (
        sorted(odds["order"].probabilities().items(), key=lambda t: -t[1]) if odds["order"] else []
    )
    return lines + [f"{float(q) * 100:6.2f}%  {_order_text(s)}" for s, q in ranked[:10]]


# ---------------------------------------------------------------------------
# sheets and a tour


def tour(rules: Any) -> list[str]:
    """A short seeded tour of Mneme CE at a table with the text's example characters:
    odds and a check, Initiative, an attack and its expected damage, damage from a Fail
    Effect and a round passing."""
    from referee.dice.roller import SeededRoller
    from referee.systems.base import Modifier
    from referee.systems.mneme.actions import (
        Attack,
        Check,
        CheckInputs,
        PassRounds,
        RollInitiative,
        TakeDamage,
        Threat,
    )

    opts = rules.options_type()
    table = rules.initial_state(opts)
    for cid, sheet in rules.examples().items():
        table = rules.seat(table, cid, sheet, opts)
    roller = SeededRoller(7)
    p = rules.odds(Check(modifiers=(Modifier(1, "Cmp", "competence"),)), table, opts)
    out = rules.resolve(Check(), table, roller, opts)
    lines = [
        f"2d6+1 vs 8 succeeds {fraction_text(p.at_least(0))}",
        f"check [{faces_text(out)}] vs 8 -> {out.label}",
    ]
    order = rules.resolve(RollInitiative(), table, roller, opts)
    table = rules.apply(table, order)
    rifle = Attack(
        "ada",
        "raider",
        CheckInputs(difficulty=10, characteristic="Dex", skill="Gun Combat"),
        weapon="Automatic Rifle",
    )
    hit = rules.resolve(rifle, table, roller, opts)
    lines += [
        f"Initiative for the encounter: {order.label}",
        f"Ada's automatic rifle vs the Raider's Flak Jacket -> {hit.label}",
    ]
    lines.append(
        f"expected damage of that attack: {float(rules.odds(rifle, table, opts).mean()):.2f}"
    )
    table = rules.apply(table, hit)
    swords = Threat(weapon="Broadsword", attacker="raider", rate_of_attack=3)
    took = rules.resolve(TakeDamage("ada", 3, swords), table, roller, opts)
    lines.append(f"Fail Effect 3, three broadswords vs Ada's Flak Jacket -> {took.label}")
    table = rules.apply(table, took)
    table = rules.apply(table, rules.resolve(PassRounds(), table, roller, opts))
    return lines + [
        f"Ada's {label}: {value}"
        for label, value in rules.tracker(table, opts)["characters"]["ada"][:4]
    ]
