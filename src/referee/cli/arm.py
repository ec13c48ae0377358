"""``referee arm ...``: ARM 1.2 checks, exact odds, damage, the log scale, units and sheets."""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

import typer
from rich.console import Console
from rich.table import Table

from referee.cli.common import (
    FACES_HELP,
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
)
from referee.errors import RulesError

app = typer.Typer(
    name="arm",
    help="ARM 1.2: d6-d6 checks with pushing, exact odds, damage, logs and units, sheets.",
    no_args_is_help=True,
)

TOTAL_HELP = "Stat + mods (log value)."
DIFFICULTY_HELP = "Difficulty number, or a preset: trivial, simple, 50/50, tough, 'very tough'."
PUSH_HELP = "Push: roll a third d6 (+1 on 2-6; 2-5 also costs one level of shock)."
EXACT_HELP = "Use the exact formula (10^(log/5)) instead of the chart."
NEGATIVE: dict[str, Any] = {"ignore_unknown_options": True}
"""Lets a negative log be written as an argument (``measure -3``)."""


def _difficulty(text: str) -> int:
    from referee.systems.arm.checks import difficulty_named

    try:
        return int(text.strip())
    except ValueError:
        return difficulty_named(text)


SHEET_HELP = "A character sheet (JSON): with --stat (and --mod) instead of --total."
STAT_HELP = "The stat to roll, from --sheet (e.g. Fitness; melee rolls default to Fitness)."
MOD_HELP = "A mod of --sheet that applies (repeatable), e.g. --mod Swords."
SITUATIONS = ("circled", "standstill", "after-berserk")
Mods = Annotated[list[str] | None, typer.Option("--mod", help=MOD_HELP)]
Melee = Annotated[
    str | None,
    typer.Option(
        "--melee",
        help="With --sheet: a melee roll, attack / parry / dodge (adds the weapon's attack "
        "or parry modifier).",
    ),
]
WeaponName = Annotated[
    str | None, typer.Option("--weapon", help="With --melee: the weapon used (default: first).")
]
Situations = Annotated[
    list[str] | None,
    typer.Option(
        "--situation",
        help="With --melee (repeatable): circled (+1 attack), standstill (+2 defence), "
        "after-berserk (-2).",
    ),
]

Helper = Annotated[
    int | None,
    typer.Option(
        "--helper",
        help="Result of an optional helper task: adds it when positive (large effect).",
    ),
]
HelperSmall = Annotated[
    bool,
    typer.Option("--helper-small", help="The helper task has a small effect: +1 if it succeeded."),
]


def _helped(total: int, helper: int | None, small: bool) -> int:
    """The main task's total plus what an optional helper task adds (ARM 1.2, Task Resolution)."""
    from referee.systems.arm.checks import helper_bonus

    if helper is None:
        if small:
            raise RulesError("--helper-small goes with --helper RESULT")
        return total
    return total + helper_bonus(helper, large_effect=not small)


def _total(
    total: int | None,
    sheet: str | None,
    stat: str | None,
    mods: list[str] | None,
    melee: str | None = None,
    weapon: str | None = None,
    situations: list[str] | None = None,
) -> int:
    """``--total``, or stat + mods (+ melee modifiers) read from a sheet; exactly one of the two."""
    from referee.systems.arm.combat import melee_total
    from referee.systems.arm.sheet import Sheet
    from referee.systems.base import load_record

    from_sheet = sheet is not None or stat is not None or mods or melee or weapon or situations
    if total is not None:
        if from_sheet:
            raise RulesError("give either --total or --sheet with --stat, not both")
        return total
    if melee is None and (weapon is not None or situations):
        raise RulesError("--weapon and --situation go with --melee")
    if sheet is None or (stat is None and melee is None):
        raise RulesError("give --total, or --sheet FILE with --stat NAME (or --melee)")
    character = load_record(Sheet, load_json_file(sheet))
    unknown = [m for m in mods or [] if not character.has_mod(m)]
    if unknown:
        raise RulesError(f"{character.name} has no mod {unknown[0]!r}")
    if melee is None:
        return character.total(stat or "", *(mods or []))
    named = [x.strip().lower() for x in situations or []]
    for x in named:
        if x not in SITUATIONS:
            raise RulesError(f"unknown situation {x!r}; known: {', '.join(SITUATIONS)}")
    found, _ = melee_total(
        character,
        melee,
        *(mods or []),
        stat=stat or "Fitness",
        weapon=weapon,
        circled="circled" in named,
        standstill="standstill" in named,
        after_berserk="after-berserk" in named,
    )
    return found


def _method(exact: bool) -> Any:
    return "exact" if exact else "table"


def _options(push: bool) -> Any:
    """The table's options for a one-off command: ``--push`` says the table allows pushing."""
    from referee.systems.arm.options import Options

    return Options(pushing=push)


@app.command()
@handle_errors
def odds(
    difficulty: str = typer.Option(..., "--difficulty", help=DIFFICULTY_HELP),
    total: int | None = typer.Option(None, "--total", help=TOTAL_HELP),
    push: bool = typer.Option(False, "--push", help=PUSH_HELP),
    sheet: str | None = typer.Option(None, "--sheet", help=SHEET_HELP),
    stat: str | None = typer.Option(None, "--stat", help=STAT_HELP),
    mods: Mods = None,
    melee: Melee = None,
    weapon: WeaponName = None,
    situations: Situations = None,
    helper: Helper = None,
    helper_small: HelperSmall = False,
    as_json: bool = JSON_OPTION,
) -> None:
    """Exact odds of total + d6 - d6 (+ push) - difficulty: P(success) and every result."""
    total = _helped(
        _total(total, sheet, stat, mods, melee, weapon, situations), helper, helper_small
    )
    from referee.dice.odds import fraction_text
    from referee.systems.arm.checks import task_odds
    from referee.systems.arm.tables import RESULT_LADDER
    from referee.systems.base import probability_map

    d = _difficulty(difficulty)
    found = task_odds(total, d, push, _options(push))
    if as_json:
        emit_json(
            {"p_success": fraction_text(found.p_success), "result": probability_map(found.result)}
        )
        return
    pushed = " pushed" if push else ""
    console.print(
        f"total {total} against difficulty {d}{pushed}: "
        f"P(success) = {fraction_text(found.p_success)} ({float(found.p_success):.2%})",
        markup=False,
    )
    if push:
        cost = found.shock.probability(1)
        console.print(f"P(push costs a level of shock) = {fraction_text(cost)}", markup=False)
    table = Table()
    for col in ("result", "exact", "%", "meaning"):
        table.add_column(col, justify="left" if col == "meaning" else "right")
    for result, p in found.result.probabilities().items():
        table.add_row(
            f"{result:+d}", fraction_text(p), f"{float(p) * 100:.2f}", RESULT_LADDER.label(result)
        )
    console.print(table)


@app.command()
@handle_errors
def check(
    difficulty: str = typer.Option(..., "--difficulty", help=DIFFICULTY_HELP),
    total: int | None = typer.Option(None, "--total", help=TOTAL_HELP),
    push: bool = typer.Option(False, "--push", help=PUSH_HELP),
    sheet: str | None = typer.Option(None, "--sheet", help=SHEET_HELP),
    stat: str | None = typer.Option(None, "--stat", help=STAT_HELP),
    mods: Mods = None,
    melee: Melee = None,
    weapon: WeaponName = None,
    situations: Situations = None,
    helper: Helper = None,
    helper_small: HelperSmall = False,
    faces: str | None = typer.Option(
        None, "--faces", help=FACES_HELP + " Plus die, minus die[, push die]."
    ),
    seed: int | None = SEED_OPTION,
    actor: str = typer.Option("actor", "--actor", help="Who rolls (named in state changes)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Roll one check: the total, the result and its meaning (and a push's shock cost)."""
    total = _helped(
        _total(total, sheet, stat, mods, melee, weapon, situations), helper, helper_small
    )
    from referee.systems.arm.checks import resolve_task
    from referee.systems.base import outcome_data

    roller = make_roller(faces_option(faces), seed)
    outcome = resolve_task(
        total, _difficulty(difficulty), roller, push=push, options=_options(push), actor=actor
    )
    all_faces_used(roller)
    if as_json:
        data = outcome_data(outcome)
        data["total"] = outcome.details["total"]
        if push:
            data["shock_cost"] = outcome.details["shock_cost"]
        emit_json(data)
        return
    d = outcome.details
    verdict = "success" if outcome.success else "failure"
    dice = f"+{d['plus']} -{d['minus']}"
    if push:
        dice += f", push {d['push']} (+{d['push_bonus']})"
    console.print(
        f"{total} {dice} = total {d['total']}; minus difficulty {outcome.target}: "
        f"result {outcome.result:+d} ({outcome.label}, {verdict})",
        markup=False,
    )
    if push and d["shock_cost"]:
        who = "" if actor == "actor" else f"{actor} "
        console.print(f"the push costs {who}one level of shock", markup=False)
    if outcome.manual:
        console.print("(faces entered by hand)", markup=False)


def _numbers_blow(
    result: int,
    value: int | None,
    toughness: int | None,
    strength: int,
    armour: str | None,
    stun: bool,
) -> Any:
    """A blow from typed numbers; ``armour`` is one value or wound/shock."""
    from referee.systems.arm.damage import Blow

    if value is None or toughness is None:
        raise RulesError("give --damage and --toughness (or --attacker and --defender sheets)")
    parts = (armour or "0").split("/")
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise RulesError(f"--armour is a number or wound/shock, not {armour!r}") from None
    if len(values) not in (1, 2):
        raise RulesError(f"--armour is a number or wound/shock, not {armour!r}")
    return Blow(result, value, toughness, strength, values[0], values[-1], stun)


def _sheets_blow(attacker: str, defender: str, result: int, weapon: str | None) -> Any:
    """A melee blow from two sheets, and the defender's present condition."""
    from referee.systems.arm.combat import melee_blow
    from referee.systems.arm.sheet import Sheet
    from referee.systems.base import load_record

    hitter = load_record(Sheet, load_json_file(attacker))
    target = load_record(Sheet, load_json_file(defender))
    return melee_blow(hitter, target, result, weapon=weapon), target.condition


@app.command()
@handle_errors
def damage(
    result: int = typer.Option(..., "--result", help="Result of the successful attack."),
    value: int | None = typer.Option(None, "--damage", help="The weapon's damage value."),
    toughness: int | None = typer.Option(None, "--toughness", help="The defender's Toughness."),
    strength: int = typer.Option(0, "--strength", help="Strength mod, when it applies."),
    armour: str | None = typer.Option(
        None, "--armour", help="Armour value, or wound/shock e.g. 4/2 (default none)."
    ),
    stun: bool = typer.Option(False, "--stun", help="A stunning attack (fists, clubs...)."),
    attacker: str | None = typer.Option(
        None, "--attacker", help="Attacker's sheet (JSON): weapon, strength mod, stun."
    ),
    defender: str | None = typer.Option(
        None, "--defender", help="Defender's sheet (JSON): Toughness, armour, present damage."
    ),
    weapon: str | None = typer.Option(
        None, "--weapon", help="With --attacker: the weapon used (default: the first carried)."
    ),
    ignore: str | None = typer.Option(
        None, "--ignore", help="A sort of damage the blow cannot do: wound or shock."
    ),
    push: bool = typer.Option(False, "--push", help=PUSH_HELP + " The attacker pushes."),
    wound: int = typer.Option(0, "--wound", help="The defender's present wound level 0-5."),
    shock: int = typer.Option(0, "--shock", help="The defender's present shock level 0-5."),
    show_odds: bool = typer.Option(False, "--odds", help="Exact level odds instead of a roll."),
    faces: str | None = typer.Option(None, "--faces", help=FACES_HELP + " Plus, minus[, push]."),
    seed: int | None = SEED_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Roll (or give exact odds of) the damage of a landed blow through the damage table.

    Give the numbers (--damage, --toughness, --armour ...) or two sheets
    (--attacker, --defender), not both.
    """
    from dataclasses import replace

    from referee.systems.arm.damage import Condition, level_odds, resolve_damage
    from referee.systems.arm.tables import LEVEL_CAP
    from referee.systems.base import outcome_data, probability_map

    for name, level in (("wound", wound), ("shock", shock)):
        if not 0 <= level <= LEVEL_CAP:
            raise RulesError(f"--{name} is a level 0 to {LEVEL_CAP}, not {level}")
    if ignore not in (None, "wound", "shock"):
        raise RulesError(f"--ignore is wound or shock, not {ignore!r}")
    if attacker is None and defender is None:
        if weapon is not None:
            raise RulesError("--weapon goes with --attacker")
        blow = _numbers_blow(result, value, toughness, strength, armour, stun)
        condition = Condition(wound, shock)
    else:
        numbers = (value, toughness, armour, strength or None, stun or None, wound or None)
        given = [*numbers, shock or None]
        if attacker is None or defender is None or any(x is not None for x in given):
            raise RulesError(
                "give --attacker and --defender sheets, or the numbers (--damage, --toughness ...)"
            )
        blow, condition = _sheets_blow(attacker, defender, result, weapon)
    blow = replace(blow, ignore=cast(Literal["wound", "shock"] | None, ignore))
    if show_odds:
        found = level_odds(blow, _options(push), push)
        data = {k: probability_map(v) for k, v in found.items()}
        if as_json:
            emit_json(data)
            return
        for key, dist in data.items():
            console.print(f"{key}: " + ", ".join(f"{o} {p}" for o, p in dist.items()), markup=False)
        return
    roller = make_roller(faces_option(faces), seed)
    outcome = resolve_damage(blow, roller, options=_options(push), condition=condition, push=push)
    all_faces_used(roller)
    if as_json:
        emit_json(outcome_data(outcome))
        return
    d = outcome.details
    console.print(
        f"blow total {d['total']}, minus Toughness {blow.toughness}: {d['margin']}; "
        f"wound side {d['wound_margin']}, shock side {d['shock_margin']} -> {outcome.label}; "
        f"now {d['condition']}",
        markup=False,
    )
    if push:
        cost = "costs the attacker one level of shock" if d["shock_cost"] else "costs no shock"
        console.print(f"push {d['push']} (+{d['push_bonus']}) {cost}", markup=False)


@app.command(context_settings=NEGATIVE)
@handle_errors
def difficulty(
    kind: str = typer.Argument(
        ..., help="preset, modifier (the guide's extra modifiers), melee, ranged, soul or spell."
    ),
    name: str | None = typer.Argument(
        None, help="Preset, melee action ('prepared defence'), soul operation or spell."
    ),
    size: int = typer.Option(0, "--size", help="Target's size: + large, - small."),
    attack_result: int | None = typer.Option(
        None, "--attack-result", help="The attack's result (defences)."
    ),
    distance: int = typer.Option(0, "--distance", help="Log distance to the target (ranged)."),
    moving: bool = typer.Option(False, "--moving", help="A moving target (ranged)."),
    cover: int = typer.Option(0, "--cover", help="Cover modifier (ranged)."),
    weather: int = typer.Option(0, "--weather", help="Weather modifier (ranged)."),
    missile: str | None = typer.Option(
        None,
        "--weapon",
        help="Ranged: a weapon or spell of the setting; refuses targets beyond its range.",
    ),
    fitness: int | None = typer.Option(
        None,
        "--fitness",
        help="Ranged: the shooter's Fitness, for ranges like the long bow's FIT+7.",
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """A difficulty number from the text's guides: presets, melee table, ranged, magic."""
    from referee.systems.arm.catalog import DEFAULT_SETTING
    from referee.systems.arm.checks import difficulty_named, modifier_named
    from referee.systems.arm.combat import melee_difficulty, ranged_difficulty
    from referee.systems.arm.magic import soul_difficulty, spell_named

    key = kind.strip().lower()
    if key == "ranged":
        if missile is not None:
            _check_range(missile, distance, fitness)
        found = ranged_difficulty(distance, moving=moving, size=size, cover=cover, weather=weather)
    elif name is None:
        raise RulesError(f"'{kind}' needs a name (e.g. difficulty melee attack)")
    elif key == "preset":
        found = difficulty_named(name)
    elif key == "modifier":
        found = modifier_named(name)
    elif key == "melee":
        found = melee_difficulty(name, size=size, attack_result=attack_result)
    elif key == "soul":
        found = soul_difficulty(name)
    elif key == "spell":
        found = spell_named(DEFAULT_SETTING, name).difficulty
    else:
        raise RulesError(
            f"unknown kind {kind!r}; known: preset, modifier, melee, ranged, soul, spell"
        )
    label = "modifier" if key == "modifier" else "difficulty"
    if as_json:
        emit_json({label: found})
        return
    console.print(
        f"{label} {found:+d}" if label == "modifier" else f"{label} {found}", markup=False
    )


def _check_range(name: str, distance: int, fitness: int | None) -> None:
    """A target beyond the named weapon's (or spell's) maximum log range is an error."""
    from referee.systems.arm.catalog import DEFAULT_SETTING
    from referee.systems.arm.combat import max_range

    weapon = DEFAULT_SETTING.ranged_weapon(name) or DEFAULT_SETTING.spell(name)
    if weapon is None:
        known = [w.name for w in DEFAULT_SETTING.ranged] + [s.name for s in DEFAULT_SETTING.spells]
        raise RulesError(f"unknown ranged weapon {name!r}; known: {', '.join(known)}")
    stats = None if fitness is None else {"Fitness": fitness}
    limit = max_range(weapon, stats)
    if limit is not None and distance > limit:
        raise RulesError(f"{weapon.name} reaches log distance {limit}; the target is at {distance}")


@app.command("log", context_settings=NEGATIVE)
@handle_errors
def log_command(
    measure: str = typer.Argument(..., help="A positive measure, e.g. 1342 or 0.25."),
    exact: bool = typer.Option(False, "--exact", help=EXACT_HELP),
    as_json: bool = JSON_OPTION,
) -> None:
    """The log of a measure (1342 -> 16)."""
    from decimal import Decimal, InvalidOperation

    from referee.systems.arm.scale import log_of

    try:
        value = Decimal(measure.strip())
    except InvalidOperation:
        raise RulesError(f"measure {measure!r} is not a number") from None
    found = log_of(value, _method(exact))
    if as_json:
        emit_json({"log": found})
        return
    console.print(f"log of {measure} = {found}", markup=False)


@app.command("measure", context_settings=NEGATIVE)
@handle_errors
def measure_command(
    log: int = typer.Argument(..., help="A log value, e.g. -3."),
    exact: bool = typer.Option(False, "--exact", help=EXACT_HELP),
    as_json: bool = JSON_OPTION,
) -> None:
    """The measure of a log (-3 -> 0.25)."""
    from referee.systems.arm.scale import measure_of, number

    found = measure_of(log, _method(exact))
    if as_json:
        emit_json({"measure": number(found)})
        return
    console.print(f"measure of {log} = {found:f}", markup=False)


@app.command(context_settings=NEGATIVE)
@handle_errors
def convert(
    log: int = typer.Argument(..., help="The log value to convert."),
    source: str = typer.Option("m", "--from", help="Unit now: m, ft/s, m/s/s, h ..."),
    target: str = typer.Option("m", "--to", help="Unit wanted: ft, 1e6km/h/h, ft/round ..."),
    round_length: str | None = typer.Option(
        None, "--round", help="Round length for 'round' units, e.g. 3s or 10min."
    ),
    exact: bool = typer.Option(False, "--exact", help=EXACT_HELP),
    as_json: bool = JSON_OPTION,
) -> None:
    """Convert a log between units by adding logs (per-units reverse the sign)."""
    from referee.systems.arm.scale import convert as convert_log
    from referee.systems.arm.scale import measure_of, number, round_log

    method = _method(exact)
    rl = None if round_length is None else round_log(round_length, method)
    found = convert_log(log, source, target, round_log=rl, method=method)
    measure = measure_of(found, method)
    if as_json:
        emit_json({"log": found, "measure": number(measure), "from": source, "to": target})
        return
    console.print(
        f"{log} {source} = log {found} {target} (about {measure:f} {target})", markup=False
    )


@app.command(context_settings=NEGATIVE)
@handle_errors
def move(
    rate: int = typer.Argument(..., help="The movement rate (a log speed), e.g. 5."),
    round_length: str = typer.Option(..., "--round", help="Round length, e.g. 3s or 10min."),
    source: str = typer.Option("m/s", "--from", help="The rate's unit (default m/s)."),
    target: str = typer.Option("m", "--to", help="Distance unit for one round, e.g. ft."),
    push: bool = typer.Option(False, "--push", help=PUSH_HELP + " Pushes the rate's log."),
    faces: str | None = typer.Option(None, "--faces", help=FACES_HELP + " The push die."),
    seed: int | None = SEED_OPTION,
    exact: bool = typer.Option(False, "--exact", help=EXACT_HELP),
    as_json: bool = JSON_OPTION,
) -> None:
    """How far a movement rate goes in one round, optionally pushed (Corven: 5 -> 100 ft/3 s)."""
    from referee.systems.arm.checks import resolve_movement_push
    from referee.systems.arm.scale import convert as convert_log
    from referee.systems.arm.scale import measure_of, number, round_log

    method = _method(exact)
    data: dict[str, Any] = {"rate": rate}
    moved = rate
    if push:
        roller = make_roller(faces_option(faces), seed)
        outcome = resolve_movement_push(rate, roller, options=_options(True))
        all_faces_used(roller)
        moved = outcome.result if outcome.result is not None else rate
        data.update(outcome.details, pushed_rate=moved, manual=outcome.manual)
    elif faces is not None:
        raise RulesError("--faces is the push die; it goes with --push")
    unit = f"{target}/round"
    found = convert_log(moved, source, unit, round_log=round_log(round_length, method))
    data.update(distance_log=found, distance=number(measure_of(found, method)), unit=target)
    if as_json:
        emit_json(data)
        return
    pushed = ""
    if push:
        cost = "one level of shock" if data["shock_cost"] else "no shock"
        pushed = f" (pushed: die {data['push']}, rate {moved}, costs {cost})"
    console.print(
        f"rate {rate} {source}{pushed}: log {found} = about {data['distance']} {target} "
        f"per {round_length} round",
        markup=False,
    )


@app.command(context_settings=NEGATIVE)
@handle_errors
def group(
    logs: Annotated[list[int], typer.Argument(help="Each participant's stat + mods.")],
    helpers: bool = typer.Option(
        False, "--helpers", help="Add the log of the other helpers (the text's words), not of all."
    ),
    exact: bool = typer.Option(False, "--exact", help=EXACT_HELP),
    as_json: bool = JSON_OPTION,
) -> None:
    """The combined log of a group effort (the first person's log is the one raised)."""
    from referee.systems.arm.options import Options
    from referee.systems.arm.scale import group_log

    opts = Options(log_method=_method(exact), group_count="helpers" if helpers else "total")
    found, how = group_log(logs, method=opts.log_method, count=opts.group_count)
    if as_json:
        emit_json({"log": found, "method": how})
        return
    console.print(f"group log {found} ({how})", markup=False)


@app.command()
@handle_errors
def validate(
    path: str = typer.Argument(..., help="A character sheet as JSON."),
    setting: str | None = typer.Option(
        None, "--setting", help="A setting JSON (default: the text's)."
    ),
    template: str | None = typer.Option(
        None, "--template", help="The template (JSON) the character was built from."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Validate a character against the setting (and its template): every problem, its cost."""
    from referee.systems.arm.catalog import DEFAULT_SETTING, Setting, setting_problems
    from referee.systems.arm.options import DEFAULT_OPTIONS
    from referee.systems.arm.sheet import Sheet, point_cost, template_problems
    from referee.systems.arm.sheet import validate as check_sheet
    from referee.systems.base import load_record

    chosen = DEFAULT_SETTING if setting is None else load_record(Setting, load_json_file(setting))
    sheet = load_record(Sheet, load_json_file(path))
    problems = setting_problems(chosen) + check_sheet(sheet, DEFAULT_OPTIONS, chosen)
    if template is not None:
        problems += template_problems(load_record(Sheet, load_json_file(template)), sheet)
    cost = point_cost(sheet, chosen)
    report_problems(
        problems,
        as_json=as_json,
        valid_text=f"{sheet.name}: valid ({cost['total']} chp)",
        extra={"chp": cost},
    )


@app.command()
def setting(as_json: bool = JSON_OPTION) -> None:
    """The shipped setting (the text's stats, limits, costs, weapons, armour, spells) to edit."""
    from referee.systems.arm.catalog import DEFAULT_SETTING
    from referee.systems.base import dump_record

    data = dump_record(DEFAULT_SETTING)
    if as_json:
        emit_json(data)
        return
    s = DEFAULT_SETTING
    console.print(
        f"{s.name}: stats {', '.join(s.stats)}; movement {', '.join(s.movement)}", markup=False
    )
    for w in s.weapons:
        stun = " (stun)" if w.stun else ""
        console.print(
            f"  {w.name}: damage {w.damage}{stun}, attack {w.attack:+d}, parry {w.parry:+d}",
            markup=False,
        )
    for a in s.armour:
        console.print(f"  {a.name}: wound armour {a.wound}, shock armour {a.shock}", markup=False)
    console.print(
        "(use --json for the editable file, then `referee arm validate --setting`)", markup=False
    )


@app.command()
def notes(as_json: bool = JSON_OPTION) -> None:
    """Where the ARM text disagrees with itself, and what this package does."""
    from dataclasses import asdict

    from referee.systems.arm.discrepancies import DISCREPANCIES

    if as_json:
        emit_json([asdict(d) for d in DISCREPANCIES])
        return
    for d in DISCREPANCIES:
        console.print(f"{d.key} ({d.where}): {d.text} / {d.other} -> {d.ruling}", markup=False)


def demo(out: Console) -> None:
    """A short seeded tour of ARM: logs, a check, a push, its odds and a blow."""
    from referee.dice.odds import fraction_text
    from referee.dice.roller import SeededRoller
    from referee.systems.arm.checks import resolve_task, task_odds
    from referee.systems.arm.damage import Blow, resolve_damage
    from referee.systems.arm.scale import convert as convert_log
    from referee.systems.arm.scale import log_of, measure_of, round_log

    roller = SeededRoller(1993)
    out.print(f"log of 1342 = {log_of(1342)}; measure of -3 = {measure_of(-3)}", markup=False)
    per_round = convert_log(5, "m/s", "ft/round", round_log=round_log("3s"))
    out.print(
        f"Corven's sprint: log {per_round} = {measure_of(per_round)} ft per 3 s", markup=False
    )
    for push in (False, True):
        p = task_odds(8, 6, push, _options(push)).p_success
        out.print(
            f"Fitness 8 vs 50/50{' pushed' if push else ''}: {fraction_text(p)}", markup=False
        )
    o = resolve_task(8, 6, roller, push=True, options=_options(True), actor="Brad")
    out.print(
        f"Brad pushes: total {o.details['total']}, result {o.result:+d} ({o.label}), "
        f"shock cost {o.details['shock_cost']}",
        markup=False,
    )
    hit = resolve_damage(Blow(5, 7, 5, 1, 4, 2), roller, target="Alex")
    out.print(f"axe on Alex: total {hit.details['total']} -> {hit.label}", markup=False)
