"""``referee arm ...``: flags -> an ARM action -> ``RULESET`` -> a renderer.

Each command builds one action of :mod:`referee.systems.arm.actions` on a
table (characters seated from ``--sheet`` files, or stand-ins carrying the
numbers given) and resolves it, or asks its odds, through ``RULESET``: the
rules live in the wing. The generic ``act`` / ``odds-of`` / ``actions``
commands reach every action; these are the short forms.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from referee.cli.common import (
    FACES_OPTION,
    JSON_OPTION,
    OPTIONS_OPTION,
    SEED_OPTION,
    console,
    emit_json,
    handle_errors,
    listed,
    load_json_file,
    load_options,
    report_problems,
    resolve_action,
    stacked,
)
from referee.errors import RulesError

if TYPE_CHECKING:
    from referee.cli.text import Console
    from referee.systems.arm.actions import Task
    from referee.systems.arm.options import Options
    from referee.systems.arm.play import Levels
    from referee.systems.arm.ruleset import ArmRuleset
    from referee.systems.arm.sheet import Sheet
    from referee.systems.arm.state import State
    from referee.systems.base import Action, Outcome

app = click.Group(
    name="arm",
    help="ARM 1.2: d6-d6 checks with pushing, exact odds, damage, logs and units, sheets.",
    no_args_is_help=True,
)

NEGATIVE: dict[str, Any] = {"ignore_unknown_options": True}
"""Lets a negative log be written as an argument (``measure -3``)."""
SITUATIONS = ("circled", "standstill", "after-berserk")
PUSH_HELP = "Push: roll a third d6 (+1 on 2-6; 2-5 also costs one level of shock)."


EXACT = click.option("--exact", is_flag=True, help="Use 10^(log/5) instead of the chart.")
PUSH = click.option("--push", is_flag=True, help=PUSH_HELP)
WHEN_NEEDED = click.option(
    "--push-when-needed",
    "when_needed",
    is_flag=True,
    help="Push only a roll that needs it, decided after the roll (the table's "
    "push_when_needed): the push's shock counts only then.",
)
DIFFICULTY = click.option(
    "--difficulty",
    required=True,
    help="A number or a preset: trivial, simple, 50/50, tough, very tough.",
)
TOTAL = click.option("--total", type=int, help="Stat + mods (log value).")
SHEET_FILE = click.option("--sheet", help="A character sheet (JSON), with --stat.")
STAT = click.option("--stat", help="The stat rolled from --sheet (e.g. Fitness).")
MODS = click.option(
    "--mod", "mods", multiple=True, callback=listed, help="A mod of --sheet that applies (repeat)."
)
MELEE = click.option("--melee", help="With --sheet: attack, parry or dodge (weapon modifiers).")
WEAPON = click.option("--weapon", help="The weapon used (default: the first).")
SITUATIONS_OPTION = click.option(
    "--situation",
    "situations",
    multiple=True,
    callback=listed,
    help="With --melee: circled (+1), standstill (+2), after-berserk (-2).",
)
HELPER = click.option("--helper", type=int, help="An optional helper task's result.")
HELPER_SMALL = click.option(
    "--helper-small", is_flag=True, help="The helper's effect is small (+1)."
)
ACTOR = click.option("--actor", default="actor", help="Who rolls (named in state changes).")
ROUND = click.option(
    "--round", "round_length", required=True, help="Round length, e.g. 3s or 10min."
)


# ---------------------------------------------------------------------------
# the table a command plays on


def _rules() -> ArmRuleset:
    from referee.systems.arm import RULESET

    return RULESET


def _options(path: str | None, **changes: Any) -> Options:
    """The table's options (``--options``), with what this command's flags switch on."""
    found: Options = load_options(_rules(), path)
    return replace(found, **changes)


def _stand_in(name: str, stats: dict[str, int] | None = None, **more: Any) -> Sheet:
    """A character who is only the numbers a command was given."""
    from referee.systems.arm.sheet import Sheet

    return Sheet(name=name, stats=stats or {}, **more)


def _table(options: Options, seats: dict[str, Sheet]) -> State:
    rules = _rules()
    state = rules.initial_state(options)
    for cid, sheet in seats.items():
        state = rules.seat(state, cid, sheet, options)
    return state


def _action(name: str, data: dict[str, Any]) -> Action:
    """An action from field data, checked like any action the table receives."""
    return _rules().load_action(name, data)


def _look_up(name: str, data: dict[str, Any], options: Options) -> Outcome:
    """Resolve an action that rolls nothing (a look-up) on an empty table."""
    from referee.dice.roller import SystemRoller

    rules = _rules()
    return rules.resolve(_action(name, data), rules.initial_state(options), SystemRoller(), options)


def _method(exact: bool) -> dict[str, Any]:
    return {"log_method": "exact"} if exact else {}


def _score(report: object) -> int:
    """A task's result from what its odds report (the result, or the result and shock)."""
    from referee.systems.arm.rolls import Pushed

    value = report.result if isinstance(report, Pushed) else report
    if not isinstance(value, int):
        raise RulesError(f"not a task's result: {report!r}")
    return value


# ---------------------------------------------------------------------------
# checks


def _task(flags: dict[str, Any]) -> tuple[Task, State, Options]:
    """The ``task`` action, its table and options from the check / odds flags."""
    from referee.systems.arm.actions import Task
    from referee.systems.arm.checks import difficulty_named

    total, sheet, stat, melee = flags["total"], flags["sheet"], flags["stat"], flags["melee"]
    weapon, situations, mods = flags["weapon"], flags["situations"] or [], flags["mods"] or []
    if total is not None and (sheet or stat or mods or melee or weapon or situations):
        raise RulesError("give either --total or --sheet with --stat, not both")
    if total is None and melee is None and (weapon is not None or situations):
        raise RulesError("--weapon and --situation go with --melee")
    if total is None and (sheet is None or (stat is None and melee is None)):
        raise RulesError("give --total, or --sheet FILE with --stat NAME (or --melee)")
    if flags["helper"] is None and flags["helper_small"]:
        raise RulesError("--helper-small goes with --helper RESULT")
    named = [x.strip().lower() for x in situations]
    for x in named:
        if x not in SITUATIONS:
            raise RulesError(f"unknown situation {x!r}; known: {', '.join(SITUATIONS)}")
    text = flags["difficulty"].strip()
    difficulty = int(text) if text.lstrip("+-").isdigit() else difficulty_named(text)
    push = flags["push"] or flags["when_needed"]
    options = _options(flags["options_file"], **({"pushing": True} if push else {}))
    actor = flags.get("actor", "actor")
    rules = _rules()
    who = _stand_in(actor) if sheet is None else rules.load_sheet(load_json_file(sheet))
    data = {
        "actor": actor,
        "difficulty": difficulty,
        "total": total,
        "stat": stat,
        "mods": mods,
        "melee": melee.strip().lower() if melee else None,
        "weapon": weapon,
        "situations": named,
        "helper": flags["helper"],
        "helper_effect": "small" if flags["helper_small"] else "large",
        # a one-off command cannot wait for a decision: without a flag the roll is not pushed
        "push": "if-needed" if flags["when_needed"] else "always" if flags["push"] else "never",
    }
    action = _action("task", data)
    assert isinstance(action, Task)
    return action, _table(options, {actor: who}), options


CHECK_INPUTS = stacked(
    DIFFICULTY,
    TOTAL,
    PUSH,
    WHEN_NEEDED,
    SHEET_FILE,
    STAT,
    MODS,
    MELEE,
    WEAPON,
    SITUATIONS_OPTION,
    HELPER,
    HELPER_SMALL,
)
"""What a check is made of: difficulty, total or sheet, pushing, modifiers, helpers."""


@app.command()
@CHECK_INPUTS
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def odds(
    difficulty: str,
    total: int | None,
    push: bool,
    when_needed: bool,
    sheet: str | None,
    stat: str | None,
    mods: list[str] | None,
    melee: str | None,
    weapon: str | None,
    situations: list[str] | None,
    helper: int | None,
    helper_small: bool,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Exact odds of total + d6 - d6 (+ push) - difficulty: P(success) and every result.

    --push is declared before the roll; --push-when-needed pushes only a roll
    that needs it ("if a character really needs a success").
    """
    from referee.dice.odds import fraction_text
    from referee.systems.arm.rolls import Pushed
    from referee.systems.arm.tables import RESULT_LADDER
    from referee.systems.base import probability_map

    action, state, opts = _task(locals())
    rules = _rules()
    dist = rules.odds(action, state, opts)
    result = dist.map(_score)
    p_success = result.probability_where(lambda r: r >= (0 if opts.draw_succeeds else 1))
    if as_json:
        data: dict[str, Any] = {"p_success": fraction_text(p_success)}
        data["result"] = probability_map(result)
        if when_needed:
            data["shock"] = probability_map(dist.map(lambda o: getattr(o, "shock", 0)))
        emit_json(data)
        return
    base = "stat + mods" if action.total is None else action.total
    console.print(
        f"total {base} against difficulty {action.difficulty} ({action.push} push): "
        f"P(success) = {fraction_text(p_success)} ({float(p_success):.2%})",
        markup=False,
    )
    if push or when_needed:
        needed = rules.odds(replace(action, push="if-needed"), state, opts)
        always = rules.odds(replace(action, push="always"), state, opts)
        for label, found in (("only when needed", needed), ("every roll", always)):
            cost = found.probability_where(lambda o: isinstance(o, Pushed) and o.shock == 1)
            console.print(f"pushing {label}: P(a level of shock) = {fraction_text(cost)}")
    from referee.cli.text import Table

    table = Table()
    for col in ("result", "exact", "%", "meaning"):
        table.add_column(col, justify="left" if col == "meaning" else "right")
    for value, p in result.probabilities().items():
        shown = (f"{value:+d}", fraction_text(p), f"{float(p) * 100:.2f}")
        table.add_row(*shown, RESULT_LADDER.label(value))
    console.print(table)


@app.command()
@CHECK_INPUTS
@FACES_OPTION
@SEED_OPTION
@ACTOR
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def check(
    difficulty: str,
    total: int | None,
    push: bool,
    when_needed: bool,
    sheet: str | None,
    stat: str | None,
    mods: list[str] | None,
    melee: str | None,
    weapon: str | None,
    situations: list[str] | None,
    helper: int | None,
    helper_small: bool,
    faces: str | None,
    seed: int | None,
    actor: str,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Roll one check: the total, the result and its meaning (and a push's shock cost)."""
    from referee.systems.base import outcome_data

    action, state, opts = _task(locals())
    outcome = resolve_action(_rules(), action, state, opts, faces=faces, seed=seed)
    d = outcome.details
    if as_json:
        data = outcome_data(outcome)
        data["total"] = d.get("total")
        if "shock_cost" in d or push:
            data["shock_cost"] = d.get("shock_cost", 0)
        emit_json(data)
        return
    dice = f"+{d['plus']} -{d['minus']}" + (
        f", push {d['push']} (+{d['push_bonus']})" if "push" in d else ""
    )
    console.print(
        f"{d['base']} {dice} = total {d['total']}; minus difficulty {outcome.target}: result "
        f"{outcome.result:+d} ({outcome.label}, {'success' if outcome.success else 'failure'})",
        markup=False,
    )
    if d.get("shock_cost"):
        who = "" if actor == "actor" else f"{actor} "
        console.print(f"the push costs {who}one level of shock", markup=False)
    if outcome.manual:
        console.print("(faces entered by hand)", markup=False)


# ---------------------------------------------------------------------------
# damage


def _armour(text: str | None) -> Any:
    """``--armour``: one value, or wound/shock (e.g. 4/2)."""
    from referee.systems.arm.sheet import ArmourEntry

    if text is None:
        return None
    try:
        values = [int(p) for p in text.split("/")]
    except ValueError:
        values = []
    if len(values) not in (1, 2):
        raise RulesError(f"--armour is a number or wound/shock, not {text!r}")
    return ArmourEntry("armour", values[0], values[-1])


def _levels(report: object) -> Levels:
    from referee.systems.arm.play import Levels

    if not isinstance(report, Levels):
        raise RulesError(f"not a blow's levels: {report!r}")
    return report


@app.command()
@click.option("--result", required=True, type=int, help="Result of the successful attack.")
@click.option("--damage", "value", type=int, help="The weapon's damage value.")
@click.option("--toughness", type=int, help="The defender's Toughness.")
@click.option("--strength", default=0, help="Strength mod, when it applies.")
@click.option("--armour", help="Armour value, or wound/shock.")
@click.option("--stun", is_flag=True, help="A stunning attack (fists, clubs...).")
@click.option("--attacker", help="The attacker's sheet.")
@click.option("--defender", help="The defender's sheet.")
@WEAPON
@click.option("--ignore", help="Damage it cannot do: wound/shock.")
@PUSH
@click.option("--wound", default=0, help="The defender's wound level 0-5.")
@click.option("--shock", default=0, help="The defender's shock level 0-5.")
@click.option("--odds", "show_odds", is_flag=True, help="Exact level odds, not a roll.")
@FACES_OPTION
@SEED_OPTION
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def damage(
    result: int,
    value: int | None,
    toughness: int | None,
    strength: int,
    armour: str | None,
    stun: bool,
    attacker: str | None,
    defender: str | None,
    weapon: str | None,
    ignore: str | None,
    push: bool,
    wound: int,
    shock: int,
    show_odds: bool,
    faces: str | None,
    seed: int | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Roll (or give exact odds of) the damage of a landed blow through the damage table.

    Give the numbers (--damage, --toughness, --armour ...) or two sheets
    (--attacker, --defender), not both.
    """
    from referee.systems.arm.rolls import Pushed
    from referee.systems.base import outcome_data, probability_map

    for name, level in (("wound", wound), ("shock", shock)):
        if not 0 <= level <= 5:
            raise RulesError(f"--{name} is a level 0 to 5, not {level}")
    if ignore not in (None, "wound", "shock"):
        raise RulesError(f"--ignore is wound or shock, not {ignore!r}")
    opts = _options(options_file, **({"pushing": True} if push else {}))
    data = {"actor": "attacker", "target": "defender", "result": result, "ignore": ignore}
    data["push"] = "always" if push else "never"
    rules = _rules()
    if attacker is None and defender is None:
        if weapon is not None:
            raise RulesError("--weapon goes with --attacker")
        if value is None or toughness is None:
            raise RulesError("give --damage and --toughness (or --attacker and --defender sheets)")
        hurt = _stand_in("defender", {"Toughness": toughness}, armour=_armour(armour))
        hurt = replace(hurt, wound=wound, shock=shock)
        state = _table(opts, {"defender": hurt, "attacker": _stand_in("attacker")})
        data.update(damage=value, strength=strength, stun=stun)
    else:
        numbers = (value, toughness, armour, strength or None, stun or None, wound or None)
        if attacker is None or defender is None or any(x is not None for x in numbers) or shock:
            raise RulesError(
                "give --attacker and --defender sheets, or the numbers (--damage, --toughness ...)"
            )
        hurt, hitter = (rules.load_sheet(load_json_file(f)) for f in (defender, attacker))
        state = _table(opts, {"defender": hurt, "attacker": hitter})
        data["weapon"] = weapon
    action = _action("damage", data)
    if show_odds:
        dist = rules.odds(action, state, opts)
        levels = dist.map(lambda o: _levels(o.result if isinstance(o, Pushed) else o))
        found: dict[str, Any] = {
            "wound": levels.map(lambda x: x.wound),
            "shock": levels.map(lambda x: x.shock),
            "destroyed": levels.map(lambda x: x.destroyed),
        }
        if push:
            found["shock_cost"] = dist.map(lambda o: getattr(o, "shock", 0))
        shown = {k: probability_map(v) for k, v in found.items()}
        if as_json:
            emit_json(shown)
            return
        for key, probs in shown.items():
            console.print(f"{key}: " + ", ".join(f"{o} {p}" for o, p in probs.items()))
        return
    outcome = resolve_action(rules, action, state, opts, faces=faces, seed=seed)
    if as_json:
        emit_json(outcome_data(outcome))
        return
    d = outcome.details
    console.print(
        f"blow total {d['total']}, minus Toughness {outcome.target}: {d['margin']}; "
        f"wound side {d['wound_margin']}, shock side {d['shock_margin']} -> {outcome.label}; "
        f"now {d['condition']}",
        markup=False,
    )
    if "push" in d:
        cost = "costs the attacker one level of shock" if d["shock_cost"] else "costs no shock"
        console.print(f"push {d['push']} (+{d['push_bonus']}) {cost}", markup=False)


# ---------------------------------------------------------------------------
# look-ups: difficulties, the log scale, units, movement, groups


@app.command(context_settings=NEGATIVE)
@click.argument("kind", help="preset, modifier, melee, ranged, soul or spell.")
@click.argument("name", required=False, help="Preset, melee action, operation...")
@click.option("--size", default=0, help="Target's size: + large, - small.")
@click.option("--attack-result", type=int, help="The attack's result (defences).")
@click.option("--distance", default=0, help="Log distance (ranged).")
@click.option("--moving", is_flag=True, help="A moving target (ranged).")
@click.option("--cover", default=0, help="Cover modifier (ranged).")
@click.option("--weather", default=0, help="Weather modifier (ranged).")
@WEAPON
@click.option("--fitness", type=int, help="Ranged: Fitness for FIT+7.")
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def difficulty(
    kind: str,
    name: str | None,
    size: int,
    attack_result: int | None,
    distance: int,
    moving: bool,
    cover: int,
    weather: int,
    weapon: str | None,
    fitness: int | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """A difficulty number from the text's guides: presets, melee table, ranged, magic."""
    kinds = ("preset", "modifier", "melee", "ranged", "soul", "spell")
    data = dict(locals())
    data["kind"] = kind.strip().lower()
    if data["kind"] not in kinds:
        raise RulesError(f"unknown kind {kind!r}; known: {', '.join(kinds)}")
    for key in ("options_file", "as_json", "kinds"):
        data.pop(key)
    outcome = _look_up("difficulty", data, _options(options_file))
    if as_json:
        emit_json(dict(outcome.details))
        return
    console.print(outcome.label, markup=False)


@app.command("log", context_settings=NEGATIVE)
@click.argument("measure", help="A positive measure, e.g. 1342 or 0.25.")
@EXACT
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def log_command(
    measure: str,
    exact: bool,
    options_file: str | None,
    as_json: bool,
) -> None:
    """The log of a measure (1342 -> 16)."""
    outcome = _look_up("log-of", {"measure": measure}, _options(options_file, **_method(exact)))
    if as_json:
        emit_json({"log": outcome.result})
        return
    console.print(f"log of {measure} = {outcome.result}", markup=False)


@app.command("measure", context_settings=NEGATIVE)
@click.argument("log", type=int, help="A log value, e.g. -3.")
@EXACT
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def measure_command(
    log: int,
    exact: bool,
    options_file: str | None,
    as_json: bool,
) -> None:
    """The measure of a log (-3 -> 0.25)."""
    outcome = _look_up("measure-of", {"log": log}, _options(options_file, **_method(exact)))
    if as_json:
        emit_json(dict(outcome.details))
        return
    console.print(f"measure of {log} = {outcome.details['measure']}", markup=False)


@app.command(context_settings=NEGATIVE)
@click.argument("log", type=int, help="The log value to convert.")
@click.option("--from", "source", default="m", help="Unit now: m, ft/s, m/s/s, h ...")
@click.option("--to", "target", default="m", help="Unit wanted: ft, 1e6km/h/h, ft/round ...")
@click.option("--round", "round_length", help="For round units, e.g. 3s.")
@EXACT
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def convert(
    log: int,
    source: str,
    target: str,
    round_length: str | None,
    exact: bool,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Convert a log between units by adding logs (per-units reverse the sign)."""
    data = {"log": log, "source": source, "target": target, "round_length": round_length}
    outcome = _look_up("convert", data, _options(options_file, **_method(exact)))
    d = outcome.details
    if as_json:
        emit_json(dict(d))
        return
    console.print(f"{log} {source} = log {d['log']} {target} (about {d['measure']} {target})")


@app.command(context_settings=NEGATIVE)
@click.argument("rate", type=int, help="The movement rate (a log speed), e.g. 5.")
@ROUND
@click.option("--from", "source", default="m/s", help="The rate's unit.")
@click.option("--to", "target", default="m", help="Distance unit for one round, e.g. ft.")
@PUSH
@FACES_OPTION
@SEED_OPTION
@EXACT
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def move(
    rate: int,
    round_length: str,
    source: str,
    target: str,
    push: bool,
    faces: str | None,
    seed: int | None,
    exact: bool,
    options_file: str | None,
    as_json: bool,
) -> None:
    """How far a movement rate goes in one round, optionally pushed (Corven: 5 -> 100 ft/3 s)."""
    if faces is not None and not push:
        raise RulesError("--faces is the push die; it goes with --push")
    opts = _options(options_file, **_method(exact), **({"pushing": True} if push else {}))
    rules = _rules()
    fields = {"rate": rate, "source": source, "unit": target, "round_length": round_length}
    action = _action("move", {**fields, "push": push})
    state = rules.initial_state(opts)
    d = resolve_action(rules, action, state, opts, faces=faces, seed=seed).details
    data: dict[str, Any] = {"rate": rate}
    if push:
        data.update({k: d[k] for k in ("push", "shock_cost", "pushed_rate")})
        data["manual"] = faces is not None
    data.update(distance_log=d["distance_log"], distance=d["distance"], unit=target)
    if as_json:
        emit_json(data)
        return
    pushed = ""
    if push:
        cost = "one level of shock" if d["shock_cost"] else "no shock"
        pushed = f" (pushed: die {d['push']}, rate {d['pushed_rate']}, costs {cost})"
    console.print(
        f"rate {rate} {source}{pushed}: log {d['distance_log']} = about {d['distance']} "
        f"{target} per {round_length} round",
        markup=False,
    )


@app.command(context_settings=NEGATIVE)
@click.argument(
    "logs",
    type=int,
    nargs=-1,
    callback=listed,
    required=True,
    help="Each participant's stat + mods.",
)
@click.option(
    "--helpers", is_flag=True, help="Add the log of the other helpers (the text's words)."
)
@EXACT
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def group(
    logs: list[int],
    helpers: bool,
    exact: bool,
    options_file: str | None,
    as_json: bool,
) -> None:
    """The combined log of a group effort (it depends on the values, never on their order)."""
    count = {"group_count": "helpers"} if helpers else {}
    outcome = _look_up(
        "group-log", {"logs": logs}, _options(options_file, **_method(exact), **count)
    )
    if as_json:
        emit_json(dict(outcome.details))
        return
    console.print(outcome.label, markup=False)


# ---------------------------------------------------------------------------
# characters and the setting


@app.command()
@click.argument("path", help="A character sheet as JSON.")
@click.option("--setting", help="A setting JSON.")
@click.option("--template", help="The template it came from.")
@OPTIONS_OPTION
@JSON_OPTION
@handle_errors
def validate(
    path: str,
    setting: str | None,
    template: str | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Validate a character against the setting (and its template): every problem, its cost."""
    from referee.systems.arm.catalog import Setting
    from referee.systems.base import load_record

    rules = _rules()
    chosen = None if setting is None else load_record(Setting, load_json_file(setting))
    sheet = rules.load_sheet(load_json_file(path))
    model = None if template is None else rules.load_sheet(load_json_file(template))
    problems, cost = rules.check_sheet(sheet, _options(options_file), chosen, model)
    report_problems(
        problems,
        as_json=as_json,
        valid_text=f"{sheet.name}: valid ({cost['total']} chp)",
        extra={"chp": cost},
    )


@app.command()
@JSON_OPTION
def setting(
    as_json: bool,
) -> None:
    """The shipped setting (the text's stats, limits, costs, weapons, armour, spells) to edit."""
    from referee.systems.base import dump_record

    s = _rules().setting
    if as_json:
        emit_json(dump_record(s))
        return
    console.print(f"{s.name}: stats {', '.join(s.stats)}; movement {', '.join(s.movement)}")
    for w in s.weapons:
        stun = " (stun)" if w.stun else ""
        console.print(
            f"  {w.name}: damage {w.damage}{stun}, attack {w.attack:+d}, parry {w.parry:+d}"
        )
    for a in s.armour:
        console.print(f"  {a.name}: wound armour {a.wound}, shock armour {a.shock}")
    console.print("(use --json for the editable file, then `referee arm validate --setting`)")


@app.command()
@JSON_OPTION
def notes(
    as_json: bool,
) -> None:
    """Where the ARM text disagrees with itself, and what this package does."""
    from dataclasses import asdict

    found = _rules().notes()
    if as_json:
        emit_json([asdict(d) for d in found])
        return
    for d in found:
        console.print(f"{d.key} ({d.where}): {d.text} / {d.other} -> {d.ruling}", markup=False)


def demo(out: Console) -> None:
    """A short seeded tour of ARM: logs, a check, pushing, its odds and a blow."""
    from referee.dice.odds import fraction_text
    from referee.dice.roller import SeededRoller
    from referee.systems.arm import actions as a
    from referee.systems.arm.options import Options

    rules, roller, opts = _rules(), SeededRoller(1993), Options(pushing=True)
    state = _table(opts, dict(rules.examples()))
    log = _look_up("log-of", {"measure": "1342"}, opts).result
    quarter = _look_up("measure-of", {"log": -3}, opts).details["measure"]
    out.print(f"log of 1342 = {log}; measure of -3 = {quarter}", markup=False)
    sprint = {"log": 5, "source": "m/s", "target": "ft/round", "round_length": "3s"}
    corven = _look_up("convert", sprint, opts).details
    out.print(f"Corven's sprint: log {corven['log']} = {corven['measure']} ft per 3 s")
    modes: tuple[a.PushMode, ...] = ("never", "always", "if-needed")
    for mode in modes:
        dist = rules.odds(a.Task("brad", 6, "Fitness", push=mode), state, opts)
        p = dist.probability_where(lambda o: _score(o) >= 0)
        out.print(f"Brad's Fitness 8 vs 50/50, push {mode}: {fraction_text(p)}", markup=False)
    o = rules.resolve(a.Task("brad", 6, "Fitness", push="always"), state, roller, opts)
    out.print(
        f"Brad pushes: total {o.details['total']}, result {o.result:+d} ({o.label}), "
        f"shock cost {o.details['shock_cost']}",
        markup=False,
    )
    hit = rules.resolve(a.Damage("alex", 5, "brad", damage=7, push="never"), state, roller, opts)
    out.print(f"axe on Alex: total {hit.details['total']} -> {hit.label}", markup=False)
