"""``referee mnemonic ...``: Mnemonic's short forms as presets over ``act`` / ``odds-of``, read
by :mod:`referee.systems.mnemonic.report`. The commands that draw take the table's state
(``--state``, ``--seat`` or ``--drawn``) and ``--save`` it: a deck carries from one to the next."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import click

from referee.cli import common, presets
from referee.cli.presets import Preset, Values, arg, flag, game_group, on, option, show
from referee.dice.roller import ManualRoller, Roller
from referee.errors import RulesError
from referee.systems.base import slug
from referee.systems.mnemonic import RULESET, report
from referee.systems.mnemonic.checks import odds_data
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.health import check_worst, parse_status
from referee.systems.mnemonic.randomizers import check_randomizer, uses_cards
from referee.systems.mnemonic.sheet import sheet_summary

CARD_FACES = common.FACES_HELP + (
    " For cards: the card values drawn (Ace 1 ... Queen 12), each still in the deck. For verbal:"
    " player's then referee's number; verbal-ab: number, letter (1=A, 2=B), twice."
)
PLAYED = "Verbal methods played live: the {}'s number (verbal-ab: with a letter, e.g. {})."


def _drawn(state: Any, v: Values) -> Any:
    """The table's state less the cards already ``--drawn`` (a new table's deck only)."""
    if v.get("drawn") is None:
        return state
    if v.get("state_file") is not None:
        raise RulesError("give --state or --drawn, not both (the state holds the deck)")
    return replace(state, deck=Deck().without(list(common.faces_option(v["drawn"]) or ())))


def _roller(rules: Any, action: Any, state: Any, opts: Any, v: Values) -> Roller | None:
    """Typed-in faces (card values for the card randomizers) and spoken numbers become
    the faces the action reads; else none (a seed or the system's generator)."""
    hand, said = common.faces_option(v.get("faces")), (v.get("player"), v.get("referee"))
    if said == (None, None):
        cards = hand is not None and uses_cards(opts.randomizer)
        return ManualRoller(rules.hand_faces(action, state, opts, cards=hand)) if cards else None
    if None in said or hand is not None:
        both = "both --player and --referee" if None in said else "either --faces or --player"
        raise RulesError(f"give {both}" + ("" if None in said else "/--referee, not both"))
    return ManualRoller(rules.hand_faces(action, state, opts, said=said))


RANDOMIZER = option("randomizer", "--randomizer", "-r", read=check_randomizer)
ROLL = (flag("aptitude", "-a"), flag("chances", "-c"))
ROLE = flag("life_role", "--role")
FACES = flag("", "--faces", kind="text", help=CARD_FACES)
DRAWN = flag("", "--drawn", kind="text", help="Cards already drawn since the last reshuffle.")
ODDS = flag("", "--odds", "show_odds", kind="flag", help="Show the exact odds instead of rolling.")
SAID = tuple(
    flag("", f"--{w}", kind="text", help=PLAYED.format(w, e))
    for w, e in (("player", "4A"), ("referee", "2B"))
)
DODGE = "Chances steps the defender's action worsens the attack (0..10)."
DEFENSE = flag("defense", "--dodge", read=report.defense_of, kind="int", help=DODGE)
CHARACTER = (
    flag("", "--sheet", kind="text", help="A character (JSON) to check."),
    flag("actor", help="A character seated at the table."),
)
HOUSE = (
    option("use_lucky", "--lucky", kind="flag"),
    option("degree_labels", "--degree", kind="flag"),
)
CHECK = (*ROLL, *CHARACTER, flag("talent"), ROLE, flag("fallback"), *SAID, *HOUSE)
OPPOSED = option("opposed_rolls", "--opposed", kind="flag")
ATTACK = (*ROLL, flag("actor"), flag("target"), ROLE, DEFENSE, OPPOSED, flag("defender_chances"))
STATUS = (flag("status", kind="text"), flag("", "--injuries", kind="int", help="Earlier injuries."))
INJURY = (*ROLL, flag("worst", read=check_worst), flag("victim"), *STATUS, ROLE)
ORDER = (
    arg("contenders", kind="many", help="NAME:AGILE_APTITUDE[:CHANCES], or a seated id."),
    option("rank_failures", "--rank-failures", kind="flag"),
)


def _check(v: Values) -> str:
    """A check from ``--aptitude``, or from a character's (``--sheet``, ``--actor``) Talent."""
    if v.get("sheet") is None and v.get("actor") is None:
        return "check"
    if v.get("aptitude") is not None:
        raise RulesError("with a character give --talent (and --role or --fallback), not -a")
    return "sheet-check"


def _seat(rules: Any, v: Values) -> dict[str, Any]:
    """The ``--sheet`` seated as ``--actor`` (or by its name)."""
    if v.get("sheet") is None:
        return {}
    who = common.sheet_from(rules, v["sheet"])
    return {v.get("actor") or slug(who.name): who}


def _actor(data: dict[str, Any], v: Values) -> dict[str, Any]:
    """The ``--sheet``'s character acts, seated as :func:`_seat` seats it."""
    return {**data, "actor": next(iter(_seat(RULESET, v)))} if v.get("sheet") else data


def _injury(data: dict[str, Any], v: Values) -> dict[str, Any]:
    """``--status`` / ``--injuries`` as a Status (the rules refuse one for a seated victim)."""
    status, injuries = v.get("status"), v.get("injuries")
    if v.get("victim") is not None and status is None and injuries is None:
        return data
    return {**data, "status": parse_status(status, injuries, v["_options"])}


HELP = {
    "odds": "Exact odds of a Success Check: P(success) and each number of Successes / Failures.",
    "check": "Resolve one Success Check (from an Aptitude, or a character's Talent and Life Role).",
    "attack": "An attack: only the attacker rolls (the defender's action worsens the Chances), "
    "or opposed rolls.",
    "injury": "An injury check: the victim's new Status (Hurt, or inactive as the worst outcome).",
    "order": "Order of action by Agile checks: most Successes first, ties act together.",
}


def _draws(name: str, action: str, flags: Any, *weighs: Any, reads: Any = (), **how: Any) -> Preset:
    """A command that draws at the table's state (with the randomizer, ``--drawn`` and typed-in
    faces), read by the wing's report (``reads``: text and JSON, a check's by default): its
    outcome, or with ``--odds`` (given ``weighs``: text and JSON) its distribution."""
    text, data = reads or (on(report.check_lines), on(report.check_data, "_after"))
    flags = (*flags, RANDOMIZER, DRAWN) if how.get("odds") else (*flags, RANDOMIZER, FACES, DRAWN)
    if weighs:
        flags += (ODDS,)
        how |= {"odds_flag": "show_odds", "odds_text": weighs[0], "odds_data": weighs[1]}
    how |= {"state": _drawn, "roller": _roller, "text": text, "data": data}
    return Preset(name, action, flags, HELP[name], **how)


PRESETS = (
    _draws(
        "odds",
        "check",
        ROLL,
        reads=(on(report.check_odds_lines, "_action", "_options", "_state"), on(odds_data)),
        odds=True,
    ),
    _draws(
        "check", "check", CHECK, also=("sheet-check",), choose=_check, seats=_seat, build=_actor
    ),
    _draws("attack", "attack", ATTACK, on(report.attack_odds_lines), on(odds_data)),
    _draws(
        "injury", "injury", INJURY, on(report.status_lines), on(report.status_odds), build=_injury
    ),
    _draws(
        "order",
        "agile-order",
        ORDER,
        on(report.order_odds_lines),
        on(report.order_odds),
        reads=(on(report.order_lines), on(report.order_data, "_after")),
        build=lambda d, v: {"contenders": report.contenders(v["contenders"], v["_state"])},
    ),
)
app = game_group("mnemonic", PRESETS)


@app.command()
@click.argument("path", help="A Mnemonic character as JSON, or an example's name.")
@common.OPTIONS_OPTION
@common.JSON_OPTION
@common.handle_errors
def sheet(path: str, options_file: str | None, as_json: bool) -> None:
    """Show a character with each rating's level name."""
    opts = common.load_options(RULESET, options_file)
    summary = sheet_summary(common.sheet_from(RULESET, path), opts)
    show(as_json, summary, report.sheet_lines(summary))


app.add_command(
    presets.validate_command(
        "mnemonic",
        option("use_lucky", "--lucky", kind="switch"),
        option("creation"),
        option("starting_level", "--starting-level", "--start"),
        option("free_raises"),
    )
)
