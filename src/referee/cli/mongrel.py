"""``referee mongrel ...``: Mongrel's short forms as presets over the generic ``act`` /
``odds-of`` / ``actions``; commands on a sheet file seat it alone, act and read it back;
``conflict`` plays a script on a throwaway table. An outcome reads in Mongrel's words, as
the table's log says it (:mod:`referee.systems.mongrel.words`); odds read as their JSON
does, laid out as every game's are (:func:`referee.cli.common.odds_lines`)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any, cast

import click

from referee.cli import common
from referee.cli.presets import (
    Flag,
    Preset,
    Render,
    Run,
    flag,
    game_group,
    on,
    on_sheet,
    sheet,
    show,
)
from referee.errors import RulesError
from referee.systems.base import Outcome, outcome_data, probability_map
from referee.systems.mongrel import RULESET
from referee.systems.mongrel.checks import success_odds
from referee.systems.mongrel.sheet import accounts_line, points_line
from referee.systems.mongrel.sorcery import occult_odds
from referee.systems.mongrel.state import State
from referee.systems.mongrel.tables import canonical_expertise
from referee.systems.mongrel.words import step_prompt
from referee.table.scratch import Words

SHEET = "sheet"  # the id a sheet file is seated under, alone at its table (as on_sheet does)
APPROVED = "the-sheet-approved"
"""The id ``approve`` seats the sheet under: not a word its outcome says ("on Giazza's
sheet"), which the game's words would read as the character's name."""


def _check_data(out: Outcome, seed: int | None) -> dict[str, Any]:
    """A task roll's JSON: success, successes, Effect, the special case, the seed."""
    d = out.details
    seed = None if out.manual else seed
    head = {"success": out.success, "successes": d["successes"], "effect": out.result}
    return {**head, "special": d["special"], "seed": seed, **outcome_data(out)}


def _buy_data(out: Outcome, dist: Any) -> dict[str, Any]:
    """A buying roll's JSON: the faces, the result, the odds of each result."""
    odds, rolled = probability_map(dist), [d.face for d in out.faces]
    return {"faces": rolled, "result": out.label, "odds": odds, "manual": out.manual}


OCCULT_KEYS = ("working", "resist", "resolve_spent", "hours")


def _occult_data(out: Outcome, seed: int | None) -> dict[str, Any]:
    """An Occult attack's JSON: the working's success, the net Effect, each roll."""
    d = out.details
    data: dict[str, Any] = {"success": out.success, "effect": out.result}
    data |= {k: d[k] for k in OCCULT_KEYS} | {"target": out.target}
    data |= {"faces": d["faces"], "resist_faces": d["resist_faces"], "manual": out.manual}
    return data | {"seed": None if out.manual else seed}


def _approval(data: dict[str, Any], run: Run) -> dict[str, Any]:
    if bool(run["every"]) == bool(data.get("fields")):
        raise RulesError("name the problems with --field PATH[,PATH...] or use --all")
    return {**data, "target": APPROVED}


WORKING = common.FACES_HELP + " Working, then Resist."
OCCULT = (
    flag("range_modifier", "--range"),
    flag("scale_modifier", "--scale"),
    flag("", "--faces", kind="text", help=WORKING),
)
FIELDS = "Approve the problems at these field paths (comma-separated)."
APPROVE = (
    sheet(APPROVED, "path", argument=True, help="A Mongrel character sheet (JSON)."),
    flag(
        "fields",
        "--field",
        read=lambda text: [*filter(None, text.replace(" ", "").split(","))],
        kind="text",
        help=FIELDS,
    ),
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


def _loose(name: str, action: str, data: Render, *flags: Flag, **how: Any) -> Preset:
    """A command at no table of its own, its outcome in Mongrel's words, its JSON ``data``."""
    return Preset(name, action, flags, HELP[name], data=data, table=False, **how)


A = "action"
PRESETS = (
    _loose("odds", "check", on(success_odds), odds=True),
    _loose("check", "check", on(_check_data, "seed")),
    _loose("buy", "buy-roll", on(_buy_data, "weigh")),
    _loose(
        "occult",
        "occult-roll",
        on(_occult_data, "seed"),
        *OCCULT,
        offers_odds=True,
        odds_data=on(occult_odds, A),
    ),
    _loose(
        "approve",
        "approve-sheet",
        on(lambda _o, after: RULESET.dump_sheet(after.character(APPROVED).sheet), "after"),
        *APPROVE,
        out=APPROVED,
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
    line = points_line(before, sheet, next(iter(chosen.values()), "nothing raised"))
    points = {"points_before": before.character_points, "points_left": sheet.character_points}
    show(as_json, points | {"sheet": RULESET.dump_sheet(sheet)}, [line])


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
    show(more["as_json"], accounts(sheet), [accounts_line(sheet)])


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
    common.err_console.print(step_prompt(step, opts))
    for line in sys.stdin:
        if line.strip().isdigit() and 1 <= int(line.strip()) <= len(opts):
            return line.strip()
        common.err_console.print(f"choose a number from 1 to {len(opts)}")
    raise RulesError(f"input ended at step {step}")


WORDS = Words(
    names={
        "spend": "spend-resolve",
        "vow": "vow-refresh",
        "survive": "spend-resolve-to-survive",
        "accept": "accept-fate",
    },
    keys={
        "who": "actor",
        "attacker": "actor",
        "armour": "armor",
        "shunt": "shunt_to_beauty",
        "range": "range_modifier",
        "scale": "scale_modifier",
    },
    order={"occult": ("actor", "target")},
    read={"expertise": canonical_expertise},
    opening=("start-conflict", "order"),  # by the rules: Beast, Man, Demon, dice for ties
)
"""How a conflict's commands and script items are spelled: other names for actions and
fields, the fields bare words fill, an Expertise's spellings, and the action a conflict
opens with."""

SESSION_HELP = """Commands (one per line; faces=6,3,1 gives dice rolled at the table):
  attack ATT TGT EXPERTISE [defend] [weapon=N] [armor=N] [shunt=N] [attribute=A] [difficulty=N]
  task ID EXPERTISE [attribute=A | tn=N | target=ID] [mode=under|over] [difficulty=N]
  (attack and task: [power=P] adds a Power's dice)
  occult ID [TARGET] [resolve=N] [resist] [range=M] [scale=M] [difficulty=M]
  advance ID | recover ID | wait ID | spend ID N | rest ID HOURS | vow ID
  survive ID | accept ID   (answer a terminal hit: spend 1 Infernal Resolve, or die)
  ACTION key=value ...     (any action: see `referee mongrel actions`)
  undo | help | quit"""
"""What a conflict's ``help`` says: the commands :data:`WORDS` reads."""

FIGHTER_COLUMNS = ("fighter", "AP", "IR", "damage", "Physique", "state")


def _fighters(state: State) -> list[dict[str, Any]]:
    """Each seated character's numbers, as a conflict shows them."""
    keys = ("collapsed", "terminal", "dead", "rushed", "discombobulated", "condition")
    return [
        {"id": cid, "name": f.name, "ap": f.ap, "infernal_resolve": f.ir, "damage": f.damage}
        | {"physique": f.physique}
        | {k: getattr(f, k) for k in keys}
        for cid, f in state.characters.items()
    ]


def _conflict_data(log: Sequence[str], state: State) -> dict[str, Any]:
    """A conflict's JSON: the log, the order, the clock, the decisions awaited, the fighters."""
    pending = [asdict(d) for d in state.pending]
    shown = {"log": list(log), "order": list(state.order), "hours": state.hours}
    return shown | {"pending": pending, "fighters": _fighters(state)}


def _conflict_lines(log: Sequence[str], state: State) -> list[Any]:
    """The log, the decisions awaited (in Mongrel's words), then the fighters' table."""
    words = RULESET.words({c: f.name for c, f in state.characters.items()})
    waiting = [words.decision(d) for d in state.pending]
    keys = ("name", "ap", "infernal_resolve", "damage", "physique", "condition")
    rows = [tuple(str(r[k]) for k in keys) for r in _fighters(state)]
    order = " > ".join(words.names(c) for c in state.order)
    title = f"next: {words.names(state.next)}   order: {order}   hours: {state.hours}"
    return [*log, *waiting, {"title": title, "columns": FIGHTER_COLUMNS, "rows": rows}]


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
    from referee.table.scratch import Scratch

    given = more["options_file"] and common.load_json_file(more["options_file"])
    script = common.load_json_file(path)
    with Scratch.of_script("mongrel", script, seed, given, live=interactive) as table:
        for said in table.run(WORDS, sys.stdin if interactive else (), SESSION_HELP):
            common.console.print(said)
        if more["save"] is not None:
            common.write_json_file(more["save"], table.script())
        log, state = table.log(), cast("State", table.table.state)  # a Mongrel table
        show(more["as_json"], _conflict_data(log, state), _conflict_lines(log, state))
