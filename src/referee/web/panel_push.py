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
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping, Sequence
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

    def draw(tid: str, viewers: Sequence[Viewer]) -> dict[Viewer, str | None]:
        out: dict[Viewer, str | None] = {}
        try:
            full = web.service.load(tid)
        except RulesError:  # the table is gone: nothing to draw
            return dict.fromkeys(viewers)
        classes: dict[Hashable, list[Viewer]] = {}
        for v in viewers:
            classes.setdefault(viewer_class(full, v), []).append(v)
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
            rest = {k: v for k, v in data.items() if k != "participants"}
            shared = _dump({"type": "panels", **rest})
            for v in members:
                out[v] = f'{shared[:-1]},"participants":{participants_of(ts, v)[1]}}}'
        return out

    return draw
