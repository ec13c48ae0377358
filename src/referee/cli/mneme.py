"""``referee mneme ...``: each command reads its flags into a Mneme CE action, seats the
sheets it is given at a table (``pc``, ``target``, ``attacker``, ``medic``, ``patient``...)
and asks ``RULESET`` to resolve it or for its odds; what is printed renders the outcome.
``--out`` writes a sheet as ``RULESET.apply`` leaves it. ``--options`` is the table's
house rules. The generic ``actions``, ``act`` and ``odds-of`` commands reach every
action, these included."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import click

from referee.cli.common import (
    FACES_HELP,
    FACES_OPTION,
    JSON_OPTION,
    OPTIONS_OPTION,
    SEED_OPTION,
    console,
    emit_json,
    faces_option,
    handle_errors,
    listed,
    load_json_file,
    load_options,
    load_state,
    report_problems,
    resolve_action,
    stacked,
    write_json_file,
)
from referee.cli.presets import Preset, flag, preset_command, sheet
from referee.dice.odds import fraction_text
from referee.errors import RulesError
from referee.systems.base import Modifier, Outcome, outcome_data

if TYPE_CHECKING:
    from referee.cli.text import Console


app = click.Group(
    name="mneme",
    help="Mneme CE: 2d6 checks with Effects, exact odds, damage rolls, wounds and healing.",
    no_args_is_help=True,
)

ARMOUR_HELP = "Armour (AR) taken off each damage roll: 4, AR 4, or scaled DAR 2 / HAR 9 / KAR 3."
MODIFIER = click.option("--modifier", "-m", default=0, help="Total modifier added to 2d6.")
DIFFICULTY = click.option(
    "--difficulty", "-d", default="8", help="A number or a name (Easy ... Formidable)."
)
ADVANTAGE = click.option(
    "--advantage", default=0, help="Advantages (cancel Disadvantages one for one)."
)
DISADVANTAGE = click.option("--disadvantage", default=0, help="Disadvantages.")
MODS = click.option(
    "--mod",
    "mods",
    multiple=True,
    callback=listed,
    help="A typed modifier VALUE:KIND[:SOURCE], KIND one of competence, equipment, condition, "
    "action; repeatable. Of one kind only the most favourable applies (conditions: per "
    "condition, option condition_stacking).",
)
CONDITIONS = click.option(
    "--condition",
    "conditions",
    multiple=True,
    callback=listed,
    help="A condition preset on the Difficulty: concealment|cover:partial|mostly|full, "
    "'close quarters:ranged', 'superior firepower:1..3', 'superior position:1..2', "
    "outnumbered:minor|significant|overwhelming; '-' for the PC's edge. Repeatable.",
)
SHEET = click.option("--sheet", help="The character's sheet (JSON).")
CHARACTERISTIC = click.option("--characteristic", "-c", help="With a sheet: the characteristic.")
SKILL = click.option("--skill", help="With a sheet: the skill rolled.")
STEALTH = click.option(
    "--stealth", is_flag=True, help="With --sheet: a stealth roll (Recon or Streetwise)."
)
COMBINED = click.option("--combined", help="Skills the task combines, rolled one first.")
WEAPON = click.option("--weapon", "-w", help="A weapon on the attacker's sheet.")
ATTACKER = click.option("--attacker", help="The attacker's sheet (JSON).")
RATE = click.option("--rate", "-r", type=int, help="Rate of Attack (the adversaries' summed).")
EXTRA = click.option("--modifier", "-m", default=0, help="Extra modifier (tools, equipment...).")
OUT = click.option("--out", help="Write the updated sheet here (JSON).")
PATH = click.argument("path", help="The character's sheet (JSON).")
WARD = click.argument(
    "conditions",
    nargs=-1,
    callback=listed,
    required=True,
    help="Each patient's condition (Wounded, Dying...).",
)
SHEETS = click.argument(
    "sheets", nargs=-1, callback=listed, help="PC sheets (JSON) rolling Initiative."
)
PCS = click.option(
    "--pc",
    "pcs",
    multiple=True,
    callback=listed,
    help="A PC without a sheet: NAME:MOD[:CHM]. Repeatable.",
)
ADV_PC = click.option(
    "--advantage",
    multiple=True,
    callback=listed,
    help="A PC's name: one step of Advantage. Repeatable.",
)
DIS_PC = click.option(
    "--disadvantage", multiple=True, callback=listed, help="A PC's name: one step. Repeatable."
)
MOD_KINDS = ("competence", "equipment", "condition", "action")
"""Kinds of modifier (Mneme CE ch. 2, Modifiers to Rolls); Advantage has its own options."""


# ---------------------------------------------------------------------------
# reading flags


def _ruleset() -> Any:
    from referee.systems.mneme import RULESET

    return RULESET


def _difficulty(text: str) -> int:
    from referee.systems.mneme.tables import DIFFICULTY as LADDER
    from referee.systems.mneme.tables import DIFFICULTY_ALIASES

    t = text.strip()
    if t.lstrip("-").isdigit():
        return int(t)
    return DIFFICULTY_ALIASES.get(t.lower()) or LADDER.value(t)


def _typed(text: str) -> Modifier:
    """``2:equipment:scope`` -> a Modifier of 2 of kind 'equipment' from 'scope'."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) not in (2, 3):
        raise RulesError(f"--mod {text!r}: write VALUE:KIND or VALUE:KIND:SOURCE")
    try:
        value = int(parts[0])
    except ValueError:
        raise RulesError(f"--mod {text!r}: {parts[0]!r} is not a whole number") from None
    kind = parts[1].lower().removesuffix("s")
    if kind not in MOD_KINDS:
        raise RulesError(f"--mod {text!r}: kind must be one of {', '.join(MOD_KINDS)}")
    return Modifier(value, parts[2] if len(parts) == 3 else kind, kind)


def _inputs(
    modifier: int, difficulty: str, adv: int, dis: int, typed: Any = None, presets: Any = None
) -> dict[str, Any]:
    """A check's inputs from the flags every check command shares."""
    given = [Modifier(modifier, "--modifier", "total")] if modifier else []
    for name, steps in (("advantage", adv), ("disadvantage", dis)):
        if not 0 <= steps <= 20:
            raise RulesError(f"{name} must be 0..20, not {steps}")
    mods = (*given, *(_typed(t) for t in typed or ()))
    return {"difficulty": _difficulty(difficulty), "modifiers": mods, "advantage": adv} | {
        "disadvantage": dis,
        "conditions": tuple(presets or ()),
    }


def _roller_of(
    sheet: str | None, characteristic: str | None, skill: str | None, stealth: bool, combined: Any
) -> dict[str, Any]:
    """Who rolls a check (``pc`` when a sheet is given) and with which traits."""
    skills = tuple(p.strip() for p in (combined or "").split(",") if p.strip())
    return {"actor": "pc" if sheet else None, "characteristic": characteristic, "skill": skill} | {
        "stealth": stealth,
        "combined_skills": skills,
    }


def _table(options: Any, **sheets: str | None) -> Any:
    """A table with each sheet file seated under its role's id."""
    seats = [f"{cid}={path}" for cid, path in sheets.items() if path is not None]
    return load_state(_ruleset(), None, options, seats)


def _faces_text(outcome: Outcome) -> str:
    return " ".join(str(d.face) if d.kept else f"({d.face})" for d in outcome.faces)


def _roll(action: Any, state: Any, options: Any, faces: str | None, seed: int | None) -> Outcome:
    """Resolve ``action`` with typed-in ``--faces`` (every one used), ``--seed`` or real dice."""
    outcome: Outcome = resolve_action(_ruleset(), action, state, options, faces=faces, seed=seed)
    return outcome


def _fixed(action: Any, state: Any, options: Any) -> Outcome:
    """Resolve an action that rolls nothing."""
    from referee.dice.roller import ScriptedRoller

    outcome: Outcome = _ruleset().resolve(action, state, ScriptedRoller([]), options)
    return outcome


def _save(out: str | None, state: Any, outcome: Outcome, cid: str, missing: str) -> None:
    """Write the sheet of ``cid`` as the outcome leaves it to ``--out``."""
    if out is None:
        return
    if cid not in state.characters:
        raise RulesError(missing)
    after = _ruleset().apply(state, outcome)
    write_json_file(out, _ruleset().dump_sheet(after.characters[cid].sheet))


def _source(damage: str | None, weapon: str | None) -> tuple[str, str]:
    """A damage expression or a weapon name (one of the two)."""
    if (damage is None) == (weapon is None):
        raise RulesError("give a damage expression or --weapon NAME (one of them)")
    return damage or "", weapon or ""


def _target(armour: str, armour_scale: str = "", target_scale: str = "") -> Any:
    """The target of damage rolls from ``--armour`` (``4``, ``AR 4``, ``DAR 2``)."""
    from referee.systems.mneme.damage import Target, as_scale
    from referee.systems.mneme.scale import armour_notation

    rating, written = armour_notation(armour)
    if written and armour_scale and written != armour_scale:
        raise RulesError(
            f"armour {armour!r} is scale {written}, but --armour-scale says {armour_scale}"
        )
    return Target(rating, as_scale(written or armour_scale), as_scale(target_scale))


def _scaled(damage: str, scale: str) -> str:
    """A damage expression with ``--scale`` written as the text does (``D 3d3``)."""
    from referee.systems.mneme.scale import damage_notation

    expression, written = damage_notation(damage)
    if written and scale and written != scale:
        raise RulesError(f"damage {damage!r} is scale {written}, but --scale says {scale}")
    return f"{written or scale} {expression}".strip()


def _rolls_text(outcome: Outcome, key: str) -> str:
    """Damage rolls as dealt, the ones not kept in parentheses."""
    r = outcome.record(key)
    dealt, kept = r.get("dealt"), r.get("kept")
    assert isinstance(dealt, list) and isinstance(kept, list)
    return ", ".join(str(x) if k else f"({x})" for x, k in zip(dealt, kept, strict=True))


# ---------------------------------------------------------------------------
# checks


SHEET_INPUTS = stacked(MODS, CONDITIONS, SHEET, CHARACTERISTIC, SKILL, STEALTH, COMBINED)
"""A check's modifiers from the table and from a sheet."""


ODDS_INPUTS = stacked(MODIFIER, DIFFICULTY, ADVANTAGE, DISADVANTAGE)
"""The check itself: modifier, Difficulty, Advantage and Disadvantage."""


def _check_data(data: dict[str, Any], values: Any) -> dict[str, Any]:
    """The flags a check shares: ``--modifier`` as one total modifier beside the typed ``--mod``s,
    Advantage and the combined skills as a list."""
    total = [{"value": values["modifier"], "source": "--modifier", "kind": "total"}]
    data["modifiers"] = (total if values["modifier"] else []) + data.get("modifiers", [])
    if values.get("combined"):
        data["combined_skills"] = [p.strip() for p in values["combined"].split(",") if p.strip()]
    if values.get("mitigate") is not None:
        parts = faces_option(values["mitigate"]) or ()
        if len(parts) != 3:
            raise RulesError("--mitigate takes three numbers: conditions,cover,skill")
        data["mitigating"] = dict(zip(("conditions", "cover", "skill"), parts, strict=True))
    return data


def _typed_data(text: str) -> dict[str, Any]:
    m = _typed(text)
    return {"value": m.value, "source": m.source, "kind": m.kind}


def _difficulty_value(text: str) -> int:
    return _difficulty(text)


CHECK_FLAGS = (
    flag("", "--modifier", "-m", kind="int", default=0, help="Total modifier added to 2d6."),
    flag(
        "difficulty",
        "-d",
        read=_difficulty_value,
        default="8",
        help="A number or a name (Easy ... Formidable).",
    ),
    flag("advantage"),
    flag("disadvantage"),
    flag(
        "modifiers",
        "--mod",
        read=_typed_data,
        kind="many",
        help="A typed modifier VALUE:KIND[:SOURCE], "
        "KIND one of competence, equipment, condition, action; repeatable. Of one kind only the most "
        "favourable applies (conditions: per condition, option condition_stacking).",
    ),
    flag(
        "conditions",
        "--condition",
        kind="many",
        help="A condition preset on the Difficulty: concealment|cover:partial|mostly|full, "
        "'close quarters:ranged', 'superior firepower:1..3', 'superior position:1..2', "
        "outnumbered:minor|significant|overwhelming; '-' for the PC's edge. Repeatable.",
    ),
    flag("characteristic", "-c"),
    flag("skill"),
    flag("stealth"),
    flag("", "--combined", kind="text", help="Skills the task combines, rolled one first."),
)


def _odds_text(dist: Any, values: Any) -> str:
    from referee.cli.text import Table

    p = dist.at_least(0)
    table = Table(title=f"success {fraction_text(p)} = {float(p) * 100:.2f}%", title_justify="left")
    for col in ("Effect", "exact", "%"):
        table.add_column(col, justify="right")
    for e, q in dist.probabilities().items():
        table.add_row(f"{e:+d}", fraction_text(q), f"{float(q) * 100:.2f}")
    console.print(table)
    return ""


def _odds_data(dist: Any, values: Any) -> Any:
    effects = {str(e): fraction_text(q) for e, q in dist.probabilities().items()}
    return {"p_success": fraction_text(dist.at_least(0)), "effect": effects}


def _check_text(out: Outcome, values: Any) -> str:
    d = out.details
    manual = " (faces entered by hand)" if out.manual else ""
    lines = [
        f"[{_faces_text(out)}] = {d['dice']} {d['modifier']:+d} = {d['roll']} vs "
        f"{d['difficulty']}: Effect {d['effect']:+d} -> {out.label}{manual}"
    ]
    for key, title in (("dropped_modifiers", "not stacked"), ("conditions", "conditions")):
        if out.items(key):
            lines.append(f"{title}: " + ", ".join(map(str, out.items(key))))
    if "mitigation" in d:
        lines.append("mitigation: " + " -> ".join(map(str, out.items("mitigation"))))
    if "time" in d:
        lines.append(f"time: {d['time']} (median {d['median_time']})")
    return "\n".join(lines)


def _check_json(out: Outcome, values: Any) -> Any:
    keys = ("roll", "dice", "modifier", "difficulty", "effect")
    return outcome_data(out) | {k: out.details[k] for k in keys}


app.add_command(
    preset_command(
        "mneme",
        Preset(
            "check",
            "check",
            (
                *CHECK_FLAGS,
                flag("costly_success", "--costly", help="Take a failure as a Costly Success."),
                flag("duration"),
                flag("unit"),
                flag(
                    "",
                    "--mitigate",
                    kind="text",
                    help="Mitigating Factors: conditions,cover,skill.",
                ),
                sheet("pc", "--sheet", sets={"actor": "pc"}, help="The character's sheet (JSON)."),
            ),
            help="Resolve a check: 2d6 (3d6 keep two with Advantage/Disadvantage) + modifier vs Difficulty.",
            build=_check_data,
            exact_faces=True,
            text=_check_text,
            data=_check_json,
        ),
    )
)
app.add_command(
    preset_command(
        "mneme",
        Preset(
            "odds",
            "check",
            (*CHECK_FLAGS, sheet("pc", "--sheet", sets={"actor": "pc"})),
            help="Exact odds of a check: the chance of success and every Effect (failures included).",
            odds=True,
            build=_check_data,
            text=_odds_text,
            data=_odds_data,
        ),
    )
)


# ---------------------------------------------------------------------------
# damage


@app.command("attack-odds")
@click.argument("damage", required=False, help="Damage of one roll: 3d6-2, 'D 3d3'...")
@WEAPON
@ATTACKER
@click.option("--armour", "-a", default="0", help=ARMOUR_HELP)
@click.option("--rolls", "-n", type=int, help="Number of damage rolls; default 1.")
@click.option("--difficulty", "-d", help="Odds of a whole attack: its check at this Difficulty.")
@MODIFIER
@ADVANTAGE
@DISADVANTAGE
@click.option("--rate", "-r", type=int, help="Rate of Attack (default: unlimited).")
@click.option("--effect", default=0, help="Effect degree of the rolls (6+: at least 1 each).")
@click.option("--scale", default="", help="Damage scale: '', D, H or K.")
@click.option("--armour-scale", default="", help="Armour scale: '', D, H or K.")
@click.option("--target-scale", default="", help="Target's own scale.")
@click.option("--sheet", help="Target's sheet: the odds of each condition.")
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def attack_odds(
    damage: str | None,
    weapon: str | None,
    attacker: str | None,
    armour: str,
    rolls: int | None,
    difficulty: str | None,
    modifier: int,
    advantage: int,
    disadvantage: int,
    rate: int | None,
    effect: int,
    scale: str,
    armour_scale: str,
    target_scale: str,
    sheet: str | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Exact distribution of damage dealt by k rolls, keeping the highest RoA, armour per roll
    (or, with --difficulty, by a whole attack: the check, then its damage rolls)."""
    from referee.systems.mneme.actions import Attack, CheckInputs, DamageRolls
    from referee.systems.mneme.tables import CONDITIONS as NAMES

    ruleset = _ruleset()
    options = load_options(ruleset, options_file)
    if weapon is not None and (damage is not None or attacker is None):
        raise RulesError("--weapon needs --attacker and no damage expression")
    if weapon is None and damage is None:
        raise RulesError("give a damage expression or --weapon NAME --attacker FILE")
    text = _scaled(damage, scale) if damage else ""
    state = _table(options, attacker=attacker, target=sheet)
    target = _target(armour, armour_scale, target_scale)
    aimed = "target" if sheet else None
    who = "attacker" if weapon else None
    action: Any
    if difficulty is not None:
        if rolls is not None or effect:
            raise RulesError("--difficulty makes the check decide the rolls: drop --rolls/--effect")
        check = CheckInputs(**_inputs(modifier, difficulty, advantage, disadvantage))
        action = Attack(who, aimed, check, weapon or "", text, rate, target)
    else:
        if modifier or advantage or disadvantage:
            raise RulesError("--modifier/--advantage/--disadvantage need --difficulty")
        n = 1 if rolls is None else rolls
        action = DamageRolls(n, text, weapon or "", who, rate, effect, target, aimed)
    dist = ruleset.odds(action, state, options)
    data: dict[str, Any] = {
        "damage": {str(k): fraction_text(v) for k, v in dist.probabilities().items()},
        "mean": fraction_text(dist.mean()),
    }
    if sheet is not None:
        conds = ruleset.odds(replace(action, report="condition"), state, options)
        data["conditions"] = {c: fraction_text(conds.probability(c)) for c in NAMES if c in conds}
        for key, report in (("p_bleeding", "bleeding"), ("p_massive_damage", "massive")):
            flag = ruleset.odds(replace(action, report=report), state, options)
            data[key] = fraction_text(flag.probability(True))
    if as_json:
        emit_json(data)
        return
    from referee.cli.main import show_distribution

    what = f"({text or weapon}) vs {target.armour_scale}AR {target.armour}"
    count = f"{action.rolls} x" if isinstance(action, DamageRolls) else "attack: damage rolls"
    show_distribution(f"{count} {what}, RoA {rate or 'of the weapon'}", dist, value_header="damage")
    for key in ("conditions", "p_bleeding", "p_massive_damage"):
        shown = data.get(key, {})
        for c, p in shown.items() if isinstance(shown, dict) else [(key, shown)]:
            console.print(f"{c}: {p}", markup=False)


@app.command()
@click.argument("damage", required=False, help="Weapon damage, e.g. 3d6-2 (or --weapon).")
@click.option("--weapon", "-w", help="A weapon on --sheet.")
@click.option("--sheet", help="The attacker's sheet (JSON).")
@CHARACTERISTIC
@click.option("--skill", help="With --sheet: the skill (default the weapon's).")
@click.option("--target-sheet", help="The target's sheet (JSON).")
@ODDS_INPUTS
@click.option("--armour", "-a", help=ARMOUR_HELP + " Default the target's.")
@click.option("--rate", "-r", type=int, help="Weapon's Rate of Attack.")
@MODS
@CONDITIONS
@click.option("--faces", help=FACES_HELP + " The check's dice first.")
@SEED_OPTION
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def attack(
    damage: str | None,
    weapon: str | None,
    sheet: str | None,
    characteristic: str | None,
    skill: str | None,
    target_sheet: str | None,
    modifier: int,
    difficulty: str,
    advantage: int,
    disadvantage: int,
    armour: str | None,
    rate: int | None,
    mods: list[str] | None,
    conditions: list[str] | None,
    faces: str | None,
    seed: int | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Roll an attack: the check, then its damage rolls (SE + 1 up to the RoA), armour each."""
    from referee.systems.mneme.actions import Attack, CheckInputs

    text, named = _source(damage, weapon)
    options = load_options(_ruleset(), options_file)
    state = _table(options, pc=sheet, target=target_sheet)
    base = _inputs(modifier, difficulty, advantage, disadvantage, mods, conditions)
    check = CheckInputs(**base, characteristic=characteristic, skill=skill)
    cover = None if armour is None and target_sheet else _target(armour or "0")
    who, aimed = "pc" if sheet else None, "target" if target_sheet else None
    action = Attack(who, aimed, check, named, text, rate, cover)
    outcome = _roll(action, state, options, faces, seed)
    if as_json:
        emit_json(outcome_data(outcome))
        return
    d = outcome.details
    console.print(
        f"check {d['roll']} vs {d['difficulty']}: Effect {d['effect']:+d} -> {outcome.label}"
    )
    if "weapon_rolls" in d:
        total = outcome.record("weapon_rolls")["total"]
        console.print(
            f"damage rolls after armour: {_rolls_text(outcome, 'weapon_rolls')} = {total}"
        )
    if "target" in d:
        console.print(f"target: {outcome.record('target')['condition']}", markup=False)


@app.command("take-damage")
@click.argument("damage", required=False, help="Adversaries' damage per roll, e.g. 3d3-2.")
@WEAPON
@ATTACKER
@click.option("--fail-effect", "-f", required=True, type=int, help="Fail Effect degree.")
@RATE
@click.option("--armour", "-a", help=ARMOUR_HELP + " Default: worn.")
@click.option("--conditions", default=0, help="First-priority mitigation.")
@click.option("--cover", default=0, help="Cover / protection value (absorbs rolls).")
@click.option("--cover-object", type=int, help="--sheet's protection object N.")
@click.option("--skill", type=int, help="Skill mitigation (default: from --sheet).")
@click.option("--defence-skill", "defence", help="The failed check's skill (--sheet).")
@click.option("--sheet", help="Your sheet (armour, cover, Bleeding).")
@click.option("--out", help="Write the updated --sheet here.")
@click.option("--massive-roll", is_flag=True, help="Roll massive damage's End roll at once.")
@FACES_OPTION
@SEED_OPTION
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def take_damage(
    damage: str | None,
    weapon: str | None,
    attacker: str | None,
    fail_effect: int,
    rate: int | None,
    armour: str | None,
    conditions: int,
    cover: int,
    cover_object: int | None,
    skill: int | None,
    defence: str | None,
    sheet: str | None,
    out: str | None,
    massive_roll: bool,
    faces: str | None,
    seed: int | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Roll the damage a Fail Effect brings: mitigation, cover's rolls, yours (RoA limited)."""
    from referee.systems.mneme.actions import Mitigating, TakeDamage, Threat

    text, named = _source(damage, weapon)
    options = load_options(_ruleset(), options_file)
    state = _table(options, pc=sheet, attacker=attacker)
    worn = None if armour is None else _target(armour)
    mitigating = Mitigating(conditions, cover, skill, cover_object)
    threat = Threat(text, named, "attacker" if attacker else None, rate, worn, mitigating)
    who = "pc" if sheet else None
    action = TakeDamage(who, fail_effect, threat, skill=defence, massive_roll=massive_roll)
    outcome = _roll(action, state, options, faces, seed)
    _save(out, state, outcome, "pc", "--out needs --sheet")
    if as_json:
        emit_json(outcome_data(outcome))
        return
    d = outcome.details
    console.print("Fail Effect: " + " -> ".join(map(str, outcome.items("mitigation"))))
    if "cover_rolls" in d:
        gone = " (destroyed)" if d.get("cover_destroyed") else ""
        dealt = outcome.record("cover_rolls")["dealt"]
        console.print(f"cover takes {dealt}: {d['cover_damage']} damage{gone}", markup=False)
    console.print(f"you take [{_rolls_text(outcome, 'damage_rolls')}]: {outcome.label}")
    if d.get("bleeding"):
        console.print("Bleeding: one roll reached the Seriously Wounded threshold")
    if "massive_roll" in d:
        m = outcome.record("massive_roll")
        console.print(f"massive damage: End {m['roll']} vs {m['difficulty']} -> {m['result']}")
    elif d.get("massive_damage"):
        console.print(
            "massive damage: an End roll at 8 is due (referee mneme survival FILE massive "
            "--damage-before N, the damage before this hit)"
        )
    if "condition" in d:
        moves = outcome.record("movement")
        extra = f" (speed {moves['speed']}, no Dash)" if moves else ""
        console.print(f"condition: {d['condition']}{extra}", markup=False)


# ---------------------------------------------------------------------------
# time, dying and treatment


def _single(outcome: Outcome, cid: str) -> dict[str, Any]:
    """The outcome as JSON with one character's details on top (one sheet was given)."""
    data = outcome_data(outcome)
    details = dict(outcome.details)
    per = outcome.record("characters").get(cid)
    if isinstance(per, dict):
        details = {**per, **{k: v for k, v in details.items() if k != "characters"}}
    return data | {"details": details}


@app.command()
@PATH
@click.option("--days", default=0, help="Days passing.")
@click.option("--hours", default=0, help="Hours passing.")
@click.option("--minutes", default=0, help="Minutes passing.")
@click.option("--activity", default="full_rest", help="strenuous, moderate, light or full_rest.")
@click.option("--care", default="none", help="none, light, moderate, serious, intensive.")
@click.option("--unsupervised", is_flag=True, help="Intensive care without a Medic 2+.")
@click.option("--therapy", help="Characteristic under therapy.")
@click.option("--roll-dying/--note-dying", default=True, help="Roll due dying rolls, or note.")
@click.option("--faces", help=FACES_HELP + " (dying rolls)")
@SEED_OPTION
@OUT
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def clock(
    path: str,
    days: int,
    hours: int,
    minutes: int,
    activity: str,
    care: str,
    unsupervised: bool,
    therapy: str | None,
    roll_dying: bool,
    faces: str | None,
    seed: int | None,
    out: str | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Let time pass at an activity and care level (set-care, then pass-time): healing,
    bleeding, stabilisation, therapy and due dying rolls."""
    from referee.systems.mneme.actions import PassTime

    ruleset = _ruleset()
    options = load_options(ruleset, options_file)
    state = _table(options, pc=path)
    cared = {"activity": activity, "care": care, "supervised": not unsupervised}
    care_action = ruleset.load_action("set-care", {"actor": "pc", "therapy": therapy} | cared)
    state = ruleset.apply(state, _fixed(care_action, state, options))
    before = state.characters["pc"].sheet
    outcome = _roll(PassTime(days, hours, minutes, roll_dying), state, options, faces, seed)
    _save(out, state, outcome, "pc", "--out needs a sheet")
    data = _single(outcome, "pc")
    if as_json:
        emit_json(data)
        return
    d = data["details"]
    progress = d["healing_progress"]
    console.print(
        f"damage {before.damage} -> {d['damage']} ({d['condition']}), progress {progress}"
    )
    for note in d.get("notes", []):
        console.print(f"  {note}", markup=False)


@app.command()
@PATH
@click.option("--rounds", "-n", default=1, help="Rounds passing.")
@click.option("--odds", "show_odds", is_flag=True, help="Exact odds of surviving; no roll.")
@FACES_OPTION
@SEED_OPTION
@OUT
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def dying(
    path: str,
    rounds: int,
    show_odds: bool,
    faces: str | None,
    seed: int | None,
    out: str | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Rounds pass for a Dying character: End vs 4 each round (wound penalties); fail = dead."""
    from referee.systems.mneme.actions import PassRounds

    ruleset = _ruleset()
    options = load_options(ruleset, options_file)
    state = _table(options, pc=path)
    action = PassRounds(rounds, who=("pc",))
    if show_odds:
        fates = ruleset.odds(action, state, options)
        dist = fates.map(lambda f: "Dead" if dict(f)["pc"] == "Dead" else "Alive")
        data = {k: fraction_text(dist.probability(k)) for k in ("Alive", "Dead")}
        if as_json:
            emit_json({"rounds": rounds, **data})
            return
        p = float(dist.probability("Alive")) * 100
        console.print(f"survives {rounds} round(s): {data['Alive']} = {p:.4g}%", markup=False)
        return
    outcome = _roll(action, state, options, faces, seed)
    _save(out, state, outcome, "pc", "--out needs a sheet")
    if as_json:
        emit_json(_single(outcome, "pc"))
        return
    console.print(f"[{_faces_text(outcome)}] -> {outcome.label}", markup=False)


@app.command()
@PATH
@click.argument("kind", help="dying, massive or intensive.")
@click.option("--supervisor-medic", type=int, help="Intensive care: Medic.")
@click.option("--ai-sickbay", is_flag=True, help="Intensive care in an AI sickbay.")
@click.option("--no-tools", is_flag=True, help="Intensive care without tools.")
@click.option(
    "--damage-before",
    type=int,
    help="Massive: the damage before the hit (its wound penalty is the roll's).",
)
@FACES_OPTION
@SEED_OPTION
@OUT
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def survival(
    path: str,
    kind: str,
    supervisor_medic: int | None,
    ai_sickbay: bool,
    no_tools: bool,
    damage_before: int | None,
    faces: str | None,
    seed: int | None,
    out: str | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """An End roll: dying (vs 4), massive damage (vs 8) or intensive care (vs 8)."""
    ruleset = _ruleset()
    options = load_options(ruleset, options_file)
    state = _table(options, pc=path)
    fields = {
        "actor": "pc",
        "supervisor_medic": supervisor_medic,
        "ai_sickbay": ai_sickbay,
        "damage_before": damage_before,
    }
    action = ruleset.action_type("survival")(kind=kind, equipped=not no_tools, **fields)
    outcome = _roll(action, state, options, faces, seed)
    _save(out, state, outcome, "pc", "--out needs a sheet")
    if as_json:
        emit_json(outcome_data(outcome))
        return
    dist = ruleset.odds(action, state, options)
    shown = ", ".join(f"{k} {fraction_text(v)}" for k, v in dist.probabilities().items())
    dice = f"[{_faces_text(outcome)}] " if outcome.faces else ""
    console.print(f"{dice}-> {outcome.label}  (odds: {shown})", markup=False)


@app.command("first-aid")
@click.argument("medic", help="The medic's sheet (JSON).")
@click.option("--patient", help="The patient's sheet (JSON).")
@click.option("--self", "on_self", is_flag=True, help="First aid on oneself (Difficulty 10).")
@EXTRA
@click.option("--rounds-left", type=int, help="One round of the task: N to go.")
@FACES_OPTION
@SEED_OPTION
@click.option("--out", help="Write the patient's sheet here (JSON).")
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def first_aid(
    medic: str,
    patient: str | None,
    on_self: bool,
    modifier: int,
    rounds_left: int | None,
    faces: str | None,
    seed: int | None,
    out: str | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """First aid: heals the Effect (at least 1), stops Bleeding, stabilises the Dying."""
    from referee.systems.mneme.actions import FirstAid

    options = load_options(_ruleset(), options_file)
    state = _table(options, medic=medic, patient=None if on_self else patient)
    mods = (Modifier(modifier, "modifier", "equipment"),) if modifier else ()
    treated = "patient" if patient and not on_self else None
    action = FirstAid("medic", treated, on_self, mods, rounds_left=rounds_left)
    outcome = _roll(action, state, options, faces, seed)
    who = "medic" if on_self else "patient"
    _save(out, state, outcome, who, "--out needs --patient (or --self)")
    if as_json:
        emit_json(outcome_data(outcome))
        return
    d = outcome.details
    console.print(f"[{_faces_text(outcome)}] {d['roll']} vs {d['difficulty']} -> {outcome.label}")


@app.command()
@click.argument("surgeon", help="The surgeon's sheet (JSON).")
@click.option("--patient", help="The patient's sheet: End and condition.")
@click.option("--end", "patient_end", type=int, help="Patient's End (no --patient).")
@click.option(
    "--condition", "patient_condition", default="Seriously Wounded", help="(no --patient)"
)
@click.option("--no-facility", is_flag=True, help="No hospital or sickbay (refused).")
@EXTRA
@FACES_OPTION
@SEED_OPTION
@click.option("--out", help="Write the patient's sheet here (JSON).")
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def surgery(
    surgeon: str,
    patient: str | None,
    patient_end: int | None,
    patient_condition: str,
    no_facility: bool,
    modifier: int,
    faces: str | None,
    seed: int | None,
    out: str | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Surgery, a Medic check at 8: heals 2 x SE; Medic skill cuts a Fail Effect, what is left
    multiplies the time and, above half the patient's End, harms them by twice it."""
    if patient is None and patient_end is None:
        raise RulesError("give the patient's sheet (--patient) or their End (--end)")
    ruleset = _ruleset()
    options = load_options(ruleset, options_file)
    state = _table(options, surgeon=surgeon, patient=patient)
    mods = (Modifier(modifier, "modifier", "equipment"),) if modifier else ()
    known = {"patient": "patient"} if patient else {"patient_end": patient_end}
    unseated = {} if patient else {"patient_condition": patient_condition}
    fields = {"actor": "surgeon", "facility": not no_facility, "modifiers": mods}
    action = ruleset.action_type("surgery")(**fields, **known, **unseated)
    outcome = _roll(action, state, options, faces, seed)
    _save(out, state, outcome, "patient", "--out needs --patient")
    if as_json:
        emit_json(outcome_data(outcome))
        return
    d = outcome.details
    harm = f"; the patient takes {d['harm']} damage" if d["harm"] else ""
    head = f"[{_faces_text(outcome)}] {d['roll']} vs {d['difficulty']}"
    console.print(f"{head} -> {outcome.label}; {d['minutes']} minutes{harm}", markup=False)


@app.command()
@WARD
@click.option("--medic", default=0, help="The caregiver's Medic level.")
@click.option("--supervisor-medic", type=int, help="A supervisor's Medic.")
@click.option("--ai-sickbay", is_flag=True, help="An AI sickbay supervises intensive care.")
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def care(
    conditions: list[str],
    medic: int,
    supervisor_medic: int | None,
    ai_sickbay: bool,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Medical care: the ward's load in light-care patients against the caregiver's capacity
    (8 at Medic 0, doubling per level and under a Medic 2+ supervisor), and whether the
    intensive-care patients have the supervision they need."""
    ruleset = _ruleset()
    options = load_options(ruleset, options_file)
    fields = {"medic": medic, "supervisor_medic": supervisor_medic, "ai_sickbay": ai_sickbay}
    action = ruleset.action_type("care")(conditions=tuple(conditions), **fields)
    outcome = _fixed(action, ruleset.initial_state(options), options)
    if as_json:
        emit_json(dict(outcome.details))
        return
    for row in outcome.items("patients"):
        assert isinstance(row, dict)
        console.print(f"{row['condition']}: {row['care']} care", markup=False)
    console.print(outcome.label, markup=False)
    if "supervision" in outcome.details:
        console.print(f"supervision: {outcome.text('supervision')}", markup=False)


@app.command()
@PATH
@OUT
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def stimulant(
    path: str,
    out: str | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """An adrenaline shot or combat stimulant wakes a Critically Wounded character."""
    from referee.systems.mneme.actions import Stimulant

    options = load_options(_ruleset(), options_file)
    state = _table(options, pc=path)
    outcome = _fixed(Stimulant("pc"), state, options)
    _save(out, state, outcome, "pc", "--out needs a sheet")
    if as_json:
        emit_json(outcome_data(outcome))
        return
    console.print(outcome.label, markup=False)


@app.command()
@PATH
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def validate(
    path: str,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Validate a Mneme CE sheet, listing every problem; shows HP and condition when valid."""
    ruleset = _ruleset()
    options = load_options(ruleset, options_file)
    character = ruleset.load_sheet(load_json_file(path))
    problems = ruleset.validate(character, options)
    valid_text = f"{path}: valid"
    if not problems:
        state = ruleset.seat(ruleset.initial_state(options), "pc", character, options)
        rows = dict(ruleset.tracker(state, options)["characters"]["pc"])
        valid_text += f"; HP {rows['HP']}, damage {rows['Damage']} ({rows['Condition']})"
    report_problems(problems, as_json=as_json, valid_text=valid_text)


# ---------------------------------------------------------------------------
# turn order


def _pc_entry(text: str) -> Any:
    """``NAME:MOD`` or ``NAME:MOD:CHM`` -> an InitiativePC with explicit modifiers."""
    from referee.systems.mneme.actions import InitiativePC

    parts = [p.strip() for p in text.split(":")]
    if len(parts) not in (2, 3) or not parts[0]:
        raise RulesError(f"--pc {text!r}: write NAME:MOD or NAME:MOD:CHM")
    try:
        numbers = [int(p) for p in parts[1:]]
    except ValueError:
        raise RulesError(f"--pc {text!r}: MOD and CHM are whole numbers") from None
    return InitiativePC(parts[0], numbers[0], numbers[1] if len(numbers) == 2 else None)


def _initiative(options: Any, sheets: Any, pcs: Any, char: Any, skill: Any, steps: Any) -> Any:
    """The table (each sheet seated under its name) and the roll: the sheets' PCs first,
    then the ``--pc`` entries, with the Advantage steps named."""
    from referee.systems.mneme.actions import InitiativePC, RollInitiative

    if (char or skill) and not sheets:
        raise RulesError("--characteristic and --skill apply to sheets; give one")
    ruleset = _ruleset()
    state = ruleset.initial_state(options)
    entries = []
    for path in sheets or ():
        sheet = ruleset.load_sheet(load_json_file(path))
        state = ruleset.seat(state, sheet.name, sheet, options)
        entries.append(InitiativePC(sheet.name, characteristic=char, skill=skill))
    entries += [_pc_entry(t) for t in pcs or ()]
    names = [e.who.lower() for e in entries]
    for flag, given in steps.items():
        for name in given or ():
            if name.strip().lower() not in names:
                raise RulesError(f"--{flag} {name!r}: no such PC (PCs: {', '.join(names)})")
            i = names.index(name.strip().lower())
            entries[i] = replace(entries[i], **{flag: getattr(entries[i], flag) + 1})
    return state, RollInitiative(tuple(entries))


def _initiative_odds(action: Any, state: Any, options: Any, as_json: bool) -> None:
    """Each PC's Initiative, who acts first of each pair and (up to 4 PCs) the whole order,
    all from ``RULESET.odds`` of Initiative rolls."""
    from referee.systems.mneme.initiative import MAX_ODDS_PCS, entrants

    ruleset = _ruleset()
    es = entrants(action, state, options)
    dists = {}
    for e, pc in zip(es, action.pcs, strict=True):
        one = ruleset.odds(replace(action, pcs=(pc,), report="totals"), state, options)
        dists[e.name] = one.map(lambda t: t[0][1])
    pairs = []
    for i, j in ((m, n) for m in range(len(es)) for n in range(m + 1, len(es))):
        two = ruleset.odds(replace(action, pcs=(action.pcs[i], action.pcs[j])), state, options)
        a, b = es[i].id, es[j].id
        steps = {"p_first": ((a,), (b,)), "p_second": ((b,), (a,)), "p_tie": ((a, b),)}
        pairs.append(
            {"first": es[i].name, "second": es[j].name}
            | {k: fraction_text(two.probability(v)) for k, v in steps.items()}
        )
    order = ruleset.odds(action, state, options) if len(es) <= MAX_ODDS_PCS else None
    orders = None
    if order is not None:
        shown = {" > ".join(" = ".join(s) for s in o): p for o, p in order.probabilities().items()}
        orders = {o: fraction_text(p) for o, p in shown.items()}
    if as_json:
        totals = {
            n: {str(v): fraction_text(q) for v, q in d.probabilities().items()}
            for n, d in dists.items()
        }
        emit_json({"initiative": totals, "pairs": pairs, "order": orders})
        return
    for n, d in dists.items():
        console.print(f"{n}: Initiative {d.min()}..{d.max()}, mean {float(d.mean()):.2f}")
    from referee.cli.text import Table

    table = Table(title=f"who acts first (ties: {options.initiative_ties})", title_justify="left")
    for col in ("A", "B", "A first", "B first", "tie"):
        table.add_column(col, justify="left" if len(col) == 1 else "right")
    for p in pairs:
        probs = [Fraction(str(p[k])) for k in ("p_first", "p_second", "p_tie")]
        table.add_row(p["first"], p["second"], *(f"{float(q) * 100:.2f}% ({q})" for q in probs))
    console.print(table)
    if order is not None:
        for steps_, q in sorted(order.probabilities().items(), key=lambda t: -t[1])[:10]:
            console.print(f"{float(q) * 100:6.2f}%  " + " > ".join(" = ".join(s) for s in steps_))


@app.command()
@SHEETS
@PCS
@click.option("--characteristic", "-c", help="With sheets (Dex).")
@click.option("--skill", help="With sheets (the best of Tactics and Recon).")
@ADV_PC
@DIS_PC
@click.option("--ties", help="simultaneous, characteristic or reroll.")
@click.option("--odds", "show_odds", is_flag=True, help="Exact odds instead of a roll.")
@FACES_OPTION
@SEED_OPTION
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def initiative(
    sheets: list[str] | None,
    pcs: list[str] | None,
    characteristic: str | None,
    skill: str | None,
    advantage: list[str] | None,
    disadvantage: list[str] | None,
    ties: str | None,
    show_odds: bool,
    faces: str | None,
    seed: int | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Roll Initiative once for the encounter: 2d6 + ChM + a relevant skill per PC; turns
    go in descending Initiative (adversaries act through the PCs' Fail Effects)."""
    options = load_options(_ruleset(), options_file)
    if ties is not None:
        options = replace(options, initiative_ties=ties)
    steps = {"advantage": advantage, "disadvantage": disadvantage}
    state, action = _initiative(options, sheets, pcs, characteristic, skill, steps)
    if show_odds:
        _initiative_odds(action, state, options, as_json)
        return
    outcome = _roll(action, state, options, faces, seed)
    d = outcome.details
    if as_json:
        emit_json({**outcome_data(outcome), "order": d["order"], "steps": d["steps"]})
        return
    rolled = {str(p["id"]): p for p in outcome.items("pcs") if isinstance(p, dict)}
    from referee.cli.text import Table

    table = Table(title=f"Initiative (ties: {options.initiative_ties})", title_justify="left")
    for col in ("turn", "PC", "dice", "modifier", "Initiative"):
        table.add_column(col, justify="left" if col in ("PC", "dice") else "right")
    for n, step in enumerate(outcome.items("steps"), 1):
        for cid in step if isinstance(step, list) else ():
            p = rolled[str(cid)]
            faces_, kept = p["faces"], p["kept"]
            assert isinstance(faces_, list) and isinstance(kept, list)
            dice = " ".join(str(f) if k else f"({f})" for f, k in zip(faces_, kept, strict=True))
            table.add_row(str(n), str(p["name"]), dice, f"{p['modifier']:+d}", str(p["initiative"]))
    console.print(table)
    for group in outcome.items("rerolls"):
        shown = [f"{r['name']} {r['initiative']}" for r in group if isinstance(r, dict)]  # type: ignore[union-attr]
        console.print("tie reroll: " + ", ".join(shown), markup=False)
    if outcome.manual:
        console.print("(faces entered by hand)", markup=False)


def demo(console: Console) -> None:
    """A short seeded tour of Mneme CE at a table with the example characters."""
    from referee.dice.roller import SeededRoller
    from referee.systems.mneme.actions import (
        Attack,
        Check,
        CheckInputs,
        PassRounds,
        RollInitiative,
        TakeDamage,
        Threat,
    )

    ruleset = _ruleset()
    opts = ruleset.options_type()
    table = ruleset.initial_state(opts)
    for cid, sheet in ruleset.examples().items():
        table = ruleset.seat(table, cid, sheet, opts)
    roller = SeededRoller(7)
    p = ruleset.odds(Check(modifiers=(Modifier(1, "Cmp", "competence"),)), table, opts)
    console.print(f"2d6+1 vs 8 succeeds {fraction_text(p.at_least(0))}", markup=False)
    out = ruleset.resolve(Check(), table, roller, opts)
    console.print(f"check [{_faces_text(out)}] vs 8 -> {out.label}", markup=False)
    order = ruleset.resolve(RollInitiative(), table, roller, opts)
    table = ruleset.apply(table, order)
    console.print(f"Initiative for the encounter: {order.label}", markup=False)
    aim = CheckInputs(difficulty=10, characteristic="Dex", skill="Gun Combat")
    rifle = Attack("ada", "raider", aim, weapon="Automatic Rifle")
    hit = ruleset.resolve(rifle, table, roller, opts)
    console.print(f"Ada's automatic rifle vs the Raider's Flak Jacket -> {hit.label}")
    console.print(
        f"expected damage of that attack: {float(ruleset.odds(rifle, table, opts).mean()):.2f}"
    )
    table = ruleset.apply(table, hit)
    swords = Threat(weapon="Broadsword", attacker="raider", rate_of_attack=3)
    took = ruleset.resolve(TakeDamage("ada", 3, swords), table, roller, opts)
    console.print(f"Fail Effect 3, three broadswords vs Ada's Flak Jacket -> {took.label}")
    table = ruleset.apply(table, took)
    table = ruleset.apply(table, ruleset.resolve(PassRounds(), table, roller, opts))
    for label, value in ruleset.tracker(table, opts)["characters"]["ada"][:4]:
        console.print(f"Ada's {label}: {value}", markup=False)
