"""What a command makes of the table before it is written: a :class:`Draft` event.

Every command of :class:`~referee.table.service.TableService` is checks and a
:data:`Build`: a function from the table as it is now to the draft of the one event the
command appends. The service's writer seals it (seq, time, actor, hash), folds it and
appends it; a writer that lost the race for a seq builds again on the newer table, so a
build reads nothing but the table it is given and what :class:`Reads` offers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from referee.systems.base import JSONObject, Outcome
from referee.table.events import Event, Kind, Visibility
from referee.table.state import TableState
from referee.table.store import Store


@dataclass(frozen=True)
class Draft:
    """An event to append, as a command's build makes it: its kind, payload, who sees it
    (``visibility``; ``audience``: who a private one is for), the dice drawn for it
    (``rolls``: each roll record as JSON) and, for an ``action-resolved`` event, the
    :class:`~referee.systems.base.Outcome` its payload renders (the fold applies it as it
    is instead of reading it back from the payload)."""

    kind: Kind
    payload: JSONObject
    visibility: Visibility = "public"
    audience: str | None = None
    rolls: tuple[JSONObject, ...] = ()
    outcome: Outcome | None = None


Build = Callable[[TableState], Draft]
"""A command's build: the table as it is now -> the event it appends (or a refusal)."""


class Reads(Protocol):
    """What a build may read besides the table it is given: the log (an undo reads the
    event it takes back) and a participant's view (a player is refused on what they
    know)."""

    store: Store

    def view(self, ref: str, name: str | None) -> TableState:
        """The table as participant ``name`` may know it."""
        ...


def as_hidden_as(target: Event) -> tuple[Visibility, str | None]:
    """The visibility (and audience) of an event that takes back or puts back ``target``:
    as hidden as it, so who made it and what it was stay hidden (a tray roll only its
    roller saw: private to them and the referees, who answer its taking back)."""
    if target.visibility == "public":
        return "public", None
    if target.visibility in ("private", "self"):
        return "private", target.audience or target.actor
    return target.visibility, None


def event_at(reads: Reads, ts: TableState, seq: int) -> Event | None:
    """Event ``seq`` of the table (``None``: there is none)."""
    found = reads.store.events(ts.id, after=seq - 1, upto=seq)
    return found[0] if found else None
