"""``referee mongrel ...``: flags -> a Mongrel action -> ``RULESET`` -> a renderer.

Every command builds an action (see ``referee mongrel actions``) and lets the
ruleset resolve it or give its odds; commands on a sheet file seat it at a
one-character table, act, and read the sheet back. ``build`` walks the
creation steps and ``conflict`` replays a script (:mod:`referee.cli.mongrel_script`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from referee.cli.common import (
    FACES_HELP,
    FACES_OPTION,
    JSON_OPTION,
    OPTIONS_OPTION,
    SEED_OPTION,
    console,
    emit_json,
    err_console,
    handle_errors,
    load_json_file,
    load_options,
    resolve_action,
    write_json_file,
)
from referee.dice.odds import fraction_text
from referee.errors import RulesError

if TYPE_CHECKING:
    from referee.cli.text import Console


app = click.Group(
    name="mongrel",
    help="Mongrel: pools of d6 against attributes, Action Points, Infernal Resolve.",
    no_args_is_help=True,
)

DICE = click.option(
    "--dice", required=True, type=int, help="Dice in the pool (the Expertise); 0 = zero Expertise."
)
TN = click.option(
    "--tn", required=True, type=int, help="The attribute rolled against (before any Modifier)."
)
MODE = click.option(
    "--mode", required=True, help="under: own attribute; over: a target's attribute."
)
IDENTITY = click.option(
    "--identity", default=0, help="The governing Identity score, added to Effect."
)
DIFFICULTY = click.option(
    "--difficulty", default=0, help="Modifier 0-4: always makes the roll harder."
)
SHEET = "sheet"
"""The id a sheet file is seated under at a one-character table."""


def _ruleset() -> Any:
    from referee.systems.mongrel import RULESET

    return RULESET


def _mode(mode: str) -> Any:
    if mode not in ("under", "over"):
        raise RulesError(f"--mode must be 'under' or 'over', not {mode!r}")
    return mode


def _effects(dist: Any) -> dict[str, str]:
    """Exact chance of each positive Effect in a distribution of Effects (0 = none)."""
    return {str(e): fraction_text(q) for e, q in dist.probabilities().items() if e > 0}


def _effect_table(title: str, effect: dict[str, str]) -> None:
    from referee.cli.text import Table

    table = Table(title=title)
    for col in ("Effect", "exact", "%"):
        table.add_column(col, justify="right")
    for e, q in effect.items():
        num, den = (int(x) for x in q.split("/"))
        table.add_row(e, q, f"{num / den * 100:.2f}")
    console.print(table)


def _table(sheet: Any, options: Any) -> Any:
    """A table with ``sheet`` seated as :data:`SHEET`."""
    ruleset = _ruleset()
    return ruleset.seat(ruleset.initial_state(options), SHEET, sheet, options)


def _act(state: Any, action: Any, options: Any, **roll: Any) -> tuple[Any, Any]:
    """Resolve ``action`` through the ruleset: ``(outcome, state after)``."""
    ruleset = _ruleset()
    outcome = resolve_action(ruleset, action, state, options, **roll)
    return outcome, ruleset.apply(state, outcome)


@app.command()
@DICE
@TN
@MODE
@IDENTITY
@DIFFICULTY
@JSON_OPTION
@handle_errors
def odds(
    dice: int,
    tn: int,
    mode: str,
    identity: int,
    difficulty: int,
    as_json: bool,
) -> None:
    """Exact chance of success and of each Effect (successful outcomes only)."""
    from referee.systems.mongrel.actions import Check
    from referee.systems.mongrel.checks import target_number
    from referee.systems.mongrel.options import Options

    action = Check(dice, tn, _mode(mode), identity, difficulty)
    dist = _ruleset().odds(action, _ruleset().initial_state(Options()), Options())
    p = dist.probability_where(lambda r: r.success)
    effect = _effects(dist.map(lambda r: r.effect if r.success else 0))
    if as_json:
        emit_json({"p_success": fraction_text(p), "effect": effect})
        return
    what = "zero Expertise (1 die twice)" if dice == 0 else f"{dice}d6"
    tn_now = target_number(tn, mode, difficulty)  # type: ignore[arg-type]
    console.print(
        f"{what} {mode} {tn_now}: success {fraction_text(p)} ({float(p) * 100:.2f}%)",
        markup=False,
    )
    _effect_table("Effect on success", effect)


@app.command()
@DICE
@TN
@MODE
@IDENTITY
@DIFFICULTY
@FACES_OPTION
@SEED_OPTION
@JSON_OPTION
@handle_errors
def check(
    dice: int,
    tn: int,
    mode: str,
    identity: int,
    difficulty: int,
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Resolve one task roll: faces, successes and Effect."""
    from referee.systems.base import outcome_data
    from referee.systems.mongrel.actions import Check
    from referee.systems.mongrel.options import Options

    action = Check(dice, tn, _mode(mode), identity, difficulty)
    state = _ruleset().initial_state(Options())
    out, _ = _act(state, action, Options(), faces=faces, seed=seed)
    if as_json:
        emit_json(
            {
                "success": out.success,
                "successes": out.details["successes"],
                "effect": out.result,
                "special": out.details["special"],
                "seed": seed if faces is None else None,
                **outcome_data(out),
            }
        )
        return
    shown = ", ".join(str(d.face) for d in out.faces)
    result = f"success, Effect {out.result}" if out.success else "failure"
    extra = f" [{out.details['special']}]" if out.details["special"] else ""
    hand_note = " (faces entered by hand)" if out.manual else ""
    console.print(
        f"{dice}d6 {mode} {out.target}: [{shown}] -> {out.details['successes']} "
        f"succeeding: {result}{extra}{hand_note}",
        markup=False,
    )


@app.command()
@click.argument(
    "path", help="A Mongrel character sheet (JSON), or an example's name (alwia, vooruk, ...)."
)
@click.option(
    "--options", "options_path", help='The table\'s options (JSON), e.g. {"max_score": 6}.'
)
@JSON_OPTION
@handle_errors
def validate(
    path: str,
    options_path: str | None,
    as_json: bool,
) -> None:
    """Validate a sheet: every broken creation rule, with approvals shown."""
    from referee.systems.mongrel.sheet import derived
    from referee.systems.mongrel.validation import audit

    sheet = _load_sheet(path)
    options = load_options(_ruleset(), options_path)
    open_ = _ruleset().validate(sheet, options)
    found = audit(sheet, options)
    if as_json:
        emit_json(
            {
                "valid": not open_,
                "derived": derived(sheet),
                "problems": [
                    {
                        "rule": p.rule,
                        "field": p.field,
                        "message": p.message,
                        "value": p.value if isinstance(p.value, int | str) else str(p.value),
                        "approved": reason,
                    }
                    for p, reason in found
                ],
            }
        )
    else:
        scores = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in derived(sheet).items())
        console.print(f"{sheet.name}: {scores}", markup=False)
        for p, reason in found:
            note = f"  (approved: {reason})" if reason else ""
            console.print(f"{p}{note}", markup=False)
        if not open_:
            console.print(f"{path}: valid", markup=False)
    if open_:
        raise click.exceptions.Exit(1)


@app.command()
@click.argument("name", help="alwia (ahvia), vooruk or giazza (ghiazza).")
@handle_errors
def example(
    name: str,
) -> None:
    """Print one of the text's example characters as a JSON sheet."""
    emit_json(_ruleset().dump_sheet(_ruleset().example(name)))


def _load_sheet(path: str) -> Any:
    """A sheet from a JSON file, or one of the text's examples by name when no such file."""
    from pathlib import Path

    if not Path(path).exists():
        try:
            return _ruleset().example(path)
        except RulesError:
            pass  # not an example either: report the missing file
    return _ruleset().load_sheet(load_json_file(path))


def _save_sheet(sheet: Any, save: str | None) -> None:
    if save is not None:
        write_json_file(save, _ruleset().dump_sheet(sheet))


@app.command()
@click.argument("path", help="A Mongrel character sheet (JSON).")
@click.option("--reason", required=True, help="Why the referee allows it (recorded).")
@click.option(
    "--field",
    "fields",
    default="",
    help="Approve the problems at these field paths (comma-separated).",
)
@click.option("--all", "every", is_flag=True, help="Approve every open problem.")
@click.option("--by", default="", help="Who approved it.")
@OPTIONS_OPTION
@click.option("--save", help="Write the approved sheet here.")
@JSON_OPTION
@handle_errors
def approve(
    path: str,
    reason: str,
    fields: str,
    every: bool,
    by: str,
    options_file: str | None,
    save: str | None,
    as_json: bool,
) -> None:
    """Referee approval: record a reason for rules a sheet breaks, so it validates."""
    from referee.systems.mongrel.actions import ApproveSheet

    chosen = tuple(f.strip() for f in fields.split(",") if f.strip())
    if not reason.strip():
        raise RulesError("--reason must say why")
    if every == bool(chosen):
        raise RulesError("name the problems with --field PATH[,PATH...] or use --all")
    options = load_options(_ruleset(), options_file)
    state = _table(_load_sheet(path), options)
    out, after = _act(state, ApproveSheet(SHEET, reason, chosen, by), options)
    sheet = after.character(SHEET).sheet
    _save_sheet(sheet, save)
    if as_json:
        emit_json(_ruleset().dump_sheet(sheet))
        return
    for p in out.items("approved"):
        console.print(f"approved: {p['field']} [{p['rule']}]", markup=False)
    console.print(f"{out.number('left_open')} problem(s) left open", markup=False)


@app.command()
@click.argument("path", help="A Mongrel character sheet (JSON).")
@click.option("--award", default=0, help="Session award first: 1 or 2 points (0: none).")
@click.option("--vow", is_flag=True, help="With --award: +1 for risk taken for the Vow.")
@click.option("--expertise", help="Raise this Expertise.")
@click.option("--identity", help="Raise man, beast or demon.")
@click.option("--reduce", help="With --identity: lower this Identity by 1 (cost x2, not x5).")
@click.option("--attribute", help="Raise this attribute.")
@click.option(
    "--used", default="", help="Features used last session, comma-separated (only these may rise)."
)
@click.option("--save", help="Write the improved sheet here.")
@JSON_OPTION
@handle_errors
def improve(
    path: str,
    award: int,
    vow: bool,
    expertise: str | None,
    identity: str | None,
    reduce: str | None,
    attribute: str | None,
    used: str,
    save: str | None,
    as_json: bool,
) -> None:
    """Character points: award a session's points, then buy one raise (unspent points are saved)."""
    from referee.systems.mongrel.actions import AwardPoints
    from referee.systems.mongrel.options import Options
    from referee.systems.mongrel.tables import canonical_expertise

    options = Options()
    state = _table(_load_sheet(path), options)
    before = state.character(SHEET).sheet.character_points
    chosen = [x for x in (expertise, identity, attribute) if x is not None]
    if len(chosen) > 1:
        raise RulesError("raise one feature at a time: --expertise, --identity or --attribute")
    if reduce is not None and identity is None:
        raise RulesError("--reduce goes with --identity")
    if vow and not award:
        raise RulesError("--vow adds to a session's --award")
    features = {u.strip().lower() for u in used.split(",") if u.strip()}
    actions: list[Any] = [AwardPoints(SHEET, award, vow)] if award else []
    for name, key, value, extra in (
        ("raise-expertise", "expertise", expertise and canonical_expertise(expertise), {}),
        ("raise-identity", "identity", identity, {"reduce": reduce}),
        ("raise-attribute", "attribute", attribute, {}),
    ):
        if value is not None:
            data = {"actor": SHEET, key: value, "used": value.lower() in features, **extra}
            actions.append(_ruleset().load_action(name, data))
    for action in actions:
        _, state = _act(state, action, options)
    sheet = state.character(SHEET).sheet
    _save_sheet(sheet, save)
    if as_json:
        emit_json(
            {
                "points_before": before,
                "points_left": sheet.character_points,
                "sheet": _ruleset().dump_sheet(sheet),
            }
        )
        return
    what = chosen[0] if chosen else "nothing raised"
    console.print(
        f"{sheet.name}: {what}; character points {before} -> {sheet.character_points}",
        markup=False,
    )


@app.command()
@click.argument("path", help="A Mongrel character sheet (JSON).")
@click.option("--transfer", help="FROM:TO:N - receive N with TO, paying 2N from FROM.")
@click.option("--sacrifice", help="Give a seller 1 Credit from this House's account.")
@click.option("--save", help="Write the sheet with its accounts here.")
@JSON_OPTION
@handle_errors
def credit(
    path: str,
    transfer: str | None,
    sacrifice: str | None,
    save: str | None,
    as_json: bool,
) -> None:
    """House Credit accounts: show them, transfer at 2:1, or sacrifice 1 to a seller."""
    from referee.systems.mongrel.options import Options
    from referee.systems.mongrel.sheet import credit as accounts

    options = Options()
    state = _table(_load_sheet(path), options)
    if transfer is not None:
        parts = transfer.split(":")
        if len(parts) != 3 or not parts[2].strip().isdigit():
            raise RulesError(f"--transfer is FROM:TO:N with N a whole number, not {transfer!r}")
        data = {"actor": SHEET, "source": parts[0], "dest": parts[1], "received": int(parts[2])}
        _, state = _act(state, _ruleset().load_action("transfer-credit", data), options)
    if sacrifice is not None:
        data = {"actor": SHEET, "house": sacrifice}
        _, state = _act(state, _ruleset().load_action("sacrifice-credit", data), options)
    sheet = state.character(SHEET).sheet
    _save_sheet(sheet, save)
    acc = accounts(sheet)
    if as_json:
        emit_json(acc)
        return
    console.print(
        f"{sheet.name} ({sheet.house}): " + ", ".join(f"{h} {v}" for h, v in acc.items()),
        markup=False,
    )


@app.command()
@click.option("--dice", required=True, type=int, help="Dice of the buying Expertise (0 = zero).")
@click.option("--social", required=True, type=int, help="The seller's Social.")
@click.option("--credit", required=True, type=int, help="The buyer's Credit with the House.")
@FACES_OPTION
@SEED_OPTION
@JSON_OPTION
@handle_errors
def buy(
    dice: int,
    social: int,
    credit: int,
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Roll to buy: a die above the seller's Social and within one's Credit buys it."""
    from referee.systems.base import probability_map
    from referee.systems.mongrel.actions import BuyRoll
    from referee.systems.mongrel.options import Options

    action = BuyRoll(dice, social, credit)
    state = _ruleset().initial_state(Options())
    out, _ = _act(state, action, Options(), faces=faces, seed=seed)
    chances = probability_map(_ruleset().odds(action, state, Options()))
    rolled = [d.face for d in out.faces]
    if as_json:
        emit_json(
            {"faces": rolled, "result": out.label, "odds": chances, "manual": faces is not None}
        )
        return
    console.print(f"[{', '.join(map(str, rolled))}] -> {out.label}  odds {chances}", markup=False)


@app.command()
@click.option("--dice", required=True, type=int, help="Occult Expertise (+ Power dice); 0 = zero.")
@click.option("--tn", required=True, type=int, help="The sorcerer's own Spirit (rolled under).")
@click.option(
    "--resolve", default=1, help="Infernal Resolve spent before the roll (1+; each beyond 1: +1)."
)
@click.option("--identity", default=0, help="The sorcerer's Demon, added to Effect.")
@click.option("--range", "range_mod", default=0, help="Long-range Modifier 0-4.")
@click.option("--scale", "scale_mod", default=0, help="Large area / time-scale Modifier 0-4.")
@DIFFICULTY
@click.option(
    "--resist-dice", type=int, help="The target resists: its Resist Expertise (0 = zero)."
)
@click.option("--resist-tn", type=int, help="The resisting target's own Spirit (rolled under).")
@click.option(
    "--resist-identity", default=0, help="The resisting target's Demon, added to its Effect."
)
@click.option("--resist-mode", help="subtract (the default ruling) or cancel; else the options'.")
@OPTIONS_OPTION
@click.option("--odds", "show_odds", is_flag=True, help="Exact odds instead of a roll.")
@click.option("--faces", help=FACES_HELP + " Working, then Resist.")
@SEED_OPTION
@JSON_OPTION
@handle_errors
def occult(
    dice: int,
    tn: int,
    resolve: int,
    identity: int,
    range_mod: int,
    scale_mod: int,
    difficulty: int,
    resist_dice: int | None,
    resist_tn: int | None,
    resist_identity: int,
    resist_mode: str | None,
    options_file: str | None,
    show_odds: bool,
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """An Occult attack on Infernal Resolve, optionally resisted: one roll or exact odds."""
    from referee.systems.mongrel.actions import OccultRoll
    from referee.systems.mongrel.options import check_resist_mode
    from referee.systems.mongrel.sorcery import occult_hours, occult_modifier

    mode = None if resist_mode is None else check_resist_mode(resist_mode, "--resist-mode")
    if (resist_dice is None) != (resist_tn is None):
        raise RulesError("--resist-dice and --resist-tn go together")
    options = load_options(_ruleset(), options_file)
    action = OccultRoll(
        dice, tn, resolve, identity, range_mod, scale_mod, difficulty,
        resist_dice, resist_tn, resist_identity, mode,
    )  # fmt: skip
    state = _ruleset().initial_state(options)
    hours = occult_hours(dice)
    if show_odds:
        dist = _ruleset().odds(action, state, options)
        p = dist.probability_where(lambda r: r.success)
        harm = dist.probability_where(lambda r: r.effect > 0)
        effect = _effects(dist.map(lambda r: r.effect))
        if as_json:
            emit_json(
                {
                    "p_success": fraction_text(p),
                    "p_harm": fraction_text(harm),
                    "effect": effect,
                    "hours": hours,
                }
            )
            return
        total = occult_modifier(range_mod, scale_mod, difficulty)
        console.print(
            f"Occult {dice}d6 under {tn - total}, {resolve} Resolve, {hours} h: working succeeds "
            f"{fraction_text(p)} ({float(p) * 100:.2f}%), harms {fraction_text(harm)} "
            f"({float(harm) * 100:.2f}%)",
            markup=False,
        )
        _effect_table("Net Effect on Infernal Resolve", effect)
        return
    out, _ = _act(state, action, options, faces=faces, seed=seed)
    d = out.details
    if as_json:
        emit_json(
            {
                "success": out.success,
                "effect": out.result,
                "working": d["working"],
                "resist": d["resist"],
                "resolve_spent": d["resolve_spent"],
                "hours": d["hours"],
                "target": out.target,
                "faces": d["faces"],
                "resist_faces": d["resist_faces"],
                "manual": out.manual,
                "seed": seed if faces is None else None,
            }
        )
        return
    console.print(out.label + (" (faces entered by hand)" if out.manual else ""), markup=False)


ATTRIBUTE_NAMES = ("size", "spirit", "physique", "beauty", "speed", "social")
_HEADINGS = {
    "identity": " (Man, Beast, Demon)",
    "size_spirit": " (Size, Spirit)",
    "physique_beauty": " (Physique, Beauty)",
    "speed_social": " (Speed, Social)",
    **{f"lower_{a}": " (voluntarily lower by; 0 keeps it)" for a in ATTRIBUTE_NAMES},
    "step2": " (+3 each, +1 to the rest of their Areas)",
    "step3": " (+2 each)",
    "step4": " (+1 each)",
}


@app.command()
@click.option("--name", required=True, help="The character's name.")
@click.option("--vow", default="", help="The character's Vow.")
@click.option("--choices", help="Option numbers for every step, comma-separated (else asked).")
@handle_errors
def build(
    name: str,
    vow: str,
    choices: str | None,
) -> None:
    """Create a character step by step: each step lists only the legal choices."""
    from referee.systems.mongrel.builder import Builder

    b = Builder()
    given = [c.strip() for c in choices.split(",")] if choices else None
    err = err_console
    while b.step is not None:
        opts = b.options()
        if given is not None:
            if not given:
                raise RulesError(f"--choices ran out at step {b.step}")
            answer = given.pop(0)
        else:
            err.print(f"{b.step}{_HEADINGS.get(b.step, '')}:", markup=False)
            for i, o in enumerate(opts, 1):
                err.print(f"  {i}. {o}", markup=False)
            answer = ""
            while not (answer.isdigit() and 1 <= int(answer) <= len(opts)):
                line = sys.stdin.readline()
                if not line:
                    raise RulesError(f"input ended at step {b.step}")
                answer = line.strip()
                if not (answer.isdigit() and 1 <= int(answer) <= len(opts)):
                    err.print(f"choose a number from 1 to {len(opts)}", markup=False)
        if not answer.isdigit() or not 1 <= int(answer) <= len(opts):
            raise RulesError(f"{b.step}: choose a number from 1 to {len(opts)}, not {answer!r}")
        b = b.choose(opts[int(answer) - 1])
    emit_json(_ruleset().dump_sheet(b.sheet(name, vow)))


def _show_conflict(session: Any, as_json: bool) -> None:
    from dataclasses import asdict

    from referee.cli.mongrel_script import fighter_rows

    state = session.state
    rows = fighter_rows(state)
    if as_json:
        emit_json(
            {
                "log": session.log,
                "order": list(state.order),
                "hours": state.hours,
                "pending": [asdict(d) for d in state.pending],
                "fighters": rows,
            }
        )
        return
    for line in session.log:
        console.print(line, markup=False)
    for d in state.pending:
        console.print(f"waiting for {d.actor}: {d.prompt}", markup=False)
    from referee.cli.text import Table

    table = Table(
        title=f"next: {state.next}   order: {' > '.join(state.order)}   hours: {state.hours}"
    )
    for col in ("fighter", "AP", "IR", "damage", "Physique", "state"):
        table.add_column(col)
    for r in rows:
        table.add_row(
            r["name"], str(r["ap"]), str(r["infernal_resolve"]), str(r["damage"]),
            str(r["physique"]), str(r["condition"]),
        )  # fmt: skip
    console.print(table)


@app.command()
@click.argument("path", help="A conflict script (JSON: fighters and actions).")
@SEED_OPTION
@click.option(
    "--interactive", is_flag=True, help="After the script, read commands from standard input."
)
@click.option(
    "--options", "options_file", help="The table's house rules (JSON), instead of the script's."
)
@click.option("--save", help="Store the conflict (with every face rolled) as a script here.")
@JSON_OPTION
@handle_errors
def conflict(
    path: str,
    seed: int | None,
    interactive: bool,
    options_file: str | None,
    save: str | None,
    as_json: bool,
) -> None:
    """Run a scripted conflict, optionally continuing interactively (type 'help')."""
    from referee.cli.mongrel_script import COMMANDS, load_session, parse_command
    from referee.dice.roller import SeededRoller, SystemRoller

    override = None if options_file is None else load_options(_ruleset(), options_file)
    session = load_session(load_json_file(path), seed, override)
    if interactive:
        session.roller = SeededRoller(seed) if seed is not None else SystemRoller()
        for line in sys.stdin:
            text = line.strip()
            if text in ("quit", "exit"):
                break
            if not text or text == "help":
                console.print(COMMANDS, markup=False)
                continue
            try:
                action, faces = parse_command(text)
                if action is None:
                    session.undo()
                    console.print("undone", markup=False)
                else:
                    console.print(session.act(action, faces).label, markup=False)
            except RulesError as e:
                console.print(f"error: {e}", markup=False)
    if save is not None:
        write_json_file(save, session.to_script())
    _show_conflict(session, as_json)


def demo(out: Console) -> None:
    """A seeded tour: Ahvia's Lie, the odds of Vooruk's Rend, a short fight, a working."""
    from referee.dice.roller import ScriptedRoller, SeededRoller
    from referee.systems.mongrel.actions import Attack, Check, Occult, StartConflict
    from referee.systems.mongrel.options import Options

    ruleset, options = _ruleset(), Options()
    empty = ruleset.initial_state(options)
    lie = ruleset.resolve(Check(4, 3, "over", 4), empty, ScriptedRoller([6, 3, 1, 1]), options)
    out.print(f"Ahvia lies: 4d6 over 3 [6, 3, 1, 1] -> Effect {lie.result}", markup=False)
    dist = ruleset.odds(Check(6, 7, "under", 4), empty, options)
    p = dist.probability_where(lambda r: r.success)
    out.print(f"Vooruk's Rend 6d6 under Physique 7: success {fraction_text(p)}", markup=False)
    roller = SeededRoller(2026)
    state = empty
    for cid, sheet in ruleset.examples().items():
        state = ruleset.seat(state, cid, sheet, options)
    duel = state
    state = ruleset.apply(
        state, ruleset.resolve(StartConflict(("vooruk", "giazza")), state, roller, options)
    )
    for action in (
        Attack("vooruk", "giazza", "Rend", defend=True),
        Attack("giazza", "vooruk", "Melee"),
    ):
        outcome = ruleset.resolve(action, state, roller, options)
        out.print(outcome.label, markup=False)
        state = ruleset.apply(state, outcome)
    for cid in ("vooruk", "giazza"):
        f = state.character(cid)
        out.print(f"{f.name}: AP {f.ap}, damage {f.damage}", markup=False)
    working = Occult("alwia", resolve=3, target="vooruk", resist=True)
    harm = ruleset.odds(working, duel, options).probability_where(lambda r: r.effect > 0)
    out.print(
        f"Alwia's Occult on a resisting Vooruk harms him {fraction_text(harm)}:", markup=False
    )
    out.print(ruleset.resolve(working, duel, ScriptedRoller([2, 3]), options).label, markup=False)
