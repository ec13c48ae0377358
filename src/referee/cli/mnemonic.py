"""``referee mnemonic ...``: Success Checks, their exact odds, attacks, injuries,
order of action and character validation for Mnemonic."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Annotated, Any

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
from referee.dice.odds import fraction_text
from referee.dice.roller import Roller
from referee.errors import RulesError
from referee.systems.base import Outcome, load_record, outcome_data

app = typer.Typer(
    name="mnemonic",
    help="Mnemonic: Success Checks with six randomizers, exact odds, fights and injuries.",
    no_args_is_help=True,
)

RANDOMIZER_HELP = "Randomizer: d12, 3d12, cards, 3cards, verbal, verbal-ab."
CHANCES_HELP = (
    "Chances: a modifier (-4, +7) or a rating (Terrible, Bad, Poor, Moderate, Fair, Good, Great)."
)
CARD_FACES_HELP = (
    FACES_HELP + " For cards: the card values drawn (Ace 1 ... Queen 12), each still in the deck. "
    "For verbal: player's then referee's number; verbal-ab: number, letter (1=A, 2=B), twice."
)
DRAWN_HELP = "Cards already drawn since the last reshuffle (card randomizers), e.g. 12,3,3."
PLAYER_HELP = "Verbal methods played live: the player's number (verbal-ab: with a letter, e.g. 4A)."
REFEREE_HELP = "Verbal methods played live: the referee's number (verbal-ab: e.g. 2B)."


def _chances(text: str) -> int:
    from referee.systems.mnemonic.checks import chances_value

    return chances_value(text)


OPTIONS_HELP = (
    "The table's house rules as JSON (fields of Options, e.g. talents, talent_lists, "
    "rating_names); flags given on the command line override them."
)


def _options(
    randomizer: str | None = None,
    *,
    degree: bool = False,
    path: str | None = None,
    **extra: Any,
) -> Any:
    """The table's options: ``path`` (JSON) or the defaults, with the flags given."""
    from referee.systems.mnemonic.options import Options
    from referee.systems.mnemonic.randomizers import check_randomizer

    base = Options()
    if path is not None:
        base = load_record(Options, load_json_file(path), rule="Mnemonic: options")
    given = {k: v for k, v in extra.items() if v is not None}
    if randomizer is not None:
        given["randomizer"] = check_randomizer(randomizer)
    if degree:
        given["degree_labels"] = True
    return replace(base, **given)


def _deck(drawn: str | None) -> Any:
    from referee.systems.mnemonic.deck import Deck

    return Deck() if drawn is None else Deck().without(list(faces_option(drawn) or ()))


def _said(player: str | None, referee: str | None) -> tuple[str, str] | None:
    """The verbal numbers played live, from ``--player`` / ``--referee``."""
    if player is None and referee is None:
        return None
    if player is None or referee is None:
        raise RulesError("give both --player and --referee")
    return player, referee


def _inputs(
    randomizer: str, faces: str | None, seed: int | None
) -> tuple[Roller, tuple[int, ...] | None]:
    """The roller and hand-drawn cards for a command (``--faces`` are card values
    for the card randomizers, faces otherwise)."""
    from referee.systems.mnemonic.randomizers import check_randomizer, uses_cards

    hand = faces_option(faces)
    if uses_cards(check_randomizer(randomizer)):
        return make_roller(None, seed), hand
    return make_roller(hand, seed), None


def _check_json(out: Outcome) -> dict[str, Any]:
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
    deck = next((c.value for c in out.changes if c.field == "deck"), None)
    if deck is not None:
        data["deck"] = list(deck.cards)
        data["drawn"] = list(deck.drawn())  # pass on as --drawn to the next command
    data["manual"] = out.manual
    data["outcome"] = outcome_data(out)
    return data


def _emit(out: Outcome, roller: Roller, as_json: bool) -> None:
    """Print one resolved check (JSON or text) once every typed-in face was used."""
    all_faces_used(roller)
    if as_json:
        emit_json(_check_json(out))
    else:
        _show(out)


def _show(out: Outcome) -> None:
    from referee.systems.mnemonic.deck import card_name

    d = out.details
    parts = " ".join(f"{m.value:+d} {m.source}" for m in out.modifiers)
    what = d.get("numbers") or ", ".join(str(f.face) for f in out.faces)
    if "cards" in d:
        shown = ", ".join(card_name(c) for c in d["cards"])
        what = shown + (" (deck reshuffled first)" if d.get("reshuffled") else "")
    suffix = " (entered by hand)" if out.manual else ""
    console.print(f"{out.action}: {d.get('randomizer')} [{what}]{suffix}", markup=False)
    console.print(f"  {parts} = {out.result:+d} -> {out.label}", markup=False)
    if "deck_left" in d:
        console.print(f"  {d['deck_left']} cards left in the deck", markup=False)


@app.command()
@handle_errors
def odds(
    aptitude: int = typer.Option(
        ..., "--aptitude", "-a", help="Aptitude 0..12 (Talent + Life Role)."
    ),
    chances: str = typer.Option("0", "--chances", "-c", help=CHANCES_HELP),
    randomizer: str = typer.Option("d12", "--randomizer", "-r", help=RANDOMIZER_HELP),
    drawn: str | None = typer.Option(None, "--drawn", help=DRAWN_HELP),
    as_json: bool = JSON_OPTION,
) -> None:
    """Exact odds of a Success Check: P(success) and each number of Successes / Failures."""
    from referee.systems.mnemonic.checks import check_odds, odds_data
    from referee.systems.mnemonic.randomizers import uses_cards

    opts = _options(randomizer)
    deck = _deck(drawn)
    dist = check_odds(aptitude, _chances(chances), options=opts, deck=deck)
    data = odds_data(dist)
    if as_json:
        emit_json(data)
        return
    title = f"Aptitude {aptitude}, Chances {_chances(chances):+d}, {opts.randomizer}"
    if uses_cards(opts.randomizer):
        title += f" (deck of {len(deck)} cards)"
    _odds_table(title, data)


def _odds_table(title: str, data: dict[str, Any]) -> None:
    from fractions import Fraction

    p = Fraction(data["p_success"])
    table = Table(title=f"{title}: success {float(p) * 100:.2f}% ({data['p_success']})")
    table.add_column("result")
    table.add_column("exact", justify="right")
    table.add_column("%", justify="right")
    for n, q in reversed(list(data["failures"].items())):
        table.add_row(f"{n} Failure{'s' if n != '1' else ''}", q, f"{float(Fraction(q)) * 100:.2f}")
    for n, q in data["successes"].items():
        table.add_row(
            f"{n} Success{'es' if n != '1' else ''}", q, f"{float(Fraction(q)) * 100:.2f}"
        )
    console.print(table)


@app.command()
@handle_errors
def check(
    aptitude: int | None = typer.Option(
        None, "--aptitude", "-a", help="Aptitude 0..12 (Talent + Life Role); or use --sheet."
    ),
    chances: str = typer.Option("0", "--chances", "-c", help=CHANCES_HELP),
    randomizer: str | None = typer.Option(
        None, "--randomizer", "-r", help=RANDOMIZER_HELP + " Default: the table's (d12)."
    ),
    sheet: str | None = typer.Option(
        None, "--sheet", help="A character (JSON) to take ratings from."
    ),
    talent: str | None = typer.Option(None, "--talent", help="With --sheet: the Talent used."),
    role: str | None = typer.Option(None, "--role", help="With --sheet: the Life Role used."),
    fallback: str = typer.Option(
        "relevant",
        "--fallback",
        help="With --sheet and no --role: relevant (Primary at Moderately), irrelevant "
        "(Primary at Not At All) or lucky.",
    ),
    lucky: bool = typer.Option(False, "--lucky", help="The table uses the optional Talent Lucky."),
    faces: str | None = typer.Option(None, "--faces", help=CARD_FACES_HELP),
    player: str | None = typer.Option(None, "--player", help=PLAYER_HELP),
    referee: str | None = typer.Option(None, "--referee", help=REFEREE_HELP),
    drawn: str | None = typer.Option(None, "--drawn", help=DRAWN_HELP),
    degree: bool = typer.Option(False, "--degree", help="Add the optional degree label."),
    options_file: str | None = typer.Option(None, "--options", help=OPTIONS_HELP),
    seed: int | None = SEED_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Resolve one Success Check (from an Aptitude, or a character's Talent and Life Role)."""
    from referee.systems.mnemonic.aptitude import Aptitude
    from referee.systems.mnemonic.aptitude import aptitude as sheet_aptitude
    from referee.systems.mnemonic.checks import success_check
    from referee.systems.mnemonic.sheet import Character

    opts = _options(randomizer, degree=degree, path=options_file, use_lucky=lucky or None)
    apt: int | Aptitude
    if sheet is not None:
        if aptitude is not None or talent is None:
            raise RulesError(
                "with --sheet give --talent (and --role or --fallback), not --aptitude"
            )
        who = load_record(Character, load_json_file(sheet), rule="Mnemonic: character record")
        apt = sheet_aptitude(who, talent, role, fallback=fallback, options=opts)
    elif aptitude is None:
        raise RulesError("give --aptitude, or --sheet with --talent")
    else:
        apt = aptitude
    said = _said(player, referee)
    if said is not None and faces is not None:
        raise RulesError("give either --faces or --player/--referee, not both")
    roller, cards = _inputs(opts.randomizer, faces, seed)
    out = success_check(
        apt, _chances(chances), roller, options=opts, deck=_deck(drawn), cards=cards, said=said
    )
    _emit(out, roller, as_json)


@app.command()
@handle_errors
def sheet(
    path: str = typer.Argument(..., help="A Mnemonic character as JSON."),
    options_file: str | None = typer.Option(None, "--options", help=OPTIONS_HELP),
    as_json: bool = JSON_OPTION,
) -> None:
    """Show a character with each rating's level name."""
    from referee.systems.mnemonic.sheet import Character, sheet_summary

    who = load_record(Character, load_json_file(path), rule="Mnemonic: character record")
    summary = sheet_summary(who, _options(path=options_file))
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
@handle_errors
def attack(
    aptitude: int = typer.Option(..., "--aptitude", "-a", help="Attacker's Aptitude 0..12."),
    chances: str = typer.Option("0", "--chances", "-c", help=CHANCES_HELP),
    dodge: int = typer.Option(
        0, "--dodge", help="Chances steps the defender's action worsens (0..10)."
    ),
    opposed: bool = typer.Option(False, "--opposed", help="Opposed rolls: the defender rolls too."),
    defender_aptitude: int | None = typer.Option(
        None, "--defender-aptitude", help="Opposed: the defender's Aptitude."
    ),
    defender_chances: str = typer.Option(
        "0", "--defender-chances", help="Opposed: the defender's Chances."
    ),
    randomizer: str = typer.Option("d12", "--randomizer", "-r", help=RANDOMIZER_HELP),
    faces: str | None = typer.Option(None, "--faces", help=CARD_FACES_HELP),
    drawn: str | None = typer.Option(None, "--drawn", help=DRAWN_HELP),
    seed: int | None = SEED_OPTION,
    show_odds: bool = typer.Option(False, "--odds", help="Show the exact odds instead of rolling."),
    as_json: bool = JSON_OPTION,
) -> None:
    """An attack: only the attacker rolls (the defender's action worsens the Chances),
    or opposed rolls."""
    from referee.systems.mnemonic.checks import odds_data
    from referee.systems.mnemonic.ruleset import RULESET, Attack, TableState

    opts = _options(randomizer, opposed_rolls=opposed)
    from referee.systems.mnemonic.conflict import defense_modifier

    action = Attack(
        aptitude,
        _chances(chances),
        defense_modifier(dodge),
        defender_aptitude,
        _chances(defender_chances),
    )
    state = TableState(deck=_deck(drawn))
    if show_odds:
        data = odds_data(RULESET.odds(action, state, opts))
        if as_json:
            emit_json(data)
        else:
            _odds_table("attack", data)
        return
    roller, cards = _inputs(opts.randomizer, faces, seed)
    if cards is not None:
        action = replace(action, cards=cards)
    out = RULESET.resolve(action, state, roller, opts)
    _emit(out, roller, as_json)


@app.command()
@handle_errors
def injury(
    aptitude: int = typer.Option(
        ...,
        "--aptitude",
        "-a",
        help="Resisting Aptitude: Life Role or Primary (+3) plus best Talent.",
    ),
    chances: str = typer.Option(
        "0", "--chances", "-c", help="Chances of remaining active. " + CHANCES_HELP
    ),
    worst: str = typer.Option(
        ..., "--worst", help="Worst outcome: unconscious, immobilized or dead."
    ),
    injuries: int = typer.Option(
        0, "--injuries", help="Earlier injuries (each worsens the Chances a step)."
    ),
    randomizer: str = typer.Option("d12", "--randomizer", "-r", help=RANDOMIZER_HELP),
    faces: str | None = typer.Option(None, "--faces", help=CARD_FACES_HELP),
    drawn: str | None = typer.Option(None, "--drawn", help=DRAWN_HELP),
    seed: int | None = SEED_OPTION,
    show_odds: bool = typer.Option(
        False, "--odds", help="Show the exact odds of each new Status instead of rolling."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """An injury check: the victim's new Status (Hurt, or inactive as the worst outcome)."""
    from referee.systems.mnemonic.health import injury as resolve_injury
    from referee.systems.mnemonic.health import injury_odds
    from referee.systems.mnemonic.sheet import Status

    if not 0 <= injuries <= 100:
        raise RulesError("--injuries must be 0..100")
    opts = _options(randomizer)
    status = Status("Hurt" if injuries else "Fine", None, injuries)
    if show_odds:
        dist = injury_odds(
            aptitude, _chances(chances), worst, status=status, options=opts, deck=_deck(drawn)
        )
        data = {str(s): fraction_text(p) for s, p in dist.probabilities().items()}
        if as_json:
            emit_json({"status": data})
        else:
            for name, p in data.items():
                console.print(f"{name}: {p} ({float(Fraction(p)) * 100:.2f}%)", markup=False)
        return
    roller, cards = _inputs(opts.randomizer, faces, seed)
    out = resolve_injury(
        aptitude,
        _chances(chances),
        worst,
        roller,
        status=status,
        options=opts,
        deck=_deck(drawn),
        cards=cards,
    )
    _emit(out, roller, as_json)


@app.command()
@handle_errors
def order(
    contenders: Annotated[
        list[str], typer.Argument(help="NAME:AGILE_APTITUDE[:CHANCES] for each character.")
    ],
    randomizer: str = typer.Option("d12", "--randomizer", "-r", help=RANDOMIZER_HELP),
    faces: str | None = typer.Option(None, "--faces", help=CARD_FACES_HELP),
    drawn: str | None = typer.Option(None, "--drawn", help=DRAWN_HELP),
    rank_failures: bool = typer.Option(
        False, "--rank-failures", help="Rank failed checks fewest Failures first (else they tie)."
    ),
    seed: int | None = SEED_OPTION,
    show_odds: bool = typer.Option(
        False,
        "--odds",
        help="Exact odds of each order instead of rolling (up to 4 characters; cards 3, "
        "3cards 2); for two characters also who acts first.",
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Order of action by Agile checks: most Successes first, ties act together."""
    from referee.dice.roller import ManualRoller
    from referee.systems.mnemonic.conflict import Contender, agile_order, first_odds, order_odds
    from referee.systems.mnemonic.randomizers import cards_needed, uses_cards

    people = []
    for text in contenders:
        parts = text.split(":")
        if len(parts) not in (2, 3) or not parts[0]:
            raise RulesError(f"{text!r}: write NAME:APTITUDE or NAME:APTITUDE:CHANCES")
        try:
            apt = int(parts[1])
        except ValueError:
            raise RulesError(f"{text!r}: the Aptitude must be a whole number") from None
        people.append(Contender(parts[0], apt, _chances(parts[2]) if len(parts) == 3 else 0))
    opts = _options(randomizer, rank_failures=rank_failures)
    deck = _deck(drawn)
    if show_odds:
        dist = order_odds(people, options=opts, deck=deck)
        data = {
            " then ".join(" & ".join(g) for g in groups): fraction_text(p)
            for groups, p in sorted(dist.probabilities().items(), key=lambda gp: -gp[1])
        }
        out_data: dict[str, Any] = {"order": data}
        if len(people) == 2:
            first = first_odds(people[0], people[1], options=opts, deck=deck)
            out_data["first"] = {str(w): fraction_text(p) for w, p in first.probabilities().items()}
        if as_json:
            emit_json(out_data)
        else:
            for label, p in data.items():
                console.print(f"{label}: {p} ({float(Fraction(p)) * 100:.2f}%)", markup=False)
        return
    roller, cards = _inputs(opts.randomizer, faces, seed)
    if cards is not None:
        need = cards_needed(opts.randomizer) * len(people)
        if len(cards) != need or need > len(deck):
            raise RulesError(
                f"{len(people)} checks draw {need} card(s) from a deck of {len(deck)}; "
                f"{len(cards)} given"
            )
        roller = ManualRoller(deck.positions_of(list(cards)))
    out, checks = agile_order(
        people, roller, options=opts, deck=deck if uses_cards(opts.randomizer) else None
    )
    all_faces_used(roller)
    if as_json:
        emit_json(
            {
                "order": out.details["order"],
                "checks": [_check_json(c) for c in checks],
                "manual": out.manual,
            }
        )
        return
    for c in checks:
        _show(c)
    console.print(f"order: {out.label}", markup=False)


@app.command()
@handle_errors
def validate(
    path: str = typer.Argument(..., help="A Mnemonic character as JSON."),
    lucky: bool | None = typer.Option(
        None, "--lucky/--no-lucky", help="The table uses the optional Talent Lucky (default no)."
    ),
    creation: str | None = typer.Option(
        None, "--creation", help="Creation structure: free (default), trade, free-raises."
    ),
    start: int | None = typer.Option(
        None, "--start", help="Common starting Talent rating (trade, free-raises; default 3)."
    ),
    free_raises: int | None = typer.Option(
        None, "--free-raises", help="Free raises (free-raises; default 3)."
    ),
    options_file: str | None = typer.Option(None, "--options", help=OPTIONS_HELP),
    as_json: bool = JSON_OPTION,
) -> None:
    """Validate a character: every broken rule is listed."""
    from referee.systems.mnemonic.sheet import Character
    from referee.systems.mnemonic.sheet import validate as check_sheet

    opts = _options(
        path=options_file,
        use_lucky=lucky,
        creation=creation,
        starting_level=start,
        free_raises=free_raises,
    )
    sheet = load_record(Character, load_json_file(path), rule="Mnemonic: character record")
    problems = check_sheet(sheet, opts)
    report_problems(problems, as_json=as_json, valid_text=f"{path}: valid")


def demo(out: Console) -> None:
    """A short seeded tour of Mnemonic."""
    from referee.dice.roller import SeededRoller
    from referee.systems.mnemonic.checks import check_odds, odds_data, success_check
    from referee.systems.mnemonic.deck import Deck
    from referee.systems.mnemonic.health import injury as resolve_injury
    from referee.systems.mnemonic.options import Options

    roller = SeededRoller(6)
    opts = Options(degree_labels=True)
    for r in ("d12", "3d12", "verbal-ab"):
        p = odds_data(check_odds(7, "Fair", randomizer=r))["p_success"]
        out.print(f"Aptitude 7, Chances Fair, {r}: P(success) = {p}", markup=False)
    deck = Deck()
    for _ in range(3):
        c = success_check(6, "Moderate", roller, options=opts, deck=deck, randomizer="3cards")
        deck = next(ch.value for ch in c.changes if ch.field == "deck")
        out.print(f"three cards {c.details['cards']} -> {c.label}; {len(deck)} left", markup=False)
    hit = resolve_injury(8, "Good", "unconscious", roller, victim="Ada", options=opts)
    out.print(f"injury check for Ada: {hit.label}", markup=False)
