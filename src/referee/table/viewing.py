"""What a participant may know of a table: its events redacted for them, its state as JSON,
and the exact odds of an action before it is taken, on their own view.

Reading is redacted per viewer (:func:`redact`): a player's log and state never hold what
they may not see. The odds read the participant's view of the table (:meth:`~referee.
table.service.TableService.view`), never the whole truth, and are refused as the action
would be (principle 10, non-interference).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal, cast

from referee.dice.odds import Distribution
from referee.errors import DiceError, IllegalAction, RulesError
from referee.systems.base import Action, JSONObject, JSONValue
from referee.table import rights
from referee.table.events import Event
from referee.table.hidden import HiddenOdds, hidden_odds
from referee.table.state import EVERYTHING, SHEET_KINDS, TableState, Viewer, can_see

Odds = tuple[Action, Distribution[Hashable], Fraction | None, Callable[[Hashable], bool | None]]
"""An action's odds: the action, the distribution of what it reports, its chance of
success (``None``: none), and which reported values succeed."""


@dataclass(frozen=True)
class Choice:
    """One answer of a choice someone else makes before an action is rolled, with the
    action's chance of success if they give it (``value`` ``None``: a field of too many
    values to list; ``chance`` ``None``: no success or failure, or not listed)."""

    field: str
    who: str
    value: JSONValue
    chance: Fraction | None


@dataclass(frozen=True)
class Answer:
    """One answer of a decision the rules wait for (:class:`~referee.systems.state.Decision`),
    as one participant may know it: the action its ``actor`` takes with it, and that
    action's exact odds from the same plan as its roll (``odds`` and ``chance``, the
    plan's chance of success: ``None`` where it has none), or ``hidden`` (why there is no
    number: the sheet it reads is kept from the participant), or neither where the
    participant does not answer it."""

    actor: str
    action: str
    odds: Distribution[Hashable] | None = None
    chance: Fraction | None = None
    hidden: str | None = None


# -- odds before the roll --------------------------------------------------------------


def odds(seen: TableState, by: str, action: str, fields: JSONValue) -> Odds:
    """The exact odds of an action on ``seen``, what ``by`` may know of the table (see
    :meth:`~referee.table.service.TableService.odds`)."""
    role = seen.role_of(by)
    rules = seen.ruleset
    chosen = rules.load_action(action, fields)
    if role != "referee" and not chosen.free:  # the dice tray's odds: anyone's
        rights.may_act(seen, by, chosen)
    hidden = [] if seen.settings.true_odds else rights.hidden_sheets(seen, by, chosen)
    read = set(rules.sheets_read(chosen, seen.options))
    sheets = [cid for cid in hidden if cid in read]
    if sheets:
        unknown = rules.unknown(chosen, seen.state, seen.options) if len(sheets) == 1 else None
        if unknown is not None and unknown.character != sheets[0]:
            unknown = None
        raise hidden_odds(rights.names(seen, sheets), unknown)
    try:
        plan = rules.planned(chosen, seen.state, seen.options)
    except (IllegalAction, DiceError) as e:
        if not hidden:
            raise
        raise IllegalAction(rights.sheet_refusal(seen, hidden)) from e  # quoting none of it
    return chosen, plan.odds(), plan.chance(), plan.succeeds


def alternatives(seen: TableState, by: str, action: str, fields: JSONValue) -> list[Choice]:
    """The chance of an action for each answer of a choice someone else still makes, on
    ``seen`` (see :meth:`~referee.table.service.TableService.alternatives`)."""
    chosen = odds(seen, by, action, fields)[0]  # every refusal of the odds, first
    rules = seen.ruleset
    out: list[Choice] = []
    for name, cid in rights.asked(seen, by, chosen).items():
        if "." in name:
            continue
        who = rights.names(seen, [cid]) if cid in seen.state.characters else "the referee"
        values = _few_values(type(chosen), name)
        if not values:
            out.append(Choice(name, who, None, None))
            continue
        answers: list[Choice] = []
        for value in values:
            try:
                other = replace(chosen, **{name: value})
                chance = rules.planned(other, seen.state, seen.options).chance()
            except (IllegalAction, RulesError):
                continue  # not a choice the rules allow now
            answers.append(Choice(name, who, cast(JSONValue, value), chance))
        if len({c.chance for c in answers}) > 1:  # listed where the answer matters
            out += answers
    return out


def answers(seen: TableState, by: str) -> list[list[Answer]]:
    """For each decision the rules wait for on ``seen``, one :class:`Answer` per choice
    (see :meth:`~referee.table.service.TableService.answers`)."""
    out: list[list[Answer]] = []
    for decision in seen.state.pending:
        row: list[Answer] = []
        for choice in decision.choices:
            fields: JSONObject = {"actor": decision.actor}
            try:
                _, dist, chance, _ = odds(seen, by, choice, fields)
            except HiddenOdds as e:
                row.append(Answer(decision.actor, choice, hidden=str(e)))
                continue
            except RulesError:  # not theirs to answer, or not a choice the rules allow now
                row.append(Answer(decision.actor, choice))
                continue
            row.append(Answer(decision.actor, choice, dist, chance))
        out.append(row)
    return out


def _few_values(kind: type, name: str) -> tuple[object, ...]:
    """The values of an action's field worth listing one by one: yes and no, or a
    ``Literal`` of at most eight words; otherwise none."""
    hint = typing.get_type_hints(kind).get(name)
    if hint is bool:
        return (False, True)
    if typing.get_origin(hint) is Literal and len(typing.get_args(hint)) <= 8:
        return typing.get_args(hint)
    return ()


# -- events, redacted ------------------------------------------------------------------


def redact(
    event: Event,
    viewer: Viewer,
    revealed: frozenset[int],
    table: TableState | None,
) -> JSONObject:
    """``event`` as ``viewer`` may see it: whole, or without what they may not see.

    A blind roll shows what was attempted but not what came of it; a referee's
    secret roll shows that the referee rolled; a private event shows only that
    something happened. The hash stays (the chain's shape is public) but the
    salt goes with the payload, so the hash gives nothing away.

    ``table`` is the table now: a character's seating or new sheet shows its sheet
    only to those :meth:`TableState.sees_sheet` allows; the others read that it was
    seated, its name and its owner (:func:`sheet_hidden`). It may be ``None`` only for
    an event that holds no sheet (a caller need not load the table for the others);
    a sheet's event without it is refused, so no caller can skip hiding a sheet.
    """
    if can_see(event, viewer, revealed):
        if sheet_hidden(event, viewer, table):
            return _without_sheet(event)
        if _typed_faces_hidden(event, viewer):
            return _without_faces(event)
        return event.data()
    shown: JSONObject = {
        "table": event.table,
        "seq": event.seq,
        "time": event.time,
        "visibility": event.visibility,
        "redacted": True,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
    }
    if event.visibility in ("blind", "referee", "self"):
        shown["actor"] = event.actor
        shown["kind"] = event.kind
    if event.visibility == "blind":
        attempted: JSONObject = {
            k: event.payload[k] for k in ("action", "fields") if k in event.payload
        }
        shown["payload"] = attempted
    return shown


def sheet_hidden(event: Event, viewer: Viewer, table: TableState | None) -> bool:
    """Whether ``event`` holds a sheet ``viewer`` may not see (under the table's sheets
    setting now and the character's owner now); ``table`` is required for such an event
    (``TypeError`` without it: hiding a sheet is never skipped)."""
    if event.kind not in SHEET_KINDS:
        return False
    if table is None:
        raise TypeError(f"event {event.seq} holds a sheet: who may see it needs the table")
    return not table.sees_sheet(viewer, str(event.payload.get("id", "")))


def redaction_key(
    event: Event, viewer: Viewer, revealed: frozenset[int], table: TableState | None
) -> tuple[bool, bool]:
    """What :func:`redact` shows ``viewer`` of ``event`` depends only on this pair
    (whether they see the payload, whether its sheet is hidden): viewers with the same key
    are sent the same text."""
    hidden = sheet_hidden(event, viewer, table) or _typed_faces_hidden(event, viewer)
    return can_see(event, viewer, revealed), hidden


def _typed_faces_hidden(event: Event, viewer: Viewer) -> bool:
    """Whether ``event`` is a proposal holding the faces its proposer typed, seen by
    someone else than the proposer or a referee (who answers it decides without them:
    they are the roll, which the proposal's visibility may hide)."""
    return (
        event.kind == "action-proposed"
        and event.payload.get("faces") is not None
        and not viewer.sees_all
        and viewer.name != event.actor
    )


def _without_faces(event: Event) -> JSONObject:
    """A proposal without the faces typed for it (and its salt, as every payload shown in
    part)."""
    shown = {**event.data(), "salt": ""}
    shown["payload"] = {**event.payload, "faces": "typed"}
    return shown


def _without_sheet(event: Event) -> JSONObject:
    """A seating or sheet update with its sheet taken out: the character's id, name and
    owner stay. Its salt goes too (as with every redacted payload)."""
    p = event.payload
    sheet = p.get("sheet")
    name = sheet.get("name") if isinstance(sheet, dict) else None
    shown = {**event.data(), "salt": "", "sheet_hidden": True}
    shown["payload"] = {
        "id": p.get("id"),
        "owner": p.get("owner"),
        "sheet": {"name": name} if isinstance(name, str) else None,
    }
    return shown


# -- the table as JSON -----------------------------------------------------------------


def tracker(ts: TableState, viewer: Viewer = EVERYTHING) -> JSONObject:
    """The game's tracker as ``viewer`` may know it: the table's rows, and each
    character's rows only where ``viewer`` may see its sheet (:meth:`TableState.sees_sheet`).

    A character's rows are read from its sheet (Mneme CE's HP and thresholds, Mongrel's
    Action Points of a maximum, ARM's wound levels against its Toughness), so they are as
    hidden as the sheet: a player who may not see an adversary's sheet is shown its name
    (on its card) and what the log tells, never its numbers. Two tables that differ only
    in a hidden sheet give that player the same tracker."""
    tracked = ts.ruleset.tracker(ts.state, ts.options)
    rows = tracked.get("characters")
    if not isinstance(rows, dict) or all(ts.sees_sheet(viewer, cid) for cid in rows):
        return tracked
    return {
        **tracked,
        "characters": {
            cid: (found if ts.sees_sheet(viewer, cid) else []) for cid, found in rows.items()
        },
    }


def table_data(ts: TableState, viewer: Viewer = EVERYTHING) -> JSONObject:
    """A table's state as JSON: who is there, the characters' owners and findings, the
    house rules, who sees the sheets, the game's tracker and the decisions the rules wait
    for. For ``viewer``, the characters whose sheets they may not see keep no record in
    ``state`` (every number of a seat starts from its sheet: Mongrel's Action Points, Mneme
    CE's Initiative) and no rows in the tracker (:func:`tracker`), and the validator's
    findings about them are left out (:meth:`TableState.sees_sheet`)."""
    rules = ts.ruleset
    state = rules.dump_state(ts.state)
    hidden = {cid for cid in ts.state.characters if not ts.sees_sheet(viewer, cid)}
    seated = state.get("characters")
    if hidden and isinstance(seated, dict):
        state["characters"] = {
            cid: ({"sheet_hidden": True} if cid in hidden else rec) for cid, rec in seated.items()
        }
    return {
        "id": ts.id,
        "name": ts.name,
        "game": ts.game,
        "title": rules.title,
        "seq": ts.seq,
        "hash": ts.hash,
        "seeded": ts.seed is not None,
        "participants": dict(ts.participants),
        "owners": dict(ts.owners),
        "findings": {k: list(v) for k, v in ts.findings.items() if k not in hidden},
        "options": rules.dump_options(ts.options),
        "sheets": ts.sheets,
        "settings": ts.settings.data(),
        "requests": [{"seq": seq, **r} for seq, r in sorted(ts.requests.items())],
        "tracker": tracker(ts, viewer),
        "pending": [
            {"actor": d.actor, "prompt": d.prompt, "choices": list(d.choices)}
            for d in ts.state.pending
        ],
        "proposals": [proposal_data(ts, seq, p) for seq, p in sorted(ts.proposals.items())],
        "undone": sorted(ts.undone),
        "state": state,
        "sheet_views": {
            cid: rules.sheet_view_safe(seat.sheet, seat, ts.options, ts.state).data()
            for cid, seat in ts.state.characters.items()
            if cid not in hidden
        },
    }


def proposal_data(ts: TableState, seq: int, p: JSONObject) -> JSONObject:
    """An action waiting for a decision, as JSON: who proposed it, what it asks of whom
    (each asked field, the character whose choice it is and who answers: their owner, or
    the referee for a character no player owns) and the fields it holds so far."""
    ask = p.get("ask")
    asked = ask if isinstance(ask, dict) else {}
    return {
        "seq": seq,
        "by": p.get("by"),
        "action": p.get("action"),
        "fields": p.get("fields"),
        "ask": [
            {"field": k, "character": v, "answers": ts.owners.get(str(v)) or "the referee"}
            for k, v in asked.items()
        ],
    }
