"""``referee mneme ...``: checks, their exact odds, attack damage odds, taking damage,
the healing clock and sheet validation for Mneme CE."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from referee.cli.common import (
    FACES_HELP,
    FACES_OPTION,
    JSON_OPTION,
    SEED_OPTION,
    all_faces_used,
    console,
    emit_json,
    faces_option,
    handle_errors,
    load_json_file,
    make_roller,
    report_problems,
    write_json_file,
)
from referee.dice.odds import fraction_text
from referee.errors import RulesError
from referee.systems.base import Modifier, Outcome, dump_record, load_record, outcome_data

app = typer.Typer(
    name="mneme",
    help="Mneme CE: 2d6 checks with Effects, exact odds, damage rolls, wounds and healing.",
    no_args_is_help=True,
)

MOD_HELP = "Total modifier added to 2d6 (Competence, equipment, conditions...)."
DIFF_HELP = "Difficulty: a number or a name (Easy, Routine, Challenging, Difficult, ...)."
ADV_HELP = "Advantages (cancel Disadvantages one for one; at most one net step by default)."
DIS_HELP = "Disadvantages."
ARMOUR_HELP = "Armour (AR) taken off each damage roll: 4, AR 4, or scaled DAR 2 / HAR 9 / KAR 3."
MODS_OPTION: Any = typer.Option(
    None,
    "--mod",
    help="A typed modifier VALUE:KIND[:SOURCE], KIND one of competence, equipment, "
    "condition, action (e.g. 2:equipment:scope); repeat it. Modifiers of one kind do not "
    "stack: the most favourable applies.",
)
SHEET_OPTION: Any = typer.Option(
    None, "--sheet", help="The character's sheet (JSON): Competence and wound penalties."
)
CHAR_OPTION: Any = typer.Option(
    None, "--characteristic", "-c", help="With --sheet: the characteristic rolled."
)
SKILL_OPTION: Any = typer.Option(None, "--skill", help="With --sheet: the skill rolled.")
COND_OPTION: Any = typer.Option(
    None,
    "--condition",
    help="A named condition raising the Difficulty: concealment:partial|mostly|full, "
    "cover:partial|mostly|full, 'close quarters:ranged', 'superior firepower:1..3', "
    "'superior position:1..2', outnumbered:minor|significant|overwhelming; a leading '-' "
    "for the PC's own edge. Repeatable.",
)
STEALTH_OPTION: Any = typer.Option(
    False, "--stealth", help="With --sheet: a stealth roll (the better of Recon and Streetwise)."
)
COMBINED_OPTION: Any = typer.Option(
    None,
    "--combined",
    help="With --sheet: skills the task combines, the rolled one first (e.g. Melee,Athletics); "
    "+1 Difficulty per other one the character lacks.",
)
WARD_ARGUMENT: Any = typer.Argument(
    ..., help="Each patient's condition: Wounded, 'Seriously Wounded', ..., Dying."
)
OUT_OPTION: Any = typer.Option(None, "--out", help="Write the updated sheet here (JSON).")


def _difficulty(text: str) -> int:
    from referee.systems.mneme.tables import DIFFICULTY, DIFFICULTY_ALIASES

    t = text.strip()
    try:
        return int(t)
    except ValueError:
        pass
    if t.lower() in DIFFICULTY_ALIASES:
        return DIFFICULTY_ALIASES[t.lower()]
    return DIFFICULTY.value(t)


MOD_KINDS = ("competence", "equipment", "condition", "action")
"""Kinds of modifier (Mneme CE ch. 2, Modifiers to Rolls); Advantage has its own options."""


def _skills(text: str | None) -> tuple[str, ...]:
    """``"Melee,Athletics"`` -> ``("Melee", "Athletics")``."""
    return tuple(p.strip() for p in (text or "").split(",") if p.strip())


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


def _check(
    modifier: int,
    difficulty: str,
    advantage: int,
    disadvantage: int,
    typed: list[str] | None = None,
    conditions: list[str] | None = None,
    **kw: Any,
) -> Any:
    from referee.systems.mneme.actions import Check
    from referee.systems.mneme.effects import with_conditions

    target, _ = with_conditions(_difficulty(difficulty), conditions or ())
    given = [Modifier(modifier, "--modifier", "total")] if modifier else []
    mods = (*given, *(_typed(t) for t in typed or ()))
    return Check(target, mods, advantage, disadvantage, **kw)


def _faces_text(outcome: Outcome) -> str:
    return " ".join(str(d.face) if d.kept else f"({d.face})" for d in outcome.faces)


def _sheet(path: str) -> Any:
    from referee.systems.mneme.sheet import Character

    return load_record(Character, load_json_file(path), rule="Mneme CE: sheet format")


def _roll(action: Any, state: Any, faces: str | None, seed: int | None) -> Outcome:
    """Resolve ``action`` with typed-in ``--faces`` (every one used), ``--seed`` or real dice."""
    from referee.systems.mneme import RULESET
    from referee.systems.mneme.options import Options

    roller = make_roller(faces_option(faces), seed)
    outcome = RULESET.resolve(action, state, roller, Options())
    all_faces_used(roller)
    return outcome


def _save_and_emit(
    outcome: Outcome,
    as_json: bool,
    out: str | None = None,
    sheet: Any = None,
    who: str = "self",
    missing: str = "--out needs --sheet",
) -> bool:
    """Write the sheet the outcome changes to ``--out``; print the outcome as JSON with
    ``--json``. True when the JSON was printed (the command is done)."""
    if out is not None:
        if sheet is None:
            raise RulesError(missing)
        from referee.systems.mneme.clock import apply_changes

        _write(out, apply_changes(sheet, outcome.changes, who))
    if as_json:
        emit_json(outcome_data(outcome))
    return as_json


@app.command()
@handle_errors
def check(
    modifier: int = typer.Option(0, "--modifier", "-m", help=MOD_HELP),
    difficulty: str = typer.Option("8", "--difficulty", "-d", help=DIFF_HELP),
    advantage: int = typer.Option(0, "--advantage", help=ADV_HELP),
    disadvantage: int = typer.Option(0, "--disadvantage", help=DIS_HELP),
    costly: bool = typer.Option(False, "--costly", help="Take a failure as a Costly Success."),
    duration: str | None = typer.Option(
        None, "--duration", help="The task's duration roll (e.g. 1d6): the time the Effect gives."
    ),
    unit: int = typer.Option(1, "--unit", help="With --duration: its smallest unit."),
    mitigate: str | None = typer.Option(
        None, "--mitigate", help="Mitigating Factors as conditions,cover,skill (e.g. 3,2,2)."
    ),
    mods: list[str] | None = MODS_OPTION,
    conditions: list[str] | None = COND_OPTION,
    sheet: str | None = SHEET_OPTION,
    characteristic: str | None = CHAR_OPTION,
    skill: str | None = SKILL_OPTION,
    stealth: bool = STEALTH_OPTION,
    combined: str | None = COMBINED_OPTION,
    faces: str | None = FACES_OPTION,
    seed: int | None = SEED_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Resolve a check: 2d6 (3d6 keep two with Advantage/Disadvantage) + modifier vs Difficulty."""
    from referee.systems.mneme.actions import Mitigating

    mit = None
    if mitigate is not None:
        parts = faces_option(mitigate) or ()
        if len(parts) != 3:
            raise RulesError("--mitigate takes three numbers: conditions,cover,skill")
        mit = Mitigating(*parts)
    action = _check(
        modifier,
        difficulty,
        advantage,
        disadvantage,
        mods,
        conditions,
        costly_success=costly,
        mitigating=mit,
        duration=duration,
        unit=unit,
        characteristic=characteristic,
        skill=skill,
        stealth=stealth,
        combined_skills=_skills(combined),
    )
    state = _sheet(sheet) if sheet else None
    hand = faces_option(faces)
    if hand is not None and action.stakes:
        from referee.systems.mneme.options import Options
        from referee.systems.mneme.resolve import build

        build(action, state, Options()).procedure.check_manual(hand)  # the exact count first
    outcome = _roll(action, state, faces, seed)
    d = outcome.details
    if as_json:
        data = outcome_data(outcome)
        data.update(
            roll=d["roll"],
            dice=d["dice"],
            modifier=d["modifier"],
            difficulty=d["difficulty"],
            effect=d["effect"],
        )
        emit_json(data)
        return
    manual = " (faces entered by hand)" if outcome.manual else ""
    console.print(
        f"[{_faces_text(outcome)}] = {d['dice']} {d['modifier']:+d} = {d['roll']} vs "
        f"{d['difficulty']}: Effect {d['effect']:+d} -> {outcome.label}{manual}",
        markup=False,
    )
    if d["dropped_modifiers"]:
        console.print("not stacked: " + ", ".join(d["dropped_modifiers"]), markup=False)
    if "mitigation" in d:
        console.print("mitigation: " + " -> ".join(map(str, d["mitigation"])), markup=False)
    if "time" in d:
        console.print(f"time: {d['time']} (median {d['median_time']})", markup=False)


@app.command()
@handle_errors
def odds(
    modifier: int = typer.Option(0, "--modifier", "-m", help=MOD_HELP),
    difficulty: str = typer.Option("8", "--difficulty", "-d", help=DIFF_HELP),
    advantage: int = typer.Option(0, "--advantage", help=ADV_HELP),
    disadvantage: int = typer.Option(0, "--disadvantage", help=DIS_HELP),
    mods: list[str] | None = MODS_OPTION,
    conditions: list[str] | None = COND_OPTION,
    sheet: str | None = SHEET_OPTION,
    characteristic: str | None = CHAR_OPTION,
    skill: str | None = SKILL_OPTION,
    stealth: bool = STEALTH_OPTION,
    combined: str | None = COMBINED_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Exact odds of a check: the chance of success and every Effect (failures included)."""
    from referee.systems.mneme import RULESET
    from referee.systems.mneme.options import Options

    action = _check(
        modifier,
        difficulty,
        advantage,
        disadvantage,
        mods,
        conditions,
        characteristic=characteristic,
        skill=skill,
        stealth=stealth,
        combined_skills=_skills(combined),
    )
    dist = RULESET.odds(action, _sheet(sheet) if sheet else None, Options())
    p = dist.at_least(0)
    effects = {str(e): fraction_text(q) for e, q in dist.probabilities().items()}
    if as_json:
        emit_json({"p_success": fraction_text(p), "effect": effects})
        return
    table = Table(title=f"success {fraction_text(p)} = {float(p) * 100:.2f}%", title_justify="left")
    table.add_column("Effect", justify="right")
    table.add_column("exact", justify="right")
    table.add_column("%", justify="right")
    for e, q in dist.probabilities().items():
        table.add_row(f"{e:+d}", fraction_text(q), f"{float(q) * 100:.2f}")
    console.print(table)


@app.command("attack-odds")
@handle_errors
def attack_odds(
    damage: str | None = typer.Argument(
        None, help="Damage of one roll, e.g. 3d6-2, or scaled: 'D 3d3', 'H 2d6-2'."
    ),
    weapon: str | None = typer.Option(None, "--weapon", "-w", help="A weapon on --attacker."),
    attacker: str | None = typer.Option(None, "--attacker", help="The attacker's sheet (JSON)."),
    armour: str = typer.Option("0", "--armour", "-a", help=ARMOUR_HELP),
    rolls: int | None = typer.Option(
        None, "--rolls", "-n", help="Number of damage rolls (SE + 1, or FE); default 1."
    ),
    difficulty: str | None = typer.Option(
        None,
        "--difficulty",
        "-d",
        help="Odds of a whole attack instead of fixed rolls: the check at this Difficulty "
        "(with --modifier, --advantage, --disadvantage) makes SE + 1 rolls.",
    ),
    modifier: int = typer.Option(0, "--modifier", "-m", help=MOD_HELP),
    advantage: int = typer.Option(0, "--advantage", help=ADV_HELP),
    disadvantage: int = typer.Option(0, "--disadvantage", help=DIS_HELP),
    rate: int | None = typer.Option(
        None, "--rate", "-r", help="Rate of Attack: keep this many highest rolls (default all)."
    ),
    effect: int = typer.Option(
        0, "--effect", help="Effect degree the rolls come from (6+: at least 1 damage each)."
    ),
    scale: str = typer.Option("", "--scale", help="Damage scale: '', D, H or K."),
    armour_scale: str = typer.Option("", "--armour-scale", help="Armour scale: '', D, H or K."),
    target_scale: str = typer.Option("", "--target-scale", help="Target's own scale."),
    sheet: str | None = typer.Option(
        None, "--sheet", help="Target's sheet (JSON): adds the chance of each HP condition."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Exact distribution of damage dealt by k rolls, keeping the highest RoA, armour per roll
    (or, with --difficulty, by a whole attack: check, then SE + 1 rolls)."""
    from referee.systems.mneme.damage import (
        DamageSpec,
        damage_odds,
        kept_count,
        per_roll_odds,
    )
    from referee.systems.mneme.options import Options
    from referee.systems.mneme.resolve import (
        attack_bleeding_odds,
        bleeding_odds,
        condition_odds,
        massive_damage_odds,
    )
    from referee.systems.mneme.tables import CONDITIONS

    opts = Options()
    if weapon is not None:
        from referee.systems.mneme.damage import weapon_spec
        from referee.systems.mneme.sheet import weapon as find_weapon

        if damage is not None or attacker is None:
            raise RulesError("--weapon needs --attacker and no damage expression")
        spec = weapon_spec(find_weapon(_sheet(attacker), weapon))
        if rate is not None:
            spec = DamageSpec(spec.expression, spec.scale, rate)
    elif damage is None:
        raise RulesError("give a damage expression or --weapon NAME --attacker FILE")
    else:
        spec = _spec(damage, rate, scale)
    target = _target(armour, armour_scale, target_scale)
    attack = None
    if difficulty is not None:
        from referee.systems.mneme import RULESET
        from referee.systems.mneme.actions import Attack

        if rolls is not None or effect:
            raise RulesError("--difficulty makes the check decide the rolls: drop --rolls/--effect")
        attack = Attack(_check(modifier, difficulty, advantage, disadvantage), spec, target)
        dist = RULESET.odds(attack, None, opts)
    else:
        if modifier or advantage or disadvantage:
            raise RulesError("--modifier/--advantage/--disadvantage need --difficulty")
        rolls = 1 if rolls is None else rolls
        dist = damage_odds(spec, rolls, target, effect_degree=effect, options=opts)
    data: dict[str, Any] = {
        "damage": {str(k): fraction_text(v) for k, v in dist.probabilities().items()},
        "mean": fraction_text(dist.mean()),
    }
    if sheet is not None:
        character = _sheet(sheet)
        conds = condition_odds(dist, character, opts)
        data["conditions"] = {
            c: fraction_text(conds.probability(c)) for c in CONDITIONS if c in conds
        }
        if attack is not None:
            bleed = attack_bleeding_odds(attack, None, character, opts)
        else:
            per = per_roll_odds(spec, target, effect_degree=effect, options=opts)
            bleed = bleeding_odds(per, rolls or 0, character, opts)
        data["p_bleeding"] = fraction_text(bleed)
        data["p_massive_damage"] = fraction_text(massive_damage_odds(dist, character))
    if as_json:
        emit_json(data)
        return
    from referee.cli.main import show_distribution

    what = (
        f"({f'{spec.scale} {spec.expression}'.strip()}) vs {target.armour_scale}AR {target.armour}"
    )
    if attack is None:
        n = rolls or 0
        title = f"{n} x {what}, keep {kept_count(n, spec.rate_of_attack)}"
    else:
        title = f"attack {modifier:+d} vs {attack.check.difficulty}: SE + 1 x {what}"
    show_distribution(title, dist, value_header="damage")
    for key in ("conditions",):
        for c, p in data.get(key, {}).items():
            console.print(f"{c}: {p}", markup=False)
    for key in ("p_bleeding", "p_massive_damage"):
        if key in data:
            console.print(f"{key}: {data[key]}", markup=False)


def _spec(text: str, rate: int | None, scale: str = "") -> Any:
    """A damage expression with an optional scale prefix (``D 3d3``, ``H 2d6-2``)."""
    from referee.systems.mneme.damage import DamageSpec
    from referee.systems.mneme.scale import damage_notation

    expression, written = damage_notation(text)
    if written and scale and written != scale:
        raise RulesError(f"damage {text!r} is scale {written}, but --scale says {scale}")
    return DamageSpec(expression, scale=written or scale, rate_of_attack=rate)


def _target(armour: str, armour_scale: str = "", target_scale: str = "") -> Any:
    """The target of damage rolls from ``--armour`` (``4``, ``AR 4``, ``DAR 2``)."""
    from referee.systems.mneme.damage import Target
    from referee.systems.mneme.scale import armour_notation

    rating, written = armour_notation(armour)
    if written and armour_scale and written != armour_scale:
        raise RulesError(
            f"armour {armour!r} is scale {written}, but --armour-scale says {armour_scale}"
        )
    return Target(rating, written or armour_scale, target_scale)


def _damage_source(damage: str | None, weapon: str | None, rate: int | None) -> Any:
    """A damage expression, or a weapon named on a sheet (one of the two)."""

    if (damage is None) == (weapon is None):
        raise RulesError("give a damage expression or --weapon NAME (one of them)")
    if damage is not None:
        return _spec(damage, rate)
    assert weapon is not None
    return weapon


@app.command()
@handle_errors
def attack(
    damage: str | None = typer.Argument(None, help="Weapon damage, e.g. 3d6-2 (or --weapon)."),
    weapon: str | None = typer.Option(None, "--weapon", "-w", help="A weapon on --sheet."),
    sheet: str | None = typer.Option(None, "--sheet", help="The attacker's sheet (JSON)."),
    characteristic: str | None = typer.Option(
        None, "--characteristic", "-c", help="With --sheet: the characteristic rolled."
    ),
    skill: str | None = typer.Option(
        None, "--skill", help="With --sheet: the skill (default: the weapon's)."
    ),
    target_sheet: str | None = typer.Option(
        None, "--target-sheet", help="The target's sheet: its worn armour, HP and condition."
    ),
    modifier: int = typer.Option(0, "--modifier", "-m", help=MOD_HELP),
    difficulty: str = typer.Option("8", "--difficulty", "-d", help=DIFF_HELP),
    advantage: int = typer.Option(0, "--advantage", help=ADV_HELP),
    disadvantage: int = typer.Option(0, "--disadvantage", help=DIS_HELP),
    armour: str | None = typer.Option(
        None, "--armour", "-a", help=ARMOUR_HELP + " Default the target sheet's, or 0."
    ),
    rate: int | None = typer.Option(None, "--rate", "-r", help="Weapon's Rate of Attack."),
    mods: list[str] | None = MODS_OPTION,
    conditions: list[str] | None = COND_OPTION,
    faces: str | None = typer.Option(
        None, "--faces", help=FACES_HELP + " The check's dice first, then each damage roll's."
    ),
    seed: int | None = SEED_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Roll an attack: the check, then SE + 1 damage rolls, the highest RoA kept, armour each."""
    from referee.systems.mneme.actions import Attack

    source = _damage_source(damage, weapon, rate)
    state = _sheet(sheet) if sheet else None
    check = _check(
        modifier,
        difficulty,
        advantage,
        disadvantage,
        mods,
        conditions,
        characteristic=characteristic,
        skill=skill,
    )
    action = Attack(
        check,
        source,
        None if armour is None and target_sheet else _target(armour or "0"),
        target_sheet=_sheet(target_sheet) if target_sheet else None,
    )
    outcome = _roll(action, state, faces, seed)
    if _save_and_emit(outcome, as_json):
        return
    d = outcome.details
    console.print(
        f"check {d['roll']} vs {d['difficulty']}: Effect {d['effect']:+d} -> {outcome.label}",
        markup=False,
    )
    if "weapon_rolls" in d:
        w = d["weapon_rolls"]
        shown = [str(x) if k else f"({x})" for x, k in zip(w["dealt"], w["kept"], strict=True)]
        console.print(f"damage rolls after armour: {', '.join(shown)} = {w['total']}", markup=False)
    if "target" in d:
        console.print(f"target: {d['target']['condition']}", markup=False)


@app.command("take-damage")
@handle_errors
def take_damage(
    damage: str | None = typer.Argument(None, help="Adversaries' damage per roll, e.g. 3d3-2."),
    weapon: str | None = typer.Option(None, "--weapon", "-w", help="A weapon on --attacker."),
    attacker: str | None = typer.Option(None, "--attacker", help="The attacker's sheet (JSON)."),
    fail_effect: int = typer.Option(..., "--fail-effect", "-f", help="Fail Effect degree."),
    rate: int | None = typer.Option(None, "--rate", "-r", help="Summed Rate of Attack."),
    armour: str | None = typer.Option(
        None, "--armour", "-a", help=ARMOUR_HELP + " Default the armour worn on --sheet."
    ),
    conditions: int = typer.Option(0, "--conditions", help="First-priority mitigation."),
    cover: int = typer.Option(0, "--cover", help="Cover / protection value (absorbs rolls)."),
    cover_object: int | None = typer.Option(
        None, "--cover-object", help="Index of the --sheet's protection object taking cover."
    ),
    skill: int = typer.Option(0, "--skill", help="Skill mitigation (third priority)."),
    sheet: str | None = typer.Option(None, "--sheet", help="Your sheet (armour, Bleeding)."),
    out: str | None = typer.Option(None, "--out", help="Write the updated --sheet here."),
    massive_roll: bool = typer.Option(
        False, "--massive-roll", help="Roll the End roll at 8 at once if the damage exceeds HP."
    ),
    faces: str | None = FACES_OPTION,
    seed: int | None = SEED_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Roll the damage a Fail Effect brings: mitigation, cover's rolls, yours (RoA kept)."""
    from referee.systems.mneme.actions import Mitigating, TakeDamage, Threat

    source = _damage_source(damage, weapon, rate)
    threat = Threat(
        source,
        None if armour is None else _target(armour),
        Mitigating(conditions, cover, skill, cover_object),
        attacker=_sheet(attacker) if attacker else None,
        rate_of_attack=rate if weapon else None,
    )
    state = _sheet(sheet) if sheet else None
    outcome = _roll(TakeDamage(fail_effect, threat, massive_roll=massive_roll), state, faces, seed)
    if _save_and_emit(outcome, as_json, out, state):
        return
    d = outcome.details
    console.print("Fail Effect: " + " -> ".join(map(str, d["mitigation"])), markup=False)
    if "cover_rolls" in d:
        console.print(
            f"cover takes {d['cover_rolls']['dealt']}: {d['cover_damage']} damage"
            + (" (destroyed)" if d.get("cover_destroyed") else ""),
            markup=False,
        )
    r = d["damage_rolls"]
    shown = [str(x) if k else f"({x})" for x, k in zip(r["dealt"], r["kept"], strict=True)]
    console.print(f"you take [{', '.join(shown)}]: {outcome.label}", markup=False)
    if d.get("bleeding"):
        console.print("Bleeding: one roll reached the Seriously Wounded threshold", markup=False)
    if "massive_roll" in d:
        m = d["massive_roll"]
        console.print(
            f"massive damage: End {m['roll']} vs {m['difficulty']} -> {m['result']}",
            markup=False,
        )
    elif d.get("massive_damage"):
        console.print(
            "massive damage: an End roll at 8 is due (referee mneme survival FILE massive)",
            markup=False,
        )
    if "condition" in d:
        console.print(f"condition: {d['condition']}", markup=False)


def _write(path: str, character: Any) -> None:
    """Save a sheet as JSON (a clear error if the file cannot be written)."""
    write_json_file(path, dump_record(character))


def _notes(outcome: Outcome) -> None:
    for note in outcome.details.get("notes", []):
        console.print(f"  {note}", markup=False)


@app.command()
@handle_errors
def clock(
    path: str = typer.Argument(..., help="Character sheet (JSON)."),
    days: int = typer.Option(0, "--days", help="Days passing."),
    hours: int = typer.Option(0, "--hours", help="Hours passing."),
    minutes: int = typer.Option(0, "--minutes", help="Minutes passing."),
    activity: str = typer.Option(
        "full_rest", "--activity", help="strenuous, moderate, light or full_rest."
    ),
    care: str = typer.Option("none", "--care", help="none, light, moderate, serious, intensive."),
    unsupervised: bool = typer.Option(
        False, "--unsupervised", help="Intensive care without a Medic 2+ or AI sickbay."
    ),
    therapy: str | None = typer.Option(None, "--therapy", help="Characteristic under therapy."),
    roll_dying: bool = typer.Option(
        True, "--roll-dying/--note-dying", help="Roll the dying rolls that fall due, or note them."
    ),
    faces: str | None = typer.Option(None, "--faces", help=FACES_HELP + " (dying rolls)"),
    seed: int | None = SEED_OPTION,
    out: str | None = OUT_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Let time pass: healing, bleeding, stabilisation, therapy and due dying rolls."""
    from referee.systems.mneme.actions import PassTime

    character = _sheet(path)
    action = PassTime(
        days, hours, minutes, activity, care, therapy, roll_dying, supervised=not unsupervised
    )
    outcome = _roll(action, character, faces, seed)
    if _save_and_emit(outcome, as_json, out, character):
        return
    d = outcome.details
    console.print(
        f"damage {character.damage} -> {d['damage']} ({d['condition']}), "
        f"progress {d['healing_progress']}",
        markup=False,
    )
    _notes(outcome)


@app.command()
@handle_errors
def dying(
    path: str = typer.Argument(..., help="The Dying character's sheet (JSON)."),
    rounds: int = typer.Option(1, "--rounds", "-n", help="Rounds passing."),
    show_odds: bool = typer.Option(False, "--odds", help="Exact odds of surviving; no roll."),
    faces: str | None = FACES_OPTION,
    seed: int | None = SEED_OPTION,
    out: str | None = OUT_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Rounds pass for a Dying character: End vs 4 each round (wound penalties); fail = dead."""
    from referee.systems.mneme import RULESET
    from referee.systems.mneme.actions import DyingRounds
    from referee.systems.mneme.options import Options

    opts = Options()
    character = _sheet(path)
    action = DyingRounds(rounds)
    if show_odds:
        dist = RULESET.odds(action, character, opts)
        data = {k: fraction_text(dist.probability(k)) for k in ("Alive", "Dead")}
        if as_json:
            emit_json({"rounds": rounds, **data})
        else:
            p = dist.probability("Alive")
            console.print(
                f"survives {rounds} round(s): {data['Alive']} = {float(p) * 100:.4g}%",
                markup=False,
            )
        return
    outcome = _roll(action, character, faces, seed)
    if _save_and_emit(outcome, as_json, out, character):
        return
    console.print(f"[{_faces_text(outcome)}] -> {outcome.label}", markup=False)


@app.command()
@handle_errors
def survival(
    path: str = typer.Argument(..., help="The character's sheet (JSON)."),
    kind: str = typer.Argument(..., help="dying, massive or intensive."),
    supervisor_medic: int | None = typer.Option(
        None, "--supervisor-medic", help="Intensive care: the supervising Medic level."
    ),
    ai_sickbay: bool = typer.Option(False, "--ai-sickbay", help="Intensive care in an AI sickbay."),
    no_tools: bool = typer.Option(False, "--no-tools", help="Intensive care without tools."),
    faces: str | None = FACES_OPTION,
    seed: int | None = SEED_OPTION,
    out: str | None = OUT_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """An End roll: dying (vs 4), massive damage (vs 8) or intensive care (vs 8)."""
    from referee.systems.mneme import RULESET
    from referee.systems.mneme.actions import SurvivalRoll
    from referee.systems.mneme.options import Options

    opts = Options()
    character = _sheet(path)
    action = SurvivalRoll(
        kind, supervisor_medic=supervisor_medic, ai_sickbay=ai_sickbay, equipped=not no_tools
    )
    outcome = _roll(action, character, faces, seed)
    if _save_and_emit(outcome, as_json, out, character):
        return
    odds = RULESET.odds(action, character, opts)
    shown = ", ".join(f"{k} {fraction_text(v)}" for k, v in odds.probabilities().items())
    dice = f"[{_faces_text(outcome)}] " if outcome.faces else ""
    console.print(f"{dice}-> {outcome.label}  (odds: {shown})", markup=False)


@app.command("first-aid")
@handle_errors
def first_aid(
    medic: str = typer.Argument(..., help="The medic's sheet (JSON)."),
    patient: str | None = typer.Option(None, "--patient", help="The patient's sheet (JSON)."),
    on_self: bool = typer.Option(False, "--self", help="First aid on oneself (Difficulty 10)."),
    modifier: int = typer.Option(0, "--modifier", "-m", help="Extra modifier (equipment...)."),
    rounds_left: int | None = typer.Option(
        None, "--rounds-left", help="One round of the 30-round task, with this many to go."
    ),
    faces: str | None = FACES_OPTION,
    seed: int | None = SEED_OPTION,
    out: str | None = typer.Option(None, "--out", help="Write the patient's sheet here (JSON)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """First aid: heals the Effect (at least 1), stops Bleeding, stabilises the Dying."""
    from referee.systems.mneme.actions import FirstAid

    healer = _sheet(medic)
    treated = _sheet(patient) if patient else None
    mods = (Modifier(modifier, "modifier", "equipment"),) if modifier else ()
    action = FirstAid(on_self=on_self, modifiers=mods, patient=treated, rounds_left=rounds_left)
    outcome = _roll(action, healer, faces, seed)
    written = healer if on_self else treated
    target = "self" if on_self else "patient"
    missing = "--out needs --patient (or --self)"
    if _save_and_emit(outcome, as_json, out, written, target, missing):
        return
    d = outcome.details
    console.print(
        f"[{_faces_text(outcome)}] {d['roll']} vs {d['difficulty']} -> {outcome.label}",
        markup=False,
    )


@app.command()
@handle_errors
def surgery(
    surgeon: str = typer.Argument(..., help="The surgeon's sheet (JSON)."),
    patient: str | None = typer.Option(
        None, "--patient", help="The patient's sheet (JSON): its End and condition."
    ),
    patient_end: int | None = typer.Option(None, "--end", help="Patient's End (no --patient)."),
    patient_condition: str = typer.Option(
        "Seriously Wounded", "--condition", help="Patient's condition (no --patient)."
    ),
    no_facility: bool = typer.Option(
        False, "--no-facility", help="No hospital or sickbay (surgery is then refused)."
    ),
    modifier: int = typer.Option(0, "--modifier", "-m", help="Tools, assistance..."),
    faces: str | None = FACES_OPTION,
    seed: int | None = SEED_OPTION,
    out: str | None = typer.Option(None, "--out", help="Write the patient's sheet here (JSON)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Surgery, a Medic check at 8: heals 2 x SE; Medic skill cuts a Fail Effect, what is left
    multiplies the time and, above half the patient's End, harms them by twice it."""
    from referee.systems.mneme.actions import Surgery
    from referee.systems.mneme.health import condition
    from referee.systems.mneme.options import Options

    treated = _sheet(patient) if patient else None
    if treated is not None:
        end, cond = treated.characteristic("End"), condition(treated, Options())
    elif patient_end is None:
        raise RulesError("give the patient's sheet (--patient) or their End (--end)")
    else:
        end, cond = patient_end, patient_condition
    mods = (Modifier(modifier, "modifier", "equipment"),) if modifier else ()
    action = Surgery(end, cond, facility=not no_facility, modifiers=mods)
    outcome = _roll(action, _sheet(surgeon), faces, seed)
    if _save_and_emit(outcome, as_json, out, treated, "patient", "--out needs --patient"):
        return
    d = outcome.details
    console.print(
        f"[{_faces_text(outcome)}] {d['roll']} vs {d['difficulty']} -> {outcome.label}; "
        f"{d['minutes']} minutes"
        + (f"; the patient takes {d['harm']} damage" if d["harm"] else ""),
        markup=False,
    )


@app.command()
@handle_errors
def care(
    conditions: list[str] = WARD_ARGUMENT,
    medic: int = typer.Option(0, "--medic", help="The caregiver's Medic level."),
    supervisor_medic: int | None = typer.Option(
        None, "--supervisor-medic", help="A supervising medic's level (2+ doubles capacity)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Medical care: the ward's load in light-care patients against the caregiver's capacity
    (8 at Medic 0, doubling per level and under a Medic 2+ supervisor)."""
    from referee.systems.mneme.medical import (
        care_capacity,
        care_level,
        monitoring_capacity,
        patient_load,
    )
    from referee.systems.mneme.options import Options

    if len(conditions) > 10_000:
        raise RulesError("at most 10,000 patients at once")
    opts = Options()
    load = patient_load(conditions)
    capacity = care_capacity(medic, opts, supervisor_medic=supervisor_medic)
    data = {
        "patients": [{"condition": c, "care": care_level(c)} for c in conditions],
        "load": load,
        "capacity": capacity,
        "fits": load <= capacity,
        "monitoring": monitoring_capacity(medic, opts),
    }
    if as_json:
        emit_json(data)
        return
    for c in conditions:
        console.print(f"{c}: {care_level(c)} care", markup=False)
    verdict = "fits" if load <= capacity else "exceeds the capacity"
    console.print(f"load {load} light-care patients, capacity {capacity}: {verdict}", markup=False)


@app.command()
@handle_errors
def stimulant(
    path: str = typer.Argument(..., help="The Critically Wounded character's sheet (JSON)."),
    out: str | None = OUT_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """An adrenaline shot or combat stimulant wakes a Critically Wounded character."""
    from referee.dice.roller import ScriptedRoller
    from referee.systems.mneme import RULESET
    from referee.systems.mneme.actions import Stimulant
    from referee.systems.mneme.options import Options

    character = _sheet(path)
    outcome = RULESET.resolve(Stimulant(), character, ScriptedRoller([]), Options())
    if _save_and_emit(outcome, as_json, out, character):
        return
    console.print(outcome.label, markup=False)


@app.command()
@handle_errors
def validate(
    path: str = typer.Argument(..., help="Character sheet (JSON)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Validate a Mneme CE sheet, listing every problem; shows HP and condition when valid."""
    from referee.systems.mneme import RULESET
    from referee.systems.mneme.health import condition
    from referee.systems.mneme.options import Options

    character = _sheet(path)
    problems = RULESET.validate(character, Options())
    valid_text = f"{path}: valid"
    if not problems:
        state = condition(character, Options())
        valid_text += f"; HP {character.hp}, damage {character.damage} ({state})"
    report_problems(problems, as_json=as_json, valid_text=valid_text)


TIES_HELP = (
    "Tied Initiatives: simultaneous (default: the tied PCs share a step, in any order the "
    "referee likes), characteristic (higher characteristic modifier first) or reroll."
)

SHEETS_ARGUMENT: Any = typer.Argument(None, help="PC sheets (JSON) rolling Initiative.")
PC_OPTION: Any = typer.Option(
    None,
    "--pc",
    help="A PC without a sheet: NAME:MOD (ChM + skill), or NAME:MOD:CHM when ties go "
    "by characteristic. Repeatable; rolled after the sheets.",
)
ADV_NAME_OPTION: Any = typer.Option(
    None, "--advantage", help="A PC's name: one step of Advantage. Repeatable."
)
DIS_NAME_OPTION: Any = typer.Option(
    None, "--disadvantage", help="A PC's name: one step of Disadvantage. Repeatable."
)


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
    chm = numbers[1] if len(numbers) == 2 else None
    return InitiativePC(parts[0], numbers[0], chm)


def _initiative_action(
    sheets: list[str] | None,
    pcs: list[str] | None,
    characteristic: str | None,
    skill: str | None,
    advantage: list[str] | None,
    disadvantage: list[str] | None,
) -> Any:
    """The PCs (sheets first, then ``--pc`` entries) with the Advantage steps named."""
    from dataclasses import replace

    from referee.systems.mneme.actions import InitiativePC, RollInitiative

    if (characteristic or skill) and not sheets:
        raise RulesError("--characteristic and --skill apply to sheets; give one")
    entries = [
        InitiativePC(sheet=_sheet(path), characteristic=characteristic, skill=skill)
        for path in sheets or ()
    ]
    entries += [_pc_entry(t) for t in pcs or ()]
    names = [(e.name or (e.sheet.name if e.sheet else "")).lower() for e in entries]
    for flag, given in (("advantage", advantage), ("disadvantage", disadvantage)):
        for name in given or ():
            if name.strip().lower() not in names:
                raise RulesError(f"--{flag} {name!r}: no such PC (PCs: {', '.join(names)})")
            i = names.index(name.strip().lower())
            entries[i] = replace(entries[i], **{flag: getattr(entries[i], flag) + 1})
    return RollInitiative(tuple(entries))


def _initiative_odds(action: Any, options: Any, as_json: bool) -> None:
    """Each PC's Initiative odds, each pair's precedence and (up to 4 PCs) the order's."""
    from referee.systems.mneme import RULESET
    from referee.systems.mneme.initiative import MAX_ODDS_PCS, entrants, precedence

    es = entrants(action, options)
    dists = {e.name: e.procedure.odds() for e in es}
    pairs = []
    for i, a in enumerate(action.pcs):
        for j in range(i + 1, len(action.pcs)):
            p = precedence(a, action.pcs[j], options)
            pairs.append((es[i].name, es[j].name, p))
    order = RULESET.odds(action, None, options) if len(es) <= MAX_ODDS_PCS else None

    def order_text(steps: Any) -> str:
        return " > ".join(" = ".join(step) for step in steps)

    if as_json:
        data: dict[str, Any] = {
            "initiative": {
                n: {str(v): fraction_text(q) for v, q in d.probabilities().items()}
                for n, d in dists.items()
            },
            "pairs": [
                {
                    "first": a,
                    "second": b,
                    "p_first": fraction_text(p.first),
                    "p_second": fraction_text(p.second),
                    "p_tie": fraction_text(p.tie),
                }
                for a, b, p in pairs
            ],
            "order": None
            if order is None
            else {order_text(s): fraction_text(q) for s, q in order.probabilities().items()},
        }
        emit_json(data)
        return
    for n, d in dists.items():
        console.print(
            f"{n}: Initiative {min(d.outcomes())}..{max(d.outcomes())}, mean {float(d.mean()):.2f}",
            markup=False,
        )
    table = Table(title=f"who acts first (ties: {options.initiative_ties})", title_justify="left")
    for col in ("A", "B", "A first", "B first", "tie"):
        table.add_column(col, justify="right" if " " in col or col == "tie" else "left")
    for a, b, p in pairs:
        table.add_row(
            a,
            b,
            *(f"{float(q) * 100:.2f}% ({fraction_text(q)})" for q in (p.first, p.second, p.tie)),
        )
    console.print(table)
    if order is not None:
        ranked = sorted(order.probabilities().items(), key=lambda t: -t[1])
        for steps, q in ranked[:10]:
            console.print(f"{float(q) * 100:6.2f}%  {order_text(steps)}", markup=False)


@app.command()
@handle_errors
def initiative(
    sheets: list[str] | None = SHEETS_ARGUMENT,
    pcs: list[str] | None = PC_OPTION,
    characteristic: str | None = typer.Option(
        None, "--characteristic", "-c", help="With sheets: the characteristic (default Dex)."
    ),
    skill: str | None = typer.Option(
        None, "--skill", help="With sheets: the skill (default the best of Tactics and Recon)."
    ),
    advantage: list[str] | None = ADV_NAME_OPTION,
    disadvantage: list[str] | None = DIS_NAME_OPTION,
    ties: str = typer.Option("simultaneous", "--ties", help=TIES_HELP),
    show_odds: bool = typer.Option(
        False, "--odds", help="Exact odds instead of a roll: each Initiative, who acts first."
    ),
    faces: str | None = FACES_OPTION,
    seed: int | None = SEED_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Roll Initiative once for the encounter: 2d6 + ChM + a relevant skill per PC; turns
    go in descending Initiative (adversaries act through the PCs' Fail Effects)."""
    from referee.systems.mneme import RULESET
    from referee.systems.mneme.options import Options

    options = Options(initiative_ties=ties)
    action = _initiative_action(sheets, pcs, characteristic, skill, advantage, disadvantage)
    if show_odds:
        _initiative_odds(action, options, as_json)
        return
    roller = make_roller(faces_option(faces), seed)
    outcome = RULESET.resolve(action, None, roller, options)
    all_faces_used(roller)
    d = outcome.details
    if as_json:
        emit_json({**outcome_data(outcome), "order": d["order"], "steps": d["steps"]})
        return
    rolled = {p["name"]: p for p in d["pcs"]}
    table = Table(title=f"Initiative (ties: {ties})", title_justify="left")
    for col in ("turn", "PC", "dice", "modifier", "Initiative"):
        table.add_column(col, justify="left" if col in ("PC", "dice") else "right")
    for n, step in enumerate(d["steps"], 1):
        for name in step:
            p = rolled[name]
            dice = " ".join(
                str(f) if k else f"({f})" for f, k in zip(p["faces"], p["kept"], strict=True)
            )
            table.add_row(str(n), name, dice, f"{p['modifier']:+d}", str(p["initiative"]))
    console.print(table)
    for group in d["rerolls"]:
        console.print(
            "tie reroll: " + ", ".join(f"{r['name']} {r['initiative']}" for r in group),
            markup=False,
        )
    if outcome.manual:
        console.print("(faces entered by hand)", markup=False)


def demo(console: Console) -> None:
    """A short seeded tour of Mneme CE."""
    from referee.dice.roller import SeededRoller
    from referee.systems.mneme import RULESET
    from referee.systems.mneme.actions import Attack, Check, TakeDamage, Threat
    from referee.systems.mneme.damage import DamageSpec, Target
    from referee.systems.mneme.options import Options

    opts = Options()
    roller = SeededRoller(7)
    p = RULESET.odds(Check(difficulty=8, modifiers=(Modifier(1, "Cmp", "competence"),)), None, opts)
    console.print(f"2d6+1 vs 8 succeeds {fraction_text(p.at_least(0))}", markup=False)
    out = RULESET.resolve(Check(difficulty=8), None, roller, opts)
    console.print(f"check [{_faces_text(out)}] vs 8 -> {out.label}", markup=False)
    rifle = Attack(
        Check(difficulty=10, modifiers=(Modifier(2, "Gun Combat", "competence"),)),
        DamageSpec("3d6-2", rate_of_attack=4),
        Target(armour=4),
    )
    hit = RULESET.resolve(rifle, None, roller, opts)
    console.print(f"automatic rifle vs AR 4 -> {hit.label}", markup=False)
    mean = RULESET.odds(rifle, None, opts).mean()
    console.print(f"expected damage of that attack: {float(mean):.2f}", markup=False)
    flak = TakeDamage(3, Threat(DamageSpec("3d3-2", rate_of_attack=3), Target(armour=4)))
    took = RULESET.resolve(flak, None, roller, opts)
    console.print(f"Fail Effect 3, broadsword vs Flak Jacket -> {took.label}", markup=False)
    from dataclasses import replace

    from referee.systems.mneme.actions import DyingRounds
    from referee.systems.mneme.sheet import Character

    tess = Character("Tess", {"Str": 2, "Dex": 2, "End": 14, "Int": 7, "Edu": 7, "Soc": 7})
    dying = replace(tess, damage=19)
    alive = RULESET.odds(DyingRounds(3), dying, opts).probability("Alive")
    console.print(f"Dying at 19/18 HP survives 3 rounds: {fraction_text(alive)}", markup=False)
    from referee.systems.mneme.actions import InitiativePC, RollInitiative

    party = RollInitiative((InitiativePC("Ada", 2), InitiativePC("Bo", 1, advantage=1)))
    order = RULESET.resolve(party, None, roller, opts)
    console.print(f"Initiative for the encounter: {order.label}", markup=False)
