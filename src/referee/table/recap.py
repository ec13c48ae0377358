"""A readable recap of a table's log, for whoever asks: lines of words.

:func:`recap` reads a whole log (every event from the table's creation) as one
participant may see it and gives a :class:`Recap`: the events grouped by the
date of their timestamps (one group per session date, UTC), each said in a
line of words - who did what, each roll with its dice, result and, where the
action has a success, the exact chance it had. :mod:`referee.writers.recap`
writes it out (Markdown, HTML, a page standing alone), from Jinja templates. Nothing
here knows a game: the actions' odds come from the
game's own ``Ruleset.chance``.

What a viewer may see is decided as for the log API: every event goes through
:func:`referee.table.service.redact` for the viewer first, and the lines are
written from what that leaves, so a player's recap holds no result of a
referee's secret or blind roll and no other participant's whisper. The chance
of a roll is computed on the table *as the viewer could know it* just before
the roll (the log folded for that viewer, with the undos made by then), so a
hidden roll's effect on the state does not leak through a later roll's odds
either: for a referee it is the exact chance the roll had; for a player, the
chance on what they were shown (the same unless something hidden changed the
acting character). The odds are not stored in the log, so each is computed
again within a budget of estimated work per roll
(:func:`referee.dice.odds.limited_work`), and all of a recap's odds within
:data:`RECAP_SECONDS`; one over either is left out, said so.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from fractions import Fraction
from typing import Any, Final, Literal

from referee.dice.odds import limited_work
from referee.errors import OddsTooComplex, RulesError
from referee.systems.base import JSONObject
from referee.table.events import Event
from referee.table.service import TableService, redact
from referee.table.state import TableState, Viewer, created, replay, step
from referee.table.words import (
    action_words,
    change_lines,
    event_names,
    game_title,
    kind_text,
    outcome_words,
    setting_text,
    sheets_text,
    visibility_text,
)

ROLL_MICROSECONDS: Final = 200_000
"""The estimated work one roll's odds may take in a recap (0.2 s), as a request's odds."""

RECAP_SECONDS: Final = 5.0
"""The time all of one recap's odds may take together (a long campaign's log): past it,
the remaining rolls' chances are left out, said so, so that no recap ties up a server."""

CHECKPOINT_EVERY: Final = 200
"""How often the fold keeps a state to refold from after an undo or a redo."""

LineKind = Literal["roll", "chat", "table"]
"""What a line is about: a roll of the dice, table talk, or the table's own business."""


@dataclass(frozen=True)
class Line:
    """One event of the recap, in words (plain text: the writers escape it)."""

    seq: int
    time: str
    actor: str
    kind: LineKind
    text: str
    """What happened: "rolled Mickey Ruane: Tough check", "joined as player"."""
    quote: str = ""
    """A chat line's or a correction's own words."""
    facts: tuple[str, ...] = ()
    """A roll's derivation: its dice, modifiers, target, result and what it changed."""
    verdict: str = ""
    """A roll's success or failure, with its label ("success - 2 Successes")."""
    odds: str = ""
    """The roll's chance of success ("chance of success 2/3 (66.67%)"), or why none."""
    hidden: str = ""
    """Who else saw it: "whisper to Ben", "secret", "blind" ("" for everyone)."""
    undone: bool = False


@dataclass(frozen=True)
class Day:
    """The lines of one session date (UTC), in log order."""

    date: str
    lines: tuple[Line, ...]

    @property
    def title(self) -> str:
        """The date in words: "Friday 20 November 2026"."""
        try:
            d = date.fromisoformat(self.date)
        except ValueError:
            return self.date
        return f"{d:%A} {d.day} {d:%B %Y}"


@dataclass(frozen=True)
class Recap:
    """A table's log in words for one viewer (see the module text)."""

    table: str
    game: str
    viewer: str | None
    role: str
    days: tuple[Day, ...]
    events: int

    @property
    def summary(self) -> str:
        """How much it covers: "2 session dates, 41 events"."""
        days = f"{len(self.days)} session date{'' if len(self.days) == 1 else 's'}"
        return f"{days}, {self.events} event{'' if self.events == 1 else 's'}"

    @property
    def who(self) -> str:
        """Whose view this is, in words."""
        if self.viewer is None:
            return "the whole log"
        return f"as {self.viewer} ({self.role}) sees it"


# ---------------------------------------------------------------------------
# folding the log as the viewer knew it


def _undo_sets(events: Iterable[Event]) -> tuple[frozenset[int], frozenset[int]]:
    """The undone and revealed events at the end of the log."""
    undone: set[int] = set()
    revealed: set[int] = set()
    for e in events:
        target = e.payload.get("seq")
        if not isinstance(target, int):
            continue
        if e.kind == "undo":
            undone.add(target)
        elif e.kind == "redo":
            undone.discard(target)
        elif e.kind == "reveal":
            revealed.add(target)
    return frozenset(undone), frozenset(revealed)


def _states_before(
    events: Sequence[Event], viewer: Viewer, revealed: frozenset[int]
) -> Iterable[tuple[Event, TableState]]:
    """Each event with the table just before it, as ``viewer`` knew it then: folded for the
    viewer (what they may not see left out), with the undos made so far (an undo refolds
    from a kept state before the event it takes back, as :func:`state.advance` does)."""
    ts = created(events[0])
    kept: list[TableState] = [ts]
    undone: frozenset[int] = frozenset()
    for e in events[1:]:
        yield e, ts
        target = e.payload.get("seq")
        if e.kind in ("undo", "redo") and isinstance(target, int) and 1 <= target < e.seq:
            undone = undone | {target} if e.kind == "undo" else undone - {target}
            base = next(
                (
                    k
                    for k in reversed(kept)
                    if k.seq < target
                    and {u for u in undone if u <= k.seq} == {u for u in k.undone if u <= k.seq}
                ),
                kept[0],
            )
            kept = [k for k in kept if k.seq <= base.seq]
            ts = replay(
                base,
                events[base.seq : ts.seq],
                undone=undone,
                revealed=revealed,
                viewer=viewer,
                strict=False,
            )
        ts = replace(
            step(ts, e, undone=undone, revealed=revealed, viewer=viewer, strict=False),
            undone=undone,
        )
        if ts.seq % CHECKPOINT_EVERY == 0:
            kept.append(ts)


def _chance(before: TableState, payload: JSONObject, work: float) -> Fraction | str | None:
    """The chance of success of the action in ``payload`` on the table ``before`` it: a
    fraction, ``None`` (the action has no success), or why it is not known."""
    rules = before.ruleset
    try:
        with limited_work(work):
            action = rules.load_action(str(payload.get("action")), payload.get("fields"))
            return rules.chance(action, before.state, before.options)
    except OddsTooComplex:
        return "too much work to compute again here"
    except (RulesError, KeyError, TypeError, ValueError, ArithmeticError):
        return "not known from what you were shown"


def odds_text(p: Fraction) -> str:
    """A chance as "2/3 (66.67%)" (the fraction left out when it is too long to read)."""
    pct = f"{float(p) * 100:.2f}%"
    exact = f"{p.numerator}/{p.denominator}"
    return f"{exact} ({pct})" if len(exact) <= 24 else pct


# ---------------------------------------------------------------------------
# lines


def _names(ts: TableState) -> dict[str, str]:
    """The seated characters' names by id, as the viewer's table knows them."""
    out: dict[str, str] = {}
    for cid, seat in ts.state.characters.items():
        name = getattr(getattr(seat, "sheet", None), "name", None)
        if isinstance(name, str) and name:
            out[cid] = name
    return out


def _roll_line(
    base: Line, e: JSONObject, chance: Fraction | str | None, names: Mapping[str, str]
) -> Line:
    p = _payload(e)
    said = outcome_words(e, names)
    o = p.get("outcome")
    manual = isinstance(o, dict) and bool(o.get("manual"))
    facts = list(said.facts) if said is not None else []
    if manual and said is not None and said.dice:
        facts[0] += " (entered by hand)"
    if isinstance(chance, Fraction):
        odds = f"chance of success {odds_text(chance)}"
    elif isinstance(chance, str):
        odds = f"chance of success {chance}"
    else:
        odds = ""
    decided = p.get("decided_by")
    text = said.did if said is not None else action_words(e, names)
    if said is not None and said.dice:  # who rolled, then what for
        text = "r" + text[1:] if text.startswith("Rolled ") else f"rolled: {text}"
    if decided:
        text += f" (as proposed; {decided} decided)"
    verdict = "" if said is None else said.verdict
    return replace(base, text=text, facts=tuple(facts), verdict=verdict, odds=odds)


def _payload(e: JSONObject) -> JSONObject:
    raw = e.get("payload")
    return raw if isinstance(raw, dict) else {}


def _hidden(e: JSONObject) -> str:
    return visibility_text(e.get("visibility"), e.get("audience"))


def event_line(
    e: JSONObject,
    undone: frozenset[int] = frozenset(),
    chance: Fraction | str | None = None,
    names: Mapping[str, str] | None = None,
) -> Line | None:
    """The line of one redacted event (``None``: nothing the viewer may read), ``undone``
    the events taken back and ``chance`` the roll's odds (or why none), as :func:`recap`
    knows them, ``names`` the characters' names the viewer knows (under those the event
    carries); the command line's log says its events with it too (:func:`log_text`)."""
    names = names or {}
    who = event_names(e, names)
    seq = int(str(e.get("seq", 0)))
    actor = str(e.get("actor") or "someone")
    kind = str(e.get("kind") or "")
    raw = e.get("payload")
    p: JSONObject = raw if isinstance(raw, dict) else {}
    base = Line(seq, str(e.get("time", "")), actor, "table", "", hidden=_hidden(e))
    base = replace(base, undone=seq in undone)
    if e.get("redacted"):
        vis = e.get("visibility")
        if vis == "blind":
            what = action_words(e, names)
            return replace(
                base, kind="roll", text=f"{what}, rolled blind (only the referee sees the result)"
            )
        if vis == "referee" and kind in ("action-resolved", "action-failed"):
            return replace(base, kind="roll", text="rolled in secret")
        if vis == "referee":
            return replace(base, text=f"did something only the referees see ({kind_text(kind)})")
        if vis == "self":
            return replace(base, kind="roll", text="rolled dice only they see")
        return None  # another's private event: not even who
    match kind:
        case "action-resolved":
            return _roll_line(replace(base, kind="roll"), e, chance, names)
        case "action-failed":
            rolls = e.get("rolls")
            faces = [
                str(f)
                for r in (rolls if isinstance(rolls, list) else [])
                if isinstance(r, dict) and isinstance(r.get("faces"), list)
                for f in r["faces"]
            ]
            return replace(
                base,
                kind="roll",
                text=f"{action_words(e, names)}, failed after its dice were drawn",
                facts=(f"dice drawn {', '.join(faces)}",) if faces else (),
                verdict=who.say(str(p.get("error") or "")),
            )
        case "note":
            hidden = base.hidden
            if e.get("visibility") == "private":
                hidden = f"whisper to {e.get('audience')}"
            elif e.get("visibility") == "referee":
                hidden = "to the referees only"
            return replace(
                base, kind="chat", text="said", quote=str(p.get("text", "")), hidden=hidden
            )
        case "action-proposed":
            ask = p.get("ask")
            asked = ask if isinstance(ask, dict) else {}
            whose = ", ".join(sorted({who(v) for v in asked.values()}))
            text = f"proposed: {action_words(e, names)}, waiting for {whose or 'a decision'}"
            return replace(base, text=text)
        case "proposal-closed":
            return replace(base, text=f"withdrew the proposal #{p.get('seq')}")
        case "undo" | "redo" | "reveal":
            verb = {"undo": "took back", "redo": "put back", "reveal": "revealed"}[kind]
            why = f", as #{p.get('request')} asked" if p.get("request") else ""
            return replace(base, text=f"{verb} #{p.get('seq')}{why}")
        case "request-made":
            if p.get("what") == "undo":
                return replace(base, text=f"asked the referee to take back #{p.get('seq')}")
            typed_faces = p.get("faces")
            typed = ", ".join(str(f) for f in typed_faces) if isinstance(typed_faces, list) else ""
            return replace(
                base,
                text=f"asked the referee to approve their own dice ({typed}) for: "
                f"{action_words(e, names)}",
            )
        case "roll-requested":
            secret = " against a secret difficulty" if p.get("secret") else ""
            what = str(p.get("action") or "").replace("-", " ")
            return replace(base, text=f"asked for a roll: {what}{secret}")
        case "roll-request-closed":
            return replace(base, text=f"withdrew the roll request #{p.get('roll_request')}")
        case "request-closed":
            verb = "withdrew" if p.get("withdrawn") else "refused"
            return replace(base, text=f"{verb} the request #{p.get('request')}")
        case "settings-changed":
            changed = p.get("settings")
            pairs = changed.items() if isinstance(changed, dict) else ()
            said = "; ".join(setting_text(k, v) for k, v in pairs)
            return replace(base, text=f"changed the table's settings ({said})")
        case "state-edited":
            listed = change_lines(e, names)
            return replace(
                base,
                text="corrected the state by hand",
                quote=str(p.get("reason", "")),
                facts=tuple(listed),
            )
        case "character-added" | "character-updated":
            sheet = p.get("sheet")
            name = sheet.get("name") if isinstance(sheet, dict) else None
            verb = "seated" if kind == "character-added" else "updated"
            owner = f" for {p.get('owner')}" if p.get("owner") else ""
            return replace(base, text=f"{verb} {name or who(p.get('id'))}{owner}")
        case "character-removed":
            return replace(base, text=f"removed {who(p.get('id'))}")
        case "participant-joined":
            joined = "joined" if p.get("name") == actor else f"added {p.get('name')}"
            return replace(base, text=f"{joined} as {p.get('role')}")
        case "participant-left":
            left = "left the table" if p.get("name") == actor else f"removed {p.get('name')}"
            return replace(base, text=left)
        case "role-changed":
            return replace(base, text=f"made {p.get('name')} {p.get('role')}")
        case "options-changed":
            return replace(base, text="changed the house rules")
        case "sheets-shown":
            return replace(base, text=f"showed {sheets_text(p.get('sheets'))}")
        case "table-created":
            seed = p.get("seed")
            extra = f", a playtest table with seed {seed}" if seed is not None else ""
            return replace(base, text=f"created the table for {game_title(p.get('game'))}{extra}")
        case _:
            return replace(base, text="something happened")


def recap(
    events: Sequence[Event],
    viewer: Viewer,
    *,
    work: float = ROLL_MICROSECONDS,
    seconds: float = RECAP_SECONDS,
) -> Recap:
    """The recap of a whole log (from its ``table-created`` event) as ``viewer`` may see
    it (see the module text); ``work`` is the estimated microseconds one roll's odds may
    take, ``seconds`` the time all of them may take together."""
    if not events:
        raise RulesError("the log is empty: nothing to recap")
    first = created(events[0])
    undone, revealed = _undo_sets(events)
    lines: list[Line] = []
    now = replay(first, events[1:], undone=undone, revealed=revealed, strict=False)
    shown = redact(events[0], viewer, revealed, now)  # whose sheets they see: the table now
    opening = event_line(shown, undone, None)
    if opening is not None:
        lines.append(opening)
    deadline = time.monotonic() + seconds
    for e, before in _states_before(events, viewer, revealed):
        shown = redact(e, viewer, revealed, now)
        chance: Fraction | str | None = None
        if e.kind == "action-resolved" and not shown.get("redacted"):
            if time.monotonic() < deadline:
                chance = _chance(before, e.payload, work)
            else:
                chance = "not computed (the recap's time for odds ran out)"
        line = event_line(shown, undone, chance, _names(before))
        if line is not None:
            lines.append(line)
    days: dict[str, list[Line]] = {}
    for line in lines:
        days.setdefault(line.time[:10], []).append(line)
    role = "referee" if viewer.sees_all else viewer.role
    return Recap(
        table=first.name,
        game=first.ruleset.title,
        viewer=viewer.name,
        role=role,
        days=tuple(Day(d, tuple(ls)) for d, ls in days.items()),
        events=len(events),
    )


# ---------------------------------------------------------------------------
# writing it out


def _clock(stamp: str) -> str:
    return stamp[11:16] if len(stamp) >= 16 else stamp


def to_text(line: Line) -> str:
    """One line as plain text: its head (time, seq, who, what, who else saw it, its quote),
    then its facts, verdict and odds indented on a second line."""
    tags = "".join(f" [{tag}]" for tag in (line.hidden, "undone" if line.undone else "") if tag)
    quote = f": “{line.quote}”" if line.quote else ""
    tail = "; ".join([*line.facts, *(x for x in (line.verdict, line.odds) if x)])
    head = f"{_clock(line.time)} #{line.seq} {line.actor} {line.text}{tags}{quote}"
    return head + (f"\n  {tail}" if tail else "")


def log_text(events: Iterable[JSONObject]) -> str:
    """Events as the log gives them (redacted for their viewer) in plain text, one
    :func:`to_text` each; one the viewer may not read at all is left out."""
    lines = (event_line(e) for e in events)
    return "\n".join(to_text(line) for line in lines if line is not None)


def table_text(d: JSONObject) -> str:
    """The table as :func:`~referee.table.service.table_data` gives it to a viewer, in
    plain text: participants, who sees the sheets, the game's tracker, each character's
    findings, what waits for whom (the command line's ``table show``)."""
    sheets = {
        "everyone": "everyone",
        "players": "everyone for the players' characters, the referee alone for the referee's",
    }.get(str(d["sheets"]), "their owner and the referee")
    data: Any = d
    lines = [f"{d['name']} ({d['id']}), {d['game']}, event {d['seq']}"]
    lines += [f"  {role:8} {name}" for name, role in data["participants"].items()]
    lines += [f"  character sheets are shown to {sheets}"]
    lines += [f"  {label}: {value}" for label, value in data["tracker"].get("table", [])]
    for cid, rows in data["tracker"].get("characters", {}).items():
        lines.append(cid + (f" ({data['owners'][cid]})" if data["owners"].get(cid) else ""))
        lines += [f"  {label}: {value}" for label, value in rows]
        findings = data["findings"].get(cid, [])
        lines += [f"  ! {p['field']}: {p['message']} [{p['rule']}]" for p in findings]
    lines += [f"waiting for {x['actor']}: {x['prompt']}" for x in data["pending"]]
    for p in data.get("proposals", []):
        asks = ", ".join(f"{a['field']} ({a['character']}, {a['answers']})" for a in p["ask"])
        how = f"referee table decide TABLE {p['seq']} field=value --as NAME"
        lines.append(f"#{p['seq']} {p['by']}'s {p['action']} waits for: {asks} ({how})")
    return "\n".join(lines)


def recap_of(service: TableService, ref: str, name: str | None = None) -> Recap:
    """The recap of a stored table as participant ``name`` may see it (``None``: the whole
    log): its events read from the service's store, then :func:`recap`."""
    full = service.load(ref)
    viewer = full.viewer(name)
    return recap(service.store.events(full.id), viewer)
