"""The commands that run a table around the game's actions: who is there and in what role,
the house rules and settings, the characters seated, manual edits, notes, and taking
back, putting back and revealing events.

As in :mod:`referee.table.acting`, each function checks what it can without the table and
returns the :data:`~referee.table.drafts.Build` the service's writer runs on the table as
it is now; the checks of who may do what are :mod:`referee.table.rights`'.
"""

from __future__ import annotations

import secrets
from typing import Final, cast

from referee.errors import RulesError
from referee.systems.base import JSONObject, JSONValue, jsonable, problem_data, slug
from referee.systems.words import names_in
from referee.table import rights
from referee.table.drafts import Build, Draft, Reads, as_hidden_as, event_at
from referee.table.events import UNDOABLE, Event, Visibility
from referee.table.names import MAX_NAME, check_name, look_alike
from referee.table.rights import Forbidden
from referee.table.state import Role, SheetsShown, TableState, settings_with, sheets_setting

MAX_NOTE = 4000
"""The longest note or chat message."""

_CHANGE_KEYS: Final = frozenset({"target", "field", "delta", "value", "reason"})


# -- participants ----------------------------------------------------------------------


def join(name: str, role: Role, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.join`."""
    name = check_name(name, "the participant's name")
    rights.check_role(role)

    def build(ts: TableState) -> Draft:
        rights.referee(ts, by, "add participants")
        if name in ts.participants:
            raise RulesError(f"{name!r} is already at table {ts.name!r} ({ts.participants[name]})")
        alike = look_alike(name, ts.participants)
        if alike is not None:
            raise RulesError(
                f"{name!r} looks like {alike!r}, already at table {ts.name!r}: choose a "
                "name the others can tell apart"
            )
        return Draft("participant-joined", {"name": name, "role": role})

    return build


def leave(name: str, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.leave`."""

    def build(ts: TableState) -> Draft:
        ts.role_of(name)
        if by != name:
            rights.referee(ts, by, "remove participants")
        rights.keeps_a_referee(ts, name, None)
        return Draft("participant-left", {"name": name})

    return build


def set_role(name: str, role: Role, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.set_role`."""
    rights.check_role(role)

    def build(ts: TableState) -> Draft:
        rights.referee(ts, by, "change roles")
        ts.role_of(name)
        rights.keeps_a_referee(ts, name, role)
        return Draft("role-changed", {"name": name, "role": role})

    return build


# -- house rules and settings ----------------------------------------------------------


def set_options(options: JSONValue, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.set_options`."""

    def build(ts: TableState) -> Draft:
        rights.referee(ts, by, "change the house rules")
        loaded = ts.ruleset.load_options(options)
        return Draft("options-changed", {"options": ts.ruleset.dump_options(loaded)})

    return build


def set_sheets(sheets: str, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.set_sheets`."""
    chosen: SheetsShown = sheets_setting(sheets.strip().lower())

    def build(ts: TableState) -> Draft:
        rights.referee(ts, by, "choose who sees the sheets")
        return Draft("sheets-shown", {"sheets": chosen})

    return build


def set_settings(changes: JSONObject, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.set_settings`."""

    def build(ts: TableState) -> Draft:
        rights.referee(ts, by, "change the table's settings")
        settings_with(ts.settings, changes)  # refused before anything is written
        now = ts.settings.data()
        changed = {k: v for k, v in changes.items() if now.get(k) != v}
        if not changed:
            raise RulesError("the table's settings are already so: nothing changes")
        return Draft("settings-changed", {"settings": changed})

    return build


# -- characters ------------------------------------------------------------------------


def add_character(
    sheet: JSONValue | str,
    owner: str | None,
    cid: str | None,
    by: str | None,
    force: bool,
    visibility: Visibility,
) -> Build:
    """The build of :meth:`~referee.table.service.TableService.add_character`."""

    def build(ts: TableState) -> Draft:
        shown = rights.visibility(ts, by, visibility, tray=False)
        data, loaded = _sheet(ts, sheet)
        new_id = check_name(cid or slug(str(getattr(loaded, "name", "")) or "character"), "the id")
        if shown == "private" and by is None:
            shown = "referee"  # the operator's private seating: the referees'
        if shown != "public":
            # an id nobody can guess: choosing the same id must not find a secret one
            new_id = f"{new_id[: MAX_NAME - 7]}-{secrets.token_hex(3)}"
        if new_id in ts.state.characters:
            raise RulesError(f"table {ts.name!r} already has a character {new_id!r}")
        who = rights.owner_for(ts, by, owner)
        payload = _seated(ts, by, new_id, who, data, loaded, force)
        return Draft("character-added", payload, shown, by if shown == "private" else None)

    return build


def update_character(cid: str, sheet: JSONValue | str, by: str | None, force: bool) -> Build:
    """The build of :meth:`~referee.table.service.TableService.update_character`."""

    def build(ts: TableState) -> Draft:
        rights.active(ts, by)
        ts.state.character(cid)
        rights.owns_or_referee(ts, by, cid, "update")
        data, loaded = _sheet(ts, sheet)
        payload = _seated(ts, by, cid, ts.owners.get(cid), data, loaded, force)
        return Draft("character-updated", payload)

    return build


def remove_character(cid: str, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.remove_character`."""

    def build(ts: TableState) -> Draft:
        rights.referee(ts, by, "remove characters")
        ts.state.character(cid)
        return Draft("character-removed", {"id": cid})

    return build


def _seated(
    ts: TableState,
    by: str | None,
    cid: str,
    owner: str | None,
    data: JSONObject,
    loaded: object,
    force: bool,
) -> JSONObject:
    """A seated sheet's payload with the validator's findings (refused unless none, or
    the referee forces it in: then it is marked with every finding)."""
    problems = ts.ruleset.validate(loaded, ts.options, ts.state)
    rights.allow_findings(ts, by, problems, force)
    return {
        "id": cid,
        "owner": owner,
        "sheet": data,
        "problems": [problem_data(p) for p in problems],
        "forced": bool(problems),
    }


def _sheet(ts: TableState, sheet: JSONValue | str) -> tuple[JSONObject, object]:
    """A sheet given as JSON or as the name of one of the text's examples: as stored, and
    as the game's sheet."""
    rules = ts.ruleset
    if isinstance(sheet, str):
        examples = rules.examples()
        key = sheet.strip().lower()
        if key not in examples:
            known = ", ".join(examples) or "none"
            raise RulesError(f"{rules.title} has no example character {sheet!r}; known: {known}")
        loaded = examples[key]
        return rules.dump_sheet(loaded), loaded
    loaded = rules.load_sheet(sheet)
    return rules.dump_sheet(loaded), loaded


# -- edits and notes -------------------------------------------------------------------


def edit(changes: JSONValue, reason: str, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.edit`."""
    reason = reason.strip()
    if not reason:
        raise RulesError("a manual edit needs a reason")
    if not isinstance(changes, list) or not changes:
        raise RulesError("an edit is a non-empty list of changes")

    def build(ts: TableState) -> Draft:
        rights.referee(ts, by, "edit the state")
        clean = [_change_data(c, i) for i, c in enumerate(changes)]
        edited: JSONObject = {
            "changes": clean,
            "reason": reason[:MAX_NOTE],
            "system": ts.ruleset.name,  # whose words the changes read in
        }
        said = names_in(ts.state.characters, [c.get("target") for c in clean])
        if said:
            edited["names"] = cast(JSONObject, said)
        return Draft("state-edited", edited)

    return build


def _change_data(data: JSONValue, i: int) -> JSONObject:
    if not isinstance(data, dict):
        raise RulesError(f"change {i}: not an object")
    extra = set(data) - _CHANGE_KEYS
    if extra:
        raise RulesError(f"change {i}: unknown field(s) {', '.join(sorted(extra))}")
    target, fld = data.get("target"), data.get("field")
    if not isinstance(target, str) or not isinstance(fld, str) or not fld:
        raise RulesError(f"change {i}: 'target' (a character id or 'table') and 'field' needed")
    delta = data.get("delta")
    if delta is not None and (not isinstance(delta, int) or isinstance(delta, bool)):
        raise RulesError(f"change {i}: 'delta' is a whole number")
    if delta is None and "value" not in data:
        raise RulesError(f"change {i}: give a 'delta' or a 'value'")
    return {
        "target": target,
        "field": fld,
        "delta": delta,
        "value": jsonable(data.get("value")),
        "reason": str(data.get("reason", "")),
    }


def note(text: str, by: str | None, visibility: Visibility, audience: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.note`."""
    body = text.strip()
    if not body:
        raise RulesError("the note is empty")
    if len(body) > MAX_NOTE:
        raise RulesError(f"the note is longer than {MAX_NOTE} characters")

    def build(ts: TableState) -> Draft:
        if by is not None and ts.role_of(by) == "observer":
            raise Forbidden("an observer only reads")
        shown = rights.visibility(ts, by, visibility)
        to = None
        if shown == "private":
            to = audience or by
            if to is None:
                raise RulesError("a private note names who it is for")
            ts.role_of(to)
        return Draft("note", {"text": body}, shown, to)

    return build


# -- taking back, putting back, revealing ----------------------------------------------


def undo(reads: Reads, seq: int | None, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.undo`."""

    def build(ts: TableState) -> Draft:
        role = rights.active(ts, by)
        events = reads.store.events(ts.id)
        target = _undo_target(ts, events, seq, by)
        shown, audience = as_hidden_as(events[target - 1])
        # a roll the referee asked for (a roll request's answer) is the referee's to take
        # back: under "always" a player asks, as under "ask", so that a requested roll,
        # a secret difficulty's above all, is not rolled again until it suits
        answered = isinstance(events[target - 1].payload.get("roll_request"), int)
        if role == "referee" or (ts.settings.take_back == "always" and not answered):
            return Draft("undo", {"seq": target}, shown, audience)
        if ts.settings.take_back == "never":
            raise Forbidden(
                "at this table a drawn roll is not taken back (the referee's Fair play "
                "settings); ask the referee"
            )
        if any(r.get("what") == "undo" and r.get("seq") == target for r in ts.requests.values()):
            raise RulesError(f"taking back event {target} already waits for the referee")
        return Draft("request-made", {"what": "undo", "seq": target}, shown, audience)

    return build


def _undo_target(ts: TableState, events: list[Event], seq: int | None, by: str | None) -> int:
    refereeing = by is None or ts.role_of(by) == "referee"
    live = [e for e in events if e.kind in UNDOABLE and e.seq not in ts.undone]
    if seq is None:
        mine = live if refereeing else [e for e in live if e.actor == by]
        if not mine:
            raise RulesError("nothing to undo")
        seq = mine[-1].seq
    if not 1 <= seq <= len(events):
        raise RulesError(f"no event {seq} at table {ts.name!r}")
    target = events[seq - 1]
    refused = Forbidden("a player undoes only their own newest action; ask the referee")
    if not refereeing and target.actor != by:
        raise refused  # before anything about the event: it may be hidden from them
    if target.kind not in UNDOABLE:
        raise RulesError(f"event {seq} is a {target.kind}: only actions and edits are undone")
    if seq in ts.undone:
        raise RulesError(f"event {seq} is already undone")
    if not refereeing and [e for e in live if e.seq > seq]:
        raise refused
    return seq


def redo(reads: Reads, seq: int | None, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.redo`."""

    def build(ts: TableState) -> Draft:
        rights.referee(ts, by, "redo")
        if not ts.undone:
            raise RulesError("nothing is undone")
        target = max(ts.undone) if seq is None else seq
        if target not in ts.undone:
            raise RulesError(f"event {target} is not undone")
        found = event_at(reads, ts, target)
        shown, audience = as_hidden_as(found) if found is not None else ("public", None)
        return Draft("redo", {"seq": target}, shown, audience)

    return build


def reveal(reads: Reads, seq: int, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.reveal`."""

    def build(ts: TableState) -> Draft:
        rights.referee(ts, by, "reveal hidden events")
        found = event_at(reads, ts, seq)
        if found is None:
            raise RulesError(f"no event {seq} at table {ts.name!r}")
        if found.visibility == "public" or seq in ts.revealed:
            raise RulesError(f"event {seq} is already public")
        return Draft("reveal", {"seq": seq})

    return build
