"""The pages: the tables list, joining by a link, the table itself, and its fragments.

Pages are rendered on the server (Jinja2) from the same service calls as the
JSON API; ``static/app.js`` keeps them live. The fragments under
``/t/{tid}/...`` are the pieces the script refreshes after each event and
the odds preview it asks for while a form is filled in.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Annotated, Any, Final

from fastapi import APIRouter, Path, Query, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.websockets import WebSocketState

from referee.errors import InvalidSheet, RulesError
from referee.systems.base import JSONObject, describe_fields, describe_options, problem_data
from referee.systems.difficulty import request_example
from referee.systems.records import option_kinds
from referee.table.operations import MAX_SEQ
from referee.table.service import HiddenOdds, proposal_data
from referee.table.state import Role, TableState, Viewer
from referee.table.tokens import Grant
from referee.web.app import Web, WebError, web_of
from referee.web.auth import Caller, clear_session, presented, set_session, table_cookies
from referee.web.deps import (
    TABLE_ID,
    Reader,
    authenticate,
    bounded,
    contract_games,
    odds_off_loop,
)
from referee.web.limits import TooMany
from referee.web.live import Connection
from referee.web.models import OddsIn
from referee.web.strict import StrictRoute
from referee.web.views import (
    ActionForm,
    Seat,
    action_forms,
    answer_views,
    decider_suggestions,
    field_matters,
    field_suggestions,
    forms_for,
    free_forms,
    seats,
    sheet_names,
    table_rows,
)

router = APIRouter(include_in_schema=False, route_class=StrictRoute)

RECENT: Final = 200
"""The table page shows this many newest events; older ones load on request."""

TableId = Annotated[str, Path(pattern=TABLE_ID)]


def _html(web: Web, name: str, code: int = 200, **context: Any) -> HTMLResponse:
    return HTMLResponse(web.renderer.page(name, **context), status_code=code)


# ---------------------------------------------------------------------------
# the tables list and joining


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> HTMLResponse:
    """The tables this browser holds links for, and a form to create or import one."""
    web = web_of(request)
    mine = []
    for tid, token in table_cookies(request).items():
        grant = web.tokens.check(token)
        if grant is None or grant.table_id != tid:
            continue
        try:
            ts = web.service.load(tid)
        except Exception:  # a table gone from the database: not listed
            continue
        if grant.name in ts.participants:
            mine.append({"ts": ts, "me": grant.name, "role": ts.participants[grant.name]})
    games = [
        {
            "name": n,
            "title": r.title,
            "options": [
                {**o, "kind": option_kinds(r.options_type)[o["name"]]}
                for o in describe_options(r.options_type)
            ],
        }
        for n, r in contract_games()
    ]
    return _html(web, "index.html", mine=mine, games=games, title="Tables")


@router.get("/join/{token}", response_class=HTMLResponse, name="join")
def join(request: Request, token: Annotated[str, Path(max_length=128)]) -> HTMLResponse:
    """An invite link: keep its token in this browser, then go to the table.

    The answer is a page (not a redirect) so that the SameSite=Strict cookie is
    sent with the next request even when the link was opened from another site."""
    web = web_of(request)
    grant = web.tokens.check(token)
    if grant is None:
        return _html(
            web,
            "error.html",
            404,
            status=404,
            detail="This link is unknown or was revoked: ask the referee for a new one.",
        )
    shown = f"Welcome, {grant.name}"
    response = _html(web, "join.html", grant=grant, next=f"/t/{grant.table_id}", title=shown)
    set_session(response, request, grant.table_id, token)
    return response


# ---------------------------------------------------------------------------
# the table page


def _caller(request: Request, tid: str) -> Caller:
    return authenticate(request, tid, write=False)


def _actable(seat_list: list[Seat], caller: Caller | Participant) -> list[Seat]:
    return [s for s in seat_list if caller.referee or s.owner == caller.name]


def table_context(
    web: Web, caller: Caller | Participant, *, with_log: bool = True
) -> dict[str, Any]:
    """Everything the table page shows the caller (the live fragments need no log)."""
    ts = web.service.view(caller.table_id, caller.name)
    rules = ts.ruleset
    every, examples = _of_game(ts.game, rules)
    per_character, table_forms = forms_for(every, referee=caller.referee)
    seat_list = sorted(  # yours first
        seats(ts, ts.viewer(caller.name)), key=lambda s: s.owner != caller.name
    )
    events = (
        web.service.log(caller.table_id, caller.name, after=max(0, ts.seq - RECENT))
        if with_log
        else []
    )
    entries = [web.renderer.entry(e, undone=e.get("seq") in ts.undone) for e in events]
    current = rules.dump_options(ts.options)
    kinds = option_kinds(rules.options_type)
    options = [
        {**o, "value": current.get(o["name"], o["default"]), "kind": kinds[o["name"]]}
        for o in describe_options(rules.options_type)
    ]
    ctx: dict[str, Any] = {
        "title": ts.name,
        "ts": ts,
        "me": caller,
        "rules": rules,
        "seats": seat_list,
        "actable": _actable(seat_list, caller),
        "per_character": per_character,
        "table_forms": table_forms,
        "tray_forms": free_forms(every) if caller.role != "observer" else [],
        "entries": entries,
        "first_seq": events[0]["seq"] if events else 0,
        "table_rows": table_rows(ts),
        "turns": rules.turns(ts.state, ts.options),
        "pending": ts.state.pending,
        "answers": [answer_views(a) for a in web.service.answers(caller.table_id, caller.name)],
        "proposals": proposal_views(ts, caller, {s.id: s.sheet for s in seat_list}),
        "requests": [
            {**r, "seq": seq, "seq_target": r.get("seq")} for seq, r in sorted(ts.requests.items())
        ],
        "options": options,
        "opts": current,
        "examples": examples,
        "request_example": request_example(rules),
        "invites": web.tokens.list(caller.table_id) if caller.referee else [],
    }
    if caller.referee:
        ctx["corrections"] = corrections(ts, seat_list)
    sheets = [s.sheet for s in seat_list if s.sheet]

    def suggest(seat: Seat) -> dict[str, list[str]]:
        return field_suggestions(per_character, seat.sheet, sheets)

    ctx["suggest"] = suggest
    ctx["sheet_names"] = {  # what a row's sheet field offers once its character is chosen
        seat.id: {
            key: found for key in (seat.sheet or {}) if (found := sheet_names(key, [seat.sheet]))
        }
        for seat in seat_list
        if seat.sheet
    }
    ctx["self_ctx"] = ctx
    return ctx


def corrections(ts: TableState, seat_list: list[Seat]) -> list[dict[str, Any]]:
    """What the referee's correction form offers: each character's and the table's
    tracked values (:func:`referee.systems.state.tracked_fields`), named in the game's
    words, never as a path to type."""
    from collections import Counter

    from referee.systems.state import tracked_fields
    from referee.systems.words import humanize

    words = ts.ruleset.words({s.id: s.name for s in seat_list})

    def named(target: str, paths: list[str]) -> list[dict[str, str]]:
        labels = []
        for path in paths:
            noun = words.field_words(target, path).noun
            plain = humanize(path.rsplit(".", 1)[-1])
            # "Physique loss" says more than the change's noun "Physique"; "AP" than "Ap"
            label = plain if noun.lower() in plain.lower() and len(plain) > len(noun) else noun
            labels.append(label[:1].upper() + label[1:])
        seen = Counter(labels)
        return [
            {
                "key": f"{target}|{path}",
                "label": f"{label} ({humanize(path).lower()})" if seen[label] > 1 else label,
            }
            for path, label in zip(paths, labels, strict=True)
        ]

    groups = [
        {
            "name": s.name,
            "fields": named(s.id, tracked_fields(ts.state.characters[s.id], frozenset({"sheet"}))),
        }
        for s in seat_list
        if s.id in ts.state.characters
    ]
    table = tracked_fields(ts.state, frozenset({"characters", "pending"}))
    groups.append({"name": "The table", "fields": named("table", table)})
    return [g for g in groups if g["fields"]]


_GAMES: dict[str, tuple[list[ActionForm], list[str]]] = {}


def _of_game(game: str, rules: Any) -> tuple[list[ActionForm], list[str]]:
    """A game's action forms and example ids, made once (the same for every table of the
    game; the examples are read from files: a push draws them for every viewer)."""
    found = _GAMES.get(game)
    if found is None:
        found = _GAMES[game] = (action_forms(rules), list(rules.examples()))
    return found


def proposal_views(
    ts: TableState, caller: Caller | Participant, sheets: dict[str, JSONObject | None] | None = None
) -> list[dict[str, Any]]:
    """The actions waiting for a decision that the caller may see: what each asks, of
    whom, the asked fields' descriptions (for the answer's form: only those that matter
    under the table's options, ``param(when=...)``, offering the names on the decider's
    sheet, ``param(sheet=...)``), and whether the caller answers it or may withdraw it."""
    out = []
    current = ts.ruleset.dump_options(ts.options)
    for seq, p in sorted(ts.proposals.items()):
        ask = p.get("ask")
        asked = {str(k): str(v) for k, v in ask.items()} if isinstance(ask, dict) else {}
        kind = ts.ruleset.every_action().get(str(p.get("action")))
        described = (
            [d for d in describe_fields(kind) if d["name"] in asked and field_matters(d, current)]
            if kind
            else []
        )
        answers = {ts.owners.get(cid) for cid in asked.values()}
        given = p.get("fields")
        out.append(
            {
                **proposal_data(ts, seq, p),
                "described": described,
                "sugg": decider_suggestions(
                    described, sheets or {}, given if isinstance(given, dict) else {}
                ),
                "mine": caller.referee or caller.name in answers,
                "withdraw": caller.referee or p.get("by") == caller.name,
            }
        )
    return out


@router.get("/t/{tid}", response_class=HTMLResponse)
def table_page(request: Request, tid: TableId) -> HTMLResponse:
    """The table: participants, sheets, actions with their odds, the log, the tracker."""
    web = web_of(request)
    caller = _caller(request, tid)
    return _html(web, "table.html", **table_context(web, caller))


@dataclass(frozen=True)
class Participant:
    """Who a page or a pushed fragment is rendered for: a table, a name and a role (an
    authenticated :class:`Caller`, or the viewer of a live connection)."""

    table_id: str
    name: str
    role: Role

    @property
    def referee(self) -> bool:
        """True for the table's referees."""
        return self.role == "referee"


def panels_data(
    web: Web, caller: Caller | Participant, participants: str | None = None
) -> JSONObject:
    """The live parts of the table page as ``caller`` sees them now: every card, the
    caller's action panels, the tracker, the decisions waited for, the participants
    (what a push carries after an event, and ``/t/{tid}/panels`` answers). A push passes
    the ``participants`` list it keeps drawn (:mod:`referee.web.panel_push`): it changes
    when someone joins, leaves or changes role, not with each event."""
    ctx = table_context(web, caller, with_log=False)
    env = web.renderer.env
    card = env.get_template("_card.html").module
    panel = env.get_template("_actpanel.html").module
    ts: TableState = ctx["ts"]
    return {
        "seq": ts.seq,
        "cards": {
            s.id: {"live": str(card.live(s, ctx)), "card": str(card.card(s, ctx))}  # type: ignore[attr-defined]
            for s in ctx["seats"]
        },
        "panels": {
            s.id: str(panel.panel(s, ctx))  # type: ignore[attr-defined]
            for s in ctx["actable"]
        },
        "characters": [{"id": s.id, "name": s.name, "owner": s.owner} for s in ctx["seats"]],
        "tracker": env.get_template("_tracker.html").render(**ctx),
        "pending": env.get_template("_pending.html").render(**ctx),
        "participants": env.get_template("_participants.html").render(**ctx)
        if participants is None
        else participants,
        "corrections": env.get_template("_corrections.html").render(**ctx)
        if caller.referee
        else "",
        "undone": sorted(ts.undone),
        "role": caller.role,
        "people": [{"name": n, "role": r} for n, r in ts.participants.items()],
    }


@router.get("/t/{tid}/panels")
def panels(caller: Reader, request: Request) -> JSONResponse:
    """The live parts of the table page, re-rendered (a browser that reconnects asks for
    them; after each event the push carries them)."""
    return JSONResponse(panels_data(web_of(request), caller))


@router.post("/t/{tid}/preview")
async def preview(caller: Reader, body: OddsIn, request: Request) -> JSONResponse:
    """The odds preview of a form being filled in: the chart, or every problem by field
    (computed off the event loop, as the API's odds)."""
    web = web_of(request)
    bounded(body.fields, "fields")
    try:
        _name, _fields, data, html = await odds_off_loop(
            request, caller, body.action, body.fields, html=True
        )
    except InvalidSheet as e:
        problems = [problem_data(p) for p in e.problems]
        html = web.renderer.page("_odds.html", odds=None, problems=problems, error=None)
        return JSONResponse({"ok": False, "html": html, "problems": problems})
    except HiddenOdds as e:  # what the chance depends on, not a refusal
        html = web.renderer.page(
            "_odds.html", odds=None, problems=[], error=None, depends=str(e), hidden=e
        )
        return JSONResponse(
            {"ok": False, "html": html, "problems": [], "detail": str(e), "depends": e.data()}
        )
    except (RulesError, WebError) as e:
        text = e.detail if isinstance(e, WebError) else str(e)
        html = web.renderer.page("_odds.html", odds=None, problems=[], error=text)
        return JSONResponse({"ok": False, "html": html, "problems": [], "detail": text})
    return JSONResponse({"ok": True, "html": html, "problems": [], **data})


@router.get("/t/{tid}/entries")
def entries(
    caller: Reader,
    request: Request,
    before: Annotated[int, Query(ge=1, le=MAX_SEQ)],
) -> JSONResponse:
    """Older log entries: up to 200 before ``before``, oldest first."""
    web = web_of(request)
    start = max(0, before - 1 - RECENT)
    ts = web.service.view(caller.table_id, caller.name)
    events = web.service.log(caller.table_id, caller.name, after=start, limit=before - 1 - start)
    html = "".join(web.renderer.entry(e, undone=e.get("seq") in ts.undone) for e in events)
    return JSONResponse({"html": html, "first": events[0]["seq"] if events else 0})


@router.post("/t/{tid}/forget")
def forget(request: Request, tid: TableId) -> Response:
    """Forget this table's link in this browser (the link itself stays valid)."""
    web = web_of(request)
    if not web.origin_ok(request):
        raise WebError(403, "refused: the request did not come from this site's pages")
    response = JSONResponse({"forgotten": tid})
    clear_session(response, request, tid)
    return response


# ---------------------------------------------------------------------------
# the live socket


@router.websocket("/ws/tables/{tid}")
async def socket(websocket: WebSocket, tid: str) -> None:
    """Every new event of the table, redacted for the participant, in seq order.

    Connect with ``?after=SEQ`` (the last seq seen): the events after it come
    first, exactly once each, then a ``{"type": "live"}`` message, then each new
    event as it is appended (by this process or, through the database, another).
    ``&lean=1`` sends each event's lean form (:func:`~referee.web.live.lean_event`,
    what the page reads beside the HTML) instead of the whole redacted event."""
    web = web_of(websocket)
    found = presented(websocket, tid)
    origin = websocket.headers.get("origin")
    if (origin is not None or (found and found[1] == "cookie")) and not (
        origin is not None and web.origin_ok(websocket)
    ):
        # a browser always sends Origin with a handshake: the cookie is honoured only with
        # this site's; a program with a bearer token may send none
        await websocket.close(1008, "origin refused")
        return
    try:
        after = int(websocket.query_params.get("after", "0"))
    except ValueError:
        after = -1
    lean = websocket.query_params.get("lean", "0")
    if not 0 <= after <= MAX_SEQ or len(tid) > 40 or lean not in ("0", "1"):
        await websocket.close(1008, "bad request")
        return
    if found is None:
        await websocket.close(1008, "this table needs its invite link")
        return
    grant = await web.hub.in_thread(web.tokens.check, found[0])
    if grant is None or grant.table_id != tid:
        await websocket.close(1008, "unknown or revoked link")
        return
    try:
        web.quotas.request(grant.table_id, grant.name)
        web.quotas.socket(web.hub.open_at(tid), web.hub.open_at(tid, grant.name))
    except TooMany as e:  # the documented answer: 429 with when to try again
        headers = {"Retry-After": str(e.retry_after)}
        refused = JSONResponse({"detail": e.detail}, status_code=429, headers=headers)
        if "websocket.http.response" in websocket.scope.get("extensions", {}):
            await websocket.send_denial_response(refused)
        else:  # a server without the denial extension: close 1013, "try again later"
            await websocket.close(1013, e.detail)
        return
    with web.hub.opening(tid, grant.name):  # counted from here, with no wait since the check
        await _serve_socket(websocket, web, tid, grant, after)


async def _serve_socket(websocket: WebSocket, web: Web, tid: str, grant: Grant, after: int) -> None:
    try:
        ts = await web.hub.in_thread(web.service.load, tid)
    except Exception:
        await websocket.close(1008, "no such table")
        return
    role = ts.participants.get(grant.name)
    if role is None:
        await websocket.close(1008, "no longer at this table")
        return
    await websocket.accept()
    lean = websocket.query_params.get("lean") == "1"
    conn = Connection(websocket, tid, Viewer(grant.name, role), after, grant.id, lean)
    await web.hub.serve(conn)
    if websocket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):  # the browser may be gone already
            await websocket.close()
