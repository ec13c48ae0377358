"""``referee mnemonic ...``: Mnemonic's short forms as presets over ``act`` / ``odds-of``. An
outcome reads in Mnemonic's words, as the table's log says it
(:mod:`referee.systems.mnemonic.words`); odds read as their JSON does, laid out as every
game's are (:func:`referee.cli.common.odds_lines`). The commands that draw take the table's state
(``--state``, ``--seat`` or ``--drawn``) and ``--save`` it: a deck carries from one to the next."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import click

from referee.cli import common, presets
from referee.cli.presets import (
    SEATED,
    SLUG,
    Preset,
    Run,
    arg,
    flag,
    game_group,
    goes_with,
    not_both,
    on,
    option,
    show,
)
from referee.dice.roller import ManualRoller, Roller
from referee.systems.base import Outcome, outcome_data
from referee.systems.mnemonic import RULESET
from referee.systems.mnemonic.checks import odds_data
from referee.systems.mnemonic.conflict import contenders, defense_of, order_odds
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.health import parse_status, status_odds
from referee.systems.mnemonic.randomizers import check_randomizer, uses_cards
from referee.systems.mnemonic.sheet import check_worst, sheet_summary, summary_lines
from referee.systems.mnemonic.state import State

CARD_FACES = common.FACES_HELP + (
    " For cards: the card values drawn (Ace 1 ... Queen 12), each still in the deck. For verbal:"
    " player's then referee's number; verbal-ab: number, letter (1=A, 2=B), twice."
)
PLAYED = "Verbal methods played live: the {}'s number (verbal-ab: with a letter, e.g. {})."


def _drawn(run: Run) -> Any:
    """The table's state less the cards already ``--drawn`` (a new table's deck only)."""
    if run.get("drawn") is None:
        return run.table
    drawn = list(common.faces_option(run["drawn"]) or ())
    state: Any = run.table
    return replace(state, deck=Deck().without(drawn))


def _roller(run: Run) -> Roller | None:
    """Typed-in faces (card values for the card randomizers) and spoken numbers become
    the faces the action reads; else none (a seed or the system's generator)."""
    rules, action, state, opts = RULESET, run.acting, cast(State, run.table), run.options
    hand, said = common.faces_option(run.get("faces")), (run.get("player"), run.get("referee"))
    if said == (None, None):
        cards = hand is not None and uses_cards(opts.randomizer)
        return ManualRoller(rules.hand_faces(action, state, opts, cards=hand)) if cards else None
    return ManualRoller(rules.hand_faces(action, state, opts, said=said))


SPOKEN = (
    goes_with("player", "referee", why="both numbers are spoken"),
    goes_with("referee", "player", why="both numbers are spoken"),
    not_both("faces", "player", why="the faces are the spoken numbers"),
    not_both("state_file", "drawn", why="the state holds the deck"),
)
"""The rules between the flags of every command that draws."""


CHECK_KEYS = ("cards", "deck_left", "reshuffled", "degree", "hit", "status")
"""What a check's JSON adds from its details when the check has it."""


def _deck(out: Outcome, after: State) -> dict[str, Any]:
    """The deck after a draw, and the cards out of it (pass them on as ``--drawn``)."""
    if not any(c.field == "deck" for c in out.changes):
        return {}
    return {"deck": list(after.deck.cards), "drawn": list(after.deck.drawn())}


def _check_data(out: Outcome, after: State) -> dict[str, Any]:
    """A check's (an attack's, an injury's) JSON: the totals, the randomizer's value,
    what it drew, the deck after it, and the whole outcome."""
    d = out.details
    data: dict[str, Any] = {
        "success": out.success,
        "successes": d.get("successes"),
        "failures": d.get("failures"),
        "total": out.result,
        "randomizer": d.get("randomizer"),
        "value": d.get("value"),
        "label": out.label,
    }
    data |= {key: d[key] for key in CHECK_KEYS if key in d}
    data |= _deck(out, after)
    return data | {"manual": out.manual, "outcome": outcome_data(out)}


def _order_data(out: Outcome, after: State) -> dict[str, Any]:
    """The order of action's JSON: the groups, each Agile check, the deck after."""
    deck = {"deck": list(after.deck.cards), "drawn": list(after.deck.drawn())}
    shown = {"order": out.details["order"], "checks": out.items("checks"), "manual": out.manual}
    return shown | deck | {"outcome": outcome_data(out)}


RANDOMIZER = option("randomizer", "--randomizer", "-r", read=check_randomizer)
ROLL = (flag("aptitude", "-a"), flag("chances", "-c"))
ROLE = flag("life_role", "--role")
FACES = flag("", "--faces", kind="text", help=CARD_FACES)
DRAWN = flag("", "--drawn", kind="text", help="Cards already drawn since the last reshuffle.")
SAID = tuple(
    flag("", f"--{w}", kind="text", help=PLAYED.format(w, e))
    for w, e in (("player", "4A"), ("referee", "2B"))
)
DODGE = "Chances steps the defender's action worsens the attack (0..10)."
DEFENSE = flag("defense", "--dodge", read=defense_of, kind="int", help=DODGE)
CHARACTER = (
    presets.sheet(
        SLUG,
        "--sheet",
        named_by="actor",
        sets={"actor": SEATED},
        help="A character (JSON) to check.",
    ),
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


def _check(run: Run) -> str:
    """A check from ``--aptitude``, or from a character's (``--sheet``, ``--actor``) Talent."""
    return "check" if run.get("sheet") is None and run.get("actor") is None else "sheet-check"


CHARACTER_CHECK = (
    not_both("aptitude", "sheet", why="a character checks a --talent (and --role or --fallback)"),
    not_both("aptitude", "actor", why="a character checks a --talent (and --role or --fallback)"),
)


def _injury(data: dict[str, Any], run: Run) -> dict[str, Any]:
    """``--status`` / ``--injuries`` as a Status (the rules refuse one for a seated victim)."""
    status, injuries = run.get("status"), run.get("injuries")
    if run.get("victim") is not None and status is None and injuries is None:
        return data
    return {**data, "status": parse_status(status, injuries, run.options)}


HELP = {
    "odds": "Exact odds of a Success Check: P(success) and each number of Successes / Failures.",
    "check": "Resolve one Success Check (from an Aptitude, or a character's Talent and Life Role).",
    "attack": "An attack: only the attacker rolls (the defender's action worsens the Chances), "
    "or opposed rolls.",
    "injury": "An injury check: the victim's new Status (Hurt, or inactive as the worst outcome).",
    "order": "Order of action by Agile checks: most Successes first, ties act together.",
}


def _draws(
    name: str, action: str, flags: Any, weighs: Any = None, data: Any = None, **how: Any
) -> Preset:
    """A command that draws at the table's state (with the randomizer, ``--drawn`` and typed-in
    faces): its outcome in Mnemonic's words and its JSON (``data``, a check's by default),
    or with ``--odds`` (given ``weighs``, the odds' JSON) its distribution."""
    odds = bool(how.get("odds"))
    flags = (*flags, RANDOMIZER, DRAWN) if odds else (*flags, RANDOMIZER, FACES, DRAWN)
    if weighs:
        how |= {"offers_odds": True, "odds_data": weighs}
    how |= {"prepare": _drawn, "roller": _roller, "data": data or on(_check_data, "after")}
    spoken = SPOKEN if any(f.key == "player" for f in flags) else SPOKEN[3:]
    how["between"] = (*spoken, *how.get("between", ()))
    return Preset(name, action, flags, HELP[name], **how)


PRESETS = (
    _draws("odds", "check", ROLL, data=on(odds_data), odds=True),
    _draws("check", "check", CHECK, also=("sheet-check",), choose=_check, between=CHARACTER_CHECK),
    _draws("attack", "attack", ATTACK, on(odds_data)),
    _draws("injury", "injury", INJURY, on(status_odds), build=_injury),
    _draws(
        "order",
        "agile-order",
        ORDER,
        on(order_odds),
        on(_order_data, "after"),
        build=lambda d, run: {"contenders": contenders(run["contenders"], run.table)},
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
    show(as_json, summary, summary_lines(summary))


app.add_command(
    presets.validate_command(
        "mnemonic",
        option("use_lucky", "--lucky", kind="switch"),
        option("creation"),
        option("starting_level", "--starting-level", "--start"),
        option("free_raises"),
    )
)
