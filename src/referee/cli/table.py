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

import click

from referee.cli.common import (
    FACES_OPTION,
    JSON_OPTION,
    console,
    emit_json,
    faces_option,
    handle_errors,
    listed,
    load_json_file,
    outcome_text,
    print_odds,
    write_json_file,
)

app = click.Group(
    name="table",
    help="Live tables: an event log per table on SQLite or PostgreSQL, shared by many.",
    no_args_is_help=True,
)
char_app = click.Group("char", help="Seat, update and remove characters.", no_args_is_help=True)
app.add_command(char_app)

DB_OPTION = click.option(
    "--db",
    envvar="REFEREE_DATABASE_URL",
    show_envvar=True,
    help="Database URL (sqlite:///FILE or postgresql://...).",
)
AS_OPTION = click.option("--as", "who", required=True, help="The participant acting.")
AS_VIEW = click.option("--as", "who", help="See it as this participant (default: everything).")
TABLE_ARG = click.argument("table", help="The table's id or name.")
VIS_OPTION = click.option(
    "--visibility",
    default="public",
    help="public, referee (secret), blind, private, or self (a free roll only its roller sees).",
)
FIELDS_ARG = click.argument(
    "pairs", nargs=-1, callback=listed, help="The action's fields as key=value words."
)
ADD_OPTION = click.option(
    "--add",
    multiple=True,
    callback=listed,
    help="ID.FIELD=N adds N (a character id, or 'table'); repeatable.",
)
SET_OPTION = click.option(
    "--set", "set_", multiple=True, callback=listed, help="ID.FIELD=JSON sets a value; repeatable."
)


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
    if kind == "action-failed":
        faces = " ".join(str(f) for r in e.get("rolls", []) for f in r.get("faces", []))
        return (
            f"{head}{shown}: {p['action']} failed after its dice were drawn [{faces}]: {p['error']}"
        )
    if kind == "action-proposed":
        asks = ", ".join(f"{k} ({v})" for k, v in p.get("ask", {}).items())
        return f"{head}{shown}: proposed {p['action']}, waiting for the choice of {asks}"
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
@click.argument("game", help="The game (see `referee games`).")
@click.option("--name", required=True, help="The table's unique name.")
@click.option("--referee", default="Referee", help="The referee's name.")
@click.option("--options", "options_file", help="House rules as JSON.")
@click.option(
    "--seed", type=int, help="A playtest table: every roll comes from this seed (replayable)."
)
@DB_OPTION
@JSON_OPTION
@handle_errors
def new(
    game: str,
    name: str,
    referee: str,
    options_file: str | None,
    seed: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Create a table; its referee is its first participant."""
    options = None if options_file is None else load_json_file(options_file)
    done = _service(db).create(game, name, referee, options=options, seed=seed)
    if as_json:
        emit_json({"id": done.table.id, "name": done.table.name, "game": done.table.game})
        return
    console.print(f"table {done.table.name!r} ({done.table.id}), {done.table.game}", markup=False)


@app.command("list")
@DB_OPTION
@JSON_OPTION
@handle_errors
def list_(
    db: str | None,
    as_json: bool,
) -> None:
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
@TABLE_ARG
@AS_VIEW
@DB_OPTION
@JSON_OPTION
@handle_errors
def show(
    table: str,
    who: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """The table's state: participants, characters, findings, and the game's tracker."""
    from referee.table.service import table_data

    service = _service(db)
    seen = service.view(table, who)
    data: Any = table_data(seen, seen.viewer(who))
    if as_json:
        emit_json(data)
        return
    console.print(
        f"{data['name']} ({data['id']}), {data['game']}, event {data['seq']}", markup=False
    )
    for name, role in data["participants"].items():
        console.print(f"  {role:8} {name}", markup=False)
    seen = "everyone" if data["sheets"] == "everyone" else "their owner and the referee"
    console.print(f"  character sheets are shown to {seen}", markup=False)
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
    for p in data.get("proposals", []):
        asks = ", ".join(f"{a['field']} ({a['character']}, {a['answers']})" for a in p["ask"])
        console.print(
            f"#{p['seq']} {p['by']}'s {p['action']} waits for: {asks} "
            f"(referee table decide TABLE {p['seq']} field=value --as NAME)",
            markup=False,
        )


@app.command("join")
@TABLE_ARG
@click.argument("name", help="The participant's name.")
@click.option("--role", default="player", help="referee, player or observer.")
@DB_OPTION
@JSON_OPTION
@handle_errors
def join(
    table: str,
    name: str,
    role: str,
    db: str | None,
    as_json: bool,
) -> None:
    """Add a participant."""
    _done(_service(db).join(table, name, role), as_json)


@app.command("leave")
@TABLE_ARG
@click.argument("name", help="The participant's name.")
@DB_OPTION
@JSON_OPTION
@handle_errors
def leave(
    table: str,
    name: str,
    db: str | None,
    as_json: bool,
) -> None:
    """Remove a participant (their characters stay)."""
    _done(_service(db).leave(table, name), as_json)


@app.command("role")
@TABLE_ARG
@click.argument("name", help="The participant's name.")
@click.argument("new_role", help="referee, player or observer.")
@DB_OPTION
@JSON_OPTION
@handle_errors
def role(
    table: str,
    name: str,
    new_role: str,
    db: str | None,
    as_json: bool,
) -> None:
    """Change a participant's role."""
    _done(_service(db).set_role(table, name, new_role), as_json)


@app.command("options")
@TABLE_ARG
@click.argument("path", help="The house rules as JSON.")
@click.option("--as", "who", help="The referee changing them.")
@DB_OPTION
@JSON_OPTION
@handle_errors
def options(
    table: str,
    path: str,
    who: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Replace the table's house rules."""
    _done(_service(db).set_options(table, load_json_file(path), by=who), as_json)


@app.command("sheets")
@TABLE_ARG
@click.argument("shown", help="owner (each player sees only their own) or everyone.")
@click.option("--as", "who", help="The referee choosing.")
@DB_OPTION
@JSON_OPTION
@handle_errors
def sheets(
    table: str,
    shown: str,
    who: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Choose who sees other players' character sheets: owner or everyone (the referee
    always sees every sheet, a player always their own)."""
    _done(_service(db).set_sheets(table, shown, by=who), as_json)


def _sheet_arg(value: str) -> Any:
    """A sheet file's JSON, or an example character's name."""
    if value.lower().endswith(".json"):
        return load_json_file(value)
    return value


@char_app.command("add")
@TABLE_ARG
@click.argument("sheet", help="A sheet as a .json file, or an example's name.")
@click.option("--owner", help="The participant who plays it.")
@click.option("--id", "cid", help="Its id (default: from its name).")
@click.option("--force", is_flag=True, help="Seat it even if it breaks rules (marked).")
@click.option("--as", "who", help="Who seats it (default: the operator).")
@DB_OPTION
@JSON_OPTION
@handle_errors
def char_add(
    table: str,
    sheet: str,
    owner: str | None,
    cid: str | None,
    force: bool,
    who: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Seat a character (its validator findings travel with it)."""
    done = _service(db).add_character(
        table, _sheet_arg(sheet), owner=owner, cid=cid, by=who, force=force
    )
    _done(done, as_json)


@char_app.command("update")
@TABLE_ARG
@click.argument("cid", help="The character's id.")
@click.argument("sheet", help="The new sheet (.json) or an example's name.")
@click.option("--force", is_flag=True, help="Accept a sheet that breaks rules.")
@click.option("--as", "who", help="Who updates it.")
@DB_OPTION
@JSON_OPTION
@handle_errors
def char_update(
    table: str,
    cid: str,
    sheet: str,
    force: bool,
    who: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Replace a character's sheet (what the table tracks about it stays)."""
    _done(
        _service(db).update_character(table, cid, _sheet_arg(sheet), by=who, force=force), as_json
    )


@char_app.command("remove")
@TABLE_ARG
@click.argument("cid", help="The character's id.")
@click.option("--as", "who", help="The referee.")
@DB_OPTION
@JSON_OPTION
@handle_errors
def char_remove(
    table: str,
    cid: str,
    who: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Take a character off the table."""
    _done(_service(db).remove_character(table, cid, by=who), as_json)


def _fields(service: Any, table: str, action: str, pairs: list[str] | None) -> Any:
    from referee.systems.base import data_from_pairs

    rules = service.load(table).ruleset
    return data_from_pairs(rules.action_type(action), pairs or [])


@app.command("act")
@TABLE_ARG
@click.argument("action", help="The action (see `referee GAME actions`).")
@FIELDS_ARG
@AS_OPTION
@VIS_OPTION
@FACES_OPTION
@click.option("--expect", type=int, help="Refuse unless the table is still at this event.")
@DB_OPTION
@JSON_OPTION
@handle_errors
def act(
    table: str,
    action: str,
    pairs: list[str] | None,
    who: str,
    visibility: str,
    faces: str | None,
    expect: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Take an action of the game: resolve it, record it, show its outcome."""
    service = _service(db)
    fields = _fields(service, table, action, pairs)
    done = service.act(
        table, who, action, fields, visibility=visibility, faces=faces_option(faces), expect=expect
    )
    _done(done, as_json)


@app.command("decide")
@TABLE_ARG
@click.argument("seq", type=int, help="The proposed action's event (see `table show`).")
@FIELDS_ARG
@AS_OPTION
@DB_OPTION
@JSON_OPTION
@handle_errors
def decide(
    table: str, seq: int, pairs: list[str] | None, who: str, db: str | None, as_json: bool
) -> None:
    """Answer an action that waits for your choice (field=value for the fields it asks;
    others keep their defaults): it is then rolled, as its proposer's."""
    service = _service(db)
    found = service.load(table).proposals.get(seq)
    action = str(found.get("action")) if found is not None else ""
    fields = _fields(service, table, action, pairs) if found is not None else {}
    _done(service.decide(table, seq, fields, by=who), as_json)


@app.command("withdraw")
@TABLE_ARG
@click.argument("seq", type=int, help="The proposed action's event.")
@AS_OPTION
@DB_OPTION
@JSON_OPTION
@handle_errors
def withdraw(table: str, seq: int, who: str, db: str | None, as_json: bool) -> None:
    """Withdraw an action that waits for a decision (its proposer or the referee)."""
    _done(_service(db).withdraw(table, seq, by=who), as_json)


@app.command("odds")
@TABLE_ARG
@click.argument("action", help="The action (see `referee GAME actions`).")
@FIELDS_ARG
@AS_OPTION
@DB_OPTION
@JSON_OPTION
@handle_errors
def odds(
    table: str,
    action: str,
    pairs: list[str] | None,
    who: str,
    db: str | None,
    as_json: bool,
) -> None:
    """The exact odds of an action before it is taken, on what you may know."""
    service = _service(db)
    fields = _fields(service, table, action, pairs)
    _chosen, dist, _chance = service.odds(table, who, action, fields)
    print_odds(dist, as_json=as_json)


@app.command("note")
@TABLE_ARG
@click.argument("text", help="The note or chat line.")
@AS_OPTION
@VIS_OPTION
@click.option("--to", help="For a private note: who it is for.")
@DB_OPTION
@JSON_OPTION
@handle_errors
def note(
    table: str,
    text: str,
    who: str,
    visibility: str,
    to: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Write a note or chat line to the log."""
    _done(_service(db).note(table, who, text, visibility=visibility, audience=to), as_json)


@app.command("log")
@TABLE_ARG
@AS_VIEW
@click.option("--after", default=0, help="Only events after this seq.")
@DB_OPTION
@JSON_OPTION
@handle_errors
def log(
    table: str,
    who: str | None,
    after: int,
    db: str | None,
    as_json: bool,
) -> None:
    """The log, as a participant may see it."""
    events = _service(db).log(table, who, after=after)
    if as_json:
        emit_json(events)
        return
    for e in events:
        console.print(event_line(e), markup=False)


@app.command("undo")
@TABLE_ARG
@click.argument("seq", type=int, required=False, help="The event to undo (default: the newest).")
@AS_OPTION
@DB_OPTION
@JSON_OPTION
@handle_errors
def undo(
    table: str,
    seq: int | None,
    who: str,
    db: str | None,
    as_json: bool,
) -> None:
    """Take back an action or edit (the log keeps it)."""
    _done(_service(db).undo(table, seq, by=who), as_json)


@app.command("redo")
@TABLE_ARG
@click.argument("seq", type=int, required=False, help="The undone event (default: the newest).")
@AS_OPTION
@DB_OPTION
@JSON_OPTION
@handle_errors
def redo(
    table: str,
    seq: int | None,
    who: str,
    db: str | None,
    as_json: bool,
) -> None:
    """Put back an undone action or edit."""
    _done(_service(db).redo(table, seq, by=who), as_json)


@app.command("reveal")
@TABLE_ARG
@click.argument("seq", type=int, help="The hidden event to show everyone.")
@AS_OPTION
@DB_OPTION
@JSON_OPTION
@handle_errors
def reveal(
    table: str,
    seq: int,
    who: str,
    db: str | None,
    as_json: bool,
) -> None:
    """Show a hidden roll or note to everyone."""
    _done(_service(db).reveal(table, seq, by=who), as_json)


@app.command("edit")
@TABLE_ARG
@AS_OPTION
@ADD_OPTION
@SET_OPTION
@click.option("--reason", required=True, help="Why (kept in the log).")
@DB_OPTION
@JSON_OPTION
@handle_errors
def edit(
    table: str,
    who: str,
    add: list[str] | None,
    set_: list[str] | None,
    reason: str,
    db: str | None,
    as_json: bool,
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


KEY_OPTION = click.option(
    "--key",
    "key_file",
    envvar="REFEREE_SIGNING_KEY",
    show_envvar=True,
    help="The server's signing key file (default: beside the SQLite database, else in "
    "your data directory; made on first use).",
)
TRUST_OPTION = click.option(
    "--trust",
    multiple=True,
    callback=listed,
    help="A public key whose signature is trusted (base64 or hex, or a file); repeatable. "
    "The server's own key is always trusted.",
)
REQUIRE_OPTION = click.option(
    "--require-trusted", is_flag=True, help="Refuse a file not signed by a trusted key."
)


def _signer(db: str | None, key_file: str | None) -> Any:
    """The server's key: ``--key``, else the one kept for the database ``--db``."""
    from pathlib import Path

    from referee.table.signing import load_signer, server_signer
    from referee.table.store import default_url

    if key_file:
        return load_signer(Path(key_file).expanduser())
    return server_signer(db or default_url())


def _trusted(db: str | None, key_file: str | None, trust: list[str] | None) -> dict[str, bytes]:
    from referee.table.signing import trusted_keys

    return trusted_keys(trust or [], own=_signer(db, key_file))


@app.command("key")
@KEY_OPTION
@DB_OPTION
@JSON_OPTION
@handle_errors
def key(
    key_file: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """The server's public key (give it to another server's --trust) and its id."""
    from referee.table.signing import public_text

    signer = _signer(db, key_file)
    data = {"key": signer.id, "public_key": public_text(signer.public), "file": str(signer.path)}
    if as_json:
        emit_json(data)
        return
    console.print(
        f"{data['public_key']}  (key {data['key']}, kept in {data['file']})", markup=False
    )


@app.command("export")
@TABLE_ARG
@click.option("--as", "who", help="Export this participant's view.")
@click.option("--out", help="Write here (default: standard output).")
@KEY_OPTION
@DB_OPTION
@handle_errors
def export(
    table: str,
    who: str | None,
    out: str | None,
    key_file: str | None,
    db: str | None,
) -> None:
    """The table as JSON, its head signed with the server's key: whole for the referee,
    a player's redacted view with --as."""
    from referee.table.audit import export as export_table

    service = _service(db)
    data = export_table(service, table, who, signer=_signer(db, key_file))
    if out is None:
        emit_json(data)
    else:
        write_json_file(out, data)


@app.command("import")
@click.argument("path", help="An export (JSON).")
@TRUST_OPTION
@REQUIRE_OPTION
@KEY_OPTION
@DB_OPTION
@JSON_OPTION
@handle_errors
def import_(
    path: str,
    trust: list[str] | None,
    require_trusted: bool,
    key_file: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Import an exported table after verifying all of it (nothing is written otherwise);
    says whether it is signed by a trusted key."""
    from referee.table.audit import import_table

    service = _service(db)
    trusted = _trusted(db, key_file, trust)
    report = import_table(service, load_json_file(path), trusted, require_trusted=require_trusted)
    if as_json:
        emit_json(report.data())
        return
    console.print(
        f"imported {report.events} events; chain and replays verified; {report.signed}",
        markup=False,
    )


@app.command("verify")
@click.argument("table", help="The table's id or name, or an export file.")
@TRUST_OPTION
@REQUIRE_OPTION
@KEY_OPTION
@DB_OPTION
@JSON_OPTION
@handle_errors
def verify(
    table: str,
    trust: list[str] | None,
    require_trusted: bool,
    key_file: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Re-check the hash chain and replay every action from its recorded faces: of a
    stored table, or of an export file (which is not imported; its signature is
    reported as an import would)."""
    from pathlib import Path

    from referee.table.audit import Report, verify_file
    from referee.table.audit import verify as verify_table
    from referee.table.events import LogError

    service = _service(db)
    if Path(table).is_file():
        trusted = _trusted(db, key_file, trust)
        try:
            report = verify_file(load_json_file(table), trusted, require_trusted=require_trusted)
        except LogError as e:
            report = Report(False, 0, e.seq, str(e).split(": ", 1)[-1] if e.seq else str(e))
    else:
        report = verify_table(service, table)
    if as_json:
        emit_json(report.data())
    elif report.ok:
        signed = f"; {report.signed}" if report.signature is not None else ""
        console.print(
            f"ok: {report.events} events, chain and replays verified{signed}", markup=False
        )
    elif report.seq:
        console.print(f"BROKEN at event {report.seq}: {report.problem}", markup=False)
    else:
        console.print(f"BROKEN: {report.problem}", markup=False)
    if not report.ok:
        raise click.exceptions.Exit(1)


@app.command("recap")
@TABLE_ARG
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "html"]),
    default="md",
    show_default=True,
    help="Markdown, or an HTML page standing alone.",
)
@click.option("--as", "who", help="The recap as this participant may see it (default: all).")
@click.option("--out", help="Write here (default: standard output).")
@DB_OPTION
@handle_errors
def recap(table: str, fmt: str, who: str | None, out: str | None, db: str | None) -> None:
    """A readable recap of the table's log: who did what, each roll with its dice and its
    chance of success, grouped by session date; as a participant sees it with --as."""
    from pathlib import Path

    from referee.table.recap import html_document, recap_of, to_markdown

    made = recap_of(_service(db), table, who)
    text = to_markdown(made) if fmt == "md" else html_document(made)
    if out is None:
        click.echo(text, nl=False)
    else:
        Path(out).write_text(text, encoding="utf-8")
