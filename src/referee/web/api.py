"""The JSON API: everything the pages do, one service call per request.

Every route under ``/api/tables/{tid}`` acts as the participant whose token
the request presents (see :mod:`referee.web.auth`); the service authorizes the
command again. Answers carry only what that participant may see: events are
redacted for them, the state is their view.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable, Mapping
from concurrent.futures import BrokenExecutor, ThreadPoolExecutor
from typing import Annotated, Any, Final, Literal, TypeVar

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from referee.errors import InvalidSheet, RulesError
from referee.systems.base import JSONObject, JSONValue, Ruleset, get, names, problem_data
from referee.table import signing
from referee.table.audit import export, import_table, verify
from referee.table.service import Done, TableService, redact, table_data
from referee.table.signing import Signer
from referee.table.state import TableState, Viewer
from referee.web.app import Web, WebError, web_of
from referee.web.auth import Caller, presented, set_session, table_cookies
from referee.web.strict import StrictRoute
from referee.web.worker import Answer, answer, compute, odds_in_worker
from referee.web.worker import pool as worker_pool

log = logging.getLogger("referee.web")

router = APIRouter(prefix="/api", route_class=StrictRoute)

T = TypeVar("T")

TABLE_ID: Final = r"^[A-Za-z0-9_-]{1,40}$"
MAX_SEQ: Final = 2**31 - 1
MAX_DEPTH: Final = 12
MAX_ITEMS: Final = 5000

Name = Annotated[str, Field(min_length=1, max_length=64)]
VisibilityName = Literal["public", "referee", "blind", "private", "self"]
RoleName = Literal["referee", "player", "observer"]
TableId = Annotated[str, Path(pattern=TABLE_ID, description="The table's id.")]
JSONObjectIn = dict[str, Any]


class Strict(BaseModel):
    """Request bodies refuse unknown keys and take every value as its own type: ``"7"``
    is no number and ``true`` no 1 (a wrong type is refused, the field named)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------------------
# request bodies


class CreateTable(Strict):
    game: str = Field(max_length=40, description="The game (`GET /api/games`).")
    name: Name = Field(description="The table's unique name.")
    referee: Name = Field(description="Your name: you are the table's referee.")
    options: JSONObjectIn = Field(default_factory=dict, description="House rules (defaults).")
    seed: int | None = Field(None, ge=0, le=2**63 - 1, description="A playtest table's seed.")


class ActionIn(Strict):
    action: str = Field(max_length=64, description="The action's name (`GET /api/games`).")
    fields: JSONObjectIn = Field(default_factory=dict, description="The action's fields.")
    visibility: VisibilityName = "public"
    faces: list[Annotated[int, Field(ge=-(10**6), le=10**6)]] | None = Field(
        None, max_length=1000, description="Faces rolled on physical dice, in order."
    )
    expect: int | None = Field(
        None, ge=0, le=MAX_SEQ, description="Refuse if the table moved past this seq."
    )


class OddsIn(Strict):
    action: str = Field(max_length=64)
    fields: JSONObjectIn = Field(default_factory=dict)


class NoteIn(Strict):
    text: str = Field(min_length=1, max_length=4000)
    visibility: VisibilityName = "public"
    to: Name | None = Field(None, description="A private note: who it is for.")


class DecisionIn(Strict):
    fields: JSONObjectIn = Field(
        default_factory=dict,
        description="Values for the fields the action asks (others: defaults).",
    )


class SeqIn(Strict):
    seq: int | None = Field(None, ge=1, le=MAX_SEQ, description="Default: the newest.")


class RevealIn(Strict):
    seq: int = Field(ge=1, le=MAX_SEQ)


class ChangeIn(Strict):
    target: str = Field(min_length=1, max_length=64, description="A character id or `table`.")
    field: str = Field(min_length=1, max_length=200, description="A dotted field path.")
    delta: int | None = Field(None, ge=-(10**9), le=10**9)
    value: Any = None
    reason: str = Field("", max_length=500)


class EditIn(Strict):
    changes: list[ChangeIn] = Field(min_length=1, max_length=50)
    reason: str = Field(min_length=1, max_length=4000)


class OptionsIn(Strict):
    options: JSONObjectIn


class SheetsIn(Strict):
    sheets: Literal["owner", "everyone"] = Field(
        description="Who sees other players' character sheets: owner (each player their "
        "own; the referee all) or everyone."
    )


class CharacterIn(Strict):
    example: str | None = Field(None, max_length=64, description="An example character's id.")
    sheet: JSONObjectIn | None = Field(None, description="A sheet as JSON.")
    owner: Name | None = None
    id: Name | None = None
    force: bool = Field(False, description="The referee seats a sheet that breaks rules.")
    visibility: VisibilityName = "public"


class SheetIn(Strict):
    sheet: JSONObjectIn
    force: bool = False


class InviteIn(Strict):
    name: Name
    role: RoleName = "player"


class RoleIn(Strict):
    role: RoleName


# ---------------------------------------------------------------------------
# answers


class TableSummary(BaseModel):
    id: str
    name: str
    game: str
    title: str
    me: str
    role: str


class Created(BaseModel):
    table: TableSummary
    link: str = Field(description="The secret link: open it to join as this participant.")
    token: str = Field(description="The same capability as a bearer token.")


class EventOut(BaseModel):
    seq: int
    event: dict[str, Any]


class InviteOut(BaseModel):
    id: str
    name: str
    kind: str
    created: str
    revoked: str | None = None
    link: str | None = None
    token: str | None = None


# ---------------------------------------------------------------------------
# helpers


def bounded(value: Any, what: str, depth: int = MAX_DEPTH) -> Any:
    """Refuse JSON nested deeper than ``depth`` or holding more than a few thousand items."""
    count = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, level = stack.pop()
        count += 1
        if count > MAX_ITEMS:
            raise WebError(422, f"{what}: more than {MAX_ITEMS} values")
        if isinstance(node, Mapping | list | tuple):
            if level >= depth:
                raise WebError(422, f"{what}: nested more than {depth} levels deep")
            children = node.values() if isinstance(node, Mapping) else node
            stack.extend((c, level + 1) for c in children)
    return value


REQUEST_MICROSECONDS: Final = 400_000
"""The work one odds or preview may take, estimated before each step of it (under the
0.5 s of CPU a request may cost): past it the step is refused (422, naming the limit)."""


async def odds_off_loop(
    request: Request, caller: Caller, action: str, fields: Any, html: bool = False
) -> Answer:
    """The odds of ``action`` for the caller, computed in the server's odds pool (worker
    processes, :mod:`referee.web.worker`), holding one of the caller's odds slots
    (:mod:`referee.web.limits`) and within :data:`REQUEST_MICROSECONDS` of estimated
    work (:func:`~referee.dice.odds.limited_work`)."""
    web = web_of(request)
    args = (caller.table_id, caller.name, action, fields, REQUEST_MICROSECONDS, html)
    with web.quotas.odds.slot(caller.grant.id):
        loop = asyncio.get_running_loop()
        try:
            if isinstance(web.pool, ThreadPoolExecutor):
                found = await loop.run_in_executor(web.pool, compute, web.service, *args)
            else:
                found = await loop.run_in_executor(web.pool, odds_in_worker, *args)
        except BrokenExecutor:
            web.pool = worker_pool(web.service, web.workers)  # a worker died: start anew
            raise WebError(503, "the odds worker stopped; try again") from None
    return answer(found)


def client_address(request: Request) -> str:
    """Who is asking, for the quotas: the peer, or what a trusted proxy forwarded (uvicorn
    reads ``X-Forwarded-For`` only from the proxies ``--forwarded-allow-ips`` names)."""
    return request.client.host if request.client is not None else "unknown"


def new_table_quota(request: Request) -> None:
    """Refuse a new table (made or imported) over the address's rate or the server's cap."""
    web = web_of(request)
    web.quotas.new_table(client_address(request), web.service.store.table_count())


def rules_call(fn: Callable[[], T]) -> T:
    """Run a service call; an error a game's code raises on odd input is a 422, not a 500."""
    try:
        return fn()
    except (RulesError, WebError):
        raise
    except (ValueError, TypeError, KeyError, IndexError, ArithmeticError, AttributeError) as e:
        log.warning("the rules could not handle a request", exc_info=e)
        raise WebError(422, f"the rules cannot handle this input: {type(e).__name__}: {e}") from e


def contract_games() -> list[tuple[str, Ruleset[Any, Any, Any]]]:
    """The installed games that speak the contract (the others cannot run a table yet)."""
    out = []
    for name in names():
        try:
            rules = get(name)
        except (RulesError, ImportError):
            continue
        if isinstance(rules, Ruleset):
            out.append((name, rules))
    return out


def authenticate(request: Request, tid: str, *, write: bool) -> Caller:
    """The participant a request acts as at table ``tid`` (or a 4xx refusal)."""
    web = web_of(request)
    found = presented(request, tid)
    if found is None:
        raise WebError(401, "this table needs its invite link (or a bearer token)")
    token, via = found
    grant = web.tokens.check(token)
    if grant is None or grant.table_id != tid:
        raise WebError(401, "this link is unknown or was revoked: ask the referee for a new one")
    web.quotas.requests.take(grant.id)
    if write and via == "cookie" and not web.origin_ok(request):
        raise WebError(403, "refused: the request did not come from this site's pages")
    ts = web.service.current(tid)
    if ts.id != tid:
        raise WebError(404, f"no table {tid!r}")
    role = ts.participants.get(grant.name)
    if role is None:
        raise WebError(403, f"{grant.name!r} is no longer at this table")
    return Caller(tid, grant.name, role, grant, via)


async def _authenticated(request: Request, tid: str, *, write: bool) -> Caller:
    """:func:`authenticate` on the event loop when its token and table are in this
    process's memory (the common case: no database read, no thread hand-off), else in
    a worker thread."""
    web = web_of(request)
    found = presented(request, tid)
    if found is None or (web.tokens.remembered(found[0]) and web.service.holds(tid)):
        return authenticate(request, tid, write=write)
    return await run_in_threadpool(authenticate, request, tid, write=write)


async def reader(request: Request, tid: TableId) -> Caller:
    """Dependency: a participant reading a table."""
    return await _authenticated(request, tid, write=False)


async def writer(request: Request, tid: TableId) -> Caller:
    """Dependency: a participant changing a table (origin-checked for cookies)."""
    return await _authenticated(request, tid, write=True)


Reader = Annotated[Caller, Depends(reader)]
Writer = Annotated[Caller, Depends(writer)]


def referee_only(caller: Caller, what: str) -> None:
    """Refuse anyone but a referee."""
    if not caller.referee:
        raise WebError(403, f"only the referee may {what}")


def event_out(web: Web, done: Done, caller: Caller) -> EventOut:
    """A command's event as the caller may see it."""
    viewer = Viewer(caller.name, done.table.participants.get(caller.name, "observer"))
    shown = redact(done.event, viewer, done.table.revealed, done.table)
    return EventOut(seq=done.event.seq, event=shown)


def event_response(done: Done, caller: Caller) -> Response:
    """:func:`event_out` as a 201 answer, serialized once (the hot path of a table: an
    event is JSON already, so it skips the response model's second walk over it)."""
    viewer = Viewer(caller.name, done.table.participants.get(caller.name, "observer"))
    shown = redact(done.event, viewer, done.table.revealed, done.table)
    body = json.dumps({"seq": done.event.seq, "event": shown}, separators=(",", ":"))
    return Response(body, status_code=201, media_type="application/json")


def link_for(request: Request, token: str) -> str:
    """The absolute invite link for a token."""
    return str(request.url_for("join", token=token))


def summary(ts: TableState, name: str) -> TableSummary:
    """A table in a list."""
    return TableSummary(
        id=ts.id,
        name=ts.name,
        game=ts.game,
        title=ts.ruleset.title,
        me=name,
        role=ts.participants.get(name, "observer"),
    )


def view_data(service: TableService, caller: Caller) -> JSONObject:
    """The table as the caller may know it."""
    seen = service.view(caller.table_id, caller.name)
    data = table_data(seen, seen.viewer(caller.name))
    data["me"] = {"name": caller.name, "role": caller.role}
    return data


# ---------------------------------------------------------------------------
# games and tables


@router.get("/games", tags=["games"])
def games() -> list[dict[str, Any]]:
    """Every game a table can be made for: its house-rule options with their defaults,
    its actions with every field (type, default, bounds, meaning) and its example
    characters."""
    from referee.systems.base import describe_fields, describe_options

    return [
        {
            "name": name,
            "title": rules.title,
            "options": describe_options(rules.options_type),
            "actions": {a: describe_fields(t) for a, t in rules.every_action().items()},
            "examples": list(rules.examples()),
        }
        for name, rules in contract_games()
    ]


@router.post("/tables", status_code=201, tags=["tables"])
def create_table(body: CreateTable, request: Request, response: Response) -> Created:
    """Create a table; you are its referee. The answer holds your secret link (keep it:
    it is shown once) and sets this browser's session cookie."""
    web = web_of(request)
    if not web.origin_ok(request) and request.headers.get("origin") is not None:
        raise WebError(403, "refused: the request did not come from this site's pages")
    if body.game.strip().lower() not in dict(contract_games()):
        known = ", ".join(n for n, _ in contract_games())
        raise WebError(422, f"no game {body.game!r} can run a table; known: {known}")
    bounded(body.options, "options")
    new_table_quota(request)
    done = rules_call(
        lambda: web.service.create(
            body.game, body.name, body.referee, options=body.options, seed=body.seed
        )
    )
    ts = done.table
    referee = next(iter(ts.participants))
    token, _grant = web.tokens.issue(ts.id, referee, "referee")
    set_session(response, request, ts.id, token)
    return Created(table=summary(ts, referee), link=link_for(request, token), token=token)


@router.get("/tables", tags=["tables"])
def my_tables(request: Request) -> list[TableSummary]:
    """The tables this browser (its cookies) or this bearer token opens."""
    web = web_of(request)
    held = dict(table_cookies(request))
    header = request.headers.get("authorization", "")
    out = []
    candidates = list(held.values())
    if header[:7].lower() == "bearer ":
        candidates.append(header[7:].strip())
    seen: set[str] = set()
    for token in candidates:
        grant = web.tokens.check(token)
        if grant is None or grant.table_id in seen:
            continue
        seen.add(grant.table_id)
        try:
            ts = web.service.load(grant.table_id)
        except RulesError:
            continue
        if grant.name in ts.participants:
            out.append(summary(ts, grant.name))
    return out


class Imported(Created):
    events: int = Field(description="How many events were verified and stored.")
    signature: Literal["trusted", "untrusted", "unsigned"] = Field(
        description="trusted: signed by this server's key or one it trusts; untrusted: "
        "signed by another key (named in `key`); unsigned: no signed head."
    )
    key: str | None = Field(None, description="The id of the key that signed the file.")


def server_signer(web: Web) -> Signer:
    """This server's signing key (kept beside its SQLite database or in its data
    directory; ``REFEREE_SIGNING_KEY`` names another file)."""
    return signing.server_signer(web.service.store.url)


@router.post("/import", status_code=201, tags=["tables"])
def import_export(request: Request, response: Response, body: JSONObjectIn) -> Imported:
    """Import a referee's export after verifying all of it (the hash chain, every event,
    every replayed roll, and its signed head if it has one); nothing is written unless
    it all holds. A signed file whose tail was cut, or whose log was changed and
    rehashed, is refused. ``signature`` says whether the file is signed by a key this
    server trusts (its own, or one in ``REFEREE_TRUSTED_KEYS``). You become the imported
    table's first referee. Bounded by bytes (32 MiB) and events, not by JSON values."""
    web = web_of(request)
    if not web.origin_ok(request) and request.headers.get("origin") is not None:
        raise WebError(403, "refused: the request did not come from this site's pages")
    new_table_quota(request)
    trusted = signing.trusted_keys(own=server_signer(web))
    report = rules_call(lambda: import_table(web.service, body, trusted))
    table = body.get("table")
    tid = str(table.get("id")) if isinstance(table, dict) else ""
    ts = web.service.load(tid)
    referee = next((n for n, r in ts.participants.items() if r == "referee"), None)
    if referee is None:
        raise WebError(422, f"imported {report.events} events, but the table has no referee")
    token, _grant = web.tokens.issue(ts.id, referee, "referee")
    set_session(response, request, ts.id, token)
    return Imported(
        table=summary(ts, referee),
        link=link_for(request, token),
        token=token,
        events=report.events,
        signature=report.signature or "unsigned",
        key=report.key or None,
    )


# ---------------------------------------------------------------------------
# one table: reading


@router.get("/tables/{tid}", tags=["table"])
def table_view(caller: Reader, request: Request) -> dict[str, Any]:
    """The table as you may know it: participants, characters and their owners, the
    validator's findings, house rules, the game's tracker, pending decisions, the state."""
    return view_data(web_of(request).service, caller)


@router.get("/tables/{tid}/log", tags=["table"])
def table_log(
    caller: Reader,
    request: Request,
    after: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> list[dict[str, Any]]:
    """The events after ``after``, redacted for you (hidden rolls show only what you may
    know of them)."""
    return web_of(request).service.log(caller.table_id, caller.name, after=after, limit=limit)


@router.post("/tables/{tid}/odds", tags=["actions"])
async def odds(caller: Reader, body: OddsIn, request: Request) -> dict[str, Any]:
    """The exact odds of an action before anything is rolled: the success chance (when
    the game's outcome says success or not) and every outcome's probability. Computed off
    the event loop, a few at once per link (429 past that)."""
    bounded(body.fields, "fields")
    name, fields, data, _html = await odds_off_loop(request, caller, body.action, body.fields)
    return {"action": name, "fields": fields, **data}


@router.post("/tables/{tid}/validate", tags=["characters"])
def validate_sheet(caller: Reader, body: SheetIn, request: Request) -> dict[str, Any]:
    """Check a sheet against the game's rules and the table's house rules without
    seating it: every broken rule is named."""
    web = web_of(request)
    bounded(body.sheet, "sheet")
    ts = web.service.view(caller.table_id, caller.name)

    def check() -> list[JSONObject]:
        try:
            loaded = ts.ruleset.load_sheet(body.sheet)
        except InvalidSheet as e:
            return [problem_data(p) for p in e.problems]
        return [problem_data(p) for p in ts.ruleset.validate(loaded, ts.options)]

    problems = rules_call(check)
    return {"valid": not problems, "problems": problems}


@router.get("/tables/{tid}/export", tags=["table"])
def export_table(caller: Reader, request: Request) -> Response:
    """The table as JSON: whole for a referee (importable), your redacted view otherwise;
    its ``head`` (the last event's seq and hash) signed with the server's key."""
    web = web_of(request)
    data = export(web.service, caller.table_id, caller.name, signer=server_signer(web))
    table = data.get("table")
    name = str(table.get("name", "table")) if isinstance(table, dict) else "table"
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "table"
    return JSONResponse(
        data, headers={"content-disposition": f'attachment; filename="{safe}.json"'}
    )


@router.get("/tables/{tid}/verify", tags=["table"])
def verify_table(caller: Reader, request: Request) -> dict[str, Any]:
    """Re-check the hash chain and replay every action from its recorded faces (the
    referee)."""
    referee_only(caller, "verify the table")
    return verify(web_of(request).service, caller.table_id).data()


# ---------------------------------------------------------------------------
# one table: commands


@router.post("/tables/{tid}/actions", status_code=201, tags=["actions"], response_model=EventOut)
async def act(caller: Writer, body: ActionIn, request: Request) -> Response:
    """Take an action of the game (for one of your characters; the referee for anyone).
    ``visibility``: public; blind (a player's roll only the referee sees the result of);
    private (you and the referee); referee (the referee's secret roll). ``faces``:
    dice rolled by hand, checked against what the action rolls."""
    web = web_of(request)
    bounded(body.fields, "fields")
    done = await run_in_threadpool(
        rules_call,
        lambda: web.service.act(
            caller.table_id,
            caller.name,
            body.action,
            body.fields,
            visibility=body.visibility,
            faces=body.faces,
            expect=body.expect,
        ),
    )
    return event_response(done, caller)


@router.post("/tables/{tid}/notes", status_code=201, tags=["actions"])
def note(caller: Writer, body: NoteIn, request: Request) -> EventOut:
    """Write a note or chat line (private ones: to ``to`` and the referees)."""
    web = web_of(request)
    done = web.service.note(
        caller.table_id, caller.name, body.text, visibility=body.visibility, audience=body.to
    )
    return event_out(web, done, caller)


@router.post("/tables/{tid}/proposals/{seq}", status_code=201, tags=["actions"])
async def decide(
    caller: Writer,
    body: DecisionIn,
    request: Request,
    seq: Annotated[int, Path(ge=1, le=MAX_SEQ)],
) -> Response:
    """Answer an action that waits for your decision (a target's defence, an opponent's
    choice: the fields its proposal asks, as the owner of that character or the referee);
    the action is then checked again and rolled, as its proposer's."""
    web = web_of(request)
    bounded(body.fields, "fields")
    done = await run_in_threadpool(
        rules_call,
        lambda: web.service.decide(caller.table_id, seq, body.fields, by=caller.name),
    )
    return event_response(done, caller)


@router.delete("/tables/{tid}/proposals/{seq}", tags=["actions"])
def withdraw(
    caller: Writer, request: Request, seq: Annotated[int, Path(ge=1, le=MAX_SEQ)]
) -> EventOut:
    """Withdraw an action that waits for a decision (its proposer or the referee)."""
    web = web_of(request)
    return event_out(web, web.service.withdraw(caller.table_id, seq, by=caller.name), caller)


@router.post("/tables/{tid}/undo", status_code=201, tags=["actions"])
def undo(caller: Writer, body: SeqIn, request: Request) -> EventOut:
    """Take back an action or edit (a player: their own newest, while nothing happened
    since); the log keeps it."""
    web = web_of(request)
    return event_out(web, web.service.undo(caller.table_id, body.seq, by=caller.name), caller)


@router.post("/tables/{tid}/redo", status_code=201, tags=["actions"])
def redo(caller: Writer, body: SeqIn, request: Request) -> EventOut:
    """Put back an undone action or edit (the referee)."""
    web = web_of(request)
    return event_out(web, web.service.redo(caller.table_id, body.seq, by=caller.name), caller)


@router.post("/tables/{tid}/reveal", status_code=201, tags=["referee"])
def reveal(caller: Writer, body: RevealIn, request: Request) -> EventOut:
    """Show a hidden roll or note to everyone (the referee)."""
    web = web_of(request)
    return event_out(web, web.service.reveal(caller.table_id, body.seq, by=caller.name), caller)


@router.post("/tables/{tid}/edits", status_code=201, tags=["referee"])
def edit(caller: Writer, body: EditIn, request: Request) -> EventOut:
    """Correct the game state by hand, with a reason (the referee)."""
    web = web_of(request)
    changes = [bounded(c.model_dump(), "change") for c in body.changes]
    done = rules_call(
        lambda: web.service.edit(caller.table_id, changes, body.reason, by=caller.name)
    )
    return event_out(web, done, caller)


@router.put("/tables/{tid}/options", tags=["referee"])
def set_options(caller: Writer, body: OptionsIn, request: Request) -> EventOut:
    """Replace the house rules (the referee); options left out take their defaults."""
    web = web_of(request)
    bounded(body.options, "options")
    done = rules_call(
        lambda: web.service.set_options(caller.table_id, body.options, by=caller.name)
    )
    return event_out(web, done, caller)


@router.put("/tables/{tid}/sheets", tags=["referee"])
def set_sheets(caller: Writer, body: SheetsIn, request: Request) -> EventOut:
    """Choose who sees other players' character sheets (the referee): ``owner`` or
    ``everyone``. A player always sees their own; the referee sees every sheet."""
    web = web_of(request)
    done = rules_call(lambda: web.service.set_sheets(caller.table_id, body.sheets, by=caller.name))
    return event_out(web, done, caller)


@router.post("/tables/{tid}/characters", status_code=201, tags=["characters"])
def add_character(caller: Writer, body: CharacterIn, request: Request) -> EventOut:
    """Seat a character: one of the game's examples (``example``) or a ``sheet``. A
    player seats their own; a sheet that breaks a rule is refused with every finding,
    unless the referee forces it in (marked)."""
    web = web_of(request)
    if (body.example is None) == (body.sheet is None):
        raise WebError(422, "give either 'example' or 'sheet'")
    sheet: JSONValue | str = body.example if body.example is not None else body.sheet
    bounded(sheet, "sheet")
    done = rules_call(
        lambda: web.service.add_character(
            caller.table_id,
            sheet,
            owner=body.owner,
            cid=body.id,
            by=caller.name,
            force=body.force,
            visibility=body.visibility,
        )
    )
    return event_out(web, done, caller)


@router.put("/tables/{tid}/characters/{cid}", tags=["characters"])
def update_character(
    caller: Writer,
    body: SheetIn,
    request: Request,
    cid: Annotated[str, Path(min_length=1, max_length=64)],
) -> EventOut:
    """Replace a character's sheet (its owner or the referee); what the table tracks
    about it stays."""
    web = web_of(request)
    bounded(body.sheet, "sheet")
    done = rules_call(
        lambda: web.service.update_character(
            caller.table_id, cid, body.sheet, by=caller.name, force=body.force
        )
    )
    return event_out(web, done, caller)


@router.delete("/tables/{tid}/characters/{cid}", tags=["characters"])
def remove_character(
    caller: Writer, request: Request, cid: Annotated[str, Path(min_length=1, max_length=64)]
) -> EventOut:
    """Take a character off the table (the referee)."""
    web = web_of(request)
    done = rules_call(lambda: web.service.remove_character(caller.table_id, cid, by=caller.name))
    return event_out(web, done, caller)


# ---------------------------------------------------------------------------
# participants and invites


@router.get("/tables/{tid}/invites", tags=["referee"])
def invites(caller: Reader, request: Request) -> list[InviteOut]:
    """Every invite link made for this table (the secrets are never shown again)."""
    referee_only(caller, "see the invites")
    return [
        InviteOut(id=g.id, name=g.name, kind=g.kind, created=g.created, revoked=g.revoked)
        for g in web_of(request).tokens.list(caller.table_id)
    ]


@router.post("/tables/{tid}/invites", status_code=201, tags=["referee"])
def invite(caller: Writer, body: InviteIn, request: Request) -> InviteOut:
    """Make an invite link for one participant (joining them with ``role`` if they are
    new). Send it to them privately: whoever opens it acts as them."""
    referee_only(caller, "invite")
    web = web_of(request)
    web.quotas.invite(sum(g.kind == "invite" for g in web.tokens.list(caller.table_id)))
    ts = web.service.load(caller.table_id)
    name = body.name.strip()
    if name not in ts.participants:
        web.service.join(caller.table_id, name, body.role, by=caller.name)
    token, grant = web.tokens.issue(caller.table_id, name, "invite")
    return InviteOut(
        id=grant.id,
        name=grant.name,
        kind=grant.kind,
        created=grant.created,
        link=link_for(request, token),
        token=token,
    )


@router.delete("/tables/{tid}/invites/{kid}", tags=["referee"])
def revoke(
    caller: Writer, request: Request, kid: Annotated[str, Path(min_length=1, max_length=24)]
) -> dict[str, Any]:
    """Revoke an invite link: it opens nothing from now on (browsers holding it included)."""
    referee_only(caller, "revoke invites")
    web = web_of(request)
    if not web.tokens.revoke(caller.table_id, kid):
        raise WebError(404, f"no live invite {kid!r} at this table")
    web.hub.close_grants_soon({kid})  # its open sockets close now (other processes: a sweep)
    return {"revoked": kid}


@router.put("/tables/{tid}/participants/{name}", tags=["referee"])
def set_role(
    caller: Writer,
    body: RoleIn,
    request: Request,
    name: Annotated[str, Path(min_length=1, max_length=64)],
) -> EventOut:
    """Change a participant's role (the referee)."""
    web = web_of(request)
    return event_out(
        web, web.service.set_role(caller.table_id, name, body.role, by=caller.name), caller
    )


@router.delete("/tables/{tid}/participants/{name}", tags=["referee"])
def leave(
    caller: Writer, request: Request, name: Annotated[str, Path(min_length=1, max_length=64)]
) -> EventOut:
    """A participant leaves (themselves, or removed by the referee); their links are
    revoked."""
    web = web_of(request)
    done = web.service.leave(caller.table_id, name, by=caller.name)
    web.tokens.revoke_name(caller.table_id, name)
    return event_out(web, done, caller)
