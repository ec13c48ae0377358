"""``referee arm ...``: the short forms of ARM's actions, as presets (flags -> the
action's fields) over the generic ``act`` / ``odds-of`` / ``actions``.

Each command builds one action of :mod:`referee.systems.arm.actions` on a table
(characters seated from ``--sheet`` files, or stand-ins carrying the numbers given)
and resolves it, or asks its odds, through ``RULESET``; how the outcome reads is
:mod:`referee.systems.arm.report`. Help comes from the actions' own field docs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from referee.cli.common import (
    JSON_OPTION,
    OPTIONS_OPTION,
    console,
    emit_json,
    handle_errors,
    load_json_file,
    load_options,
    report_problems,
    sheet_from,
)
from referee.cli.presets import Preset, Values, arg, flag, game_group, option
from referee.errors import RulesError

if TYPE_CHECKING:
    from referee.cli.text import Console
    from referee.systems.arm.sheet import Sheet


def _rules() -> Any:
    from referee.systems.arm import RULESET

    return RULESET


def _report() -> Any:
    from referee.systems.arm import report

    return report


def _low(text: str) -> str:
    return text.strip().lower()


def _difficulty(text: str) -> int:
    """A difficulty number, or a preset of the guide by name (``50/50``, ``very tough``)."""
    from referee.systems.arm.checks import difficulty_named

    return int(text) if text.strip().lstrip("+-").isdigit() else difficulty_named(text)


def _stand_in(name: str, **more: Any) -> Sheet:
    """A character who is only the numbers a command was given."""
    from referee.systems.arm.sheet import Sheet

    return Sheet(name=name, stats=more.pop("stats", {}), **more)


def _push(values: Values) -> str:
    """A one-off command cannot wait for a decision: without a flag, no push."""
    return "if-needed" if values.get("when_needed") else "always" if values["push"] else "never"


NEGATIVE = {"ignore_unknown_options": True}
"""Lets a negative log be written as an argument (``measure -3``)."""
EXACT = option(
    "log_method",
    "--exact",
    read=lambda _: "exact",
    kind="flag",
    help="Use 10^(log/5), not the chart.",
)
PUSH = option("pushing", "--push", help="Push the roll, declared before rolling.")


# ---------------------------------------------------------------------------
# checks


def _task(data: dict[str, Any], values: Values) -> dict[str, Any]:
    if values.get("total") is not None and values.get("sheet"):
        raise RulesError("give either --total or --sheet with --stat, not both")
    if values["helper_small"] and values.get("helper") is None:
        raise RulesError("--helper-small goes with --helper RESULT")
    effect = "small" if values["helper_small"] else "large"
    return {"actor": "actor", **data, "push": _push(values), "helper_effect": effect}


def _roller_seat(rules: Any, values: Values) -> dict[str, Any]:
    """Who rolls: the ``--sheet``, or a stand-in given a ``--total``."""
    who = values.get("actor") or "actor"
    sheet = values.get("sheet")
    return {who: _stand_in(who) if sheet is None else sheet_from(rules, sheet)}


def _check_odds_text(dist: Any, v: Values) -> list[Any]:
    from referee.cli.text import Table

    report, action = _report(), v["_action"]

    def odds_of(a: Any) -> Any:
        return _rules().odds(a, v["_state"], v["_options"])

    pushed = v["push"] or v["when_needed"]
    table = Table()
    for col in report.RESULT_COLUMNS:
        table.add_column(col, justify="left" if col == "meaning" else "right")
    for row in report.result_rows(dist):
        table.add_row(*row)
    return [
        *report.task_odds_lines(dist, action, v["_options"], odds_of if pushed else None),
        table,
    ]


CHECK = (
    flag("difficulty", read=_difficulty),
    flag("total"),
    PUSH,
    option(
        "pushing",
        "--push-when-needed",
        "when_needed",
        help="Push only a roll that needs it, decided after the roll (the table's "
        "push_when_needed): the push's shock counts only then.",
    ),
    flag("", "--sheet", kind="text", help="A character sheet (JSON), with --stat."),
    flag("stat"),
    flag("mods", "--mod"),
    flag("melee", read=_low),
    flag("weapon"),
    flag("situations", "--situation", read=_low),
    flag("helper"),
    flag("", "--helper-small", kind="flag", help="The helper's effect is small."),
)
"""What a check is made of: difficulty, total or sheet, pushing, modifiers, helpers."""


# ---------------------------------------------------------------------------
# damage


def _armour(text: str | None) -> Any:
    """``--armour``: one value, or wound/shock (e.g. 4/2)."""
    from referee.systems.arm.sheet import ArmourEntry

    if text is None:
        return None
    parts = text.split("/")
    if len(parts) not in (1, 2) or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise RulesError(f"--armour is a number or wound/shock, not {text!r}")
    return ArmourEntry("armour", int(parts[0]), int(parts[-1]))


def _blow_seats(rules: Any, v: Values) -> dict[str, Any]:
    """Two sheets (``--attacker``, ``--defender``), or stand-ins carrying the numbers."""
    files = (v["attacker"], v["defender"])
    numbers = (v["damage"], v["toughness"], v["armour"], v["strength"], v["wound"], v["shock"])
    if any(files):
        if not all(files) or v["stun"] or any(n not in (None, 0) for n in numbers):
            raise RulesError("give --attacker and --defender sheets, or the numbers (--damage ...)")
        return {"attacker": sheet_from(rules, files[0]), "defender": sheet_from(rules, files[1])}
    if v["weapon"] is not None:
        raise RulesError("--weapon goes with --attacker")
    if v["damage"] is None or v["toughness"] is None:
        raise RulesError("give --damage and --toughness (or --attacker and --defender sheets)")
    for name in ("wound", "shock"):
        if not 0 <= v[name] <= 5:
            raise RulesError(f"--{name} is a level 0 to 5, not {v[name]}")
    hurt = {"stats": {"Toughness": v["toughness"]}, "wound": v["wound"], "shock": v["shock"]}
    defender = _stand_in("defender", armour=_armour(v["armour"]), **hurt)
    return {"attacker": _stand_in("attacker"), "defender": defender}


def _blow(data: dict[str, Any], v: Values) -> dict[str, Any]:
    return {**data, "actor": "attacker", "target": "defender", "push": _push(v)}


def _blow_odds(dist: Any, v: Values) -> Any:
    return _report().blow_odds(dist, v["push"])


# ---------------------------------------------------------------------------
# look-ups and movement: no one seated, nothing rolled but a push die


def _move(data: dict[str, Any], v: Values) -> dict[str, Any]:
    if v["faces"] is not None and not v["push"]:
        raise RulesError("--faces is the push die; it goes with --push")
    return {**data, "push": bool(v["push"])}


def _details(outcome: Any, _v: Values) -> Any:
    return dict(outcome.details)


def _look(name: str, action: str, flags: tuple[Any, ...], text: Any, **how: Any) -> Preset:
    """A look-up of the scale or the guides (a negative log reads as an argument)."""
    how.setdefault("data", _details)
    return Preset(name, action, flags, table=False, text=text, context=NEGATIVE, **how)


def _outcome_data(outcome: Any) -> Any:
    from referee.systems.base import outcome_data

    return outcome_data(outcome)


PRESETS = (
    Preset(
        "odds",
        "task",
        CHECK,
        "Exact odds of total + d6 - d6 (+ push) - difficulty: P(success) and every result.",
        odds=True,
        table=False,
        build=_task,
        seats=_roller_seat,
        text=_check_odds_text,
        data=lambda d, v: _report().task_odds_data(d, v["_options"], v["when_needed"]),
    ),
    Preset(
        "check",
        "task",
        (*CHECK, flag("actor", default="actor")),
        "Roll one check: the total, the result and its meaning (and a push's shock cost).",
        table=False,
        build=_task,
        seats=_roller_seat,
        text=lambda o, v: _report().task_text(o, v["actor"]),
        data=lambda o, v: _report().task_data(o, v["push"]),
    ),
    Preset(
        "damage",
        "damage",
        (
            flag("result", kind="int"),
            flag("damage"),
            flag("", "--toughness", kind="int", help="The defender's Toughness."),
            flag("strength"),
            flag("", "--armour", kind="text", help="Armour value, or wound/shock (e.g. 4/2)."),
            flag("stun", kind="flag"),
            flag("", "--attacker", kind="text", help="The attacker's sheet (JSON)."),
            flag("", "--defender", kind="text", help="The defender's sheet (JSON)."),
            flag("weapon"),
            flag("ignore"),
            PUSH,
            flag("", "--wound", kind="int", default=0, help="The defender's wound level."),
            flag("", "--shock", kind="int", default=0, help="The defender's shock level."),
            flag("", "--odds", "show_odds", kind="flag", help="Exact level odds, not a roll."),
        ),
        "Roll (or give exact odds of) the damage of a landed blow: give the numbers "
        "(--damage, --toughness ...) or two sheets (--attacker, --defender), not both.",
        table=False,
        build=_blow,
        seats=_blow_seats,
        odds_flag="show_odds",
        text=lambda r, v: (
            _report().odds_lines(_blow_odds(r, v)) if v["show_odds"] else _report().blow_text(r)
        ),
        data=lambda r, v: _blow_odds(r, v) if v["show_odds"] else _outcome_data(r),
    ),
    _look(
        "difficulty",
        "difficulty",
        (
            arg("kind", read=_low),
            arg("name"),
            *map(flag, ("size", "attack_result", "distance", "moving", "cover", "weather")),
            *map(flag, ("weapon", "fitness")),
        ),
        lambda o, v: o.label,
    ),
    _look(
        "log",
        "log-of",
        (arg("measure"), EXACT),
        lambda o, v: f"log of {v['measure']} = {o.result}",
        data=lambda o, v: {"log": o.result},
    ),
    _look(
        "measure",
        "measure-of",
        (arg("log"), EXACT),
        lambda o, v: f"measure of {v['log']} = {o.details['measure']}",
    ),
    _look(
        "convert",
        "convert",
        (
            arg("log"),
            flag("source", "--from"),
            flag("target", "--to"),
            flag("round_length", "--round"),
            EXACT,
        ),
        lambda o, v: _report().convert_text(o, v["_action"]),
    ),
    _look(
        "move",
        "move",
        (
            arg("rate"),
            flag("round_length", "--round"),
            flag("source", "--from"),
            flag("unit", "--to"),
            PUSH,
            EXACT,
        ),
        lambda o, v: _report().move_text(o, v["_action"]),
        data=lambda o, v: _report().move_data(o),
        build=_move,
    ),
    _look(
        "group",
        "group-log",
        (
            arg("logs"),
            option(
                "group_count",
                "--helpers",
                read=lambda _: "helpers",
                kind="flag",
                help="Add the log of the other helpers (the text's words).",
            ),
            EXACT,
        ),
        lambda o, v: o.label,
    ),
)

app = game_group(
    "arm",
    "ARM 1.2: d6-d6 checks with pushing, exact odds, damage, logs and units, sheets.",
    PRESETS,
)


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
    path: str, setting: str | None, template: str | None, options_file: str | None, as_json: bool
) -> None:
    """Validate a character against the setting (and its template): every problem, its cost."""
    from referee.systems.arm.catalog import Setting
    from referee.systems.base import load_record

    rules = _rules()
    chosen = None if setting is None else load_record(Setting, load_json_file(setting))
    sheet, model = (rules.load_sheet(load_json_file(f)) if f else None for f in (path, template))
    problems, cost = rules.check_sheet(sheet, load_options(rules, options_file), chosen, model)
    valid = f"{sheet.name}: valid ({cost['total']} chp)"
    report_problems(problems, as_json=as_json, valid_text=valid, extra={"chp": cost})


@app.command()
@JSON_OPTION
def setting(as_json: bool) -> None:
    """The shipped setting (stats, limits, costs, weapons, armour, spells) to edit."""
    from referee.systems.base import dump_record

    if as_json:
        emit_json(dump_record(_rules().setting))
        return
    for line in _report().setting_lines(_rules().setting):
        console.print(line, markup=False)
    console.print("(use --json for the editable file, then `referee arm validate --setting`)")


@app.command()
@JSON_OPTION
def notes(as_json: bool) -> None:
    """Where the ARM text disagrees with itself, and what this package does."""
    from dataclasses import asdict

    found = _rules().notes()
    if as_json:
        emit_json([asdict(d) for d in found])
        return
    for line in _report().note_lines(found):
        console.print(line, markup=False)


def demo(out: Console) -> None:
    """A short seeded tour of ARM: logs, a check, pushing, its odds and a blow."""
    for line in _report().tour(_rules()):
        out.print(line, markup=False)
