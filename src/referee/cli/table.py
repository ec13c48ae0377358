"""``referee table ...``: live tables on a database, from the command line.

Every command takes ``--db URL`` (default: ``REFEREE_DATABASE_URL``, else a SQLite file
in the user's data directory) and ``--json``; errors are one line. Commands that act for
someone take ``--as NAME``; the others run as the local operator, who may do what a
referee may. The table's operations (:mod:`referee.table.operations`) become commands
here with the help and parameters declared there, as the HTTP API makes them routes; the
others (new, list, key, import, recap) list their parameters by name from :data:`PARAMS`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

import click

from referee.cli import common as c
from referee.cli.main import GROUPS
from referee.errors import RulesError
from referee.table.operations import BY_NAME, OPERATIONS, Operation, Param

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


AS = "As this participant (default: the operator, who sees and may do what a referee may)."
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
    "--seed": opt(
        "--seed", type=int, help="A playtest table: every roll comes from this seed (replayable)."
    ),
    "--as": opt("--as", "by", required=True, help="The participant acting."),
    "--as?": opt("--as", "by", help=AS),
    "--add": opt(
        "--add", multiple=True, help="ID.FIELD=N adds N (a character id, or 'table'); repeatable."
    ),
    "--set": opt("--set", "set_", multiple=True, help="ID.FIELD=JSON sets a value; repeatable."),
    "--format": opt(
        "--format",
        "fmt",
        type=click.Choice(["md", "html"]),
        default="md",
        help="Markdown, or an HTML page standing alone.",
    ),
    "--out": opt("--out", help="Write here (default: standard output)."),
    "--key": opt("--key", "key_file", envvar="REFEREE_SIGNING_KEY", show_envvar=True, help=KEY),
    "EXPORT": arg("path", "An export (JSON)."),
    "TABLE|FILE": arg("table", "The table's id or name, or an export file.", metavar="TABLE"),
    "--trust": opt("--trust", multiple=True, help=TRUST),
    "--require-trusted": opt(
        "--require-trusted", is_flag=True, help="Refuse a file not signed by a trusted key."
    ),
    "--db": opt(
        "--db",
        envvar="REFEREE_DATABASE_URL",
        show_envvar=True,
        help="Database URL (sqlite:///FILE or postgresql://...).",
    ),
    "--json": opt(
        "--json", "as_json", is_flag=True, help="Print machine-readable JSON instead of text."
    ),
}
"""The command line's own parameters, by the name a command lists it under (an argument's
metavar, an option's flag; ``?``: optional)."""


def param(p: Param) -> click.Parameter:
    """An operation's parameter on the command line, in its :attr:`~Param.form`."""
    form = p.form or ""
    kind = next((t for t in (bool, int) if t in (p.type, *get_args(p.type))), str)
    if form.startswith("--"):
        decls = [form] if form[2:].replace("-", "_") == p.name else [form, p.name]
        how = {"is_flag": True} if kind is bool else {"type": kind}
        default = None if p.default is ... else p.default
        return opt(*decls, default=default, required=p.default is ..., help=p.help, **how)
    name = form.removesuffix("...").removesuffix("?")
    if form.endswith("..."):
        return arg(p.name, p.help, nargs=-1, metavar=f"[{name}]...")
    required = not form.endswith("?")
    return arg(
        p.name, p.help, required=required, metavar=name if required else f"[{name}]", type=kind
    )


def command(
    name: str, keys: str = "", table: bool = True, as_json: bool = True
) -> Callable[[Call], Call]:
    """Declare the command the decorated ``call(service, values)`` answers: ``TABLE``
    first (unless ``table=False``), the parameters of the operation ``name`` if it is one
    (``char add``: ``add`` in the ``char`` group), those ``keys`` names, ``--as`` as the
    operation says, ``--db`` and ``--json`` (unless ``as_json=False``). What the call
    returns is printed: an event as its line of the log, or JSON or its text. Its help:
    the operation's, then the call's docstring."""
    op = BY_NAME.get(name)
    params = [PARAMS["TABLE"]] if table else []
    params += [param(p) for p in op.params if p.form] if op else []
    params += [PARAMS[k] for k in keys.split()]
    if op is not None and op.who != "referee":
        params.append(PARAMS["--as" if op.who == "participant" else "--as?"])
    params += [PARAMS["--db"], PARAMS["--json"]] if as_json else [PARAMS["--db"]]

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

        helps = " ".join(filter(None, (op.help if op else "", call.__doc__)))
        group = char_app if name.startswith("char ") else app
        run = c.handle_errors(callback)
        group.add_command(click.Command(name.split()[-1], params=params, callback=run, help=helps))
        return call

    return declare


def answer(v: Values, data: Any, text: str) -> None:
    """``data`` as JSON with ``--json``, else ``text`` (if there is any); a document
    (a command with ``--out``): ``text`` as it is, to that file or standard output."""
    if v.get("out") is not None:
        Path(v["out"]).write_text(text, encoding="utf-8")
    elif "out" in v:
        click.echo(text, nl=False)
    elif v.get("as_json"):
        c.emit_json(data)
    elif text:
        c.console.print(text, markup=False)


def calls(op: Operation) -> Call:
    """``op``'s call of the table service, each of its parameters the command line's
    value of that name (read by :data:`READ` where it names one); a reading's answer is
    said by :data:`SAY`."""

    def call(s: TableService, v: Values) -> Any:
        given = [p.name for p in op.params if p.form or p.name in READ]
        values = {k: READ[k](s, v) if k in READ else v[k] for k in given}
        run = getattr(s, op.service_method)
        if op.reads:
            return SAY[op.name](s, v, run(v["ref"], v["by"], **values))
        return run(v["ref"], **values, by=v.get("by"))

    return call


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


READ: dict[str, Callable[[TableService, Values], Any]] = {
    "options": lambda s, v: c.load_json_file(v["options"]),
    "sheet": lambda s, v: (
        c.load_json_file(v["sheet"]) if v["sheet"].lower().endswith(".json") else v["sheet"]
    ),
    "fields": lambda s, v: _pairs(s, v["ref"], v["action"], v["fields"]),
    "values": _decision,
    "faces": lambda s, v: c.faces_option(v["faces"]),
    "changes": lambda s, v: (
        [_change(w, "delta") for w in v["add"]] + [_change(w, "value") for w in v["set_"]]
    ),
}
"""How the command line's words become what the service takes, by the service's name (a
sheet: a .json file, or an example's name)."""


def _show(s: TableService, v: Values, seen: Any) -> tuple[Any, str]:
    from referee.table.recap import table_text
    from referee.table.service import table_data

    data = table_data(seen, seen.viewer(v["by"]))
    return data, table_text(data)


def _log(s: TableService, v: Values, events: Any) -> tuple[Any, str]:
    from referee.table.recap import log_text

    return events, log_text(events)


SAY: dict[str, Callable[[TableService, Values, Any], tuple[Any, str] | None]] = {
    "show": _show,
    "log": _log,
    "odds": lambda s, v, found: c.print_odds(found[1], as_json=v["as_json"]),
}
"""How a reading operation's answer is said: JSON and its text (None: printed already)."""
EXTRA = {"edit": "--add --set"}
"""The command line's own words for an operation's parameters (read by :data:`READ`)."""
for _op in OPERATIONS:
    if _op.name not in ("export", "verify"):  # below
        command(_op.name, EXTRA.get(_op.name, ""))(calls(_op))


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


@command("export", "--out --key", as_json=False)
def _export(s: TableService, v: Values) -> tuple[Any, str]:
    from referee.table.audit import export

    data = export(s, v["ref"], v["by"], signer=_signer(s, v))
    return data, json.dumps(data, indent=2, ensure_ascii=False) + "\n"


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
    """The table may be a stored one or an export file (which is not imported; its
    signature is reported as an import would)."""
    from referee.table.audit import Report, verify, verify_file
    from referee.table.events import LogError

    try:
        if not Path(v["table"]).is_file():
            r = verify(s, v["table"])
        else:
            file = c.load_json_file(v["table"])
            r = verify_file(file, _trusted(s, v), require_trusted=v["require_trusted"])
    except LogError as e:
        r = Report(False, 0, e.seq, e.problem)
    answer(v, r.data(), r.text)
    if not r.ok:
        raise click.exceptions.Exit(1)


@command("recap", "--format --as? --out", as_json=False)
def _recap(s: TableService, v: Values) -> tuple[Any, str]:
    """A readable recap of the table's log: who did what, each roll with its dice and its
    chance of success, grouped by session date; as a participant sees it with --as."""
    from referee.table.recap import html_document, recap_of, to_markdown

    made = recap_of(s, v["ref"], v["by"])
    return None, to_markdown(made) if v["fmt"] == "md" else html_document(made)
