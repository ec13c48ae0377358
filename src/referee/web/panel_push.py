"""The panels a push carries after an event, drawn once per *viewer class*.

After an event that changes what a page shows, every browser of the table is sent its
viewer's redrawn live parts (:func:`referee.web.pages.panels_data`: cards, action
panels, tracker, decisions, participants). Drawn per viewer, a table of 50 browsers
costs 50 renderings per event; most of them draw the same thing. Viewers whose pages
can differ only in the participants list's "(you)" form one class
(:func:`viewer_class`): players or observers who own no character, proposed no action
waiting for a decision, and are neither the actor nor the audience of any hidden event.
They all see the same table (:meth:`TableService.view` redacts by visibility alone for
them), the same cards (no sheet of theirs), the same panels (none) and the same
decisions (none theirs). Their class is drawn once; each viewer's participants list is
drawn for them and put into the shared message text. Every other viewer (a referee, a
player with a character, ...) is a class of their own, drawn as before.

:func:`pushed_panels` is what the live hub calls (:attr:`referee.web.live.Hub.panels`):
a table and its viewers -> each viewer's ``panels`` message, as JSON text, drawn in one
worker thread for the whole table (the table is read once). The cross-check test
compares its texts with each viewer drawn alone by :func:`referee.web.pages.panels_data`.

An event that changes nothing of the table but its seq (a check with no changes, a chat
line) changes no panel: a panel is drawn from the viewer's view of the table
(:meth:`TableService.view`), which the whole truth decides, and shows no seq. The fold
keeps every field an event leaves alone as the very same object, so a round whose table
holds, field for field, the same objects as the table of the round before but for its
seq and hash (:func:`same_but_seq`) reuses each viewer's last text, its seq made the
new one, instead of drawing it again (the hub then finds it equal to what the browser
has and sends nothing). Anything else, a new viewer included, is drawn.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Final

from referee.errors import RulesError
from referee.table.lru import LRU
from referee.table.state import TableState, Viewer

if TYPE_CHECKING:
    from referee.web.app import Web

DrawMany = Callable[[str, Sequence[Viewer]], Mapping[Viewer, str | None]]
"""A table id and its viewers -> each viewer's ``panels`` message text (``None``: a viewer
no longer at the table, or a table that cannot be drawn)."""


PARTICIPANT_LISTS: Final = 256
"""Tables whose viewers' participants lists are kept (the most recently drawn)."""

DRAWN_TABLES: Final = 64
"""Tables whose last round's texts are kept (the most recently drawn), to be sent again
after an event that changed nothing of the table but its seq (see the module text):
one text per viewer class, however many viewers share it."""

PANELS_HEAD: Final = '{"type":"panels","seq":'

SEQLESS: Final = tuple(f.name for f in fields(TableState) if f.name not in ("seq", "hash"))
"""The fields of a table a panel may read: all but its seq and hash."""


def same_but_seq(a: TableState, b: TableState) -> bool:
    """Whether two states of a table hold the very same objects in every field but seq
    and hash (an event that changed nothing else: the fold keeps what it leaves alone).
    Identity, not equality: a rebuilt state (read again from the database) is drawn."""
    return a.id == b.id and all(getattr(a, n) is getattr(b, n) for n in SEQLESS)


def _tail(shared: str) -> str:
    """A ``panels`` message after its seq (``,"cards":...``)."""
    return shared[shared.index(",", len(PANELS_HEAD)) :]


def _dump(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def viewer_class(ts: TableState, viewer: Viewer) -> Hashable:
    """A key shared by viewers whose panels differ only by the "(you)" of the
    participants list (see the module text); any other viewer's key is their own."""
    name = viewer.name
    own = ("viewer", name, viewer.role)
    if name is None or viewer.sees_all or name not in ts.participants:
        return own
    if name in ts.owners.values():
        return own  # their characters' sheets, panels and decisions
    if any(p.get("by") == name for p in ts.proposals.values()):
        return own  # they may withdraw it
    if any(r.get("by") == name for r in ts.requests.values()):
        return own  # they may withdraw their request
    if any(name in (h.actor, h.audience) for h in ts.hidden):
        return own  # a hidden event only they (or they too) may see
    # what they may see of the hidden events is what every such viewer may (public or
    # revealed ones): the same redacted table
    visible = frozenset(h.seq for h in ts.hidden) - ts.hidden_from(viewer)  # revealed ones
    return ("class", viewer.role, visible)


def pushed_panels(web: Web) -> DrawMany:
    """What the live hub calls to draw a table's panels for its viewers after an event
    (in one worker thread): each viewer's ``panels`` message text."""
    from referee.web.pages import Participant, panels_data

    participants = web.renderer.env.get_template("_participants.html")
    # each viewer's participants list (its HTML and that as JSON text), kept while the
    # table's participants stay the same (they change when someone joins, leaves or
    # changes role, not with each event)
    lists: LRU[str, tuple[object, dict[Viewer, tuple[str, str]]]] = LRU(PARTICIPANT_LISTS)

    def participants_of(ts: TableState, v: Viewer) -> tuple[str, str]:
        assert v.name is not None
        who = tuple(ts.participants.items())
        kept = lists.get(ts.id)
        if kept is None or kept[0] != who:
            kept = (who, {})
            lists[ts.id] = kept
        drawn = kept[1].get(v)
        if drawn is None:
            me = Participant(ts.id, v.name, v.role)
            html = participants.render(ts=ts, me=me)
            drawn = kept[1][v] = (html, _dump(html))
        return drawn

    # each table's last round: the state it drew and each viewer's text after its seq
    # (the panels but for the participants list, shared by a class, and that list)
    drawn: LRU[str, tuple[TableState, dict[Viewer, tuple[str, str]]]] = LRU(DRAWN_TABLES)
    keeping = threading.Lock()  # rounds of different tables draw in different threads

    def draw(tid: str, viewers: Sequence[Viewer]) -> dict[Viewer, str | None]:
        out: dict[Viewer, str | None] = {}
        try:
            full = web.service.load(tid)
        except RulesError:  # the table is gone: nothing to draw
            return dict.fromkeys(viewers)
        with keeping:
            last = drawn.get(tid)
        kept: dict[Viewer, tuple[str, str]] = {}
        if last is not None and same_but_seq(last[0], full):
            kept = last[1]  # nothing a panel reads has changed: the texts hold
        texts: dict[Viewer, tuple[str, str]] = {}
        seqs: dict[Viewer, int] = {}  # the seq of the table each text was drawn of
        classes: dict[Hashable, list[Viewer]] = {}
        for v in viewers:
            found = kept.get(v)
            if found is not None:
                texts[v] = found
            else:
                classes.setdefault(viewer_class(full, v), []).append(v)
        fresh = True  # every class drawn of ``full`` itself (none of a newer table)
        for members in classes.values():
            first = members[0]
            if first.name is None:
                out.update(dict.fromkeys(members))
                continue
            if first.name not in full.participants:  # the participant is gone
                out.update(dict.fromkeys(members))
                continue
            try:
                ts = web.service.view(tid, first.name)
                mine = participants_of(ts, first)[0]
                data = panels_data(web, Participant(tid, first.name, first.role), mine)
            except RulesError:  # the participant is gone
                out.update(dict.fromkeys(members))
                continue
            fresh = fresh and ts.seq == full.seq
            rest = {k: v for k, v in data.items() if k != "participants"}
            shared = _tail(_dump({"type": "panels", **rest}))[:-1]
            for v in members:
                texts[v] = (shared, participants_of(ts, v)[1])
                seqs[v] = ts.seq
        for v, (shared, people) in texts.items():
            seq = seqs.get(v, full.seq)
            out[v] = f'{PANELS_HEAD}{seq}{shared},"participants":{people}}}'
        with keeping:
            if fresh:
                drawn[tid] = (full, {**kept, **texts})
            else:  # a class drawn of a newer table: keep nothing, the next round draws
                drawn.pop(tid)
        return out

    return draw
