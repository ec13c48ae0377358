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
from referee.cli.presets import Preset, Values, arg, flag, game_group, on, option, show
from referee.errors import RulesError
from referee.systems.arm import RULESET
from referee.systems.arm.catalog import Setting
from referee.systems.arm.checks import difficulty_of
from referee.systems.arm.play import blow_odds
from referee.systems.arm.rolls import task_odds_data
from referee.systems.arm.sheet import Sheet, stand_in
from referee.systems.base import JSONObject, Outcome, dump_record, load_record, outcome_data, slug


def _push(v: Values) -> str:
    """A one-off command cannot wait for a decision: without a flag, no push."""
    return "if-needed" if v.get("when_needed") else "always" if v["push"] else "never"


EXACT = option("log_method", "--exact", read=lambda _: "exact", kind="flag", help="Use 10^(log/5).")
PUSH = option("pushing", "--push", help="Push the roll, declared before rolling.")
SMALL = "The helper's effect is small."
WHEN_NEEDED = "Push only a roll that needs it, decided after the roll (push_when_needed)."


def _task(data: dict[str, Any], v: Values) -> dict[str, Any]:
    if v.get("total") is not None and v.get("sheet"):
        raise RulesError("give either --total or --sheet with --stat, not both")
    if v["helper_small"] and v.get("helper") is None:
        raise RulesError("--helper-small goes with --helper RESULT")
    return {"actor": "actor", **data, "push": _push(v)}


def _roller(rules: Any, v: Values) -> dict[str, Any]:
    """Who rolls: the ``--sheet``, or a stand-in given a ``--total``."""
    who = v.get("actor") or "actor"
    unnamed = Sheet("the character" if who == "actor" else who, {})
    return {who: sheet_from(rules, v["sheet"]) if v["sheet"] else unnamed}


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
    flag("", "--sheet", kind="text", help="A character sheet (JSON), with --stat."),
    flag("mods", "--mod"),
    flag("melee", read=str.lower),
    flag("situations", "--situation", read=str.lower),
    flag("helper_effect", "--helper-small", read=lambda _: "small", kind="flag", help=SMALL),
)


def _blow_seats(rules: Any, v: Values) -> dict[str, Any]:
    """Each side: its sheet (``--attacker``, ``--defender``), or a stand-in carrying the
    numbers given (the defender's Toughness, armour, wound and shock levels)."""
    if v["weapon"] is not None and not v["attacker"]:
        raise RulesError("--weapon goes with --attacker")
    hitter = sheet_from(rules, v["attacker"]) if v["attacker"] else Sheet("the attacker", {})
    if v["defender"]:
        if any(v[k] not in (None, 0) for k in ("toughness", "armour", "wound", "shock")):
            raise RulesError("--toughness, --armour, --wound and --shock go without --defender")
        return {"attacker": hitter, "defender": sheet_from(rules, v["defender"])}
    if v["toughness"] is None:
        raise RulesError("give --toughness (or a --defender sheet)")
    hurt = stand_in(v["toughness"], v["armour"], v["wound"], v["shock"])
    return {"attacker": hitter, "defender": hurt}


BLOW = (
    flag("", "--toughness", kind="int", help="The defender's Toughness."),
    flag("", "--armour", kind="text", help="Armour value, or wound/shock (e.g. 4/2)."),
    flag("", "--attacker", kind="text", help="The attacker's sheet (JSON)."),
    flag("", "--defender", kind="text", help="The defender's sheet (JSON)."),
    PUSH,
    flag("", "--wound", kind="int", default=0, help="The defender's wound level."),
    flag("", "--shock", kind="int", default=0, help="The defender's shock level."),
    flag("", "--odds", "show_odds", kind="flag", help="Exact level odds, not a roll."),
)


def _move(data: dict[str, Any], v: Values) -> dict[str, Any]:
    """A rate, or the ``--sheet``'s character moving at its rate for ``--mode``."""
    if v["faces"] is not None and not v["push"]:
        raise RulesError("--faces is the push die; it goes with --push")
    if (v["rate"] is None) == (v["sheet"] is None):
        raise RulesError("give the RATE, or the --sheet of the character moving (not both)")
    mover = {"actor": next(iter(v["_state"].characters))} if v["sheet"] else {}
    return {**data, **mover, "push": bool(v["push"])}


def _mover(rules: Any, v: Values) -> dict[str, Any]:
    """The ``--sheet`` seated under its name, alone at the table."""
    if v["sheet"] is None:
        return {}
    who = sheet_from(rules, v["sheet"])
    return {slug(who.name): who}


def _look(name: str, action: str, flags: Any, data: Any = None, **how: Any) -> Preset:
    """A look-up (a negative log reads as an argument): its text in ARM's words, its JSON
    from the outcome (default: its details)."""
    json = on(data or (lambda o: dict(o.details)))
    negative = {"ignore_unknown_options": True}
    return Preset(name, action, flags, table=False, data=json, context=negative, **how)


UNITS = (flag("source", "--from"), flag("target", "--to"), flag("round_length", "--round"))
MOVING = "The moving character's sheet (JSON, or an example's name): its rate for --mode."
MOVER = flag("", "--sheet", kind="text", help=MOVING)
MOVE = (arg("rate"), MOVER, UNITS[2], UNITS[0], flag("unit", "--to"), PUSH, EXACT)
HELP = "Add the log of the other helpers (the text's words), not of all (the ruling)."
HELPERS = option("group_count", "--helpers", read=lambda _: "helpers", kind="flag", help=HELP)
ROLL: dict[str, Any] = {"table": False, "build": _task, "seats": _roller}
BLOW_HELP = "Roll (or weigh) a landed blow's damage: the numbers, or two sheets, not both."
PRESETS = (
    Preset(
        "odds",
        "task",
        CHECK,
        "Exact odds of a check: P(success) and every result.",
        odds=True,
        **ROLL,
        data=on(task_odds_data, "_options", "when_needed"),
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
        build=lambda d, v: {**d, "actor": "attacker", "target": "defender", "push": _push(v)},
        seats=_blow_seats,
        odds_flag="show_odds",
        data=on(_blow_data, "push"),
    ),
    _look("difficulty", "difficulty", (arg("kind", read=str.lower), arg("name"))),
    _look("log", "log-of", (arg("measure"), EXACT), lambda o: {"log": o.result}),
    _look("measure", "measure-of", (arg("log"), EXACT)),
    _look("convert", "convert", (arg("log"), *UNITS, EXACT)),
    _look("move", "move", MOVE, _move_data, build=_move, seats=_mover),
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
