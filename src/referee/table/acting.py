"""The commands that take the game's actions: act, decide, withdraw, answer.

Each function checks what it can without the table and returns the :data:`~referee.table.
drafts.Build` the service's writer runs on the table as it is now. Everything that can
refuse an action is checked before a die is drawn; a drawn roll is always logged (an
``action-failed`` event where the rules refuse it after the draw). Dice: faces typed in
from physical dice when given (checked against what the action rolls); otherwise a seeded
table rolls from a seed derived from the table's seed and the event's seq (a playtest
replays exactly), a live table from the operating system's secure generator.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Final, cast

from referee.dice.roller import ManualRoller, Roller, SeededRoller, SystemRoller
from referee.dice.rolling import check_faces_for
from referee.errors import DiceError, IllegalAction, RulesError
from referee.systems.base import Action, JSONObject, JSONValue, jsonable, outcome_data
from referee.systems.words import names_in
from referee.table import rights
from referee.table.drafts import Build, Draft, Reads, as_hidden_as, event_at
from referee.table.events import SYSTEM_ACTOR, Visibility
from referee.table.rights import Forbidden
from referee.table.state import TableState

STRICTNESS: Final[dict[str, int]] = {
    "public": 0,
    "private": 1,
    "blind": 2,
    "referee": 3,
    "self": 4,
}
"""How few see an event of each visibility (more: fewer)."""

UNSEEN_REASON: Final = (
    "this cannot be done now, for a reason you cannot see (something happened out of your "
    "sight): ask the referee"
)


def derived_seed(seed: int, seq: int) -> int:
    """The seed of event ``seq`` at a table seeded with ``seed`` (independent of other events)."""
    digest = hashlib.sha256(f"{seed}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def act(
    reads: Reads,
    by: str | None,
    action: str,
    fields: JSONValue,
    visibility: Visibility,
    faces: Sequence[int] | None,
) -> Build:
    """The build of :meth:`~referee.table.service.TableService.act`."""

    def build(ts: TableState) -> Draft:
        rules = ts.ruleset
        chosen = rules.load_action(action, fields)
        role = rights.active(ts, by)
        if role != "referee":
            assert by is not None
            rights.may_act(ts, by, chosen)
        shown = rights.visibility(ts, by, visibility, tray=chosen.free)
        shown, audience = inherited(ts, chosen, shown, by)
        seen = partial_view(reads, ts, by)
        typed = _typed(ts, by, faces)
        sheets = rights.hidden_sheets(ts, by, chosen)
        try:
            if seen is not None:
                # a player who cannot see everything is refused on what they know, and
                # a refusal only the hidden events explain names none of them
                refusals(seen, chosen, shown, by, None if typed else faces)
        except (IllegalAction, DiceError) as e:
            if not sheets:
                raise
            raise IllegalAction(rights.sheet_refusal(ts, sheets)) from e
        try:
            if typed:  # everything that refuses it, before it waits for the referee
                refusals(ts, chosen, shown, by, faces)
                return _dice_request(ts, by, chosen, shown, faces)
            _blind(ts, chosen, shown)
            return _decided(ts, by, chosen, shown, audience, faces, None)
        except (IllegalAction, DiceError) as e:
            if sheets and not isinstance(e, DiceError):  # the truth's reason may quote
                # a sheet they may not see (how many dice a roll takes, the log shows)
                raise IllegalAction(rights.sheet_refusal(ts, sheets)) from e
            if seen is None:
                raise
            raise IllegalAction(UNSEEN_REASON) from e

    return build


def decide(seq: int, values: JSONValue, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.decide`."""
    if not isinstance(values, dict):
        raise RulesError("a decision is an object of the asked fields and their values")

    def build(ts: TableState) -> Draft:
        role = rights.active(ts, by)
        found = ts.proposals.get(seq)
        if found is None:
            raise RulesError(f"no action waits for a decision at event {seq}")
        ask = found.get("ask")
        ask = ask if isinstance(ask, dict) else {}
        unknown = sorted(k for k in values if k not in ask)
        if unknown:
            raise RulesError(f"event {seq} asks {', '.join(ask)}; not {', '.join(unknown)}")
        if role != "referee":
            for name, cid in ask.items():
                if ts.owners.get(str(cid)) != by:
                    raise Forbidden(f"{name} is {cid!r}'s choice: their owner decides it")
        rules = ts.ruleset
        fields = found.get("fields")
        merged = {**(fields if isinstance(fields, dict) else {}), **values}
        chosen = rules.load_action(str(found.get("action")), merged)
        proposer = str(found.get("by"))
        if ts.participants.get(proposer) not in (None, "referee"):
            rights.may_act(ts, proposer, chosen)  # still their character, still a player
        faces = found.get("faces")
        shown = found.get("visibility")
        return resolution(
            ts,
            chosen,
            [f for f in faces if isinstance(f, int)] if isinstance(faces, list) else None,
            shown if shown in ("public", "referee", "blind", "private", "self") else "public",
            proposer,
            {"proposal": seq, "decided_by": by if by is not None else SYSTEM_ACTOR},
        )

    return build


def proposer(seq: int) -> Callable[[TableState], str]:
    """Whose event a decided proposal is: its proposer's."""
    return lambda ts: str(ts.proposals[seq].get("by"))


def withdraw(seq: int, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.withdraw`."""

    def build(ts: TableState) -> Draft:
        role = rights.active(ts, by)
        found = ts.proposals.get(seq)
        if found is None:
            raise RulesError(f"no action waits for a decision at event {seq}")
        if role != "referee" and found.get("by") != by:
            raise Forbidden("only who proposed it, or the referee, withdraws it")
        return Draft("proposal-closed", {"seq": seq, "withdrawn": True})

    return build


def answer(reads: Reads, seq: int, grant: bool, by: str | None) -> Build:
    """The build of :meth:`~referee.table.service.TableService.answer`."""

    def build(ts: TableState) -> Draft:
        role = rights.active(ts, by)
        found = ts.requests.get(seq)
        if found is None:
            raise RulesError(f"no request waits for the referee at event {seq}")
        asker = str(found.get("by"))
        if role != "referee" and not (by == asker and not grant):
            raise Forbidden("only the referee answers a request (its asker may withdraw it)")
        if grant and asker not in ts.participants:
            raise RulesError(f"{asker} has left the table: their request can only be refused")
        if grant:
            rights.active(ts, asker)  # a player made an observer since asks no more
        if not grant:
            closed: JSONObject = {"request": seq, "granted": False}
            if by == asker:
                closed["withdrawn"] = True
            return Draft("request-closed", closed)
        if found.get("what") == "undo":
            target = found.get("seq")
            if not isinstance(target, int) or target in ts.undone:
                raise RulesError(f"event {target} is already undone")
            event = event_at(reads, ts, target)
            if event is None:
                raise RulesError(f"no event {target} at table {ts.name!r}")
            shown_undo, audience_undo = as_hidden_as(event)
            return Draft("undo", {"seq": target, "request": seq}, shown_undo, audience_undo)
        rules = ts.ruleset
        chosen = rules.load_action(str(found.get("action")), found.get("fields"))
        if ts.participants.get(asker) not in (None, "referee"):
            rights.may_act(ts, asker, chosen)  # still their character, still a player
        raw = found.get("visibility")
        shown: Visibility = raw if raw in ("public", "blind", "private", "referee") else "public"
        shown, audience = inherited(ts, chosen, shown, asker)
        faces = found.get("faces")
        typed = [f for f in faces if isinstance(f, int)] if isinstance(faces, list) else []
        refusals(ts, chosen, shown, asker, typed)
        extra: JSONObject = {"request": seq, "approved_by": by or SYSTEM_ACTOR}
        return _decided(ts, asker, chosen, shown, audience, typed, extra)

    return build


def answerer(seq: int, grant: bool, by: str | None) -> Callable[[TableState], str]:
    """Whose event an answer to request ``seq`` is: a granted roll is its asker's, the
    rest the answerer's."""

    def actor(ts: TableState) -> str:
        found = ts.requests.get(seq, {})
        dice = found.get("what") == "dice" and grant
        return str(found.get("by")) if dice else by or SYSTEM_ACTOR

    return actor


# -- the checks of an action, before any die -----------------------------------------


def refusals(
    ts: TableState,
    chosen: Action,
    shown: Visibility,
    by: str | None,
    faces: Sequence[int] | None,
) -> None:
    """Everything that refuses ``chosen`` on the table ``ts`` (a participant's view or
    the whole truth), before any die: the rules now, a blind roll that would wait for a
    decision its roller cannot see, typed faces that do not fit its dice."""
    _blind(ts, chosen, shown)
    rules = ts.ruleset
    plan = rules.planned(chosen, ts.state, ts.options)
    if faces is None:
        return
    if rights.asked(ts, by, chosen):
        _first_faces(plan.dice, faces)
        return
    typed = ManualRoller(faces)  # the faces tried as they will be used: no die is drawn
    rules.resolve(chosen, ts.state, typed, ts.options)
    if typed.remaining:
        left = list(typed.remaining)
        raise DiceError(f"{len(left)} face(s) more than this action rolls: {left}")


def _first_faces(dice: Sequence[tuple[int, int]], faces: Sequence[int]) -> None:
    """Physical dice for an action that waits for a decision: at least those it rolls
    first (the rest may come with the decision)."""
    need = sum(c for c, _ in dice)
    check_faces_for(dice, list(faces)[:need] if len(faces) > need else faces)


def _blind(ts: TableState, chosen: Action, shown: Visibility) -> None:
    """Refuse a blind roll that would wait for a decision its roller cannot see."""
    if shown == "blind" and ts.ruleset.waits_for_roller(chosen, ts.state, ts.options):
        raise IllegalAction(
            "a blind roll cannot wait for a decision its roller cannot see (an ARM push "
            "after the roll): decide before rolling (push always, if-needed or never)"
        )


def _typed(ts: TableState, by: str | None, faces: Sequence[int] | None) -> bool:
    """Whether ``by``'s typed ``faces`` wait for the referee's approval (the table's
    ``typed_dice``); refused where the table does not let them type dice at all."""
    if faces is None or by is None or ts.role_of(by) == "referee":
        return False
    setting = ts.settings.typed_dice
    if setting == "referee":
        raise Forbidden(
            "at this table only the referee enters physical dice (the referee's Fair play "
            "settings); roll here, or ask the referee"
        )
    return setting == "approval"


def inherited(
    ts: TableState, chosen: Action, shown: Visibility, by: str | None
) -> tuple[Visibility, str | None]:
    """The visibility (and a private event's audience) of an action that may answer a
    decision a hidden event brought (:attr:`TableState.causes`): the stricter of the
    one chosen and the cause's, so the answer reveals nothing its cause hid."""
    audience = by if shown == "private" else None
    if not ts.causes or chosen.free:
        return shown, audience
    name = ts.ruleset.action_name(chosen)
    actors = chosen.actors()
    for decision, (vis, aud) in ts.causes.items():
        if name not in decision.choices or (actors and decision.actor not in actors):
            continue
        if STRICTNESS[vis] > STRICTNESS[shown]:
            return vis, aud
        if vis == shown == "private" and aud != audience:
            return "referee", None  # two audiences: only the referees see both
    return shown, audience


def partial_view(reads: Reads, ts: TableState, by: str | None) -> TableState | None:
    """``by``'s view of the table when it is not the whole truth (a player or observer
    from whom some event is hidden), else None."""
    if by is None:
        return None
    viewer = ts.viewer(by)
    if ts.sees_everything(viewer):
        return None
    return reads.view(ts.id, by)


# -- the event an action makes ---------------------------------------------------------


def _dice_request(
    ts: TableState,
    by: str | None,
    chosen: Action,
    shown: Visibility,
    faces: Sequence[int] | None,
) -> Draft:
    """A roll with typed dice that waits for the referee's approval (:func:`answer`):
    seen by everyone for a public roll, else by its roller and the referees."""
    rules = ts.ruleset
    payload: JSONObject = {
        "what": "dice",
        "action": rules.action_name(chosen),
        "fields": rules.action_data(chosen),
        "faces": list(faces or ()),
        "visibility": shown,
    }
    if shown == "public":
        return Draft("request-made", payload)
    return Draft("request-made", payload, "private", by)


def _decided(
    ts: TableState,
    by: str | None,
    chosen: Action,
    shown: Visibility,
    audience: str | None,
    faces: Sequence[int] | None,
    extra: JSONObject | None,
) -> Draft:
    """``chosen``, checked, as the event it makes: proposed where it asks someone else's
    decision, else rolled."""
    rules = ts.ruleset
    asked = rights.asked(ts, by, chosen)
    if not asked:
        return resolution(ts, chosen, faces, shown, by, extra, audience)
    plan = rules.planned(chosen, ts.state, ts.options)  # what refuses it, now
    if faces is not None:
        _first_faces(plan.dice, faces)
    proposal: JSONObject = {
        "action": rules.action_name(chosen),
        "fields": rules.action_data(chosen),
        "ask": cast(JSONObject, asked),
        "system": rules.name,  # whose words it reads in
        "visibility": shown,
        "faces": list(faces) if faces is not None else None,
        **(extra or {}),
    }
    said = names_in(ts.state.characters, proposal["fields"], proposal["ask"])
    if said:
        proposal["names"] = cast(JSONObject, said)
    if shown == "public":
        return Draft("action-proposed", proposal)
    # a hidden action is shown to who answers it (and its proposer), no one else
    answers = ts.owners.get(next(iter(asked.values())))
    return Draft("action-proposed", proposal, "private", answers or by)


def resolution(
    ts: TableState,
    chosen: Action,
    faces: Sequence[int] | None,
    shown: Visibility,
    actor: str | None,
    extra: JSONObject | None = None,
    audience: str | None = None,
) -> Draft:
    """Draw the dice of an action that nothing refuses any more, and its event.

    Should the rules still refuse it once the server has drawn dice for it (a game's
    refusal that its plan did not make first), the draw is not lost: an
    ``action-failed`` event records the action, the refusal and every die drawn, so
    nobody can roll again until the dice please them (faces entered by hand are the
    caller's own input: refused, not logged)."""
    rules = ts.ruleset
    roller = _roller(ts, faces)
    if shown == "private" and audience is None:
        audience = actor
    if shown == "private" and audience is None:
        shown = "referee"  # the operator's private roll: nobody's but the referees'
    said_action: JSONObject = {
        "action": rules.action_name(chosen),
        "fields": rules.action_data(chosen),
    }
    try:
        outcome = rules.resolve(chosen, ts.state, roller, ts.options)
    except RulesError as e:
        drawn = list(roller.records)
        if faces is not None or not drawn:
            raise
        failed: JSONObject = {**said_action, "error": str(e), **(extra or {})}
        records = tuple(cast(JSONObject, jsonable(r.to_dict())) for r in drawn)
        return Draft("action-failed", failed, shown, audience, records)
    left = getattr(roller, "remaining", ())
    if faces is not None and left:
        raise DiceError(f"{len(left)} face(s) more than this action rolls: {list(left)}")
    data = outcome_data(outcome)
    payload: JSONObject = {**said_action, "outcome": data, **(extra or {})}
    said = names_in(ts.state.characters, payload["fields"], data["changes"], data["details"])
    if said:  # the characters it names, by name: it reads the same wherever it is shown
        payload["names"] = cast(JSONObject, said)
    rolls = tuple(cast(JSONObject, r.to_dict()) for r in outcome.rolls)  # JSON already
    return Draft("action-resolved", payload, shown, audience, rolls, outcome)


def _roller(ts: TableState, faces: Sequence[int] | None) -> Roller:
    if faces is not None:
        return ManualRoller(faces)
    if ts.seed is not None:
        return SeededRoller(derived_seed(ts.seed, ts.seq + 1))
    return SystemRoller()
