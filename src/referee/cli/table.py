"""``referee table ...``: live tables on a database, from the command line.

Every command takes ``--db URL`` (default: ``REFEREE_DATABASE_URL``, else a
SQLite file in the user's data directory) and ``--json``; errors are one line.
``T`` is a table's id or its unique name. Commands that act for someone take
``--as NAME``; the others run as the local operator, who may do what a
referee may. Most commands are one call of the table service, declared in a
line or three by :func:`command`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import click

from referee.cli.common import (
    FACES_HELP,
    console,
    emit_json,
    faces_option,
    handle_errors,
    load_json_file,
    outcome_text,
    print_odds,
    write_json_file,
)
from referee.cli.main import GROUPS
from referee.errors import RulesError

Values = Mapping[str, Any]
"""A command's values by name."""

app = click.Group(
    name="table",
    help=GROUPS["table"],
    no_args_is_help=True,
)
char_app = click.Group("char", help="Seat, update and remove characters.", no_args_is_help=True)
app.add_command(char_app)


def arg(name: str, help: str, **how: Any) -> click.Argument:
    return click.Argument([name], help=help, **how)


def opt(*decls: str, **how: Any) -> click.Option:
    return click.Option(list(decls), **how)


def who(help: str = "The participant acting.", required: bool = True) -> click.Option:
    return opt("--as", "who", required=required, help=help)


SEQ = "seq"
ACTION = "The action (see `referee GAME actions`)."
OUT = "Write here (default: standard output)."
JSON_HELP = "Print machine-readable JSON instead of text."
VIEW = "See it as this participant (default: everything)."
VISIBILITY = "public, referee (secret), blind, private, or self (a free roll only its roller sees)."
PAIRS = "The action's fields as key=value words."
DB = "Database URL (sqlite:///FILE or postgresql://...)."
KEY = (
    "The server's signing key file (default: beside the SQLite database, else in your data "
    "directory; made on first use)."
)
TRUST = (
    "A public key whose signature is trusted (base64 or hex, or a file); repeatable. The "
    "server's own key is always trusted."
)


def command(
    name: str,
    *params: click.Parameter,
    group: click.Group = app,
    table: bool = True,
    as_json: bool = True,
) -> Callable[[Callable[[Any, Values], Any]], Callable[[Any, Values], Any]]:
    """Declare the command the decorated ``call(service, values)`` answers: ``table``
    first (unless ``table=False``), ``params``, then ``--db`` and ``--json``. The call
    either returns an appended event (printed as JSON or one line) or prints its own
    answer and returns None; its docstring is the command's help."""
    head = [arg("table", "The table's id or name.")] if table else []
    tail = [opt("--db", envvar="REFEREE_DATABASE_URL", show_envvar=True, help=DB)]
    if as_json:
        tail.append(opt("--json", "as_json", is_flag=True, help=JSON_HELP))

    def declare(call: Callable[[Any, Values], Any]) -> Callable[[Any, Values], Any]:
        def callback(db: str | None, **values: Any) -> None:
            from referee.table.service import TableService
            from referee.table.store import Store

            done = call(TableService(Store(db)), {"db": db, **values})
            if done is None:
                return
            data = done.event.data()
            emit_json(data) if values.get("as_json") else console.print(
                event_line(data), markup=False
            )

        params_all = [*head, *params, *tail]
        group.add_command(
            click.Command(
                name, params=params_all, callback=handle_errors(callback), help=call.__doc__
            )
        )
        return call

    return declare


def event_line(e: dict[str, Any]) -> str:
    """One event as readable text (a redacted one says only what may be shown)."""
    head = f"#{e['seq']} {str(e.get('time', ''))[11:19]} {e.get('actor', '?')}"
    if e.get("redacted"):
        attempted = e.get("payload", {}).get("action")
        extra = f" {attempted}" if attempted else ""
        return f"{head}: [{e['visibility']}] {e.get('kind', 'something')}{extra} (hidden from you)"
    p, kind = e["payload"], e["kind"]
    shown = "" if e["visibility"] == "public" else f" [{e['visibility']}]"
    if kind == "action-resolved":
        from referee.systems.base import outcome_from_data

        return f"{head}{shown}: {outcome_text(outcome_from_data(p['outcome'], trusted=True))}"
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


@command(
    "new",
    arg("game", "The game (see `referee games`)."),
    opt("--name", required=True, help="The table's unique name."),
    opt("--referee", default="Referee", help="The referee's name."),
    opt("--options", "options_file", help="House rules as JSON."),
    opt("--seed", type=int, help="A playtest table: every roll comes from this seed (replayable)."),
    table=False,
)
def _new(s: Any, v: Values) -> None:
    """Create a table; its referee is its first participant."""
    options = None if v["options_file"] is None else load_json_file(v["options_file"])
    t = s.create(v["game"], v["name"], v["referee"], options=options, seed=v["seed"]).table
    if v["as_json"]:
        emit_json({"id": t.id, "name": t.name, "game": t.game})
    else:
        console.print(f"table {t.name!r} ({t.id}), {t.game}", markup=False)


@command("list", table=False)
def _list(s: Any, v: Values) -> None:
    """Every table in the database."""
    as_json = v["as_json"]
    rows = [
        {
            "id": r.id,
            "name": r.name,
            "game": r.game,
            "created": r.created,
            "events": s.store.count(r.id),
        }
        for r in s.store.tables()
    ]
    if as_json:
        emit_json(rows)
    for r in [] if as_json else rows:
        console.print(f"{r['id']}  {r['game']:9} {r['events']:6} events  {r['name']}", markup=False)


@command("show", who(VIEW, required=False))
def _show(s: Any, v: Values) -> None:
    """The table's state: participants, characters, findings, and the game's tracker."""
    table, who, as_json = v["table"], v["who"], v["as_json"]
    from referee.table.service import table_data

    seen = s.view(table, who)
    data: Any = table_data(seen, seen.viewer(who))
    if as_json:
        emit_json(data)
        return
    lines = [f"{data['name']} ({data['id']}), {data['game']}, event {data['seq']}"]
    lines += [f"  {role:8} {name}" for name, role in data["participants"].items()]
    sheets = "everyone" if data["sheets"] == "everyone" else "their owner and the referee"
    lines.append(f"  character sheets are shown to {sheets}")
    tracker = data["tracker"]
    lines += [f"  {label}: {value}" for label, value in tracker.get("table", [])]
    for cid, rows in tracker.get("characters", {}).items():
        owner = data["owners"].get(cid)
        lines.append(f"{cid}" + (f" ({owner})" if owner else ""))
        lines += [f"  {label}: {value}" for label, value in rows]
        lines += [
            f"  ! {p['field']}: {p['message']} [{p['rule']}]" for p in data["findings"].get(cid, [])
        ]
    lines += [f"waiting for {d['actor']}: {d['prompt']}" for d in data["pending"]]
    for p in data.get("proposals", []):
        asks = ", ".join(f"{a['field']} ({a['character']}, {a['answers']})" for a in p["ask"])
        lines.append(
            f"#{p['seq']} {p['by']}'s {p['action']} waits for: {asks} "
            f"(referee table decide TABLE {p['seq']} field=value --as NAME)"
        )
    console.print("\n".join(lines), markup=False)


@command(
    "join",
    arg("name", "The participant's name."),
    opt("--role", default="player", help="referee, player or observer."),
)
def _join(s: Any, v: Values) -> Any:
    """Add a participant."""
    table, name, role = v["table"], v["name"], v["role"]
    return s.join(table, name, role)


@command("leave", arg("name", "The participant's name."))
def _leave(s: Any, v: Values) -> Any:
    """Remove a participant (their characters stay)."""
    table, name = v["table"], v["name"]
    return s.leave(table, name)


@command(
    "role", arg("name", "The participant's name."), arg("new_role", "referee, player or observer.")
)
def _role(s: Any, v: Values) -> Any:
    """Change a participant's role."""
    table, name, new_role = v["table"], v["name"], v["new_role"]
    return s.set_role(table, name, new_role)


@command(
    "options", arg("path", "The house rules as JSON."), who("The referee changing them.", False)
)
def _options(s: Any, v: Values) -> Any:
    """Replace the table's house rules."""
    table, path, who = v["table"], v["path"], v["who"]
    return s.set_options(table, load_json_file(path), by=who)


@command(
    "sheets",
    arg("shown", "owner (each player sees only their own) or everyone."),
    who("The referee choosing.", False),
)
def _sheets(s: Any, v: Values) -> Any:
    """Choose who sees other players' character sheets: owner or everyone (the referee
    always sees every sheet, a player always their own)."""
    table, shown, who = v["table"], v["shown"], v["who"]
    return s.set_sheets(table, shown, by=who)


def _sheet_arg(value: str) -> Any:
    """A sheet file's JSON, or an example character's name."""
    return load_json_file(value) if value.lower().endswith(".json") else value


@command(
    "add",
    arg("sheet", "A sheet as a .json file, or an example's name."),
    opt("--owner", help="The participant who plays it."),
    opt("--id", "cid", help="Its id (default: from its name)."),
    opt("--force", is_flag=True, help="Seat it even if it breaks rules (marked)."),
    who("Who seats it (default: the operator).", False),
    group=char_app,
)
def _char_add(s: Any, v: Values) -> Any:
    """Seat a character (its validator findings travel with it)."""
    table, sheet, owner, cid, force, who = (
        v["table"],
        v["sheet"],
        v["owner"],
        v["cid"],
        v["force"],
        v["who"],
    )
    return s.add_character(table, _sheet_arg(sheet), owner=owner, cid=cid, by=who, force=force)


@command(
    "update",
    arg("cid", "The character's id."),
    arg("sheet", "The new sheet (.json) or an example's name."),
    opt("--force", is_flag=True, help="Accept a sheet that breaks rules."),
    who("Who updates it.", False),
    group=char_app,
)
def _char_update(s: Any, v: Values) -> Any:
    """Replace a character's sheet (what the table tracks about it stays)."""
    table, cid, sheet, force, who = v["table"], v["cid"], v["sheet"], v["force"], v["who"]
    return s.update_character(table, cid, _sheet_arg(sheet), by=who, force=force)


@command("remove", arg("cid", "The character's id."), who("The referee.", False), group=char_app)
def _char_remove(s: Any, v: Values) -> Any:
    """Take a character off the table."""
    table, cid, who = v["table"], v["cid"], v["who"]
    return s.remove_character(table, cid, by=who)


def _fields(s: Any, table: str, action: str, pairs: tuple[str, ...]) -> Any:
    from referee.systems.base import data_from_pairs

    return data_from_pairs(s.load(table).ruleset.action_type(action), list(pairs))


@command(
    "act",
    arg("action", ACTION),
    arg("pairs", PAIRS, nargs=-1),
    who(),
    opt("--visibility", default="public", help=VISIBILITY),
    opt(
        "--faces",
        help=FACES_HELP,
    ),
    opt("--expect", type=int, help="Refuse unless the table is still at this event."),
)
def _act(s: Any, v: Values) -> Any:
    """Take an action of the game: resolve it, record it, show its outcome."""
    fields = _fields(s, v["table"], v["action"], v["pairs"])
    hand = faces_option(v["faces"])
    return s.act(
        v["table"],
        v["who"],
        v["action"],
        fields,
        visibility=v["visibility"],
        faces=hand,
        expect=v["expect"],
    )


@command(
    "decide",
    arg("seq", "The proposed action's event (see `table show`).", type=int),
    arg("pairs", PAIRS, nargs=-1),
    who(),
)
def _decide(s: Any, v: Values) -> Any:
    """Answer an action that waits for your choice (field=value for the fields it asks;
    others keep their defaults): it is then rolled, as its proposer's."""
    found = s.load(v["table"]).proposals.get(v["seq"])
    action = str(found.get("action")) if found is not None else ""
    fields = _fields(s, v["table"], action, v["pairs"]) if found is not None else {}
    return s.decide(v["table"], v["seq"], fields, by=v["who"])


@command("withdraw", arg("seq", "The proposed action's event.", type=int), who())
def _withdraw(s: Any, v: Values) -> Any:
    """Withdraw an action that waits for a decision (its proposer or the referee)."""
    table, seq, who = v["table"], v["seq"], v["who"]
    return s.withdraw(table, seq, by=who)


@command("odds", arg("action", ACTION), arg("pairs", PAIRS, nargs=-1), who())
def _odds(s: Any, v: Values) -> None:
    """The exact odds of an action before it is taken, on what you may know."""
    fields = _fields(s, v["table"], v["action"], v["pairs"])
    print_odds(s.odds(v["table"], v["who"], v["action"], fields)[1], as_json=v["as_json"])


@command(
    "note",
    arg("text", "The note or chat line."),
    who(),
    opt("--visibility", default="public", help=VISIBILITY),
    opt("--to", help="For a private note: who it is for."),
)
def _note(s: Any, v: Values) -> Any:
    """Write a note or chat line to the log."""
    table, text, who, visibility, to = v["table"], v["text"], v["who"], v["visibility"], v["to"]
    return s.note(table, who, text, visibility=visibility, audience=to)


@command(
    "log", who(VIEW, required=False), opt("--after", default=0, help="Only events after this seq.")
)
def _log(s: Any, v: Values) -> None:
    """The log, as a participant may see it."""
    table, who, after, as_json = v["table"], v["who"], v["after"], v["as_json"]
    events = s.log(table, who, after=after)
    if as_json:
        emit_json(events)
    elif events:
        console.print("\n".join(event_line(e) for e in events), markup=False)


@command(
    "undo", arg("seq", "The event to undo (default: the newest).", type=int, required=False), who()
)
def _undo(s: Any, v: Values) -> Any:
    """Take back an action or edit (the log keeps it)."""
    table, seq, who = v["table"], v["seq"], v["who"]
    return s.undo(table, seq, by=who)


@command(
    "redo", arg("seq", "The undone event (default: the newest).", type=int, required=False), who()
)
def _redo(s: Any, v: Values) -> Any:
    """Put back an undone action or edit."""
    table, seq, who = v["table"], v["seq"], v["who"]
    return s.redo(table, seq, by=who)


@command("reveal", arg("seq", "The hidden event to show everyone.", type=int), who())
def _reveal(s: Any, v: Values) -> Any:
    """Show a hidden roll or note to everyone."""
    table, seq, who = v["table"], v["seq"], v["who"]
    return s.reveal(table, seq, by=who)


@command(
    "edit",
    who(),
    opt("--add", multiple=True, help="ID.FIELD=N adds N (a character id, or 'table'); repeatable."),
    opt("--set", "set_", multiple=True, help="ID.FIELD=JSON sets a value; repeatable."),
    opt("--reason", required=True, help="Why (kept in the log)."),
)
def _edit(s: Any, v: Values) -> Any:
    """Correct the game state by hand (the referee), with a reason."""
    add, set_ = v["add"], v["set_"]
    changes = [_edit_word(w, delta=True) for w in add] + [_edit_word(w, delta=False) for w in set_]
    return s.edit(v["table"], changes, v["reason"], by=v["who"])


def _edit_word(word: str, *, delta: bool) -> dict[str, Any]:
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


def key_opt() -> click.Option:
    return opt("--key", "key_file", envvar="REFEREE_SIGNING_KEY", show_envvar=True, help=KEY)


def trust_opts() -> list[click.Parameter]:
    return [
        opt("--trust", multiple=True, help=TRUST),
        opt("--require-trusted", is_flag=True, help="Refuse a file not signed by a trusted key."),
        key_opt(),
    ]


def _signer(db: str | None, key_file: str | None) -> Any:
    """The server's key: ``--key``, else the one kept for the database ``--db``."""
    from pathlib import Path

    from referee.table.signing import load_signer, server_signer
    from referee.table.store import default_url

    if key_file:
        return load_signer(Path(key_file).expanduser())
    return server_signer(db or default_url())


def _trusted(db: str | None, key_file: str | None, trust: tuple[str, ...]) -> dict[str, bytes]:
    from referee.table.signing import trusted_keys

    return trusted_keys(list(trust), own=_signer(db, key_file))


@command("key", key_opt(), table=False)
def _key(s: Any, v: Values) -> None:
    """The server's public key (give it to another server's --trust) and its id."""
    key_file, db, as_json = v["key_file"], v["db"], v["as_json"]
    from referee.table.signing import public_text

    signer = _signer(db, key_file)
    data = {"key": signer.id, "public_key": public_text(signer.public), "file": str(signer.path)}
    if as_json:
        emit_json(data)
    else:
        console.print(
            f"{data['public_key']}  (key {data['key']}, kept in {data['file']})", markup=False
        )


@command(
    "export",
    who("Export this participant's view.", False),
    opt("--out", help=OUT),
    key_opt(),
    as_json=False,
)
def _export(s: Any, v: Values) -> None:
    """The table as JSON, its head signed with the server's key: whole for the referee,
    a player's redacted view with --as."""
    table, who, out, key_file, db = v["table"], v["who"], v["out"], v["key_file"], v["db"]
    from referee.table.audit import export as export_table

    data = export_table(s, table, who, signer=_signer(db, key_file))
    emit_json(data) if out is None else write_json_file(out, data)


@command("import", arg("path", "An export (JSON)."), *trust_opts(), table=False)
def _import(s: Any, v: Values) -> None:
    """Import an exported table after verifying all of it (nothing is written otherwise);
    says whether it is signed by a trusted key."""
    from referee.table.audit import import_table

    trusted = _trusted(v["db"], v["key_file"], v["trust"])
    data = load_json_file(v["path"])
    report = import_table(s, data, trusted, require_trusted=v["require_trusted"])
    if v["as_json"]:
        emit_json(report.data())
    else:
        console.print(
            f"imported {report.events} events; chain and replays verified; {report.signed}",
            markup=False,
        )


@command(
    "verify", arg("table", "The table's id or name, or an export file."), *trust_opts(), table=False
)
def _verify(s: Any, v: Values) -> None:
    """Re-check the hash chain and replay every action from its recorded faces: of a
    stored table, or of an export file (which is not imported; its signature is
    reported as an import would)."""
    from pathlib import Path

    from referee.table.audit import Report, verify_file
    from referee.table.audit import verify as verify_table
    from referee.table.events import LogError

    table, as_json = v["table"], v["as_json"]
    if Path(table).is_file():
        trusted = _trusted(v["db"], v["key_file"], v["trust"])
        try:
            report = verify_file(
                load_json_file(table), trusted, require_trusted=v["require_trusted"]
            )
        except LogError as e:
            report = Report(False, 0, e.seq, str(e).split(": ", 1)[-1] if e.seq else str(e))
    else:
        report = verify_table(s, table)
    signed = f"; {report.signed}" if report.signature is not None else ""
    if as_json:
        emit_json(report.data())
    elif report.ok:
        console.print(
            f"ok: {report.events} events, chain and replays verified{signed}", markup=False
        )
    else:
        at = f" at event {report.seq}" if report.seq else ""
        console.print(f"BROKEN{at}: {report.problem}", markup=False)
    if not report.ok:
        raise click.exceptions.Exit(1)


@command(
    "recap",
    opt(
        "--format",
        "fmt",
        type=click.Choice(["md", "html"]),
        default="md",
        show_default=True,
        help="Markdown, or an HTML page standing alone.",
    ),
    who("The recap as this participant may see it (default: all).", False),
    opt("--out", help=OUT),
    as_json=False,
)
def _recap(s: Any, v: Values) -> None:
    """A readable recap of the table's log: who did what, each roll with its dice and its
    chance of success, grouped by session date; as a participant sees it with --as."""
    table, fmt, who, out = v["table"], v["fmt"], v["who"], v["out"]
    from pathlib import Path

    from referee.table.recap import html_document, recap_of, to_markdown

    made = recap_of(s, table, who)
    text = to_markdown(made) if fmt == "md" else html_document(made)
    click.echo(text, nl=False) if out is None else Path(out).write_text(text, encoding="utf-8")
