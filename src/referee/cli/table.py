"""``referee table ...``: live tables on a database, from the command line.

Every command takes ``--db URL`` (default: ``REFEREE_DATABASE_URL``, else a
SQLite file in the user's data directory) and ``--json``; errors are one line.
``T`` is a table's id or its unique name. Commands that act for someone take
``--as NAME``; the others run as the local operator, who may do what a
referee may.
"""

from __future__ import annotations

import json
from typing import Any

import typer

from referee.cli.common import (
    FACES_OPTION,
    JSON_OPTION,
    console,
    emit_json,
    faces_option,
    handle_errors,
    load_json_file,
    outcome_text,
    print_odds,
    write_json_file,
)

app = typer.Typer(
    name="table",
    help="Live tables: an event log per table on SQLite or PostgreSQL, shared by many.",
    no_args_is_help=True,
)
char_app = typer.Typer(help="Seat, update and remove characters.", no_args_is_help=True)
app.add_typer(char_app, name="char")

DB_OPTION: Any = typer.Option(
    None,
    "--db",
    help="Database URL (sqlite:///FILE or postgresql://...).",
    envvar="REFEREE_DATABASE_URL",
)
AS_OPTION: Any = typer.Option(..., "--as", help="The participant acting.")
AS_VIEW: Any = typer.Option(None, "--as", help="See it as this participant (default: everything).")
TABLE_ARG: Any = typer.Argument(..., help="The table's id or name.")
VIS_OPTION: Any = typer.Option(
    "public", "--visibility", help="public, referee (secret), blind or private."
)
FIELDS_ARG: Any = typer.Argument(None, help="The action's fields as key=value words.")
ADD_OPTION: Any = typer.Option(
    None, "--add", help="ID.FIELD=N adds N (a character id, or 'table'); repeatable."
)
SET_OPTION: Any = typer.Option(None, "--set", help="ID.FIELD=JSON sets a value; repeatable.")


def _service(db: str | None) -> Any:
    from referee.table.service import TableService
    from referee.table.store import Store

    return TableService(Store(db))


def _done(done: Any, as_json: bool) -> None:
    """Report an appended event: JSON, or one readable line."""
    if as_json:
        emit_json(done.event.data())
        return
    console.print(event_line(done.event.data()), markup=False)


def event_line(e: dict[str, Any]) -> str:
    """One event as readable text (a redacted one says only what may be shown)."""
    head = f"#{e['seq']} {str(e.get('time', ''))[11:19]} {e.get('actor', '?')}"
    if e.get("redacted"):
        what = e.get("kind", "something")
        attempted = e.get("payload", {}).get("action")
        extra = f" {attempted}" if attempted else ""
        return f"{head}: [{e['visibility']}] {what}{extra} (hidden from you)"
    p = e["payload"]
    shown = "" if e["visibility"] == "public" else f" [{e['visibility']}]"
    kind = e["kind"]
    if kind == "action-resolved":
        from referee.systems.base import outcome_from_data

        body = outcome_text(outcome_from_data(p["outcome"], trusted=True))
        return f"{head}{shown}: {body}"
    if kind == "note":
        to = f" to {e['audience']}" if e.get("audience") else ""
        return f"{head}{shown}{to}: {p['text']}"
    if kind in ("undo", "redo", "reveal"):
        return f"{head}: {kind} #{p['seq']}"
    if kind in ("character-added", "character-updated"):
        marked = f" (breaks {len(p['problems'])} rule(s))" if p.get("problems") else ""
        owner = f" for {p['owner']}" if p.get("owner") else ""
        return f"{head}: {kind} {p['id']}{owner}{marked}"
    if kind == "state-edited":
        changes = ", ".join(f"{c['target']}.{c['field']}" for c in p["changes"])
        return f"{head}: edit {changes} ({p['reason']})"
    rest = ", ".join(f"{k}={v}" for k, v in p.items() if k not in ("options",))
    return f"{head}: {kind} {rest}".rstrip()


@app.command("new")
@handle_errors
def new(
    game: str = typer.Argument(..., help="The game (see `referee games`)."),
    name: str = typer.Option(..., "--name", help="The table's unique name."),
    referee: str = typer.Option("Referee", "--referee", help="The referee's name."),
    options_file: str | None = typer.Option(None, "--options", help="House rules as JSON."),
    seed: int | None = typer.Option(
        None, "--seed", help="A playtest table: every roll comes from this seed (replayable)."
    ),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Create a table; its referee is its first participant."""
    options = None if options_file is None else load_json_file(options_file)
    done = _service(db).create(game, name, referee, options=options, seed=seed)
    if as_json:
        emit_json({"id": done.table.id, "name": done.table.name, "game": done.table.game})
        return
    console.print(f"table {done.table.name!r} ({done.table.id}), {done.table.game}", markup=False)


@app.command("list")
@handle_errors
def list_(db: str | None = DB_OPTION, as_json: bool = JSON_OPTION) -> None:
    """Every table in the database."""
    service = _service(db)
    rows = [
        {
            "id": r.id,
            "name": r.name,
            "game": r.game,
            "created": r.created,
            "events": service.store.count(r.id),
        }
        for r in service.store.tables()
    ]
    if as_json:
        emit_json(rows)
        return
    for r in rows:
        console.print(f"{r['id']}  {r['game']:9} {r['events']:6} events  {r['name']}", markup=False)


@app.command("show")
@handle_errors
def show(
    table: str = TABLE_ARG,
    who: str | None = AS_VIEW,
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """The table's state: participants, characters, findings, and the game's tracker."""
    from referee.table.service import table_data

    service = _service(db)
    data: Any = table_data(service.view(table, who))
    if as_json:
        emit_json(data)
        return
    console.print(
        f"{data['name']} ({data['id']}), {data['game']}, event {data['seq']}", markup=False
    )
    for name, role in data["participants"].items():
        console.print(f"  {role:8} {name}", markup=False)
    tracker = data["tracker"]
    for label, value in tracker.get("table", []):
        console.print(f"  {label}: {value}", markup=False)
    for cid, rows in tracker.get("characters", {}).items():
        owner = data["owners"].get(cid)
        console.print(f"{cid}" + (f" ({owner})" if owner else ""), markup=False)
        for label, value in rows:
            console.print(f"  {label}: {value}", markup=False)
        for p in data["findings"].get(cid, []):
            console.print(f"  ! {p['field']}: {p['message']} [{p['rule']}]", markup=False)
    for d in data["pending"]:
        console.print(f"waiting for {d['actor']}: {d['prompt']}", markup=False)


@app.command("join")
@handle_errors
def join(
    table: str = TABLE_ARG,
    name: str = typer.Argument(..., help="The participant's name."),
    role: str = typer.Option("player", "--role", help="referee, player or observer."),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Add a participant."""
    _done(_service(db).join(table, name, role), as_json)


@app.command("leave")
@handle_errors
def leave(
    table: str = TABLE_ARG,
    name: str = typer.Argument(..., help="The participant's name."),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Remove a participant (their characters stay)."""
    _done(_service(db).leave(table, name), as_json)


@app.command("role")
@handle_errors
def role(
    table: str = TABLE_ARG,
    name: str = typer.Argument(..., help="The participant's name."),
    new_role: str = typer.Argument(..., help="referee, player or observer."),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Change a participant's role."""
    _done(_service(db).set_role(table, name, new_role), as_json)


@app.command("options")
@handle_errors
def options(
    table: str = TABLE_ARG,
    path: str = typer.Argument(..., help="The house rules as JSON."),
    who: str | None = typer.Option(None, "--as", help="The referee changing them."),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Replace the table's house rules."""
    _done(_service(db).set_options(table, load_json_file(path), by=who), as_json)


def _sheet_arg(value: str) -> Any:
    """A sheet file's JSON, or an example character's name."""
    if value.lower().endswith(".json"):
        return load_json_file(value)
    return value


@char_app.command("add")
@handle_errors
def char_add(
    table: str = TABLE_ARG,
    sheet: str = typer.Argument(..., help="A sheet as a .json file, or an example's name."),
    owner: str | None = typer.Option(None, "--owner", help="The participant who plays it."),
    cid: str | None = typer.Option(None, "--id", help="Its id (default: from its name)."),
    force: bool = typer.Option(False, "--force", help="Seat it even if it breaks rules (marked)."),
    who: str | None = typer.Option(None, "--as", help="Who seats it (default: the operator)."),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Seat a character (its validator findings travel with it)."""
    done = _service(db).add_character(
        table, _sheet_arg(sheet), owner=owner, cid=cid, by=who, force=force
    )
    _done(done, as_json)


@char_app.command("update")
@handle_errors
def char_update(
    table: str = TABLE_ARG,
    cid: str = typer.Argument(..., help="The character's id."),
    sheet: str = typer.Argument(..., help="The new sheet (.json) or an example's name."),
    force: bool = typer.Option(False, "--force", help="Accept a sheet that breaks rules."),
    who: str | None = typer.Option(None, "--as", help="Who updates it."),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Replace a character's sheet (what the table tracks about it stays)."""
    _done(
        _service(db).update_character(table, cid, _sheet_arg(sheet), by=who, force=force), as_json
    )


@char_app.command("remove")
@handle_errors
def char_remove(
    table: str = TABLE_ARG,
    cid: str = typer.Argument(..., help="The character's id."),
    who: str | None = typer.Option(None, "--as", help="The referee."),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Take a character off the table."""
    _done(_service(db).remove_character(table, cid, by=who), as_json)


def _fields(service: Any, table: str, action: str, pairs: list[str] | None) -> Any:
    from referee.systems.base import data_from_pairs

    rules = service.load(table).ruleset
    return data_from_pairs(rules.action_type(action), pairs or [])


@app.command("act")
@handle_errors
def act(
    table: str = TABLE_ARG,
    action: str = typer.Argument(..., help="The action (see `referee GAME actions`)."),
    pairs: list[str] | None = FIELDS_ARG,
    who: str = AS_OPTION,
    visibility: str = VIS_OPTION,
    faces: str | None = FACES_OPTION,
    expect: int | None = typer.Option(
        None, "--expect", help="Refuse unless the table is still at this event."
    ),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Take an action of the game: resolve it, record it, show its outcome."""
    service = _service(db)
    fields = _fields(service, table, action, pairs)
    done = service.act(
        table, who, action, fields, visibility=visibility, faces=faces_option(faces), expect=expect
    )
    _done(done, as_json)


@app.command("odds")
@handle_errors
def odds(
    table: str = TABLE_ARG,
    action: str = typer.Argument(..., help="The action (see `referee GAME actions`)."),
    pairs: list[str] | None = FIELDS_ARG,
    who: str = AS_OPTION,
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """The exact odds of an action before it is taken, on what you may know."""
    service = _service(db)
    fields = _fields(service, table, action, pairs)
    _chosen, dist, _chance = service.odds(table, who, action, fields)
    print_odds(dist, as_json=as_json)


@app.command("note")
@handle_errors
def note(
    table: str = TABLE_ARG,
    text: str = typer.Argument(..., help="The note or chat line."),
    who: str = AS_OPTION,
    visibility: str = VIS_OPTION,
    to: str | None = typer.Option(None, "--to", help="For a private note: who it is for."),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Write a note or chat line to the log."""
    _done(_service(db).note(table, who, text, visibility=visibility, audience=to), as_json)


@app.command("log")
@handle_errors
def log(
    table: str = TABLE_ARG,
    who: str | None = AS_VIEW,
    after: int = typer.Option(0, "--after", help="Only events after this seq."),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """The log, as a participant may see it."""
    events = _service(db).log(table, who, after=after)
    if as_json:
        emit_json(events)
        return
    for e in events:
        console.print(event_line(e), markup=False)


@app.command("undo")
@handle_errors
def undo(
    table: str = TABLE_ARG,
    seq: int | None = typer.Argument(None, help="The event to undo (default: the newest)."),
    who: str = AS_OPTION,
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Take back an action or edit (the log keeps it)."""
    _done(_service(db).undo(table, seq, by=who), as_json)


@app.command("redo")
@handle_errors
def redo(
    table: str = TABLE_ARG,
    seq: int | None = typer.Argument(None, help="The undone event (default: the newest)."),
    who: str = AS_OPTION,
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Put back an undone action or edit."""
    _done(_service(db).redo(table, seq, by=who), as_json)


@app.command("reveal")
@handle_errors
def reveal(
    table: str = TABLE_ARG,
    seq: int = typer.Argument(..., help="The hidden event to show everyone."),
    who: str = AS_OPTION,
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Show a hidden roll or note to everyone."""
    _done(_service(db).reveal(table, seq, by=who), as_json)


@app.command("edit")
@handle_errors
def edit(
    table: str = TABLE_ARG,
    who: str = AS_OPTION,
    add: list[str] | None = ADD_OPTION,
    set_: list[str] | None = SET_OPTION,
    reason: str = typer.Option(..., "--reason", help="Why (kept in the log)."),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Correct the game state by hand (the referee), with a reason."""
    changes = [_edit_word(w, delta=True) for w in add or []]
    changes += [_edit_word(w, delta=False) for w in set_ or []]
    _done(_service(db).edit(table, changes, reason, by=who), as_json)


def _edit_word(word: str, *, delta: bool) -> dict[str, Any]:
    from referee.errors import RulesError

    where, sep, text = word.partition("=")
    target, dot, fld = where.partition(".")
    if not sep or not dot or not target or not fld:
        raise RulesError(f"{word!r}: write ID.FIELD=VALUE (e.g. giazza.damage=2)")
    if delta:
        try:
            return {"target": target, "field": fld, "delta": int(text)}
        except ValueError:
            raise RulesError(f"{word!r}: --add takes a whole number") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = text
    return {"target": target, "field": fld, "value": value}


@app.command("export")
@handle_errors
def export(
    table: str = TABLE_ARG,
    who: str | None = typer.Option(None, "--as", help="Export this participant's view."),
    out: str | None = typer.Option(None, "--out", help="Write here (default: standard output)."),
    db: str | None = DB_OPTION,
) -> None:
    """The table as JSON: whole for the referee, a player's redacted view with --as."""
    from referee.table.audit import export as export_table

    data = export_table(_service(db), table, who)
    if out is None:
        emit_json(data)
    else:
        write_json_file(out, data)


@app.command("import")
@handle_errors
def import_(
    path: str = typer.Argument(..., help="An export (JSON)."),
    db: str | None = DB_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Import an exported table after verifying all of it (nothing is written otherwise)."""
    from referee.table.audit import import_table

    report = import_table(_service(db), load_json_file(path))
    if as_json:
        emit_json(report.data())
        return
    console.print(f"imported {report.events} events; chain and replays verified", markup=False)


@app.command("verify")
@handle_errors
def verify(table: str = TABLE_ARG, db: str | None = DB_OPTION, as_json: bool = JSON_OPTION) -> None:
    """Re-check the hash chain and replay every action from its recorded faces."""
    from referee.table.audit import verify as verify_table

    report = verify_table(_service(db), table)
    if as_json:
        emit_json(report.data())
    elif report.ok:
        console.print(f"ok: {report.events} events, chain and replays verified", markup=False)
    else:
        console.print(f"BROKEN at event {report.seq}: {report.problem}", markup=False)
    if not report.ok:
        raise typer.Exit(1)
