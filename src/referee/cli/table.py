"""``referee table ...``: live tables on a database, from the command line.

Every command takes ``--db URL`` (default: ``REFEREE_DATABASE_URL``, else a
SQLite file in the user's data directory) and ``--json``; errors are one line.
``T`` is a table's id or its unique name. Commands that act for someone take
``--as NAME``; the others run as the local operator, who may do what a
referee may. Most commands are one call of the table service, declared in a
row by :func:`calls`; each lists its parameters by their names in :data:`PARAMS`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import click

from referee.cli import common as c
from referee.cli.main import GROUPS
from referee.errors import RulesError

if TYPE_CHECKING:
    from referee.systems.base import JSONValue
    from referee.table.service import Done, TableService
    from referee.table.signing import Signer

Values = Mapping[str, Any]
"""A command's values by name."""
Call = Callable[["TableService", Values], "Done | tuple[Any, str] | None"]
"""A command's work: an appended event, JSON and its text, or None (it printed its own)."""

app = click.Group(name="table", help=GROUPS["table"], no_args_is_help=True)
char_app = click.Group("char", help="Seat, update and remove characters.", no_args_is_help=True)
app.add_command(char_app)


def arg(name: str, help: str, **how: Any) -> click.Argument:
    return click.Argument([name], help=help, **how)


def opt(*decls: str, **how: Any) -> click.Option:
    return click.Option(list(decls), **how)


PAIRS = "The action's fields as key=value words."
ROLES = "referee, player or observer."
AS = "As this participant (default: the operator, who sees and may do what a referee may)."
VISIBILITY = "public, referee (secret), blind, private, or self (a free roll only its roller sees)."
SEED = "A playtest table: every roll comes from this seed (replayable)."
FMT = "Markdown, or an HTML page standing alone."
TRUSTED = "Refuse a file not signed by a trusted key."
DB = "Database URL (sqlite:///FILE or postgresql://...)."
JSON_HELP = "Print machine-readable JSON instead of text."
ADD = "ID.FIELD=N adds N (a character id, or 'table'); repeatable."
KEY = (
    "The server's signing key file (default: beside the SQLite database, else in your data "
    "directory; made on first use)."
)
TRUST = (
    "A public key whose signature is trusted (base64 or hex, or a file); repeatable. The "
    "server's own key is always trusted."
)
PARAMS: dict[str, click.Parameter] = {
    "TABLE": arg("ref", "The table's id or name.", metavar="TABLE"),
    "GAME": arg("game", "The game (see `referee games`)."),
    "--name": opt("--name", required=True, help="The table's unique name."),
    "--referee": opt("--referee", default="Referee", help="The referee's name."),
    "--options": opt("--options", help="House rules as JSON."),
    "--seed": opt("--seed", type=int, help=SEED),
    "NAME": arg("name", "The participant's name."),
    "ROLE": arg("role", ROLES),
    "--role": opt("--role", default="player", help=ROLES),
    "PATH": arg("options", "The house rules as JSON.", metavar="PATH"),
    "SHOWN": arg("sheets", "owner (each player sees only their own) or everyone.", metavar="SHOWN"),
    "SHEET": arg("sheet", "A sheet as a .json file, or an example's name."),
    "CID": arg("cid", "The character's id."),
    "--owner": opt("--owner", help="The participant who plays it."),
    "--id": opt("--id", "cid", help="Its id (default: from its name)."),
    "--force": opt("--force", is_flag=True, help="Accept a sheet that breaks rules (marked)."),
    "ACTION": arg("action", "The action (see `referee GAME actions`)."),
    "PAIRS": arg("fields", PAIRS, nargs=-1, metavar="[PAIRS]..."),
    "VALUES": arg("values", PAIRS, nargs=-1, metavar="[PAIRS]..."),
    "--visibility": opt("--visibility", default="public", help=VISIBILITY),
    "--faces": opt("--faces", help=c.FACES_HELP),
    "--expect": opt("--expect", type=int, help="Refuse unless the table is still at this event."),
    "SEQ": arg("seq", "The event's number (as `table log` or `table show` gives it).", type=int),
    "SEQ?": arg("seq", "The event's number (default: the newest).", type=int, required=False),
    "TEXT": arg("text", "The note or chat line."),
    "--to": opt("--to", "audience", help="For a private note: who it is for."),
    "--as": opt("--as", "by", required=True, help="The participant acting."),
    "--as?": opt("--as", "by", help=AS),
    "--after": opt("--after", default=0, help="Only events after this seq."),
    "--add": opt("--add", multiple=True, help=ADD),
    "--set": opt("--set", "set_", multiple=True, help="ID.FIELD=JSON sets a value; repeatable."),
    "--reason": opt("--reason", required=True, help="Why (kept in the log)."),
    "--format": opt("--format", "fmt", type=click.Choice(["md", "html"]), default="md", help=FMT),
    "--out": opt("--out", help="Write here (default: standard output)."),
    "--key": opt("--key", "key_file", envvar="REFEREE_SIGNING_KEY", show_envvar=True, help=KEY),
    "EXPORT": arg("path", "An export (JSON)."),
    "TABLE|FILE": arg("table", "The table's id or name, or an export file.", metavar="TABLE"),
    "--trust": opt("--trust", multiple=True, help=TRUST),
    "--require-trusted": opt("--require-trusted", is_flag=True, help=TRUSTED),
    "--db": opt("--db", envvar="REFEREE_DATABASE_URL", show_envvar=True, help=DB),
    "--json": opt("--json", "as_json", is_flag=True, help=JSON_HELP),
}
"""Every parameter of the group's commands, by the name a command lists it under (an
argument's metavar, an option's flag; ``?``: optional)."""


def command(
    name: str, keys: str = "", group: click.Group = app, table: bool = True, as_json: bool = True
) -> Callable[[Call], Call]:
    """Declare the command the decorated ``call(service, values)`` answers: ``TABLE``
    first (unless ``table=False``), the parameters ``keys`` names, then ``--db`` and
    ``--json`` (unless ``as_json=False``). What the call returns is printed: an appended
    event as its line of the log, or JSON and its text; its docstring is the help."""
    named = (["TABLE"] if table else []) + keys.split() + ["--db"] + (["--json"] if as_json else [])

    def declare(call: Call) -> Call:
        def callback(db: str | None, **values: Any) -> None:
            from referee.table.recap import log_text
            from referee.table.service import TableService
            from referee.table.store import Store

            done = call(TableService(Store(db)), values)
            if done is not None and not isinstance(done, tuple):
                done = done.event.data(), log_text([done.event.data()])
            if done is not None:
                answer(values, *done)

        run = c.handle_errors(callback)
        params = [PARAMS[key] for key in named]
        group.add_command(click.Command(name, params=params, callback=run, help=call.__doc__))
        return call

    return declare


def answer(v: Values, data: Any, text: str) -> None:
    """``data`` as JSON with ``--json``, else ``text`` (if there is any)."""
    if v.get("as_json"):
        c.emit_json(data)
    elif text:
        c.console.print(text, markup=False)


def calls(name: str, keys: str, help: str, method: str = "", group: click.Group = app) -> None:
    """Declare a command that is one call of ``TableService.<method>`` (default: ``name``):
    each of the method's parameters is the command line's value of that name, read first
    by :data:`READ` where it names one; the command answers the event appended."""

    def call(s: TableService, v: Values) -> Done:
        from inspect import signature

        run = getattr(s, method or name)
        takes = [k for k in signature(run).parameters if k in READ or k in v]
        done: Done = run(**{k: READ[k](s, v) if k in READ else v[k] for k in takes})
        return done

    call.__doc__ = help
    command(name, keys, group)(call)


def _pairs(s: TableService, table: str, action: str, words: tuple[str, ...]) -> JSONValue:
    from referee.systems.base import data_from_pairs

    return data_from_pairs(s.load(table).ruleset.action_type(action), list(words))


def _decision(s: TableService, v: Values) -> JSONValue:
    """A decision's words, as fields of the action it answers (none: the service says so)."""
    found = s.load(v["ref"]).proposals.get(v["seq"])
    return {} if found is None else _pairs(s, v["ref"], str(found["action"]), v["values"])


def _change(word: str, key: str) -> JSONValue:
    """``ID.FIELD=VALUE`` as a change of ``key``: a "delta" (a whole number) or a "value"
    (read as JSON where it is JSON, else as text)."""
    where, sep, text = word.partition("=")
    target, dot, field = where.partition(".")
    if not (sep and dot and target and field):
        raise RulesError(f"{word!r}: write ID.FIELD=VALUE (e.g. giazza.damage=2)")
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = text
    if key == "delta" and type(value) is not int:
        raise RulesError(f"{word!r}: --add takes a whole number")
    return {"target": target, "field": field, key: value}


def _changes(s: TableService, v: Values) -> JSONValue:
    return [_change(w, "delta") for w in v["add"]] + [_change(w, "value") for w in v["set_"]]


def _sheet(s: TableService, v: Values) -> Any:
    """A sheet file's JSON, or an example character's name."""
    return c.load_json_file(v["sheet"]) if v["sheet"].lower().endswith(".json") else v["sheet"]


READ: dict[str, Callable[[TableService, Values], Any]] = {
    "options": lambda s, v: c.load_json_file(v["options"]),
    "sheet": _sheet,
    "fields": lambda s, v: _pairs(s, v["ref"], v["action"], v["fields"]),
    "values": _decision,
    "faces": lambda s, v: c.faces_option(v["faces"]),
    "changes": _changes,
}
"""How the command line's words become what the service takes, by the service's name."""

calls("join", "NAME --role", "Add a participant.")
calls("leave", "NAME", "Remove a participant (their characters stay).")
calls("role", "NAME ROLE", "Change a participant's role.", "set_role")
calls("options", "PATH --as?", "Replace the table's house rules.", "set_options")
calls(
    "sheets",
    "SHOWN --as?",
    "Choose who sees other players' character sheets: owner or everyone (the referee "
    "always sees every sheet, a player always their own).",
    "set_sheets",
)
calls(
    "add",
    "SHEET --owner --id --force --as?",
    "Seat a character (its validator findings travel with it).",
    "add_character",
    char_app,
)
calls(
    "update",
    "CID SHEET --force --as?",
    "Replace a character's sheet (what the table tracks about it stays).",
    "update_character",
    char_app,
)
calls("remove", "CID --as?", "Take a character off the table.", "remove_character", char_app)
calls(
    "act",
    "ACTION PAIRS --as --visibility --faces --expect",
    "Take an action of the game: resolve it, record it, show its outcome.",
)
calls(
    "decide",
    "SEQ VALUES --as",
    "Answer an action that waits for your choice (field=value for the fields it asks; "
    "others keep their defaults): it is then rolled, as its proposer's.",
)
calls(
    "withdraw",
    "SEQ --as",
    "Withdraw an action that waits for a decision (its proposer or the referee).",
)
calls("note", "TEXT --as --visibility --to", "Write a note or chat line to the log.")
calls("undo", "SEQ? --as", "Take back an action or edit (the log keeps it).")
calls("redo", "SEQ? --as", "Put back an undone action or edit (default: the newest undone).")
calls("reveal", "SEQ --as", "Show a hidden roll or note to everyone.")
calls(
    "edit",
    "--as --add --set --reason",
    "Correct the game state by hand (the referee), with a reason.",
)


@command("new", "GAME --name --referee --options --seed", table=False)
def _new(s: TableService, v: Values) -> tuple[Any, str]:
    """Create a table; its referee is its first participant."""
    options = None if v["options"] is None else c.load_json_file(v["options"])
    t = s.create(v["game"], v["name"], v["referee"], options=options, seed=v["seed"]).table
    return {"id": t.id, "name": t.name, "game": t.game}, f"table {t.name!r} ({t.id}), {t.game}"


@command("list", table=False)
def _list(s: TableService, v: Values) -> tuple[Any, str]:
    """Every table in the database."""
    from dataclasses import asdict

    rows = [asdict(r) | {"events": s.store.count(r.id)} for r in s.store.tables()]
    lines = [f"{r['id']}  {r['game']:9} {r['events']:6} events  {r['name']}" for r in rows]
    return rows, "\n".join(lines)


@command("show", "--as?")
def _show(s: TableService, v: Values) -> tuple[Any, str]:
    """The table's state: participants, characters, findings, and the game's tracker."""
    from referee.table.service import table_data

    seen = s.view(v["ref"], v["by"])
    d: Any = table_data(seen, seen.viewer(v["by"]))
    sheets = "everyone" if d["sheets"] == "everyone" else "their owner and the referee"
    lines = [f"{d['name']} ({d['id']}), {d['game']}, event {d['seq']}"]
    lines += [f"  {role:8} {name}" for name, role in d["participants"].items()]
    lines += [f"  character sheets are shown to {sheets}"]
    lines += [f"  {label}: {value}" for label, value in d["tracker"].get("table", [])]
    for cid, rows in d["tracker"].get("characters", {}).items():
        lines.append(cid + (f" ({d['owners'][cid]})" if d["owners"].get(cid) else ""))
        lines += [f"  {label}: {value}" for label, value in rows]
        findings = d["findings"].get(cid, [])
        lines += [f"  ! {p['field']}: {p['message']} [{p['rule']}]" for p in findings]
    lines += [f"waiting for {x['actor']}: {x['prompt']}" for x in d["pending"]]
    for p in d.get("proposals", []):
        asks = ", ".join(f"{a['field']} ({a['character']}, {a['answers']})" for a in p["ask"])
        how = f"referee table decide TABLE {p['seq']} field=value --as NAME"
        lines.append(f"#{p['seq']} {p['by']}'s {p['action']} waits for: {asks} ({how})")
    return d, "\n".join(lines)


@command("odds", "ACTION PAIRS --as")
def _odds(s: TableService, v: Values) -> None:
    """The exact odds of an action before it is taken, on what you may know."""
    dist = s.odds(v["ref"], v["by"], v["action"], READ["fields"](s, v))[1]
    c.print_odds(dist, as_json=v["as_json"])


@command("log", "--as? --after")
def _log(s: TableService, v: Values) -> tuple[Any, str]:
    """The log, as a participant may see it."""
    from referee.table.recap import log_text

    events = s.log(v["ref"], v["by"], after=v["after"])
    return events, log_text(events)


def _signer(s: TableService, v: Values) -> Signer:
    """The server's key: ``--key``, else the one kept for the database."""
    from referee.table.signing import server_signer

    return server_signer(s.store.url, v["key_file"])


def _trusted(s: TableService, v: Values) -> dict[str, bytes]:
    from referee.table.signing import trusted_keys

    return trusted_keys(v["trust"], own=_signer(s, v))


@command("key", "--key", table=False)
def _key(s: TableService, v: Values) -> tuple[Any, str]:
    """The server's public key (give it to another server's --trust) and its id."""
    from referee.table.signing import public_text

    signer = _signer(s, v)
    data = {"key": signer.id, "public_key": public_text(signer.public), "file": str(signer.path)}
    return data, f"{data['public_key']}  (key {data['key']}, kept in {data['file']})"


def _write(out: str | None, text: str) -> None:
    """``text`` to the file ``out``, else to standard output."""
    if out is None:
        click.echo(text, nl=False)
    else:
        from pathlib import Path

        Path(out).write_text(text, encoding="utf-8")


@command("export", "--as? --out --key", as_json=False)
def _export(s: TableService, v: Values) -> None:
    """The table as JSON, its head signed with the server's key: whole for the referee,
    a player's redacted view with --as."""
    from referee.table.audit import export

    data = export(s, v["ref"], v["by"], signer=_signer(s, v))
    _write(v["out"], json.dumps(data, indent=2, ensure_ascii=False) + "\n")


@command("import", "EXPORT --trust --require-trusted --key", table=False)
def _import(s: TableService, v: Values) -> tuple[Any, str]:
    """Import an exported table after verifying all of it (nothing is written otherwise);
    says whether it is signed by a trusted key."""
    from referee.table.audit import import_table

    trusted = _trusted(s, v)
    r = import_table(s, c.load_json_file(v["path"]), trusted, require_trusted=v["require_trusted"])
    return r.data(), f"imported {r.events} events; chain and replays verified; {r.signed}"


@command("verify", "TABLE|FILE --trust --require-trusted --key", table=False)
def _verify(s: TableService, v: Values) -> None:
    """Re-check the hash chain and replay every action from its recorded faces: of a
    stored table, or of an export file (which is not imported; its signature is
    reported as an import would)."""
    from pathlib import Path

    from referee.table.audit import Report, verify, verify_file
    from referee.table.events import LogError

    try:
        if not Path(v["table"]).is_file():
            r = verify(s, v["table"])
        else:
            trusted = _trusted(s, v)
            r = verify_file(
                c.load_json_file(v["table"]), trusted, require_trusted=v["require_trusted"]
            )
    except LogError as e:
        r = Report(False, 0, e.seq, e.problem)
    signed = f"; {r.signed}" if r.signature is not None else ""
    at = f" at event {r.seq}" if r.seq else ""
    ok = f"ok: {r.events} events, chain and replays verified{signed}"
    answer(v, r.data(), ok if r.ok else f"BROKEN{at}: {r.problem}")
    if not r.ok:
        raise click.exceptions.Exit(1)


@command("recap", "--format --as? --out", as_json=False)
def _recap(s: TableService, v: Values) -> None:
    """A readable recap of the table's log: who did what, each roll with its dice and its
    chance of success, grouped by session date; as a participant sees it with --as."""
    from referee.table.recap import html_document, recap_of, to_markdown

    made = recap_of(s, v["ref"], v["by"])
    _write(v["out"], to_markdown(made) if v["fmt"] == "md" else html_document(made))
