"""``referee table ...``: live tables on a database, from the command line.

Each operation of :mod:`referee.table.operations` is a command with the help and the
parameters declared there, as the HTTP API makes it a route; how each parameter is
spelled here (an argument or an option, its flag) is :data:`FORMS`'. The command line's
own parameters (``--db``, ``--as``, ``--json``...) are the same :class:`Param`. Errors
are one line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, get_args, get_origin

import click

from referee.cli import common as c
from referee.cli.main import GROUPS
from referee.errors import RulesError
from referee.systems.base import JSONValue, data_from_pairs
from referee.table.operations import BY_NAME, OPERATIONS, Operation, Param

if TYPE_CHECKING:
    from referee.table.service import Done, TableService
    from referee.table.signing import Signer

Values = Mapping[str, Any]
"""A command's values by name."""
Call = Callable[["TableService", Values], "Done | tuple[Any, str] | None"]
"""A command's work: an appended event, JSON and its text, or None (it printed its own)."""

app = click.Group(name="table", help=GROUPS["table"], no_args_is_help=True)
char_app = click.Group("char", help="Seat, update and remove characters.", no_args_is_help=True)
app.add_command(char_app)

# the command line's own parameters, beside the operations'
Words = tuple[str, ...]
"""A repeatable option's values."""
AS_HELP = "As this participant (default: the operator, who sees and may do what a referee may)."
DB_HELP = (
    "Database URL (sqlite:///FILE or postgresql://...; default: REFEREE_DATABASE_URL, else a "
    "SQLite file in your data directory)."
)
KEY_HELP = (
    "The server's signing key file (default: REFEREE_SIGNING_KEY, else beside the SQLite "
    "database, else in your data directory; made on first use)."
)
TRUST_HELP = (
    "A public key whose signature is trusted (base64 or hex, or a file); repeatable. The "
    "server's own key is always trusted."
)
TABLE = Param("ref", "The table's id or name.")
ACTING = Param("by", "The participant acting.")
AS = Param("by", AS_HELP, str | None, None)
DB = Param("db", DB_HELP, str | None, None)
JSON = Param("as_json", "Print machine-readable JSON instead of text.", bool, False)
OUT = Param("out", "Write here (default: standard output).", str | None, None)
KEY = Param("key_file", KEY_HELP, str | None, None)
TRUST = Param("trust", TRUST_HELP, Words, ())
REQUIRE = Param("require_trusted", "Refuse a file not signed by a trusted key.", bool, False)
FILE = Param("table", "The table's id or name, or an export file.")
EXPORT = Param("path", "An export (JSON).")
ADD = Param("add", "ID.FIELD=N adds N (a character id, or 'table'); repeatable.", Words, ())
SET = Param("set", "ID.FIELD=JSON sets a value; repeatable.", Words, ())

Forms = Mapping[str, str | None]
"""Parameters' forms on the command line, by the parameter's name (see :func:`form`)."""
FORMS: Final[Mapping[str, Forms]] = {
    "log": {"limit": None},
    "odds": {"fields": "PAIRS..."},
    "act": {"fields": "PAIRS..."},
    "decide": {"values": "VALUES..."},
    "note": {"audience": "--to"},
    "undo": {"seq": "SEQ?"},
    "redo": {"seq": "SEQ?"},
    "edit": {"changes": None, "reason": "--reason"},
    "options": {"options": "PATH"},
    "sheets": {"sheets": "SHOWN"},
    "answer": {"grant": "--grant"},
    "request": {"fields": "PAIRS...", "characters": None},
    "gauge": {"a": None, "b": None},
    "char add": {"example": None, "sheet": "SHEET", "cid": "--id"},
    "char bestiary": {"dials": "NUMBERS..."},
    "new": {"name": "--name", "settings": None},
}
"""How each operation's parameters are spelled here, where not as :func:`form` says by
default (an edit's changes are ``--add`` and ``--set``; an example is a sheet's name)."""
OWN_FORMS: Final[Forms] = {
    "ref": "TABLE",
    "table": "TABLE",
    "path": "PATH",
    "by": "--as",
    "as_json": "--json",
    "key_file": "--key",
}
"""How the command line's own parameters are spelled, where not by default."""


def form(p: Param, op: str = "") -> str | None:
    """``p``'s form on the command line, as operation ``op``'s parameter (``""``: one of
    the command line's own): an option's flag (``--to``), an argument's metavar
    (``NAME``; ``NAME?``: optional; ``NAME...``: any number of words), or ``None``: not
    on the command line. By default ``--name`` where there is a default, else the
    argument ``NAME``."""
    forms = FORMS.get(op, {}) if op else OWN_FORMS
    if p.name in forms:
        return forms[p.name]
    return p.name.upper() if p.default is ... else "--" + p.name.replace("_", "-")


def param(p: Param, spelled: str | None) -> click.Parameter:
    """A parameter on the command line, in its form ``spelled`` (:func:`form`): a
    ``Literal``'s choices, :data:`Words`' repeatable option, a ``bool``'s flag, an
    ``int``'s number."""
    form = spelled or ""
    kind: Any = next((t for t in (bool, int) if t in (p.type, *get_args(p.type))), str)
    literal = next(
        (t for t in (p.type, *get_args(p.type)) if get_origin(t) is Literal), None
    )  # a Literal, or a Literal or None
    if literal is not None:
        kind = click.Choice(get_args(literal), case_sensitive=False)
    if form.startswith("--") and kind is bool and p.default is None:  # yes, no or as it is
        flags = f"{form}/--no-{form.removeprefix('--')}"
        return click.Option([flags, p.name], help=p.help, default=None)
    if form.startswith("--"):
        how: dict[str, Any] = {"is_flag": True} if kind is bool else {"type": kind}
        how |= {"multiple": p.type is Words}
        how |= {"default": None if p.default is ... else p.default, "required": p.default is ...}
        return click.Option([form, p.name], help=p.help, **how)
    name, many = form.removesuffix("...").removesuffix("?"), form.endswith("...")
    required = not (many or form.endswith("?"))
    metavar = f"[{name}]..." if many else name if required else f"[{name}]"
    nargs = -1 if many else 1
    return click.Argument(
        [p.name], required=required, nargs=nargs, metavar=metavar, type=kind, help=p.help
    )


def command(name: str, *own: Param, table: bool = True) -> Callable[[Call], Call]:
    """Declare the command ``call(service, values)`` answers (``char add``: ``add`` in the
    ``char`` group): ``TABLE``, the operation's parameters, ``own``, ``--as`` as the
    operation says, ``--db``, ``--json`` (not for a document); the help: the operation's
    and the call's."""
    op = BY_NAME.get(name, Operation(name, "", who="referee"))
    acting = {"participant": [ACTING], "anyone": [AS]}.get(op.who, [])
    spelled = [(p, form(p, op.name)) for p in op.params] + [(p, form(p)) for p in own]
    shown = [(p, f) for p, f in spelled if f] + [(p, form(p)) for p in [*acting, DB]]
    mine = [(p, form(p)) for p in [TABLE] * table] + shown + [(JSON, form(JSON))] * (OUT not in own)
    params = [param(p, f) for p, f in mine]

    def declare(call: Call) -> Call:
        def callback(db: str | None, **values: Any) -> None:
            from referee.table.service import TableService
            from referee.table.store import Store

            answer(values, call(TableService(Store(db)), values))

        helps = " ".join(filter(None, (op.help, call.__doc__)))
        group = char_app if name.startswith("char ") else app
        run = c.handle_errors(callback)
        group.add_command(click.Command(name.split()[-1], params=params, callback=run, help=helps))
        return call

    return declare


def answer(v: Values, done: Done | tuple[Any, str] | None) -> None:
    """An event as its line of the log, JSON with ``--json`` or its text; a document (a
    command with ``--out``): its text as it is, to that file or standard output."""
    from referee.table.recap import log_text

    if done is None:
        return
    if not isinstance(done, tuple):
        done = done.event.data(), log_text([done.event.data()])
    data, text = done
    if v.get("out") not in (None, c.STDIO):
        Path(v["out"]).write_text(text, encoding="utf-8")
    elif "out" in v:
        click.echo(text, nl=False)
    elif v.get("as_json"):
        c.emit_json(data)
    elif text:
        c.console.print(text)


def _fields(s: TableService, v: Values, words: Words) -> JSONValue:
    """``key=value`` words as fields of the action named, or of the one the decision
    ``seq`` answers (none: the service says so)."""
    ts = s.load(v["ref"])
    action = v.get("action") or (ts.proposals.get(v["seq"]) or {}).get("action")
    if action is None:
        return {}
    return data_from_pairs(ts.ruleset.action_type(str(action)), list(words))


def _change(word: str, key: str) -> JSONValue:
    """``ID.FIELD=VALUE`` as a change of ``key``: "delta" or "value" (JSON, else text)."""
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


def _numbers(words: Words) -> JSONValue:
    """``key=N`` words as whole numbers by key (a bestiary entry's numbers)."""
    out: dict[str, JSONValue] = {}
    for word in words:
        key, sep, text = word.partition("=")
        try:
            out[key.strip()] = int(text)
        except ValueError:
            raise RulesError(f"{word!r}: write KEY=N with a whole number (e.g. armour=5)") from None
        if not (sep and key.strip()):
            raise RulesError(f"{word!r}: write KEY=N (e.g. armour=5)")
    return out


READ: dict[str, Callable[[TableService, Values], Any]] = {
    "options": lambda s, v: c.load_json_file(v["options"]),
    "sheet": lambda s, v: (
        c.load_json_file(v["sheet"]) if v["sheet"].lower().endswith(".json") else v["sheet"]
    ),
    "fields": lambda s, v: _fields(s, v, v["fields"]),
    "characters": lambda s, v: list(v.get("ask") or ()),
    "values": lambda s, v: _fields(s, v, v["values"]),
    "faces": lambda s, v: c.faces_option(v["faces"]),
    "dials": lambda s, v: _numbers(v["dials"]),
}
"""How the command line's words become what the service takes, by the service's name (a
sheet: a .json file, or an example's name)."""


def calls(op: Operation) -> Callable[[TableService, Values], Any]:
    """``op``'s service call, each parameter the command line's value read by :data:`READ`."""

    def call(s: TableService, v: Values) -> Any:
        given = [p.name for p in op.params if form(p, op.name) or p.name in READ]
        values = {k: READ[k](s, v) if k in READ else v[k] for k in given}
        return getattr(s, op.service_method)(v["ref"], **values, by=v["by"])

    return call


@command("show")
def _show(s: TableService, v: Values) -> tuple[Any, str]:
    from referee.table.recap import table_text
    from referee.table.service import table_data

    seen = s.view(v["ref"], v["by"])
    data = table_data(seen, seen.viewer(v["by"]))
    return data, table_text(data)


@command("log")
def _log(s: TableService, v: Values) -> tuple[Any, str]:
    from referee.table.recap import log_text

    events = s.log(v["ref"], v["by"], after=v["after"])
    return events, log_text(events)


@command("odds")
def _odds(s: TableService, v: Values) -> None:
    c.print_odds(calls(BY_NAME["odds"])(s, v)[1], as_json=v["as_json"])


ASK = Param(
    "ask",
    "A character (id or name) or a participant (all their characters) to ask; repeatable; "
    "none: every player's character.",
    Words,
    (),
)


@command("request", ASK)
def _request(s: TableService, v: Values) -> Done:
    done: Done = calls(BY_NAME["request"])(s, v)
    return done


SIDE_A = Param(
    "side_a",
    "A character (id) on side a; repeatable. Neither side named: the players' characters "
    "against the referee's, or two players' against each other.",
    Words,
    (),
)
SIDE_B = Param("side_b", "A character (id) on side b; repeatable.", Words, ())


@command("gauge", SIDE_A, SIDE_B)
def _gauge(s: TableService, v: Values) -> tuple[Any, str]:
    from referee.analysis.live import text as gauge_text

    a, b = tuple(v.get("side_a") or ()), tuple(v.get("side_b") or ())
    data = s.gauge(v["ref"], v["by"], a=a or None, b=b or None)
    return data, gauge_text(data)


@command("requests")
def _requests(s: TableService, v: Values) -> tuple[Any, str]:
    from referee.table.request_views import text as requests_text

    data = s.requests(v["ref"], v["by"])
    return data, requests_text(data)


@command("edit", ADD, SET)
def _edit(s: TableService, v: Values) -> Done:
    changes = [_change(w, "delta") for w in v["add"]] + [_change(w, "value") for w in v["set"]]
    return s.edit(v["ref"], changes, v["reason"], by=v["by"])


def _signer(s: TableService, v: Values) -> Signer:
    """The server's key: ``--key``, else the one kept for the database."""
    from referee.table.signing import server_signer

    return server_signer(s.store.url, v["key_file"])


def _trusted(s: TableService, v: Values) -> dict[str, bytes]:
    from referee.table.signing import trusted_keys

    return trusted_keys(v["trust"], own=_signer(s, v))


@command("export", OUT, KEY)
def _export(s: TableService, v: Values) -> tuple[Any, str]:
    from referee.table.audit import export

    data = export(s, v["ref"], v["by"], signer=_signer(s, v))
    return data, json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@command("verify", FILE, TRUST, REQUIRE, KEY, table=False)
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
    answer(v, (r.data(), r.text))
    if not r.ok:
        raise click.exceptions.Exit(1)


@command("new", table=False)
def _new(s: TableService, v: Values) -> tuple[Any, str]:
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


@command("key", KEY, table=False)
def _key(s: TableService, v: Values) -> tuple[Any, str]:
    """The server's public key (give it to another server's --trust) and its id."""
    from referee.table.signing import public_text

    signer = _signer(s, v)
    data = {"key": signer.id, "public_key": public_text(signer.public), "file": str(signer.path)}
    return data, f"{data['public_key']}  (key {data['key']}, kept in {data['file']})"


@command("import", EXPORT, TRUST, REQUIRE, KEY, table=False)
def _import(s: TableService, v: Values) -> tuple[Any, str]:
    from referee.table.audit import import_table

    trusted = _trusted(s, v)
    r = import_table(s, c.load_json_file(v["path"]), trusted, require_trusted=v["require_trusted"])
    return r.data(), f"imported {r.events} events; chain and replays verified; {r.signed}"


@command("recap", OUT)
def _recap(s: TableService, v: Values) -> tuple[Any, str]:
    from referee.table.recap import recap_of
    from referee.writers.recap import html_document, to_markdown

    made = recap_of(s, v["ref"], v["by"])
    return None, to_markdown(made) if v["format"] == "md" else html_document(made)


@command("char bestiary")
def _bestiary(s: TableService, v: Values) -> tuple[Any, str]:
    """Each adversary seated is a line of the log."""
    from referee.table.recap import log_text

    before = s.load(v["ref"]).seq
    calls(BY_NAME["char bestiary"])(s, v)
    events = s.log(v["ref"], v["by"], after=before)
    return events, log_text(events)


for _op in OPERATIONS:  # the others: the service's call, answered with its event
    _group = char_app if _op.name.startswith("char ") else app
    if _op.name.split()[-1] not in _group.commands:
        command(_op.name)(calls(_op))
