"""The table's append-only log: one :class:`Event` per thing that happened.

Every event carries its place in the table's log (``seq``: 1, 2, 3... with no
gaps), when it happened, who did it, its ``kind``, a JSON ``payload``, who may
see it (``visibility`` and, for a private event, its ``audience``), the rolls
it made, and a hash chain: ``hash`` is SHA-256 over the canonical JSON of the
event with the previous event's hash, so any change to any past event breaks
every hash after it. ``salt`` is random text inside the hashed content: a
player who is shown a hidden event's hash without its payload cannot find the
payload by hashing every possible roll.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, replace
from json.encoder import encode_basestring
from typing import Final, Literal, cast, get_args

from referee.errors import RulesError
from referee.systems.base import JSONObject, JSONValue

Kind = Literal[
    "table-created",
    "options-changed",
    "sheets-shown",
    "settings-changed",
    "participant-joined",
    "participant-left",
    "role-changed",
    "character-added",
    "character-updated",
    "character-removed",
    "action-resolved",
    "action-failed",
    "action-proposed",
    "proposal-closed",
    "request-made",
    "request-closed",
    "roll-requested",
    "roll-request-closed",
    "state-edited",
    "note",
    "undo",
    "redo",
    "reveal",
]
"""Every kind of event a table records."""

KINDS: Final = frozenset(get_args(Kind))

Visibility = Literal["public", "referee", "blind", "private", "self"]
"""Who sees an event's payload:

* ``public`` - everyone at the table;
* ``referee`` - the referees only (the referee's secret roll);
* ``blind`` - a player's roll whose result only the referees see (the player
  and the others see what was attempted, not what came of it);
* ``private`` - one participant (``audience``) and the referees;
* ``self`` - its roller alone, not even the referees (a free roll of the dice
  tray only: it changes nothing at the table, so no view of it differs).
"""

VISIBILITIES: Final = frozenset(get_args(Visibility))

UNDOABLE: Final = frozenset({"action-resolved", "state-edited"})
"""The kinds an undo can take back (their effect on the state)."""

GENESIS: Final = "0" * 64
"""The ``prev_hash`` of a table's first event."""

SYSTEM_ACTOR: Final = "(system)"
"""The actor of events nobody at the table made (imports, the table's creation by a tool)."""

MAX_PAYLOAD = 256 * 1024
"""The largest canonical JSON payload of one event, in bytes."""


class LogError(RulesError):
    """A log that is not what it claims: a broken chain, a bad event, a failed replay.

    ``seq`` is the first event found wrong (0 when the fault is not one event's).
    """

    def __init__(self, message: str, seq: int = 0) -> None:
        self.seq = seq
        self.problem = message
        """What is wrong, without the event's seq."""
        super().__init__(f"event {seq}: {message}" if seq else message)


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""The encoder :func:`canonical` uses (``json.dumps`` with these settings makes one per
call)."""


def canonical(value: JSONValue) -> str:
    """The one JSON text of a value: sorted keys, no spaces, UTF-8 kept as is."""
    return _CANONICAL.encode(value)


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a table's log (see the module text)."""

    table: str
    seq: int
    time: str
    actor: str
    kind: Kind
    payload: JSONObject
    visibility: Visibility = "public"
    audience: str | None = None
    rolls: tuple[JSONObject, ...] = ()
    salt: str = ""
    prev_hash: str = GENESIS
    hash: str = ""

    def hashed_content(self) -> JSONObject:
        """What the hash covers: every field but the hash itself."""
        return {
            "table": self.table,
            "seq": self.seq,
            "time": self.time,
            "actor": self.actor,
            "kind": self.kind,
            "payload": self.payload,
            "visibility": self.visibility,
            "audience": self.audience,
            "rolls": list(self.rolls),
            "salt": self.salt,
            "prev_hash": self.prev_hash,
        }

    def compute_hash(self) -> str:
        """SHA-256 (hex) of the canonical JSON of :meth:`hashed_content`."""
        return hashlib.sha256(canonical(self.hashed_content()).encode()).hexdigest()

    def sealed(self) -> Event:
        """This event with its hash computed (and a fresh salt if it has none)."""
        salted = self if self.salt else replace(self, salt=secrets.token_hex(16))
        return replace(salted, hash=salted.compute_hash())

    def data(self) -> JSONObject:
        """The event as JSON (export, API)."""
        return {**self.hashed_content(), "hash": self.hash}


@dataclass(frozen=True, slots=True)
class Written:
    """A sealed event with the canonical JSON of its payload and of its rolls, each
    encoded once (:func:`seal`): what the hash covers and what the store writes."""

    event: Event
    payload: str
    rolls: str


def seal(event: Event) -> Written:
    """:meth:`Event.sealed`, encoding the payload and the rolls once.

    The canonical JSON of the hashed content is put together from its parts in its
    sorted key order (``json.dumps`` with sorted keys writes a nested value exactly as
    it writes it alone), so the hash is the one :meth:`Event.compute_hash` gives, and
    the texts are the ones the store would encode; the tests compare both paths."""
    return seal_new(
        event.table,
        event.seq,
        event.time,
        event.actor,
        event.kind,
        event.payload,
        event.visibility,
        event.audience,
        event.rolls,
        event.prev_hash,
        event.salt,
    )


def seal_new(
    table: str,
    seq: int,
    time: str,
    actor: str,
    kind: Kind,
    payload: JSONObject,
    visibility: Visibility,
    audience: str | None,
    rolls: tuple[JSONObject, ...],
    prev_hash: str,
    salt: str = "",
) -> Written:
    """:func:`seal` of the event of these fields, made once (a table's every append):
    the payload and the rolls encoded once, those texts hashed and written."""
    payload_text = _CANONICAL.encode(payload)
    rolls_text = _CANONICAL.encode(list(rolls))
    salt = salt or secrets.token_hex(16)
    text = (
        f'{{"actor":{_text(actor)},"audience":{_text(audience)},'
        f'"kind":{_text(kind)},"payload":{payload_text},'
        f'"prev_hash":{_text(prev_hash)},"rolls":{rolls_text},"salt":{_text(salt)},'
        f'"seq":{_text(seq)},"table":{_text(table)},"time":{_text(time)},'
        f'"visibility":{_text(visibility)}}}'
    )
    sealed = Event(
        table,
        seq,
        time,
        actor,
        kind,
        payload,
        visibility,
        audience,
        rolls,
        salt,
        prev_hash,
        hashlib.sha256(text.encode()).hexdigest(),
    )
    return Written(sealed, payload_text, rolls_text)


def _text(value: object) -> str:
    """One field's canonical JSON (a string's quickly; anything else by :func:`canonical`)."""
    if type(value) is str:
        return encode_basestring(value)
    if value is None:
        return "null"
    if type(value) is int:
        return str(value)
    return canonical(value)  # type: ignore[arg-type]


def check_event(event: Event, payload: str | None = None) -> None:
    """Refuse an event that is malformed before anything is written (:class:`LogError`);
    ``payload``: its payload's canonical JSON, if already made."""
    if event.kind not in KINDS:
        raise LogError(f"unknown kind {event.kind!r}", event.seq)
    if event.visibility not in VISIBILITIES:
        raise LogError(f"unknown visibility {event.visibility!r}", event.seq)
    if (event.visibility == "private") != (event.audience is not None):
        raise LogError("a private event names its audience, and only a private one", event.seq)
    if event.seq < 1:
        raise LogError("seq starts at 1", event.seq)
    size = len((canonical(event.payload) if payload is None else payload).encode())
    if size > MAX_PAYLOAD:
        raise LogError(f"payload of {size:,} bytes; at most {MAX_PAYLOAD:,}", event.seq)


def event_from_data(data: JSONValue, where: str = "event") -> Event:
    """An :class:`Event` from its JSON form (an import), every wrong field named."""
    if not isinstance(data, dict):
        raise LogError(f"{where}: not an object")
    seq = data.get("seq")
    at = seq if isinstance(seq, int) and not isinstance(seq, bool) else 0

    def need(key: str, kind: type | tuple[type, ...], optional: bool = False) -> JSONValue:
        value = data.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            raise LogError(f"{where}: field {key!r} missing or of the wrong type", at)
        return cast(JSONValue, value)

    known = {
        "table",
        "seq",
        "time",
        "actor",
        "kind",
        "payload",
        "visibility",
        "audience",
        "rolls",
        "salt",
        "prev_hash",
        "hash",
    }
    extra = sorted(set(data) - known)
    if extra:
        raise LogError(f"{where}: unknown field(s) {', '.join(extra)}", at)
    rolls = need("rolls", list)
    assert isinstance(rolls, list)
    if not all(isinstance(r, dict) for r in rolls):
        raise LogError(f"{where}: field 'rolls' must hold objects", at)
    event = Event(
        table=str(need("table", str)),
        seq=int(str(need("seq", int))),
        time=str(need("time", str)),
        actor=str(need("actor", str)),
        kind=str(need("kind", str)),  # type: ignore[arg-type]  # checked below
        payload=dict(need("payload", dict)),  # type: ignore[arg-type]
        visibility=str(need("visibility", str)),  # type: ignore[arg-type]
        audience=None if data.get("audience") is None else str(need("audience", str)),
        rolls=tuple(r for r in rolls if isinstance(r, dict)),
        salt=str(need("salt", str)),
        prev_hash=str(need("prev_hash", str)),
        hash=str(need("hash", str)),
    )
    check_event(event)
    return event
