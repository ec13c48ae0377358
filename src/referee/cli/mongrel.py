"""``referee mongrel ...``: odds, checks, sheets, buying and conflicts for Mongrel."""

from __future__ import annotations

import sys
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from referee.cli.common import (
    FACES_HELP,
    FACES_OPTION,
    JSON_OPTION,
    SEED_OPTION,
    console,
    emit_json,
    faces_option,
    handle_errors,
    load_json_file,
    make_roller,
    write_json_file,
)
from referee.dice.odds import fraction_text
from referee.errors import RulesError

app = typer.Typer(
    name="mongrel",
    help="Mongrel: pools of d6 against attributes, Action Points, Infernal Resolve.",
    no_args_is_help=True,
)

DICE = typer.Option(..., "--dice", help="Dice in the pool (the Expertise); 0 = zero Expertise.")
TN = typer.Option(..., "--tn", help="The attribute rolled against (before any Modifier).")
MODE = typer.Option(..., "--mode", help="under: own attribute; over: a target's attribute.")
IDENTITY = typer.Option(0, "--identity", help="The governing Identity score, added to Effect.")
DIFFICULTY = typer.Option(0, "--difficulty", help="Modifier 0-4: always makes the roll harder.")


def _mode(mode: str) -> Any:
    if mode not in ("under", "over"):
        raise RulesError(f"--mode must be 'under' or 'over', not {mode!r}")
    return mode


def _effects(dist: Any) -> dict[str, str]:
    """Exact chance of each positive Effect in a distribution of Effects (0 = none)."""
    return {str(e): fraction_text(q) for e, q in dist.probabilities().items() if e > 0}


def _effect_table(title: str, effect: dict[str, str]) -> None:
    table = Table(title=title)
    for col in ("Effect", "exact", "%"):
        table.add_column(col, justify="right")
    for e, q in effect.items():
        num, den = (int(x) for x in q.split("/"))
        table.add_row(e, q, f"{num / den * 100:.2f}")
    console.print(table)


@app.command()
@handle_errors
def odds(
    dice: int = DICE,
    tn: int = TN,
    mode: str = MODE,
    identity: int = IDENTITY,
    difficulty: int = DIFFICULTY,
    as_json: bool = JSON_OPTION,
) -> None:
    """Exact chance of success and of each Effect (successful outcomes only)."""
    from referee.systems.mongrel.checks import check_odds, target_number

    m = _mode(mode)
    dist = check_odds(dice, target_number(tn, m, difficulty), m, identity)
    p = dist.probability_where(lambda r: r.success)
    effect = _effects(dist.map(lambda r: r.effect if r.success else 0))
    if as_json:
        emit_json({"p_success": fraction_text(p), "effect": effect})
        return
    what = "zero Expertise (1 die twice)" if dice == 0 else f"{dice}d6"
    console.print(
        f"{what} {mode} {target_number(tn, m, difficulty)}: success {fraction_text(p)} "
        f"({float(p) * 100:.2f}%)",
        markup=False,
    )
    _effect_table("Effect on success", effect)


@app.command()
@handle_errors
def check(
    dice: int = DICE,
    tn: int = TN,
    mode: str = MODE,
    identity: int = IDENTITY,
    difficulty: int = DIFFICULTY,
    faces: str | None = FACES_OPTION,
    seed: int | None = SEED_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Resolve one task roll: faces, successes and Effect."""
    from referee.systems.base import outcome_data
    from referee.systems.mongrel import RULESET
    from referee.systems.mongrel.checks import procedure, target_number
    from referee.systems.mongrel.options import Options
    from referee.systems.mongrel.ruleset import Check

    m = _mode(mode)
    action = Check(dice, tn, m, identity, difficulty)
    hand = faces_option(faces)
    proc = procedure(dice, target_number(tn, m, difficulty), m, identity)
    if hand is not None:
        what = "the zero-Expertise roll (1 die twice)" if dice == 0 else f"{dice}d6"
        proc.check_manual(hand, what)
    roller = make_roller(hand, seed)
    out = RULESET.resolve(action, None, roller, Options())
    if as_json:
        data = outcome_data(out)
        emit_json(
            {
                "success": out.success,
                "successes": out.details["successes"],
                "effect": out.result,
                "special": out.details["special"],
                "seed": seed if hand is None else None,
                **data,
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
@handle_errors
def validate(
    path: str = typer.Argument(
        ..., help="A Mongrel character sheet (JSON), or an example's name (alwia, vooruk, ...)."
    ),
    options_path: str | None = typer.Option(
        None, "--options", help='The table\'s options (JSON), e.g. {"max_score": 6}.'
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Validate a sheet: every broken creation rule, with approvals shown."""
    from referee.systems.base import load_record
    from referee.systems.mongrel.options import Options
    from referee.systems.mongrel.sheet import derived
    from referee.systems.mongrel.validation import audit

    sheet = _load_sheet(path)
    options = (
        load_record(Options, load_json_file(options_path), rule="Mongrel options")
        if options_path is not None
        else Options()
    )
    found = audit(sheet, options)
    open_ = [p for p, reason in found if reason is None]
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
        raise typer.Exit(1)


@app.command()
@handle_errors
def example(
    name: str = typer.Argument(..., help="alwia (ahvia), vooruk or giazza (ghiazza)."),
) -> None:
    """Print one of the text's example characters as a JSON sheet."""
    from referee.systems.base import dump_record
    from referee.systems.mongrel.examples import example as load

    emit_json(dump_record(load(name)))


def _load_sheet(path: str) -> Any:
    """A sheet from a JSON file, or one of the text's examples by name when no such file."""
    from pathlib import Path

    from referee.systems.base import load_record
    from referee.systems.mongrel.examples import example
    from referee.systems.mongrel.sheet import Sheet

    if not Path(path).exists():
        try:
            return example(path)
        except RulesError:
            pass  # not an example either: report the missing file
    return load_record(Sheet, load_json_file(path), rule="Mongrel sheet format")


def _write_json(path: str | None, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` (nothing when ``None``); a clear error if it fails."""
    if path is not None:
        write_json_file(path, data)


def _save_sheet(sheet: Any, save: str | None) -> None:
    from referee.systems.base import dump_record

    _write_json(save, dump_record(sheet))


@app.command()
@handle_errors
def approve(
    path: str = typer.Argument(..., help="A Mongrel character sheet (JSON)."),
    reason: str = typer.Option(..., "--reason", help="Why the referee allows it (recorded)."),
    fields: str = typer.Option(
        "", "--field", help="Approve the problems at these field paths (comma-separated)."
    ),
    every: bool = typer.Option(False, "--all", help="Approve every open problem."),
    by: str = typer.Option("", "--by", help="Who approved it."),
    save: str | None = typer.Option(None, "--save", help="Write the approved sheet here."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Referee approval: record a reason for rules a sheet breaks, so it validates."""
    from dataclasses import replace

    from referee.systems.base import dump_record
    from referee.systems.mongrel.sheet import Approval
    from referee.systems.mongrel.validation import unapproved

    sheet = _load_sheet(path)
    field = [f.strip() for f in fields.split(",") if f.strip()]
    if not reason.strip():
        raise RulesError("--reason must say why")
    if every == bool(field):
        raise RulesError("name the problems with --field PATH[,PATH...] or use --all")
    open_ = unapproved(sheet)
    known = {p.field for p in open_}
    missing = [f for f in field if f not in known]
    if missing:
        raise RulesError(
            f"no open problem at {', '.join(missing)} (open: {', '.join(sorted(known)) or 'none'})"
        )
    chosen = [p for p in open_ if every or p.field in field]
    added = tuple(Approval(p.rule, p.field, reason, by) for p in chosen)
    sheet = replace(sheet, approvals=(*sheet.approvals, *added))
    _save_sheet(sheet, save)
    if as_json:
        emit_json(dump_record(sheet))
        return
    for p in chosen:
        console.print(f"approved: {p.field} [{p.rule}]", markup=False)
    console.print(f"{len(unapproved(sheet))} problem(s) left open", markup=False)


@app.command()
@handle_errors
def improve(
    path: str = typer.Argument(..., help="A Mongrel character sheet (JSON)."),
    award: int = typer.Option(0, "--award", help="Session award first: 1 or 2 points (0: none)."),
    vow: bool = typer.Option(False, "--vow", help="With --award: +1 for risk taken for the Vow."),
    expertise: str | None = typer.Option(None, "--expertise", help="Raise this Expertise."),
    identity: str | None = typer.Option(None, "--identity", help="Raise man, beast or demon."),
    reduce: str | None = typer.Option(
        None, "--reduce", help="With --identity: lower this Identity by 1 (cost x2, not x5)."
    ),
    attribute: str | None = typer.Option(None, "--attribute", help="Raise this attribute."),
    used: str = typer.Option(
        "", "--used", help="Features used last session, comma-separated (only these may rise)."
    ),
    save: str | None = typer.Option(None, "--save", help="Write the improved sheet here."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Character points: award a session's points, then buy one raise (unspent points are saved)."""
    from dataclasses import replace

    from referee.systems.base import dump_record
    from referee.systems.mongrel import advancement as adv

    sheet = _load_sheet(path)
    before = sheet.character_points
    if award:
        sheet = replace(sheet, character_points=before + adv.award(award, vow))
    elif vow:
        raise RulesError("--vow adds to a session's --award")
    chosen = [x for x in (expertise, identity, attribute) if x is not None]
    if len(chosen) > 1:
        raise RulesError("raise one feature at a time: --expertise, --identity or --attribute")
    if reduce is not None and identity is None:
        raise RulesError("--reduce goes with --identity")
    features = {u.strip() for u in used.split(",") if u.strip()}
    if expertise is not None:
        sheet = adv.raise_expertise(sheet, expertise, features)
    elif identity is not None:
        sheet = adv.raise_identity(sheet, identity, features, reduce)
    elif attribute is not None:
        sheet = adv.raise_attribute(sheet, attribute, features)
    _save_sheet(sheet, save)
    if as_json:
        emit_json(
            {
                "points_before": before,
                "points_left": sheet.character_points,
                "sheet": dump_record(sheet),
            }
        )
        return
    what = chosen[0] if chosen else "nothing raised"
    console.print(
        f"{sheet.name}: {what}; character points {before} -> {sheet.character_points}",
        markup=False,
    )


@app.command()
@handle_errors
def credit(
    path: str = typer.Argument(..., help="A Mongrel character sheet (JSON)."),
    transfer: str | None = typer.Option(
        None, "--transfer", help="FROM:TO:N - receive N with TO, paying 2N from FROM."
    ),
    sacrifice: str | None = typer.Option(
        None, "--sacrifice", help="Give a seller 1 Credit from this House's account."
    ),
    save: str | None = typer.Option(None, "--save", help="Write the sheet with its accounts here."),
    as_json: bool = JSON_OPTION,
) -> None:
    """House Credit accounts: show them, transfer at 2:1, or sacrifice 1 to a seller."""
    from dataclasses import replace

    from referee.systems.mongrel import wealth
    from referee.systems.mongrel.sheet import credit as accounts

    sheet = _load_sheet(path)
    acc = accounts(sheet)
    if transfer is not None:
        parts = transfer.split(":")
        if len(parts) != 3 or not parts[2].strip().isdigit():
            raise RulesError(f"--transfer is FROM:TO:N with N a whole number, not {transfer!r}")
        acc = wealth.transfer(acc, parts[0], parts[1], int(parts[2]))
    if sacrifice is not None:
        acc = wealth.sacrifice(acc, sacrifice)
    sheet = replace(sheet, credit=acc) if (transfer or sacrifice) else sheet
    _save_sheet(sheet, save)
    if as_json:
        emit_json(acc)
        return
    console.print(
        f"{sheet.name} ({sheet.house}): " + ", ".join(f"{h} {v}" for h, v in acc.items()),
        markup=False,
    )


@app.command()
@handle_errors
def buy(
    dice: int = typer.Option(..., "--dice", help="Dice of the buying Expertise."),
    social: int = typer.Option(..., "--social", help="The seller's Social."),
    credit: int = typer.Option(..., "--credit", help="The buyer's Credit with the House."),
    faces: str | None = FACES_OPTION,
    seed: int | None = SEED_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Roll to buy: a die above the seller's Social and within one's Credit buys it."""
    from referee.systems.base import probability_map
    from referee.systems.mongrel.wealth import buy_procedure

    proc = buy_procedure(dice, social, credit)
    hand = faces_option(faces)
    if hand is not None:
        proc.check_manual(hand, f"{dice}d6")
    rolled, result = proc.roll(make_roller(hand, seed))
    chances = probability_map(proc.odds().map(lambda p: p.result))
    if as_json:
        emit_json(
            {
                "faces": list(rolled),
                "result": result.result,
                "odds": chances,
                "manual": hand is not None,
            }
        )
        return
    console.print(
        f"[{', '.join(map(str, rolled))}] -> {result.result}  odds {chances}", markup=False
    )


@app.command()
@handle_errors
def occult(
    dice: int = typer.Option(..., "--dice", help="Occult Expertise (+ Power dice); 0 = zero."),
    tn: int = typer.Option(..., "--tn", help="The sorcerer's own Spirit (rolled under)."),
    resolve: int = typer.Option(
        1, "--resolve", help="Infernal Resolve spent before the roll (1+; each beyond 1: +1)."
    ),
    identity: int = typer.Option(0, "--identity", help="The sorcerer's Demon, added to Effect."),
    range_mod: int = typer.Option(0, "--range", help="Long-range Modifier 0-4."),
    scale_mod: int = typer.Option(0, "--scale", help="Large area / time-scale Modifier 0-4."),
    difficulty: int = DIFFICULTY,
    resist_dice: int | None = typer.Option(
        None, "--resist-dice", help="The target resists: its Resist Expertise (0 = zero)."
    ),
    resist_tn: int | None = typer.Option(
        None, "--resist-tn", help="The resisting target's own Spirit (rolled under)."
    ),
    resist_identity: int = typer.Option(
        0, "--resist-identity", help="The resisting target's Demon, added to its Effect."
    ),
    resist_mode: str = typer.Option(
        "subtract", "--resist-mode", help="subtract (default ruling) or cancel."
    ),
    show_odds: bool = typer.Option(False, "--odds", help="Exact odds instead of a roll."),
    faces: str | None = typer.Option(None, "--faces", help=FACES_HELP + " Working, then Resist."),
    seed: int | None = SEED_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """An Occult attack on Infernal Resolve, optionally resisted: one roll or exact odds."""
    from referee.systems.mongrel.options import check_resist_mode
    from referee.systems.mongrel.sorcery import occult_attack, occult_hours, occult_modifier

    mode = check_resist_mode(resist_mode, "--resist-mode")
    if (resist_dice is None) != (resist_tn is None):
        raise RulesError("--resist-dice and --resist-tn go together")
    total = occult_modifier(range_mod, scale_mod, difficulty)
    proc = occult_attack(
        dice,
        tn,
        identity,
        resolve,
        scope_modifier=total,
        resist_dice=resist_dice,
        resist_spirit=resist_tn,
        resist_identity=resist_identity,
        resist_mode=mode,
    )
    hours = occult_hours(dice)
    if show_odds:
        dist = proc.odds()
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
        console.print(
            f"Occult {dice}d6 under {tn - total}, {resolve} Resolve, {hours} h: working succeeds "
            f"{fraction_text(p)} ({float(p) * 100:.2f}%), harms {fraction_text(harm)} "
            f"({float(harm) * 100:.2f}%)",
            markup=False,
        )
        _effect_table("Net Effect on Infernal Resolve", effect)
        return
    hand = faces_option(faces)
    if hand is not None:
        proc.check_manual(
            hand, "the Occult working" + (" and Resist" if resist_dice is not None else "")
        )
    rolled, result = proc.roll(make_roller(hand, seed))
    n = occult_hours(dice)  # dice rolled by the working
    if as_json:
        emit_json(
            {
                "success": result.success,
                "effect": result.effect,
                "working": result.working.data(),
                "resist": None if result.resist is None else result.resist.data(),
                "resolve_spent": resolve,
                "hours": hours,
                "target": tn - total,
                "faces": list(rolled[:n]),
                "resist_faces": list(rolled[n:]),
                "manual": hand is not None,
                "seed": seed if hand is None else None,
            }
        )
        return
    w = result.working
    line = f"Occult {list(rolled[:n])} under {tn - total} ({hours} h): " + (
        f"success, Effect {w.effect}" if w.success else "failure"
    )
    if result.resist is not None:
        rr = result.resist
        line += f"; Resist {list(rolled[n:])}: " + (
            f"Effect {rr.effect}" if rr.success else "failure"
        )
    line += f" -> Infernal Resolve lost {result.effect}"
    console.print(line + (" (faces entered by hand)" if hand is not None else ""), markup=False)


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
@handle_errors
def build(
    name: str = typer.Option(..., "--name", help="The character's name."),
    vow: str = typer.Option("", "--vow", help="The character's Vow."),
    choices: str | None = typer.Option(
        None, "--choices", help="Option numbers for every step, comma-separated (else asked)."
    ),
) -> None:
    """Create a character step by step: each step lists only the legal choices."""
    from referee.systems.base import dump_record
    from referee.systems.mongrel.builder import Builder

    b = Builder()
    given = [c.strip() for c in choices.split(",")] if choices else None
    err = Console(stderr=True, highlight=False)
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
    emit_json(dump_record(b.sheet(name, vow)))


def _show_conflict(c: Any, as_json: bool) -> None:
    rows = [
        {
            "id": f.id,
            "name": f.name,
            "ap": f.body.ap,
            "infernal_resolve": f.body.ir,
            "damage": f.body.damage,
            "physique": f.body.current_physique,
            "collapsed": f.body.collapsed,
            "terminal": f.body.terminal,
            "dead": f.body.dead,
            "rushed": f.body.rushed,
            "discombobulated": f.body.discombobulated,
            "condition": f.body.condition,
        }
        for f in c.fighters
    ]
    if as_json:
        emit_json(
            {
                "log": [e.summary for e in c.log],
                "order": list(c.order),
                "hours": c.hours,
                "fighters": rows,
            }
        )
        return
    for e in c.log:
        console.print(e.summary, markup=False)
    table = Table(title=f"next: {c.next}   order: {' > '.join(c.order)}   hours: {c.hours}")
    for col in ("fighter", "AP", "IR", "damage", "Physique", "state"):
        table.add_column(col)
    for r in rows:
        state = str(r["condition"])
        table.add_row(
            r["name"],
            str(r["ap"]),
            str(r["infernal_resolve"]),
            str(r["damage"]),
            str(r["physique"]),
            state,
        )
    console.print(table)


@app.command()
@handle_errors
def conflict(
    path: str = typer.Argument(..., help="A conflict script (JSON: fighters and actions)."),
    seed: int | None = SEED_OPTION,
    interactive: bool = typer.Option(
        False, "--interactive", help="After the script, read commands from standard input."
    ),
    save: str | None = typer.Option(
        None, "--save", help="Store the conflict (with every face rolled) as a script here."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Run a scripted conflict, optionally continuing interactively (type 'help')."""
    from referee.dice.roller import SeededRoller, SystemRoller
    from referee.systems.base import load_record
    from referee.systems.mongrel.options import Options
    from referee.systems.mongrel.script import parse_command, run_script, step, to_script

    data = load_json_file(path)
    c = run_script(data, seed)
    options = load_record(Options, data.get("options", {}), rule="Mongrel options")
    if interactive:
        roller = SeededRoller(seed) if seed is not None else SystemRoller()
        for line in sys.stdin:
            text = line.strip()
            if text in ("quit", "exit"):
                break
            if not text or text == "help":
                console.print(parse_command.__doc__ or "", markup=False)
                continue
            try:
                action, faces = parse_command(text)
                c = step(c, action, faces, roller, options)
                console.print(c.log[-1].summary if action is not None else "undone", markup=False)
            except RulesError as e:
                console.print(f"error: {e}", markup=False)
    if save is not None:
        _write_json(save, to_script(c, options))
    _show_conflict(c, as_json)


def demo(out: Console) -> None:
    """A seeded tour: Ahvia's Lie, the odds of Vooruk's Rend, a short fight."""
    from referee.dice.roller import ScriptedRoller, SeededRoller
    from referee.systems.mongrel import RULESET
    from referee.systems.mongrel.checks import check_odds
    from referee.systems.mongrel.conflict import Attack, Conflict, Fighter
    from referee.systems.mongrel.examples import example as load
    from referee.systems.mongrel.options import Options
    from referee.systems.mongrel.ruleset import Check

    lie = RULESET.resolve(
        Check(4, 3, "over", 4, label="Lie"), None, ScriptedRoller([6, 3, 1, 1]), Options()
    )
    out.print(f"Ahvia lies: 4d6 over 3 [6, 3, 1, 1] -> Effect {lie.result}", markup=False)
    dist = check_odds(6, 7, "under", 4)
    p = dist.probability_where(lambda r: r.success)
    out.print(f"Vooruk's Rend 6d6 under Physique 7: success {fraction_text(p)}", markup=False)
    roller = SeededRoller(2026)
    c = Conflict.start(
        [Fighter.from_sheet(load("vooruk")), Fighter.from_sheet(load("giazza"))], roller
    )
    c = c.apply(Attack("vooruk", "giazza", "Rend", defend=True), roller)
    c = c.apply(Attack("giazza", "vooruk", "Melee"), roller)
    for e in c.log:
        out.print(e.summary, markup=False)
    for f in c.fighters:
        out.print(f"{f.name}: AP {f.body.ap}, damage {f.body.damage}", markup=False)
    from referee.systems.mongrel.conflict import Occult

    duel = Conflict(
        (Fighter.from_sheet(load("alwia")), Fighter.from_sheet(load("vooruk"))),
        ("alwia", "vooruk"),
    )
    working = Occult("alwia", resolve=3, target="vooruk", resist=True)
    odds = RULESET.odds(working, duel, Options()).probability_where(lambda r: r.effect > 0)
    out.print(
        f"Alwia's Occult on a resisting Vooruk harms him {fraction_text(odds)}:", markup=False
    )
    out.print(duel.apply(working, ScriptedRoller([2, 3])).log[-1].summary, markup=False)
