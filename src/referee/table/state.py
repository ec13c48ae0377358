"""State = fold(events): what a table is after its log, for everyone or for one viewer.

:class:`TableState` is the table's own bookkeeping (participants and roles,
who owns which character, the validator's findings, the house rules) around
the game's state, which the game's own ``seat`` / ``unseat`` / ``apply`` fold
(so nothing here knows any game's rules).

Undo and redo do not erase anything: an undone event stays in the log and its
changes are left out of the fold. The state therefore depends on the set of
undone events *now*; :func:`replay` folds a stretch of the log under given
undone and revealed sets. A viewer who may not see an event (a referee's
secret roll, another player's private roll) gets a state folded without it:
what a player's browser is sent never holds what a hidden roll did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal, Protocol, get_args

from referee.errors import RulesError
from referee.systems.base import (
    Change,
    JSONObject,
    JSONValue,
    Outcome,
    Ruleset,
    get,
    outcome_from_data,
)
from referee.systems.state import Decision, GameState, Named, Seated
from referee.table.events import Event, LogError, Visibility

Role = Literal["referee", "player", "observer"]
"""What a participant may do: the referee edits anything and sees everything; a player
acts for their own characters; an observer only reads."""

ROLES: Final = frozenset(get_args(Role))

SheetsShown = Literal["owner", "players", "everyone"]
"""Who sees a character's sheet besides its owner and the referees (a table setting, the
same at every game's table): ``owner`` - nobody else (the others see its name, never its
numbers: its tracker rows are read from the sheet); ``players`` - every participant sees
the sheets of the characters players own, and the referee's own characters (the
adversaries) stay the referee's; ``everyone`` - every participant sees every sheet."""

SHEETS_SHOWN: Final = frozenset(get_args(SheetsShown))

DEFAULT_SHEETS: Final[SheetsShown] = "owner"
"""A new table keeps sheets to their owners (and the referees), as the virtual tabletops
do by default; the referee opens them with one ``sheets-shown`` event."""

SHEET_KINDS: Final = frozenset({"character-added", "character-updated"})
"""The events whose payload holds a whole sheet."""

TakeBack = Literal["never", "ask", "always"]
"""Whether a player may take back their own drawn roll (undo their newest action while
nothing has happened since): ``never``; ``ask`` - the undo waits for the referee's
one-click answer, and the log shows both; ``always`` - at once. The referee takes back
anything, always."""

TypedDice = Literal["referee", "approval", "everyone"]
"""Who may enter the faces of physical dice instead of the server's draw: ``referee`` -
the referees only; ``approval`` - a player too, once the referee approves that roll (the
request and the answer are logged); ``everyone`` - anyone who may act."""


@dataclass(frozen=True)
class Settings:
    """How the referee runs the table, beside the game's house rules (the same at every
    game's table; each change is a ``settings-changed`` event)."""

    take_back: TakeBack = "ask"
    typed_dice: TypedDice = "referee"
    true_odds: bool = False
    """Whether players' previews of an action that involves a sheet they may not see are
    computed on it (the true odds); off, they are told what the chance depends on."""
    players_gauge: bool = False
    """Whether players see the gauge of who is winning (:mod:`referee.analysis.live`),
    where no sheet of the fight is kept from them; off, it is the referees' alone."""

    def data(self) -> JSONObject:
        """The settings as JSON."""
        return {
            "take_back": self.take_back,
            "typed_dice": self.typed_dice,
            "true_odds": self.true_odds,
            "players_gauge": self.players_gauge,
        }


SETTING_CHOICES: Final[Mapping[str, tuple[object, ...]]] = {
    "take_back": get_args(TakeBack),
    "typed_dice": get_args(TypedDice),
    "true_odds": (False, True),
    "players_gauge": (False, True),
}
"""Every table setting and the values it takes (:class:`Settings` gives the defaults)."""


def settings_with(settings: Settings, changes: object) -> Settings:
    """``settings`` with ``changes`` (an object of setting -> value) applied; a
    :class:`RulesError` names an unknown setting or value and the ones there are."""
    if not isinstance(changes, Mapping) or not changes:
        raise RulesError(f"give at least one table setting: {', '.join(SETTING_CHOICES)}")
    new = settings
    for key, value in changes.items():
        choices = SETTING_CHOICES.get(str(key))
        if choices is None:
            raise RulesError(f"unknown table setting {key!r}; known: {', '.join(SETTING_CHOICES)}")
        if value not in choices or (isinstance(value, bool) != isinstance(choices[0], bool)):
            listed = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in choices)
            raise RulesError(f"table setting {key}: {value!r} is not one of {listed}")
        new = replace(new, **{str(key): value})
    return new


def sheets_setting(value: object) -> SheetsShown:
    """``value`` as a sheets setting; :class:`RulesError` naming the ones there are."""
    if value not in SHEETS_SHOWN:
        raise RulesError(f"unknown sheets setting {value!r}; known: owner, players, everyone")
    return value  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a participant's name and role (``name=None``: the whole truth)."""

    name: str | None
    role: Role = "referee"

    @property
    def sees_all(self) -> bool:
        """Referees (and the audit) see every payload."""
        return self.role == "referee"


EVERYTHING: Final = Viewer(None, "referee")


class Seen(Protocol):
    """What decides who sees an event: an :class:`~referee.table.events.Event` itself, or
    the table's :class:`Hidden` record of one (its seq, visibility, audience, actor)."""

    @property
    def seq(self) -> int: ...

    @property
    def actor(self) -> str: ...

    @property
    def visibility(self) -> Visibility: ...

    @property
    def audience(self) -> str | None: ...


def can_see(record: Seen, viewer: Viewer, revealed: frozenset[int] = frozenset()) -> bool:
    """Whether ``viewer`` may see the payload of the event ``record`` is (or records, a
    :class:`Hidden`): its visibility, or a later reveal. The one test of who sees what:
    every view, log, push and panel asks it."""
    if record.visibility == "self":  # the roller alone (and the whole truth: the audit)
        return viewer.name is None or viewer.name == record.actor
    if viewer.sees_all or record.visibility == "public" or record.seq in revealed:
        return True
    if record.visibility == "private":
        return viewer.name is not None and viewer.name in (record.audience, record.actor)
    return False  # referee-only and blind payloads


@dataclass(frozen=True)
class Hidden:
    """An event some viewers may not see: where it is and who may."""

    seq: int
    visibility: Visibility
    audience: str | None
    actor: str


@dataclass(frozen=True)
class TableState:
    """A table after its log up to ``seq`` (see the module text)."""

    id: str
    name: str
    game: str
    options: Any
    state: GameState[Seated[Named]]
    seed: int | None = None
    participants: Mapping[str, Role] = field(default_factory=dict)
    owners: Mapping[str, str] = field(default_factory=dict)
    findings: Mapping[str, tuple[JSONObject, ...]] = field(default_factory=dict)
    seq: int = 0
    hash: str = ""
    undone: frozenset[int] = frozenset()
    revealed: frozenset[int] = frozenset()
    hidden: tuple[Hidden, ...] = ()
    proposals: Mapping[int, JSONObject] = field(default_factory=dict)
    """Actions waiting for another participant's decision, by the seq that proposed them:
    ``{"by", "action", "fields", "ask", "visibility"}`` (see :meth:`TableService.act`)."""
    sheets: SheetsShown = DEFAULT_SHEETS
    """Who sees other participants' character sheets (:data:`SheetsShown`)."""
    settings: Settings = Settings()
    """How the referee runs the table (:class:`Settings`)."""
    requests: Mapping[int, JSONObject] = field(default_factory=dict)
    """What waits for the referee's approval, by the seq that asked: ``{"by", "what":
    "undo", "seq"}`` (taking back a drawn roll) or ``{"by", "what": "dice", "action",
    "fields", "faces", "visibility"}`` (a roll with typed dice)."""
    causes: Mapping[Decision, tuple[Visibility, str | None]] = field(default_factory=dict)
    """For each decision the rules wait for that a hidden event brought, that event's
    visibility and audience: the answer is as hidden as what it answers."""

    def sees_sheet(self, viewer: Viewer, cid: str) -> bool:
        """Whether ``viewer`` may see character ``cid``'s sheet: a referee (and the whole
        truth) always, its owner always, anyone else when the table shows sheets to
        everyone, or to the players and ``cid`` is a player's character."""
        if viewer.sees_all or self.sheets == "everyone":
            return True
        owner = self.owners.get(cid)
        if owner is None:
            return False
        if self.sheets == "players" and self.participants.get(owner) == "player":
            return True
        return viewer.name is not None and owner == viewer.name

    @property
    def ruleset(self) -> Ruleset[Any, Any, Any]:
        """The game's rules."""
        found = _RULESETS.get(self.game)
        if found is None:
            found = _RULESETS[self.game] = get(self.game)
        return found

    def role_of(self, name: str) -> Role:
        """The role of participant ``name``; :class:`RulesError` naming who is at the table."""
        try:
            return self.participants[name]
        except KeyError:
            known = ", ".join(self.participants) or "nobody"
            raise RulesError(
                f"{name!r} has not joined table {self.name!r}; joined: {known}"
            ) from None

    def viewer(self, name: str | None) -> Viewer:
        """The viewer for participant ``name`` (``None``: everything)."""
        return EVERYTHING if name is None else Viewer(name, self.role_of(name))

    def hidden_from(self, viewer: Viewer) -> frozenset[int]:
        """The seqs of the events whose payload ``viewer`` may not see (as of now)."""
        if viewer.sees_all:
            return frozenset()
        return frozenset(h.seq for h in self.hidden if not can_see(h, viewer, self.revealed))

    def sees_everything(self, viewer: Viewer, upto: int | None = None) -> bool:
        """Whether ``viewer`` may see every event (up to ``upto``): the whole truth serves
        them; else they are given a partial view, folded without what they may not see.
        The one partial-view test (the service's views, its previews, its snapshots)."""
        return viewer.sees_all or all(
            can_see(h, viewer, self.revealed) for h in self.hidden if upto is None or h.seq <= upto
        )


_RULESETS: dict[str, Ruleset[Any, Any, Any]] = {}
"""The rulesets tables have asked for, by game (looked up once: folding asks per event)."""


def _copy(ts: TableState) -> TableState:
    """A copy of ``ts`` for the folding helpers below to put new fields in (a frozen
    dataclass's ``replace`` checks and re-initialises every field: once or twice per
    event folded, the largest cost of a fold after the rules')."""
    new = object.__new__(TableState)
    new.__dict__.update(ts.__dict__)
    return new


def _stepped(ts: TableState, seq: int, hash_: str, hidden: tuple[Hidden, ...]) -> TableState:
    """``replace(ts, seq=seq, hash=hash_, hidden=hidden)``, the end of every step."""
    new = _copy(ts)
    new.__dict__.update(seq=seq, hash=hash_, hidden=hidden)
    return new


def _resolved(
    ts: TableState, state: GameState[Seated[Named]], proposals: Mapping[int, JSONObject]
) -> TableState:
    """``replace(ts, state=state, proposals=proposals)``, an action's effect."""
    new = _copy(ts)
    new.__dict__.update(state=state, proposals=proposals)
    return new


# ---------------------------------------------------------------------------
# folding


def created(event: Event) -> TableState:
    """The state a ``table-created`` event starts (the first event of every log)."""
    if event.kind != "table-created" or event.seq != 1:
        raise LogError("a log starts with table-created", event.seq)
    p = event.payload
    game = str(p.get("game", ""))
    ruleset = get(game)
    options = ruleset.load_options(p.get("options") or {})
    seed = p.get("seed")
    referee = str(p.get("referee", event.actor))
    return TableState(
        id=event.table,
        name=str(p.get("name", "")),
        game=ruleset.name,
        options=options,
        state=ruleset.initial_state(options),
        seed=seed if isinstance(seed, int) else None,
        participants={referee: "referee"},
        seq=1,
        hash=event.hash,
        settings=settings_with(Settings(), p["settings"]) if p.get("settings") else Settings(),
    )


def _apply(ts: TableState, e: Event, outcome: Outcome | None = None) -> TableState:
    """One event's effect, kinds by kind (undo, redo and reveal act through the sets).
    ``outcome``: the :class:`Outcome` an ``action-resolved`` event's payload renders, when
    its writer holds it (else it is read back from the payload, equal)."""
    p = e.payload
    rules = ts.ruleset
    match e.kind:
        case "options-changed":
            return replace(ts, options=rules.load_options(p["options"]))
        case "sheets-shown":
            return replace(ts, sheets=sheets_setting(p.get("sheets")))
        case "settings-changed":
            return replace(ts, settings=settings_with(ts.settings, p.get("settings")))
        case "request-made":
            return replace(ts, requests={**ts.requests, e.seq: {**p, "by": e.actor}})
        case "participant-joined" | "role-changed":
            role = str(p["role"])
            if role not in ROLES:
                raise RulesError(f"unknown role {role!r}")
            return replace(ts, participants={**ts.participants, str(p["name"]): role})  # type: ignore[dict-item]
        case "participant-left":
            left = {k: v for k, v in ts.participants.items() if k != p["name"]}
            return replace(ts, participants=left)
        case "character-added" | "character-updated":
            cid = str(p["id"])
            sheet = rules.load_sheet(p["sheet"])
            state = rules.seat(ts.state, cid, sheet, ts.options)
            owners = (
                {**ts.owners, cid: str(p["owner"])}
                if p.get("owner")
                else {k: v for k, v in ts.owners.items() if k != cid}
            )
            problems = p.get("problems") or []
            findings = {**ts.findings, cid: tuple(x for x in problems if isinstance(x, dict))}  # type: ignore[union-attr]
            return replace(ts, state=state, owners=owners, findings=findings)
        case "character-removed":
            cid = str(p["id"])
            owners = {k: v for k, v in ts.owners.items() if k != cid}
            findings = {k: v for k, v in ts.findings.items() if k != cid}
            return replace(ts, state=rules.unseat(ts.state, cid), owners=owners, findings=findings)
        case "action-resolved":
            if outcome is None:
                outcome = outcome_from_data(p["outcome"], trusted=True)
            state = rules.apply(ts.state, outcome)
            after = _resolved(ts, state, _closed(ts, p.get("proposal")))
            if ts.causes or (state.pending and e.visibility != "public"):
                after = _caused(after, ts.state.pending, e)
            return after
        case "action-failed":  # its dice were drawn and logged; it changed nothing
            return replace(ts, proposals=_closed(ts, p.get("proposal")))
        case "action-proposed":
            return replace(ts, proposals={**ts.proposals, e.seq: {**p, "by": e.actor}})
        case "proposal-closed":
            return replace(ts, proposals=_closed(ts, p.get("seq")))
        case "state-edited":
            changes = tuple(_change(c) for c in p["changes"])  # type: ignore[union-attr]
            edit = Outcome(rules.name, "edit", changes=changes)
            return replace(ts, state=rules.apply(ts.state, edit))
        case _:
            return ts


def _caused(ts: TableState, before: tuple[Decision, ...], e: Event) -> TableState:
    """``ts`` whose :attr:`TableState.causes` keep the decisions still pending and add
    those ``e`` brought, if ``e`` is hidden."""
    pending = ts.state.pending
    causes = {d: c for d, c in ts.causes.items() if d in pending}
    if e.visibility != "public":
        for d in pending:
            if d not in before:
                causes[d] = (e.visibility, e.audience)
    return replace(ts, causes=causes)


def _closed(ts: TableState, seq: JSONValue) -> Mapping[int, JSONObject]:
    """The open proposals less the one ``seq`` names (if any)."""
    if not isinstance(seq, int) or seq not in ts.proposals:
        return ts.proposals
    return {k: v for k, v in ts.proposals.items() if k != seq}


def _change(data: Any) -> Change:
    return Change(
        str(data["target"]),
        str(data["field"]),
        data.get("delta"),
        data.get("value"),
        str(data.get("reason", "")),
    )


def step(
    ts: TableState,
    e: Event,
    *,
    undone: frozenset[int],
    revealed: frozenset[int],
    viewer: Viewer = EVERYTHING,
    strict: bool = True,
    outcome: Outcome | None = None,
) -> TableState:
    """``ts`` after event ``e`` under the given undone / revealed sets (``outcome``: see
    :func:`_apply`).

    ``strict`` (the whole truth): an event that cannot apply is a broken log
    (:class:`LogError` with its seq). Not strict (a viewer's partial view): an
    event that cannot apply to what the viewer knows is left out.
    """
    if e.seq != ts.seq + 1:
        raise LogError(f"expected event {ts.seq + 1} next", e.seq)
    if e.prev_hash != ts.hash:
        raise LogError("prev_hash does not match the previous event's hash", e.seq)
    after = ts
    effective = not (e.kind in ("action-resolved", "state-edited") and e.seq in undone)
    if effective and can_see(e, viewer, revealed):
        try:
            after = _apply(ts, e, outcome)
        except (RulesError, KeyError, TypeError, ValueError) as err:
            if strict:
                raise LogError(f"{e.kind} cannot apply: {err}", e.seq) from None
    # a request closes with its answer, also where the answer is hidden from the asker (a
    # blind roll approved): they asked, so they know it was answered
    answered = e.payload.get("request")
    if isinstance(answered, int) and answered in after.requests:
        after = replace(after, requests={k: v for k, v in after.requests.items() if k != answered})
    target = e.payload.get("seq")
    if e.kind in ("undo", "redo") and after.requests and isinstance(target, int):
        # taken back or put back by another path: asking to take it back is moot
        after = replace(
            after,
            requests={
                k: v
                for k, v in after.requests.items()
                if not (v.get("what") == "undo" and v.get("seq") == target)
            },
        )
    hidden = ts.hidden
    if e.visibility != "public":
        hidden = (*hidden, Hidden(e.seq, e.visibility, e.audience, e.actor))
    return _stepped(after, e.seq, e.hash, hidden)


def replay(
    base: TableState,
    events: Iterable[Event],
    *,
    undone: frozenset[int],
    revealed: frozenset[int],
    viewer: Viewer = EVERYTHING,
    strict: bool = True,
) -> TableState:
    """``base`` folded forward over ``events`` under fixed undone / revealed sets."""
    ts = base
    for e in events:
        ts = step(ts, e, undone=undone, revealed=revealed, viewer=viewer, strict=strict)
    return replace(ts, undone=undone, revealed=revealed)


Checkpoint = Callable[[int, frozenset[int]], TableState]
"""``(before, undone)`` -> a state at a seq below ``before`` that was folded with the
same undone events up to its own seq (always at least the table's first event)."""

Fetch = Callable[[int, int], Sequence[Event]]
"""``(after, upto)`` -> the events with ``after < seq <= upto``, in order."""


def advance(
    ts: TableState,
    e: Event,
    fetch: Fetch,
    checkpoint: Checkpoint,
    outcome: Outcome | None = None,
) -> TableState:
    """The whole truth after ``e``, as the log was written: an undo or redo of an event
    ``X`` refolds from a checkpoint before ``X`` with the new undone set, so every later
    event applies as if ``X`` had (or had not) happened. ``outcome``: the outcome ``e``'s
    payload renders, if its writer holds it (:func:`_apply`)."""
    p = e.payload
    if e.kind in ("undo", "redo"):
        target = p.get("seq")
        if not isinstance(target, int) or not 1 <= target < e.seq:
            raise LogError(f"{e.kind} names no earlier event", e.seq)
        undone = ts.undone | {target} if e.kind == "undo" else ts.undone - {target}
        base = checkpoint(target, undone)
        tail = fetch(base.seq, ts.seq)
        folded = replay(base, tail, undone=undone, revealed=ts.revealed)
        return replace(step(folded, e, undone=undone, revealed=ts.revealed), undone=undone)
    if e.kind == "reveal":
        target = p.get("seq")
        if not isinstance(target, int) or not 1 <= target < e.seq:
            raise LogError("reveal names no earlier event", e.seq)
        revealed = ts.revealed | {target}
        return replace(step(ts, e, undone=ts.undone, revealed=revealed), revealed=revealed)
    return step(ts, e, undone=ts.undone, revealed=ts.revealed, outcome=outcome)


# ---------------------------------------------------------------------------
# snapshots


def snapshot_data(ts: TableState) -> JSONObject:
    """``ts`` as JSON (a snapshot a store keeps to load long logs fast)."""
    rules = ts.ruleset
    return {
        "id": ts.id,
        "name": ts.name,
        "game": ts.game,
        "options": rules.dump_options(ts.options),
        "state": rules.dump_state(ts.state),
        "seed": ts.seed,
        "participants": dict(ts.participants),
        "owners": dict(ts.owners),
        "findings": {k: list(v) for k, v in ts.findings.items()},
        "seq": ts.seq,
        "hash": ts.hash,
        "undone": sorted(ts.undone),
        "revealed": sorted(ts.revealed),
        "hidden": [[h.seq, h.visibility, h.audience, h.actor] for h in ts.hidden],
        "proposals": {str(k): v for k, v in ts.proposals.items()},
        # written only when set, so the snapshots written before the setting existed
        # still equal the fold of their log (the audit compares them)
        **({"sheets": ts.sheets} if ts.sheets != DEFAULT_SHEETS else {}),
        **({"settings": ts.settings.data()} if ts.settings != Settings() else {}),
        **({"requests": {str(k): v for k, v in ts.requests.items()}} if ts.requests else {}),
        **(
            {
                "causes": [
                    [d.actor, d.prompt, list(d.choices), d.holds, v, a]
                    for d, (v, a) in ts.causes.items()
                ]
            }
            if ts.causes
            else {}
        ),
    }


def snapshot_state(data: Any) -> TableState:
    """The :class:`TableState` that :func:`snapshot_data` wrote."""
    rules = get(data["game"])
    return TableState(
        id=data["id"],
        name=data["name"],
        game=data["game"],
        options=rules.load_options(data["options"]),
        state=rules.load_state(data["state"]),
        seed=data["seed"],
        participants=dict(data["participants"]),
        owners=dict(data["owners"]),
        findings={k: tuple(v) for k, v in data["findings"].items()},
        seq=data["seq"],
        hash=data["hash"],
        undone=frozenset(data["undone"]),
        revealed=frozenset(data["revealed"]),
        hidden=tuple(Hidden(s, v, a, w) for s, v, a, w in data["hidden"]),
        proposals={int(k): v for k, v in data.get("proposals", {}).items()},
        sheets=sheets_setting(data.get("sheets", DEFAULT_SHEETS)),
        settings=settings_with(Settings(), data["settings"]) if "settings" in data else Settings(),
        requests={int(k): v for k, v in data.get("requests", {}).items()},
        causes={
            Decision(actor, prompt, tuple(choices), holds): (v, a)
            for actor, prompt, choices, holds, v, a in data.get("causes", [])
        },
    )
