"""``referee arm ...``: the short forms of ARM's actions as presets (flags -> the action's
fields, help from their docs) over the generic ``act`` / ``odds-of`` / ``actions``: each
seats the ``--sheet`` files given, or stand-ins carrying the numbers given, and resolves
the action (or weighs it) through ``RULESET``. An outcome reads in ARM's words, as the
table's log says it (:mod:`referee.systems.arm.words`); odds read as their JSON does,
laid out as every game's are (:func:`referee.cli.common.odds_lines`)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from referee.cli import common, presets
from referee.cli.common import sheet_from
from referee.cli.presets import (
    SEATED,
    SLUG,
    Preset,
    Run,
    arg,
    flag,
    game_group,
    goes_with,
    goes_without,
    not_both,
    on,
    one_of,
    option,
    seating,
    sheet,
    show,
)
from referee.systems.arm import RULESET
from referee.systems.arm.catalog import Setting
from referee.systems.arm.checks import difficulty_of
from referee.systems.arm.play import blow_odds
from referee.systems.arm.rolls import task_odds_data
from referee.systems.arm.sheet import Sheet, stand_in
from referee.systems.base import JSONObject, Outcome, dump_record, load_record, outcome_data


def _push(run: Run) -> str:
    """A one-off command cannot wait for a decision: without a flag, no push."""
    return "if-needed" if run.get("when_needed") else "always" if run["push"] else "never"


EXACT = option("log_method", "--exact", read=lambda _: "exact", kind="flag", help="Use 10^(log/5).")
PUSH = option("pushing", "--push", help="Push the roll, declared before rolling.")
SMALL = "The helper's effect is small."
WHEN_NEEDED = "Push only a roll that needs it, decided after the roll (push_when_needed)."


def _task(data: dict[str, Any], run: Run) -> dict[str, Any]:
    return {"actor": "actor", **data, "push": _push(run)}


def _unnamed(run: Run) -> dict[str, Any]:
    """Who rolls without a ``--sheet``: a stand-in given a ``--total``."""
    who = run.get("actor") or "actor"
    return {} if run["sheet"] else {who: Sheet("the character" if who == "actor" else who, {})}


def _task_data(outcome: Outcome, pushed: bool) -> JSONObject:
    """A check's JSON: the outcome with its ``total`` (and ``shock_cost`` when pushed)."""
    d = outcome.details
    data = outcome_data(outcome) | {"total": d.get("total")}
    if "shock_cost" in d or pushed:
        data["shock_cost"] = d.get("shock_cost", 0)
    return data


def _blow_data(rolled: Any, pushed: bool) -> JSONObject:
    """A blow rolled (the outcome's JSON) or weighed (:func:`.play.blow_odds`)."""
    if isinstance(rolled, Outcome):
        return outcome_data(rolled)
    return dict(blow_odds(rolled, pushed))


def _move_data(outcome: Outcome) -> JSONObject:
    """The rate, a push's die, shock and rate, then the distance per round (a character
    with no rate for the mode: the mode moved at, no distance)."""
    d = outcome.details
    if "rate" not in d:
        return {"mode": d.get("mode"), "distance": None}
    data: JSONObject = {"rate": d["rate"]}
    if "push" in d:
        data.update({k: d[k] for k in ("push", "shock_cost", "pushed_rate")}, manual=outcome.manual)
    return data | {k: d[k] for k in ("distance_log", "distance", "unit")}


CHECK = (
    flag("difficulty", read=difficulty_of),
    PUSH,
    option("pushing", "--push-when-needed", "when_needed", help=WHEN_NEEDED),
    sheet("actor", "--sheet", named_by="actor", help="A character sheet (JSON), with --stat."),
    flag("mods", "--mod"),
    flag("melee", read=str.lower),
    flag("situations", "--situation", read=str.lower),
    flag("helper_effect", "--helper-small", read=lambda _: "small", kind="flag", help=SMALL),
)


def _stand_ins(run: Run) -> dict[str, Any]:
    """A side with no sheet: a stand-in carrying the numbers given (the defender's
    Toughness, armour, wound and shock levels)."""
    made: dict[str, Any] = {} if run["attacker"] else {"attacker": Sheet("the attacker", {})}
    if not run["defender"]:
        made["defender"] = stand_in(run["toughness"], run["armour"], run["wound"], run["shock"])
    return made


BLOW = (
    flag("", "--toughness", kind="int", help="The defender's Toughness."),
    flag("", "--armour", kind="text", help="Armour value, or wound/shock (e.g. 4/2)."),
    sheet("attacker", "--attacker", help="The attacker's sheet (JSON)."),
    sheet("defender", "--defender", help="The defender's sheet (JSON)."),
    PUSH,
    flag("", "--wound", kind="int", default=0, help="The defender's wound level."),
    flag("", "--shock", kind="int", default=0, help="The defender's shock level."),
)
BLOW_RULES = (
    goes_with("weapon", "attacker"),
    goes_without("defender", "toughness", "armour", "wound", "shock"),
    one_of("toughness", "defender", why="the defender's Toughness, or their sheet"),
)


def _look(name: str, action: str, flags: Any, data: Any = None, **how: Any) -> Preset:
    """A look-up (a negative log reads as an argument): its text in ARM's words, its JSON
    from the outcome (default: its details)."""
    json = on(data or (lambda o: dict(o.details)))
    negative = {"ignore_unknown_options": True}
    return Preset(name, action, flags, table=False, data=json, context=negative, **how)


UNITS = (flag("source", "--from"), flag("target", "--to"), flag("round_length", "--round"))
MOVING = "The moving character's sheet (JSON, or an example's name): its rate for --mode."
MOVER = sheet(SLUG, "--sheet", sets={"actor": SEATED}, help=MOVING)
MOVE = (arg("rate"), MOVER, UNITS[2], UNITS[0], flag("unit", "--to"), PUSH, EXACT)
HELP = "Add the log of the other helpers (the text's words), not of all (the ruling)."
HELPERS = option("group_count", "--helpers", read=lambda _: "helpers", kind="flag", help=HELP)
CHECK_RULES = (
    not_both("total", "sheet", why="a --sheet's --stat gives the total"),
    goes_with("helper_small", "helper"),
)
ROLL: dict[str, Any] = {
    "table": False,
    "build": _task,
    "prepare": seating(_unnamed),
    "between": CHECK_RULES,
}
BLOW_HELP = "Roll (or weigh) a landed blow's damage: the numbers, or two sheets, not both."
PRESETS = (
    Preset(
        "odds",
        "task",
        CHECK,
        "Exact odds of a check: P(success) and every result.",
        odds=True,
        **ROLL,
        data=on(task_odds_data, "options", "when_needed"),
    ),
    Preset(
        "check",
        "task",
        (*CHECK, flag("actor", default="actor")),
        "Roll one check: the total, the result and its meaning.",
        **ROLL,
        data=on(_task_data, "push"),
    ),
    Preset(
        "damage",
        "damage",
        BLOW,
        BLOW_HELP,
        table=False,
        build=lambda d, run: {**d, "actor": "attacker", "target": "defender", "push": _push(run)},
        prepare=seating(_stand_ins),
        between=BLOW_RULES,
        offers_odds=True,
        data=on(_blow_data, "push"),
    ),
    _look("difficulty", "difficulty", (arg("kind", read=str.lower), arg("name"))),
    _look("log", "log-of", (arg("measure"), EXACT), lambda o: {"log": o.result}),
    _look("measure", "measure-of", (arg("log"), EXACT)),
    _look("convert", "convert", (arg("log"), *UNITS, EXACT)),
    _look(
        "move",
        "move",
        MOVE,
        _move_data,
        build=lambda data, run: {**data, "push": bool(run["push"])},
        between=(
            goes_with("faces", "push", why="the push die"),
            one_of("rate", "sheet", why="the rate, or the moving character's sheet"),
        ),
    ),
    _look("group", "group-log", (arg("logs"), HELPERS, EXACT)),
)
app = game_group("arm", PRESETS)
TEMPLATE = "The template it came from: it must keep the stats and mods the template fixes."


def _setting(path: str) -> Setting:
    return load_record(Setting, common.load_json_file(path))


app.add_command(
    presets.validate_command(
        "arm",
        flag("setting", read=_setting, help="A setting JSON (default: the shipped one)."),
        flag("template", read=lambda path: sheet_from(RULESET, path), help=TEMPLATE),
    )
)


@app.command()
@common.JSON_OPTION
def setting(as_json: bool) -> None:
    """The shipped setting (stats, limits, costs, weapons, armour, spells) to edit."""
    hint = "(use --json for the editable file, then `referee arm validate --setting`)"
    show(as_json, dump_record(RULESET.setting), [*RULESET.setting.lines(), hint])


@app.command()
@common.JSON_OPTION
def notes(as_json: bool) -> None:
    """Where the ARM text disagrees with itself, and what this package does."""
    show(as_json, [asdict(d) for d in RULESET.notes()], [d.line for d in RULESET.notes()])
