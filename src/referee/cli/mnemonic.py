"""``referee mnemonic ...``: every command is flags -> a Mnemonic action -> ``RULESET``
(resolve, odds, apply) -> a renderer. Every command takes the table's options
(``--options``); the commands that draw take the table's state (``--state``,
``--seat``) and can ``--save`` it, so a deck carries from one command to the next."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import click

from referee.cli.common import (
    FACES_HELP,
    JSON_OPTION,
    SAVE_OPTION,
    SEAT_OPTION,
    SEED_OPTION,
    STATE_OPTION,
    all_faces_used,
    console,
    emit_json,
    faces_option,
    handle_errors,
    listed,
    load_json_file,
    load_state,
    make_roller,
    report_problems,
    stacked,
    write_json_file,
)
from referee.dice.odds import fraction_text
from referee.dice.roller import ManualRoller, Roller
from referee.errors import RulesError
from referee.systems.base import Action, Outcome, outcome_data, slug

if TYPE_CHECKING:
    from referee.cli.text import Console
    from referee.systems.mnemonic.options import Options
    from referee.systems.mnemonic.state import State

app = click.Group(
    name="mnemonic",
    help="Mnemonic: Success Checks with six randomizers, exact odds, fights and injuries.",
    no_args_is_help=True,
)

RANDOMIZER_HELP = "Randomizer: d12, 3d12, cards, 3cards, verbal, verbal-ab (default: the table's)."
CHANCES_HELP = "A modifier (-4, +7) or a rating (Terrible, Bad, Poor ... Good, Great)."
CARD_FACES_HELP = (
    FACES_HELP + " For cards: the card values drawn (Ace 1 ... Queen 12), each still in the deck. "
    "For verbal: player's then referee's number; verbal-ab: number, letter (1=A, 2=B), twice."
)
DRAWN_HELP = "Cards already drawn since the last reshuffle (card randomizers), e.g. 12,3,3."
PLAYER_HELP = "Verbal methods played live: the player's number (verbal-ab: with a letter, e.g. 4A)."
REFEREE_HELP = "Verbal methods played live: the referee's number (verbal-ab: e.g. 2B)."
OPTIONS_HELP = "The table's house rules as JSON (e.g. randomizer); flags override them."
FALLBACK_HELP = "With no --role: relevant (Primary +3), irrelevant (Primary +0) or lucky."

OPTIONS_FILE = click.option("--options", "options_file", help=OPTIONS_HELP)
RANDOMIZER = click.option("--randomizer", "-r", help=RANDOMIZER_HELP)
CHANCES = click.option("--chances", "-c", default="0", help=CHANCES_HELP)
FACES = click.option("--faces", help=CARD_FACES_HELP)
DRAWN = click.option("--drawn", help=DRAWN_HELP)
ACTOR = click.option("--actor", help="A character seated at the table.")
ROLE = click.option("--role", help="The Life Role.")
ODDS = click.option(
    "--odds", "show_odds", is_flag=True, help="Show the exact odds instead of rolling."
)
RESIST_HELP = "Resisting Aptitude: Life Role or Primary (+3) plus best Talent (or --victim)."
STATUS_HELP = "The victim's Status: Fine, Hurt, inactive (unconscious) ... (default: Fine)."


def _options(path: str | None, randomizer: str | None = None, **flags: Any) -> Options:
    """The table's options (``--options`` or the rulings) with the flags given."""
    from referee.cli.common import load_options
    from referee.systems.mnemonic import RULESET
    from referee.systems.mnemonic.randomizers import check_randomizer

    base: Options = load_options(RULESET, path)
    given = {k: v for k, v in flags.items() if v is not None}
    if randomizer is not None:
        given["randomizer"] = check_randomizer(randomizer)
    return replace(base, **given)


def _state(
    opts: Options,
    path: str | None = None,
    seats: list[str] | None = None,
    drawn: str | None = None,
) -> State:
    """The table's state (``--state``, or a new table's) with ``--seat`` characters and
    the deck less the ``--drawn`` cards."""
    from referee.systems.mnemonic import RULESET
    from referee.systems.mnemonic.deck import Deck

    state: State = load_state(RULESET, path, opts, seats)
    if drawn is None:
        return state
    if path is not None:
        raise RulesError("give --state or --drawn, not both (the state holds the deck)")
    return replace(state, deck=Deck().without(list(faces_option(drawn) or ())))


def _said(player: str | None, referee: str | None) -> tuple[str, str] | None:
    """The verbal numbers played live, from ``--player`` / ``--referee``."""
    if player is None and referee is None:
        return None
    if player is None or referee is None:
        raise RulesError("give both --player and --referee")
    return player, referee


def _play(
    action: Action,
    state: State,
    opts: Options,
    faces: str | None,
    seed: int | None,
    save: str | None,
    said: tuple[str, str] | None = None,
) -> tuple[Outcome, State]:
    """Resolve ``action`` through ``RULESET`` and apply it (``--save`` the state after).

    Typed-in faces (card values for the card randomizers) and spoken numbers
    become the faces the action reads; else a seed or the system's generator."""
    from referee.systems.mnemonic import RULESET
    from referee.systems.mnemonic.randomizers import uses_cards

    hand = faces_option(faces)
    roller: Roller
    if said is not None and hand is not None:
        raise RulesError("give either --faces or --player/--referee, not both")
    if said is not None:
        roller = ManualRoller(RULESET.hand_faces(action, state, opts, said=said))
    elif hand is not None and uses_cards(opts.randomizer):
        roller = ManualRoller(RULESET.hand_faces(action, state, opts, cards=hand))
    else:
        roller = make_roller(hand, seed)
    out = RULESET.resolve(action, state, roller, opts)
    all_faces_used(roller)
    after = RULESET.apply(state, out)
    if save is not None:
        write_json_file(save, RULESET.dump_state(after))
    return out, after


def _odds(action: Action, state: State, opts: Options) -> Any:
    from referee.systems.mnemonic import RULESET

    return RULESET.odds(action, state, opts)


def _check_json(out: Outcome, after: State) -> dict[str, Any]:
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
    for key in ("cards", "deck_left", "reshuffled", "degree", "hit", "status"):
        if key in d:
            data[key] = d[key]
    if any(c.field == "deck" for c in out.changes):
        data["deck"] = list(after.deck.cards)
        data["drawn"] = list(after.deck.drawn())  # pass on as --drawn to the next command
    data["manual"] = out.manual
    data["outcome"] = outcome_data(out)
    return data


def _show_check(action: str, d: Any, label: str, modifiers: str = "", what: str = "") -> None:
    from referee.systems.mnemonic.deck import card_name

    what = d.get("numbers") or what or str(d.get("value"))
    if "cards" in d:
        what = ", ".join(card_name(c) for c in d["cards"])
        what += " (deck reshuffled first)" if d.get("reshuffled") else ""
    console.print(f"{action}: {d.get('randomizer')} [{what}]", markup=False)
    console.print(f"  {modifiers}-> {label}", markup=False)
    if "deck_left" in d:
        console.print(f"  {d['deck_left']} cards left in the deck", markup=False)


def _emit(out: Outcome, after: State, as_json: bool) -> None:
    if as_json:
        emit_json(_check_json(out, after))
        return
    parts = " ".join(f"{m.value:+d} {m.source}" for m in out.modifiers)
    hand = " (entered by hand)" if out.manual else ""
    faces = ", ".join(str(f.face) for f in out.faces)
    _show_check(out.action + hand, out.details, out.label, f"{parts} = {out.result:+d} ", faces)


def _show_odds(title: str, dist: Any, as_json: bool) -> None:
    from referee.systems.mnemonic.checks import odds_data

    data = odds_data(dist)
    if as_json:
        emit_json(data)
        return
    p = Fraction(data["p_success"])
    console.print(f"{title}: success {float(p) * 100:.2f}% ({data['p_success']})", markup=False)
    fails = {f"{n} Failure{'s' if n != '1' else ''}": q for n, q in data["failures"].items()}
    wins = {f"{n} Success{'es' if n != '1' else ''}": q for n, q in data["successes"].items()}
    _show_shares(dict(reversed(fails.items())) | wins)


def _show_shares(data: dict[str, str]) -> None:
    for name, p in data.items():
        console.print(f"{name}: {p} ({float(Fraction(p)) * 100:.2f}%)", markup=False)


@app.command()
@click.option("--aptitude", "-a", required=True, type=int, help="Aptitude 0..12.")
@CHANCES
@RANDOMIZER
@DRAWN
@STATE_OPTION
@OPTIONS_FILE
@JSON_OPTION
@handle_errors
def odds(
    aptitude: int,
    chances: str,
    randomizer: str | None,
    drawn: str | None,
    state_file: str | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Exact odds of a Success Check: P(success) and each number of Successes / Failures."""
    from referee.systems.mnemonic.actions import Check
    from referee.systems.mnemonic.randomizers import uses_cards

    opts = _options(options_file, randomizer)
    state = _state(opts, state_file, drawn=drawn)
    action = Check(aptitude, chances)
    dist = _odds(action, state, opts)
    title = f"Aptitude {aptitude}, Chances {action.chances:+d}, {opts.randomizer}"
    if uses_cards(opts.randomizer):
        title += f" (deck of {len(state.deck)} cards)"
    _show_odds(title, dist, as_json)


TABLE_ROLL = stacked(OPTIONS_FILE, STATE_OPTION, SEAT_OPTION, SAVE_OPTION, SEED_OPTION)
"""A check at a table: house rules, the state file, who sits where, saving, the seed."""


@app.command()
@click.option(
    "--aptitude", "-a", type=int, help="Aptitude 0..12 (Talent + Life Role); or a character."
)
@CHANCES
@RANDOMIZER
@click.option("--sheet", help="A character (JSON) to check.")
@ACTOR
@click.option("--talent", help="With a character: the Talent.")
@ROLE
@click.option("--fallback", default="relevant", help=FALLBACK_HELP)
@click.option("--lucky", is_flag=True, help="The table uses the optional Talent Lucky.")
@FACES
@click.option("--player", help=PLAYER_HELP)
@click.option("--referee", help=REFEREE_HELP)
@DRAWN
@click.option("--degree", is_flag=True, help="Add the optional degree label.")
@TABLE_ROLL
@JSON_OPTION
@handle_errors
def check(
    aptitude: int | None,
    chances: str,
    randomizer: str | None,
    sheet: str | None,
    actor: str | None,
    talent: str | None,
    role: str | None,
    fallback: str,
    lucky: bool,
    faces: str | None,
    player: str | None,
    referee: str | None,
    drawn: str | None,
    degree: bool,
    options_file: str | None,
    state_file: str | None,
    seat: list[str] | None,
    save: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Resolve one Success Check (from an Aptitude, or a character's Talent and Life Role)."""
    from referee.systems.mnemonic import RULESET
    from referee.systems.mnemonic.actions import Check, SheetCheck

    opts = _options(options_file, randomizer, degree_labels=degree or None, use_lucky=lucky or None)
    state = _state(opts, state_file, seat, drawn)
    action: Action
    if sheet is not None or actor is not None:
        if aptitude is not None or talent is None:
            raise RulesError("with a character give --talent (and --role or --fallback), not -a")
        if sheet is not None:
            who = RULESET.load_sheet(load_json_file(sheet))
            actor = actor or slug(who.name)
            state = RULESET.seat(state, actor, who, opts)
        assert actor is not None
        action = SheetCheck(actor, talent, role, fallback, chances)  # type: ignore[arg-type]
    elif aptitude is None:
        raise RulesError("give --aptitude, or --sheet / --actor with --talent")
    else:
        action = Check(aptitude, chances)
    _emit(*_play(action, state, opts, faces, seed, save, _said(player, referee)), as_json)


@app.command()
@click.argument("path", help="A Mnemonic character as JSON.")
@OPTIONS_FILE
@JSON_OPTION
@handle_errors
def sheet(
    path: str,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Show a character with each rating's level name."""
    from referee.systems.mnemonic import RULESET
    from referee.systems.mnemonic.sheet import sheet_summary

    summary = sheet_summary(RULESET.load_sheet(load_json_file(path)), _options(options_file))
    if as_json:
        emit_json(summary)
        return
    console.print(
        f"{summary['name']} - {summary['primary_role']} ({summary['status']})", markup=False
    )
    for title in ("talents", "life_roles"):
        rows = ", ".join(f"{n} {v}" for n, v in summary[title].items()) or "none"
        console.print(f"  {title.replace('_', ' ').title()}: {rows}", markup=False)


@app.command()
@click.option("--aptitude", "-a", type=int, help="Or --actor.")
@CHANCES
@ACTOR
@click.option("--target", help="The one attacked (seated).")
@click.option("--talent", default="Dangerous", help="With --actor: the Talent.")
@ROLE
@click.option("--dodge", default=0, help="Chances steps the defence worsens (0..10).")
@click.option("--opposed", is_flag=True, help="Opposed rolls: the defender rolls too.")
@click.option("--defender-aptitude", type=int, help="Opposed.")
@click.option("--defender-chances", default="0", help="Opposed.")
@RANDOMIZER
@FACES
@DRAWN
@TABLE_ROLL
@ODDS
@JSON_OPTION
@handle_errors
def attack(
    aptitude: int | None,
    chances: str,
    actor: str | None,
    target: str | None,
    talent: str,
    role: str | None,
    dodge: int,
    opposed: bool,
    defender_aptitude: int | None,
    defender_chances: str,
    randomizer: str | None,
    faces: str | None,
    drawn: str | None,
    options_file: str | None,
    state_file: str | None,
    seat: list[str] | None,
    save: str | None,
    seed: int | None,
    show_odds: bool,
    as_json: bool,
) -> None:
    """An attack: only the attacker rolls (the defender's action worsens the Chances),
    or opposed rolls."""
    from referee.systems.mnemonic.actions import Attack
    from referee.systems.mnemonic.conflict import defense_modifier

    opts = _options(options_file, randomizer, opposed_rolls=opposed or None)
    state = _state(opts, state_file, seat, drawn)
    action = Attack(
        actor=actor,
        target=target,
        aptitude=aptitude,
        talent=talent,
        life_role=role,
        chances=chances,
        defense=defense_modifier(dodge),
        defender_aptitude=defender_aptitude,
        defender_chances=defender_chances,
    )
    if show_odds:
        _show_odds("attack", _odds(action, state, opts), as_json)
        return
    _emit(*_play(action, state, opts, faces, seed, save), as_json)


@app.command()
@click.option("--aptitude", "-a", type=int, help=RESIST_HELP)
@click.option("--chances", "-c", default="0", help="Of remaining active.")
@click.option("--worst", required=True, help="unconscious, immobilized or dead.")
@click.option("--victim", help="A seated victim.")
@click.option("--status", help=STATUS_HELP)
@click.option("--injuries", type=int, help="Earlier injuries.")
@ROLE
@click.option("--talent", help="The Talent (default: the best).")
@RANDOMIZER
@FACES
@DRAWN
@TABLE_ROLL
@ODDS
@JSON_OPTION
@handle_errors
def injury(
    aptitude: int | None,
    chances: str,
    worst: str,
    victim: str | None,
    status: str | None,
    injuries: int | None,
    role: str | None,
    talent: str | None,
    randomizer: str | None,
    faces: str | None,
    drawn: str | None,
    options_file: str | None,
    state_file: str | None,
    seat: list[str] | None,
    save: str | None,
    seed: int | None,
    show_odds: bool,
    as_json: bool,
) -> None:
    """An injury check: the victim's new Status (Hurt, or inactive as the worst outcome)."""
    from referee.systems.mnemonic.actions import Injury
    from referee.systems.mnemonic.health import parse_status

    opts = _options(options_file, randomizer)
    state = _state(opts, state_file, seat, drawn)
    current = None if victim is not None else parse_status(status, injuries, opts)
    if victim is not None and (status is not None or injuries is not None):
        raise RulesError("the table tracks a seated victim's Status: no --status / --injuries")
    action = Injury(
        worst.strip().lower(),  # type: ignore[arg-type]
        victim=victim,
        chances=chances,
        aptitude=aptitude,
        life_role=role,
        talent=talent,
        status=current,
    )
    if show_odds:
        dist = _odds(action, state, opts)
        data = {str(s): fraction_text(p) for s, p in dist.probabilities().items()}
        if as_json:
            emit_json({"status": data})
        else:
            _show_shares(data)
        return
    _emit(*_play(action, state, opts, faces, seed, save), as_json)


def _contender(text: str, state: State) -> Any:
    from referee.systems.mnemonic.actions import Contender

    parts = text.split(":")
    if len(parts) == 1 and parts[0] in state.characters:
        return Contender(parts[0])
    if len(parts) not in (2, 3) or not parts[0]:
        raise RulesError(
            f"{text!r}: write NAME:APTITUDE or NAME:APTITUDE:CHANCES, or a seated character's id"
        )
    try:
        apt = int(parts[1])
    except ValueError:
        raise RulesError(f"{text!r}: the Aptitude must be a whole number") from None
    return Contender(parts[0], apt, parts[2] if len(parts) == 3 else 0)


@app.command()
@click.argument(
    "contenders",
    nargs=-1,
    callback=listed,
    required=True,
    help="NAME:AGILE_APTITUDE[:CHANCES], or a seated character's id.",
)
@RANDOMIZER
@FACES
@DRAWN
@click.option("--rank-failures", is_flag=True, help="Fewest Failures first.")
@TABLE_ROLL
@ODDS
@JSON_OPTION
@handle_errors
def order(
    contenders: list[str],
    randomizer: str | None,
    faces: str | None,
    drawn: str | None,
    rank_failures: bool,
    options_file: str | None,
    state_file: str | None,
    seat: list[str] | None,
    save: str | None,
    seed: int | None,
    show_odds: bool,
    as_json: bool,
) -> None:
    """Order of action by Agile checks: most Successes first, ties act together."""
    from referee.systems.mnemonic.actions import AgileOrder
    from referee.systems.mnemonic.conflict import first_of, order_label

    opts = _options(options_file, randomizer, rank_failures=rank_failures or None)
    state = _state(opts, state_file, seat, drawn)
    action = AgileOrder(tuple(_contender(text, state) for text in contenders))
    if show_odds:
        dist = _odds(action, state, opts)
        ranked = sorted(dist.probabilities().items(), key=lambda gp: -gp[1])
        data: dict[str, Any] = {"order": {order_label(g): fraction_text(p) for g, p in ranked}}
        if len(contenders) == 2:
            first = dist.map(first_of).probabilities()
            data["first"] = {str(w): fraction_text(p) for w, p in first.items()}
        if as_json:
            emit_json(data)
        else:
            _show_shares(data["order"])
        return
    out, after = _play(action, state, opts, faces, seed, save)
    checks = out.items("checks")
    if as_json:
        deck = {"deck": list(after.deck.cards), "drawn": list(after.deck.drawn())}
        shown = {"order": out.details["order"], "checks": checks, "manual": out.manual}
        emit_json(shown | deck | {"outcome": outcome_data(out)})
        return
    for c in checks:
        assert isinstance(c, dict)
        _show_check(f"Agile check for {c['name']}", c, str(c["label"]))
    console.print(f"order: {out.label}", markup=False)


@app.command()
@click.argument("path", help="A Mnemonic character as JSON.")
@click.option("--lucky/--no-lucky", default=None, help="Use Talent Lucky.")
@click.option("--creation", help="free, trade, free-raises.")
@click.option("--start", type=int, help="Starting Talent rating (3).")
@click.option("--free-raises", type=int, help="Free raises (3).")
@OPTIONS_FILE
@JSON_OPTION
@handle_errors
def validate(
    path: str,
    lucky: bool | None,
    creation: str | None,
    start: int | None,
    free_raises: int | None,
    options_file: str | None,
    as_json: bool,
) -> None:
    """Validate a character: every broken rule is listed."""
    from referee.systems.mnemonic import RULESET

    flags: dict[str, Any] = {"use_lucky": lucky, "creation": creation, "starting_level": start}
    opts = _options(options_file, None, free_raises=free_raises, **flags)
    problems = RULESET.validate(RULESET.load_sheet(load_json_file(path)), opts)
    report_problems(problems, as_json=as_json, valid_text=f"{path}: valid")


def demo(out: Console) -> None:
    """A short seeded tour of Mnemonic: odds for three randomizers, a deck that
    persists across three-card checks, an injury of the example boxer."""
    from referee.dice.roller import SeededRoller
    from referee.systems.mnemonic import RULESET
    from referee.systems.mnemonic.actions import Check, Injury
    from referee.systems.mnemonic.checks import odds_data
    from referee.systems.mnemonic.options import Options

    roller = SeededRoller(6)
    for r in ("d12", "3d12", "verbal-ab"):
        opts = Options(randomizer=r)
        dist = RULESET.odds(Check(7, "Fair"), RULESET.initial_state(opts), opts)
        out.print(f"Aptitude 7, Chances Fair, {r}: P(success) = {odds_data(dist)['p_success']}")
    opts = Options(randomizer="3cards", degree_labels=True)
    state = RULESET.seat(RULESET.initial_state(opts), "mick", RULESET.examples()["boxer"], opts)
    for _ in range(3):
        c = RULESET.resolve(Check(6, "Moderate"), state, roller, opts)
        state = RULESET.apply(state, c)
        cards = c.details["cards"]
        out.print(f"three cards {cards} -> {c.label}; {len(state.deck)} left", markup=False)
    hit = RULESET.resolve(Injury("unconscious", victim="mick", chances="Good"), state, roller, opts)
    out.print(f"injury check for Mick: {hit.label}", markup=False)
