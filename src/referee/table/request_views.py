"""What each participant is shown of the roll requests (:mod:`referee.table.requests`).

The referee sees every request whole: the difficulty (and its name in the text), each
asked character's exact chance now, each answer's result and the exact chance it had, in
the order they were rolled. A player sees only the requests that ask their characters,
never a secret difficulty nor anything computed from it: their chance is computed on
their own view, from the numbers the text names (:func:`for_player`). An observer sees
none. Also the referee's preview before sending, and the lines the command line prints.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING

from referee.errors import RulesError
from referee.systems.base import JSONObject, JSONValue
from referee.table import rights
from referee.table.requests import (
    RollRequest,
    asked_characters,
    chance_text,
    check_roll,
    declaration,
    fields_for,
    made,
    name_of,
    requests_of,
)
from referee.table.state import TableState

if TYPE_CHECKING:
    from referee.table.service import TableService


def view(service: TableService, ref: str, by: str | None) -> list[JSONObject]:
    """The requests as ``by`` may know them, newest last: the referee's whole (the
    difficulty, each asked character's exact chance now, each answer's roll and the exact
    chance it had); a player's, only those asking their characters, without a secret
    difficulty, with their chance per named difficulty (:func:`for_player`)."""
    full = service.load(ref)
    role = "referee" if by is None else full.role_of(by)
    everything = requests_of(service, full)
    out: list[JSONObject] = []
    for r in everything.values():
        if role == "referee":
            out.append(_for_referee(service, full, r, by))
        elif by is not None and any(full.owners.get(c) == by for c in r.characters):
            out.append(for_player(service, full, r, by))
    return out


def _common(ts: TableState, r: RollRequest) -> JSONObject:
    return {
        "seq": r.seq,
        "by": r.by,
        "action": r.action,
        "words": r.action.replace("-", " "),
        "fields": dict(r.fields),
        "field": r.field,
        "secret": r.secret,
        "open": r.open,
        "withdrawn": r.closed,
        "shown": r.shown,
    }


def _for_referee(
    service: TableService, ts: TableState, r: RollRequest, by: str | None
) -> JSONObject:
    decl = declaration(ts, r.action)
    events = {
        e.seq: e
        for s in sorted(r.answers.values())
        for e in service.store.events(ts.id, after=s - 1, upto=s)
    }
    asked: list[JSONObject] = []
    for cid in r.characters:
        row: JSONObject = {"character": cid, "name": name_of(ts, cid), "owner": ts.owners.get(cid)}
        at = r.answers.get(cid)
        if at is not None:
            e = events[at]
            outcome = e.payload.get("outcome")
            row |= {
                "answered": at,
                "chance": {"chance": e.payload.get("chance")},
                "result": _result(outcome),
                "success": outcome.get("success") if isinstance(outcome, dict) else None,
                "failed": e.kind == "action-failed",
            }
        elif not r.closed and by is not None:
            row["chance"] = _chance(service, ts.id, by, r.action, fields_for(ts, r, cid))
        asked.append(row)
    order = sorted(asked, key=lambda a: _at(a.get("answered")))  # answers in order
    label = decl.label(r.difficulty) if decl is not None and r.difficulty is not None else None
    return _common(ts, r) | {"difficulty": r.difficulty, "label": label, "asked": order}


def _at(seq: JSONValue) -> int:
    return seq if isinstance(seq, int) else 2**31


def _result(outcome: JSONValue) -> str:
    """An outcome's words for the answers panel: its label on the game's ladder, and its
    total against its target where it has them."""
    if not isinstance(outcome, dict):
        return ""
    label = outcome.get("label") or ""
    success = outcome.get("success")
    said = (
        str(label) if label else ("success" if success else "failure" if success is False else "")
    )
    return said


def for_player(service: TableService, ts: TableState, r: RollRequest, by: str) -> JSONObject:
    """Request ``r`` as player ``by`` may know it: never a secret difficulty (nor anything
    computed from it); for each of their characters asked, whether it rolled, and its
    chance: exact where the difficulty is open, else one per named difficulty, each
    computed on ``by``'s own view from that number alone."""
    decl = declaration(ts, r.action)
    asked: list[JSONObject] = []
    for cid in r.characters:
        if ts.owners.get(cid) != by:
            continue
        row: JSONObject = {"character": cid, "name": name_of(ts, cid)}
        if cid in r.answers:
            row["answered"] = r.answers[cid]
        elif not r.closed and r.secret and decl is not None:
            fixed = dict(decl.fixed)
            row["chances"] = [
                {
                    "label": n.label,
                    "value": n.value,
                    "chance": _chance(
                        service, ts.id, by, r.action, r.action_fields(cid, n.value, fixed)
                    ),
                }
                for n in decl.named
            ]
        elif not r.closed:
            row["chance"] = _chance(service, ts.id, by, r.action, fields_for(ts, r, cid))
        asked.append(row)
    shown = {k: v for k, v in _common(ts, r).items()}
    if not r.secret:
        label = decl.label(r.difficulty) if decl is not None and r.difficulty is not None else None
        shown |= {"difficulty": r.difficulty, "label": label}
    return shown | {"asked": asked}


def _chance(service: TableService, tid: str, by: str, action: str, fields: JSONObject) -> JSONValue:
    """The exact chance ``by`` may know of one roll: ``{"chance": "7/12"}``, or why there is
    no number (``{"none": "..."}``: a sheet they may not see, a refusal)."""
    try:
        _, _, chance, _ = service.odds(tid, by, action, fields)
    except RulesError as e:
        return {"none": str(e)}
    return {"chance": chance_text(chance)}


def _pct(chance: JSONValue) -> str:
    """A chance as the view gives it, in words: ``42% (5/12)``, or why there is none."""
    if not isinstance(chance, dict):
        return "no chance to show"
    if chance.get("none"):
        return f"no number: {chance['none']}"
    exact = chance.get("chance")
    if not isinstance(exact, str):
        return "no success or failure"
    value = Fraction(exact)
    return f"{float(value) * 100:.1f}% ({exact})"


def text(requests: Iterable[JSONObject]) -> str:
    """The requests of :func:`view` as lines for the command line."""
    lines: list[str] = []
    for r in requests:
        fields = r.get("fields")
        said = ", ".join(f"{k} {v}" for k, v in fields.items()) if isinstance(fields, dict) else ""
        hid = "secret " if r.get("secret") else ""
        against = f"; {hid}{r.get('field')} {r['label']}" if r.get("label") else ""
        if r.get("secret") and not r.get("label"):
            against = "; a secret difficulty"
        state = "withdrawn" if r.get("withdrawn") else "open" if r.get("open") else "answered"
        lines.append(
            f"#{r.get('seq')} {r.get('words')} ({said}{against}) by {r.get('by')}: {state}"
        )
        asked = r.get("asked")
        for a in asked if isinstance(asked, list) else []:
            if not isinstance(a, dict):
                continue
            if a.get("answered"):
                got = f": {a['result']}" if a.get("result") else ""
                had = f" (chance {_pct(a.get('chance'))})" if a.get("chance") else ""
                lines.append(f"  {a.get('name')} rolled, event #{a['answered']}{had}{got}")
            elif isinstance(a.get("chances"), list):
                per = "; ".join(
                    f"{c.get('label')} {c.get('value')}: {_pct(c.get('chance'))}"
                    for c in a["chances"]
                    if isinstance(c, dict)
                )
                lines.append(f"  {a.get('name')} to roll; chance by difficulty: {per}")
            else:
                lines.append(f"  {a.get('name')} to roll; chance {_pct(a.get('chance'))}")
    return "\n".join(lines) if lines else "no roll requests"


def preview(
    service: TableService,
    ref: str,
    by: str,
    action: str,
    fields: JSONValue,
    characters: list[str],
    difficulty: int | str | None,
    secret: bool,
    visibility: str,
) -> list[JSONObject]:
    """What the referee sees before sending a request: each asked character, its owner
    and its exact chance with the difficulty (refused as :func:`make` would be)."""
    ts = service.load(ref)
    rights.referee(ts, by, "ask for rolls")
    cids = asked_characters(ts, characters)
    request, _ = made(ts, action, fields, cids, difficulty, secret, visibility)
    out: list[JSONObject] = []
    for cid in cids:
        check_roll(service, ts, request, cid, ts.owners.get(cid))
        out.append(
            {
                "character": cid,
                "name": name_of(ts, cid),
                "owner": ts.owners.get(cid),
                "chance": _chance(service, ts.id, by, action, fields_for(ts, request, cid)),
            }
        )
    return out
