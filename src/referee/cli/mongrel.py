"""``referee mongrel ...``: Mongrel's short forms as presets over the generic ``act`` /
``odds-of`` / ``actions``; commands on a sheet file seat it alone, act and read it back;
``conflict`` plays a script on a throwaway table. :mod:`~referee.systems.mongrel.report` reads."""

from __future__ import annotations

import sys
from typing import Any, cast

import click

from referee.cli import common
from referee.cli.presets import (
    Flag,
    Preset,
    Render,
    Values,
    arg,
    flag,
    game_group,
    on,
    on_sheet,
    show,
)
from referee.errors import RulesError
from referee.systems.mongrel import RULESET, report
from referee.systems.mongrel.state import State
from referee.systems.mongrel.tables import canonical_expertise
from referee.table.throwaway import Words

SHEET = "sheet"  # the id a sheet file is seated under, alone at its table (as on_sheet does)


def _approval(data: dict[str, Any], v: Values) -> dict[str, Any]:
    if bool(v["every"]) == bool(data.get("fields")):
        raise RulesError("name the problems with --field PATH[,PATH...] or use --all")
    return {**data, "target": SHEET}


WORKING = "Exact odds instead of a roll.", common.FACES_HELP + " Working, then Resist."
OCCULT = (
    flag("range_modifier", "--range"),
    flag("scale_modifier", "--scale"),
    flag("", "--faces", kind="text", help=WORKING[1]),
    flag("", "--odds", "show_odds", kind="flag", help=WORKING[0]),
)
FIELDS = "Approve the problems at these field paths (comma-separated)."
APPROVE = (
    arg("", names=("path",), kind="text", help="A Mongrel character sheet (JSON)."),
    flag("fields", "--field", read=report.field_paths, kind="text", help=FIELDS),
    flag("", "--all", "every", kind="flag", help="Approve every open problem."),
    flag("", "--save", "--out", "out", kind="text", help="Write the approved sheet here."),
)


HELP = {
    "odds": "Exact chance of success and of each Effect (successes only).",
    "check": "Resolve one task roll: faces, successes and Effect.",
    "buy": "Roll to buy: a die above the seller's Social and within one's Credit buys it.",
    "occult": "An Occult attack on Infernal Resolve, optionally resisted: one roll or exact odds.",
    "approve": "Referee approval: record a reason for rules a sheet breaks, so it validates.",
}


def _loose(name: str, action: str, text: Render, data: Render, *flags: Flag, **how: Any) -> Preset:
    """A command read by ``text`` / ``data`` at no table of its own."""
    return Preset(name, action, flags, HELP[name], text=text, data=data, table=False, **how)


A = "_action"
PRESETS = (
    _loose("odds", "check", on(report.check_odds_text, A), on(report.check_odds), odds=True),
    _loose("check", "check", on(report.check_line, A), on(report.check_data, "seed")),
    _loose("buy", "buy-roll", on(report.buy_line, "_weigh"), on(report.buy_data, "_weigh")),
    _loose(
        "occult",
        "occult-roll",
        on(report.occult_line),
        on(report.occult_data, "seed"),
        *OCCULT,
        odds_flag="show_odds",
        odds_text=on(report.occult_odds_text, A),
        odds_data=on(report.occult_odds, A),
    ),
    _loose(
        "approve",
        "approve-sheet",
        on(report.approval_lines),
        lambda o, v: RULESET.dump_sheet(v["_after"].character(SHEET).sheet),
        *APPROVE,
        out=SHEET,
        seats=lambda rules, v: {SHEET: common.sheet_from(RULESET, v["path"])},
        build=_approval,
    ),
)
app = game_group("mongrel", PRESETS)
ON_SHEET = common.stacked(
    click.option("--save", help="Write the sheet after it here."),
    click.argument("path", help="A Mongrel character sheet (JSON), or an example's name (vooruk)."),
    common.JSON_OPTION,
    common.handle_errors,
)


@app.command()
@click.option("--award", default=0, help="Session award first: 1 or 2 points (0: none).")
@click.option("--vow", is_flag=True, help="With --award: +1 for risk taken for the Vow.")
@click.option("--expertise", help="Raise this Expertise.")
@click.option("--identity", help="Raise man, beast or demon.")
@click.option("--reduce", help="With --identity: lower this Identity by 1 (cost x2, not x5).")
@click.option("--attribute", help="Raise this attribute.")
@click.option("--used", default="", help="Features used last session, comma-separated.")
@ON_SHEET
def improve(path: str, award: int, vow: bool, used: str, save: str | None, **more: Any) -> None:
    """Character points: award a session's points, then buy one raise (unspent points are saved)."""
    reduce, as_json = more.pop("reduce"), more.pop("as_json")
    chosen = {k: v for k, v in more.items() if v is not None}
    for wrong, message in (
        (len(chosen) > 1, "raise one feature at a time: --expertise, --identity or --attribute"),
        (reduce is not None and more["identity"] is None, "--reduce goes with --identity"),
        (vow and not award, "--vow adds to a session's --award"),
    ):
        if wrong:
            raise RulesError(message)
    features = {u.strip().lower() for u in used.split(",") if u.strip()}
    steps = [("award-points", {"target": SHEET, "points": award, "vow_risk": vow})] if award else []
    for key, value in chosen.items():
        value = canonical_expertise(value) if key == "expertise" else value
        data = {"actor": SHEET, key: value, "used": value.lower() in features}
        steps.append((f"raise-{key}", data | ({"reduce": reduce} if key == "identity" else {})))
    before, sheet = on_sheet(RULESET, common.sheet_from(RULESET, path), steps, save)
    line = report.points_line(before, sheet, next(iter(chosen.values()), "nothing raised"))
    show(as_json, report.points_data(before, sheet, RULESET.dump_sheet(sheet)), [line])


@app.command()
@click.option("--transfer", help="FROM:TO:N - receive N with TO, paying 2N from FROM.")
@click.option("--sacrifice", help="Give a seller 1 Credit from this House's account.")
@ON_SHEET
def credit(path: str, transfer: str | None, sacrifice: str | None, **more: Any) -> None:
    """House Credit accounts: show them, transfer at 2:1, or sacrifice 1 to a seller."""
    from referee.systems.mongrel.sheet import credit as accounts

    parts = (transfer or "").split(":")
    if transfer is not None and (len(parts) != 3 or not parts[2].strip().isdigit()):
        raise RulesError(f"--transfer is FROM:TO:N with N a whole number, not {transfer!r}")
    moved = {"source": parts[0], "dest": parts[-2], "received": int(parts[-1])} if transfer else {}
    steps = [("transfer-credit", {"actor": SHEET, **moved})] if transfer else []
    steps += [("sacrifice-credit", {"actor": SHEET, "house": sacrifice})] if sacrifice else []
    sheet = on_sheet(RULESET, common.sheet_from(RULESET, path), steps, more["save"])[1]
    show(more["as_json"], accounts(sheet), [report.accounts_line(sheet)])


@app.command()
@click.option("--name", required=True, help="The character's name.")
@click.option("--vow", default="", help="The character's Vow.")
@click.option("--choices", help="Option numbers for every step, comma-separated (else asked).")
@common.handle_errors
def build(name: str, vow: str, choices: str | None) -> None:
    """Create a character step by step: each step lists only the legal choices."""
    from referee.systems.mongrel.builder import Builder

    b, given = Builder(), [c.strip() for c in choices.split(",")] if choices else None
    while b.step is not None:
        opts = b.options()
        if given is not None and not given:
            raise RulesError(f"--choices ran out at step {b.step}")
        answer = given.pop(0) if given is not None else _ask(b.step, opts)
        if not answer.isdigit() or not 1 <= int(answer) <= len(opts):
            raise RulesError(f"{b.step}: choose a number from 1 to {len(opts)}, not {answer!r}")
        b = b.choose(opts[int(answer) - 1])
    common.emit_json(RULESET.dump_sheet(b.sheet(name, vow)))


def _ask(step: str, opts: tuple[Any, ...]) -> str:
    """A step's choices on stderr; the number read from stdin (asked until it is one)."""
    common.err_console.print(report.step_prompt(step, opts))
    for line in sys.stdin:
        if line.strip().isdigit() and 1 <= int(line.strip()) <= len(opts):
            return line.strip()
        common.err_console.print(f"choose a number from 1 to {len(opts)}")
    raise RulesError(f"input ended at step {step}")


WORDS = Words(**report.SESSION_WORDS)


@app.command()
@click.argument("path", help="A conflict script (JSON: fighters and actions).")
@common.SEED_OPTION
@click.option("--interactive", is_flag=True, help="After the script, read commands from stdin.")
@click.option("--options", "options_file", help="The table's house rules (JSON), not the script's.")
@click.option("--save", help="Store the conflict (with every face rolled) as a script here.")
@common.JSON_OPTION
@common.handle_errors
def conflict(path: str, seed: int | None, interactive: bool, **more: Any) -> None:
    """Run a scripted conflict on a throwaway table, optionally continuing interactively
    (type 'help'); undo takes back the last action."""
    from referee.table.throwaway import Scratch

    given = more["options_file"] and common.load_json_file(more["options_file"])
    script = common.load_json_file(path)
    with Scratch.of_script("mongrel", script, seed, given, live=interactive) as table:
        for said in table.run(WORDS, sys.stdin if interactive else (), report.SESSION_HELP):
            common.console.print(said)
        if more["save"] is not None:
            common.write_json_file(more["save"], table.script())
        log, state = table.log(), cast("State", table.table.state)  # a Mongrel table
        show(more["as_json"], report.conflict_data(log, state), report.conflict_lines(log, state))
