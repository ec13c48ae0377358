"""Roll requests: the referee asks players for a roll, maybe against a secret difficulty.

The referee names a rolled action of the game with its fields filled, the characters
asked (one, several, or every player's), a difficulty (the field the game declares in its
``difficulties.py``, :mod:`referee.systems.difficulty`) that may be *secret*, and who
sees the answered rolls. Each asked character's owner answers with one click: the action
is taken for that character with the referee's fields and the difficulty the table holds.

Events (the log is the record, as everywhere): a ``roll-requested`` event holds the whole
request; an answer is the roll's own ``action-resolved`` (or ``action-failed``) event,
whose payload names the request (``roll_request``), the character and the exact chance of
success it had; ``roll-request-closed`` withdraws what is still waiting. The open
requests are folded from the log (:func:`fold`).

What a secret difficulty hides (principle 10, non-interference):

* the request's event is the referee's (``referee`` visibility): a player's log shows
  that the referee asked for something, never the number; what the asked player is shown
  of it (:mod:`referee.table.request_views`) leaves the difficulty out, and their chance
  is given for each difficulty the text names, computed on their own view with those
  numbers only;
* the answered roll is the referee's too: its dice, its result and its margin would bound
  the difficulty, so the player and everyone else read only that a roll was made. The
  referee tells the table what came of it, or reveals the roll (``reveal``: all of it,
  the difficulty too).

An open difficulty hides nothing: the request is public, the player sees their exact
chance, and the answered roll is seen as the request says (public, blind or private).
Everything that can refuse an answer is checked before a die is drawn, and the request's
checks run for every asked character when it is made.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Final, Literal, cast, get_args

from referee.errors import RulesError
from referee.systems.base import JSONObject, JSONValue
from referee.systems.difficulty import Difficulty, declared, of_action
from referee.table import acting, rights
from referee.table.drafts import Draft
from referee.table.events import Event, Visibility
from referee.table.lru import LRU
from referee.table.state import TableState

MADE: Final = "roll-requested"
CLOSED: Final = "roll-request-closed"

Shown = Literal["public", "blind", "private"]
"""Who sees a roll answering a request whose difficulty is open (a secret one's answers are
the referee's)."""

SHOWN: Final = frozenset(get_args(Shown))

MAX_ASKED: Final = 50
"""The most characters one request asks."""


@dataclass(frozen=True)
class RollRequest:
    """One request as the log holds it (the whole truth: the referee's)."""

    seq: int
    by: str
    action: str
    fields: JSONObject
    """The referee's fields, without the actor and without the difficulty."""
    field: str | None
    """The field of the difficulty (``None``: the action declares none)."""
    difficulty: int | None
    secret: bool
    shown: Visibility
    characters: tuple[str, ...]
    answers: Mapping[str, int] = dataclasses.field(default_factory=dict)
    """Each character who answered: the seq of its roll."""
    closed: bool = False

    @property
    def open(self) -> bool:
        """Whether someone asked still has to roll."""
        return not self.closed and any(c not in self.answers for c in self.characters)

    def waiting(self) -> tuple[str, ...]:
        """The characters still asked."""
        return () if self.closed else tuple(c for c in self.characters if c not in self.answers)

    def action_fields(self, cid: str, difficulty: int | None, fixed: JSONObject) -> JSONObject:
        """The action's fields for character ``cid`` with ``difficulty`` (``None``: the
        action's default) and ``fixed`` (a secret roll's, :class:`Difficulty`)."""
        out: JSONObject = {**self.fields, **fixed, "actor": cid}
        if self.field is not None and difficulty is not None:
            out[self.field] = difficulty
        return out


def fold(events: Iterable[Event], undone: frozenset[int]) -> dict[int, RollRequest]:
    """Every request in the log, by its seq, with its answers (an undone roll answers
    nothing: its character is asked again) and whether it was withdrawn."""
    found: dict[int, RollRequest] = {}
    for e in events:
        p = e.payload
        if e.kind == MADE:
            found[e.seq] = _request(e)
            continue
        at = p.get("roll_request")
        if not isinstance(at, int) or at not in found:
            continue
        r = found[at]
        if e.kind == CLOSED:
            found[at] = RollRequest(**{**r.__dict__, "closed": True})
        elif e.kind in ("action-resolved", "action-failed") and e.seq not in undone:
            cid = str(p.get("character"))
            found[at] = RollRequest(**{**r.__dict__, "answers": {**r.answers, cid: e.seq}})
    return found


def _request(e: Event) -> RollRequest:
    p = e.payload
    fields = p.get("fields")
    chars = p.get("characters")
    difficulty = p.get("difficulty")
    shown = p.get("shown")
    return RollRequest(
        seq=e.seq,
        by=e.actor,
        action=str(p.get("action")),
        fields=dict(fields) if isinstance(fields, dict) else {},
        field=str(p["field"]) if isinstance(p.get("field"), str) else None,
        difficulty=difficulty if isinstance(difficulty, int) else None,
        secret=p.get("secret") is True,
        shown="referee" if p.get("secret") is True else cast(Visibility, shown or "public"),
        characters=tuple(str(c) for c in chars) if isinstance(chars, list) else (),
    )


def declaration(ts: TableState, action: str) -> Difficulty | None:
    """The difficulty ``action`` declares at this table's game."""
    return of_action(ts.ruleset, action)


def made(
    ts: TableState,
    action: str,
    fields: JSONValue,
    characters: list[str],
    difficulty: int | str | None,
    secret: bool,
    shown: str,
) -> tuple[RollRequest, JSONObject]:
    """A new request checked against the table ``ts`` (the whole truth) before anything
    is written: the request (seq 0) and its event's payload. Each asked character's roll
    is checked by the caller (:func:`fields_for`); a :class:`RulesError` names what is
    wrong."""
    rules = ts.ruleset
    kinds = rules.every_action()
    if action not in kinds:
        raise RulesError(f"{rules.title} has no action {action!r}; known: {', '.join(kinds)}")
    kind = kinds[action]
    if getattr(kind, "free", False) or "actor" not in getattr(kind, "__dataclass_fields__", {}):
        rolled = [n for n, k in kinds.items() if "actor" in getattr(k, "__dataclass_fields__", {})]
        raise RulesError(
            f"{action} is no character's roll to ask for; ask for one of: {', '.join(rolled)}"
        )
    if not isinstance(fields, dict):
        raise RulesError("a request's fields are an object of the action's fields")
    given = dict(fields)
    if "actor" in given:
        raise RulesError("a request's fields leave out the actor: each asked character rolls")
    decl = of_action(rules, action)
    named = {d.action: d.field for d in declared(rules)}
    if decl is not None and decl.field in given:
        if difficulty is not None:
            raise RulesError(f"the difficulty is given twice: as {decl.field} and as difficulty")
        raw = given.pop(decl.field)
        difficulty = raw if isinstance(raw, int | str) and not isinstance(raw, bool) else None
    if isinstance(difficulty, str):
        if decl is None:
            raise RulesError(f"{action} declares no difficulty")
        value = decl.read(difficulty)
        if value is None:
            known = ", ".join(n.label for n in decl.named)
            raise RulesError(f"no difficulty {difficulty!r} for {action}; the text names {known}")
        difficulty = value
    if (secret or difficulty is not None) and decl is None:
        listed = ", ".join(named) or "none"
        raise RulesError(
            f"{action} declares no difficulty to set or keep secret; the actions that do: {listed}"
        )
    if secret and difficulty is None:
        raise RulesError("a secret difficulty needs its number (or its name)")
    if shown not in SHOWN:
        raise RulesError(
            f"unknown visibility {shown!r} for the rolls; known: public, blind, private"
        )
    if not characters:
        raise RulesError("ask at least one character (or every player's)")
    if len(characters) > MAX_ASKED:
        raise RulesError(f"{len(characters)} characters asked; at most {MAX_ASKED}")
    if len(set(characters)) != len(characters):
        raise RulesError("a character is asked twice")
    for cid in characters:
        if cid not in ts.state.characters:
            raise RulesError(f"no character {cid!r} at this table")
    request = RollRequest(
        seq=0,
        by="",
        action=action,
        fields=given,
        field=decl.field if decl is not None else None,
        difficulty=difficulty,
        secret=secret,
        shown="referee" if secret else cast(Visibility, shown),
        characters=tuple(characters),
    )
    payload: JSONObject = {
        "action": action,
        "fields": given,
        "field": request.field,
        "difficulty": difficulty,
        "secret": secret,
        "shown": request.shown,
        "characters": list(characters),
    }
    return request, payload


def fields_for(ts: TableState, request: RollRequest, cid: str) -> JSONObject:
    """The fields of ``cid``'s roll, with the request's difficulty (the truth)."""
    decl = declaration(ts, request.action)
    fixed: JSONObject = dict(decl.fixed) if decl is not None and request.secret else {}
    return request.action_fields(cid, request.difficulty, fixed)


def name_of(ts: TableState, cid: str) -> str:
    """A character's name (its id if it has none, or left)."""
    seat = ts.state.characters.get(cid)
    return str(getattr(seat.sheet, "name", "") or cid) if seat is not None else cid


def chance_text(chance: Fraction | None) -> str | None:
    """An exact chance as JSON text (``7/12``)."""
    return None if chance is None else str(chance)


# ---------------------------------------------------------------------------
# the table's commands and views (TableService's roll-request block calls these)

if TYPE_CHECKING:
    from referee.table.service import Done, TableService


def asked_characters(ts: TableState, names: Iterable[str]) -> list[str]:
    """The characters ``names`` ask: a character's id or name, or a participant's name (all
    their characters); none: every character a player owns. A :class:`RulesError` names a
    word that is none of these."""
    wanted = [n.strip().lstrip("@") for n in names if n.strip().lstrip("@")]
    if not wanted or [w.lower() for w in wanted] in (["everyone"], ["all"]):
        return [
            cid
            for cid, owner in ts.owners.items()
            if ts.participants.get(owner) == "player" and cid in ts.state.characters
        ]
    out: list[str] = []
    for word in wanted:
        folded = word.casefold()
        found = [
            cid
            for cid in ts.state.characters
            if cid.casefold() == folded or name_of(ts, cid).casefold() == folded
        ]
        if not found:
            person = next((p for p in ts.participants if p.casefold() == folded), None)
            found = [c for c, o in ts.owners.items() if o == person and c in ts.state.characters]
            if person is not None and not found:
                raise RulesError(f"{person} has no character at this table to ask")
        if not found:
            raise RulesError(f"{word!r} is neither a character nor a participant at this table")
        out += [c for c in found if c not in out]
    return out


def make(
    service: TableService,
    ref: str,
    by: str | None,
    action: str,
    fields: JSONValue,
    characters: list[str],
    difficulty: int | str | None,
    secret: bool,
    visibility: str,
) -> Done:
    """Append a request (the referee's), every asked character's roll checked first."""

    def build(ts: TableState) -> Draft:
        rights.referee(ts, by, "ask for rolls")
        rights.active(ts, by)
        cids = asked_characters(ts, characters)
        request, payload = made(ts, action, fields, cids, difficulty, secret, visibility)
        for cid in cids:
            check_roll(service, ts, request, cid, ts.owners.get(cid))
        return Draft(MADE, payload, "referee" if secret else "public")

    return service._command(ref, by, build)


def check_roll(
    service: TableService, ts: TableState, request: RollRequest, cid: str, owner: str | None
) -> Fraction | None:
    """Everything that refuses ``cid``'s roll now, before any die; its exact chance."""
    rules = ts.ruleset
    chosen = rules.load_action(request.action, fields_for(ts, request, cid))
    if owner is not None and ts.participants.get(owner) == "player":
        rights.may_act(ts, owner, chosen)
    if rights.asked(ts, owner if owner in ts.participants else None, chosen):
        raise RulesError(
            f"{request.action} asks another's decision before it is rolled: ask for a roll "
            "that its roller makes alone"
        )
    acting.refusals(ts, chosen, "blind" if request.secret else request.shown, owner, None)
    plan = rules.planned(chosen, ts.state, ts.options)
    if not plan.dice:
        raise RulesError(f"{request.action} rolls no dice here: nothing to ask for")
    return plan.chance()


def answer(
    service: TableService, ref: str, seq: int, character: str | None, by: str | None
) -> Done:
    """``by``'s roll for the request ``seq``: for ``character`` (default: their one asked
    character still to roll), checked before any die, logged as the request says."""

    def build(ts: TableState) -> Draft:
        role = rights.active(ts, by)
        request = _open(service, ts, seq)
        waiting = request.waiting()
        mine = [c for c in waiting if role == "referee" or ts.owners.get(c) == by]
        if character is not None:
            cid = next((c for c in request.characters if character in (c, name_of(ts, c))), None)
            if cid is None:
                raise RulesError(f"event {seq} does not ask {character}")
            if cid in request.answers:
                raise RulesError(f"{name_of(ts, cid)} has rolled for event {seq} already")
            if cid not in mine:
                raise rights.Forbidden(f"{name_of(ts, cid)}'s roll is their owner's to make")
        elif len(mine) == 1:
            cid = mine[0]
        elif not mine:
            raise rights.Forbidden(f"event {seq} asks none of your characters to roll")
        else:
            listed = ", ".join(name_of(ts, c) for c in mine)
            raise RulesError(f"event {seq} asks several of your characters: name one of {listed}")
        owner = ts.owners.get(cid) or by
        try:
            chance = check_roll(service, ts, request, cid, owner)
        except RulesError:
            # the truth's reason may lie in what the roller may not see (the secret, an
            # event hidden from them): it is named only where they see everything
            if not request.secret and (
                role == "referee" or acting.partial_view(service, ts, by) is None
            ):
                raise
            raise RulesError(
                "this roll cannot be made now, for a reason the referee sees: ask the referee"
            ) from None
        chosen = ts.ruleset.load_action(request.action, fields_for(ts, request, cid))
        audience = owner if request.shown == "private" else None
        extra: JSONObject = {"roll_request": seq, "character": cid, "chance": chance_text(chance)}
        return acting.resolution(ts, chosen, None, request.shown, owner, extra, audience)

    return service._command(ref, by, build)


def withdraw(service: TableService, ref: str, seq: int, by: str | None) -> Done:
    """The referee withdraws request ``seq`` (the rolls made stay)."""

    def build(ts: TableState) -> Draft:
        rights.referee(ts, by, "withdraw a roll request")
        rights.active(ts, by)
        _open(service, ts, seq)
        return Draft(CLOSED, {"roll_request": seq, "withdrawn": True})

    return service._command(ref, by, build)


_FOLDS: LRU[tuple[str, int, str, frozenset[int]], dict[int, RollRequest]] = LRU(256)
"""The requests folded from a table's log, by the table, its head and its undone events
(read again only when the log moved: every page reads them after each event)."""
_FOLDING = threading.Lock()


def requests_of(service: TableService, ts: TableState) -> dict[int, RollRequest]:
    """Every request of the table ``ts`` (the whole truth at its head), by its seq."""
    key = (ts.id, ts.seq, ts.hash, ts.undone)
    with _FOLDING:
        found = _FOLDS.get(key)
    if found is None:
        found = fold(service.store.events(ts.id, upto=ts.seq), ts.undone)
        with _FOLDING:
            _FOLDS[key] = found
    return found


def _open(service: TableService, ts: TableState, seq: int) -> RollRequest:
    found = requests_of(service, ts).get(seq)
    if found is None or not found.open:
        raise RulesError(f"no roll request waits at event {seq}")
    return found
