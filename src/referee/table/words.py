"""A log event in words, for every edge: the page's log, the recap, the command line.

The game's own words (:meth:`~referee.systems.base.Ruleset.words`) say a resolved
action, its dice by role and its changes; this module picks the game from the event,
the names the event carries (``payload.names``, written when it was logged) and says
who may see it (:data:`VISIBILITY_WORDS`, the one source of those words). It reads a
redacted event only, so what it says is what its viewer may know.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from referee.errors import RulesError
from referee.systems.base import JSONObject, JSONValue, get
from referee.systems.words import WORDS, Names, OutcomeWords, Words

VISIBILITY_WORDS: Final = {
    "referee": "secret",
    "blind": "blind",
    "private": "private",
    "self": "only the roller",
}
"""Who else sees an event that is not public, in words."""

SHEETS_WORDS: Final = {
    "owner": "each character sheet to its owner alone",
    "players": "the players' character sheets to everyone, the referee's to the referee",
    "everyone": "every character sheet to everyone",
}
"""Who sees the sheets (the ``sheets-shown`` event's choice), as the log says it."""

SETTING_WORDS: Final = {
    "take_back": "taking back rolls",
    "typed_dice": "physical dice",
    "true_odds": "true odds for players",
    "players_gauge": "the gauge for players",
}
"""The table settings in words (the ``settings-changed`` event's names)."""

VALUE_WORDS: Final = {
    "never": "never",
    "ask": "with the referee's approval",
    "always": "always",
    "referee": "the referee only",
    "approval": "with the referee's approval",
    "everyone": "everyone",
    "true": "on",
    "false": "off",
}
"""The settings' values in words."""


def sheets_text(sheets: JSONValue) -> str:
    """Who sees the sheets, in words ("every character sheet to everyone")."""
    return SHEETS_WORDS.get(str(sheets), SHEETS_WORDS["owner"])


def setting_text(name: JSONValue, value: JSONValue) -> str:
    """One table setting changed, in words ("taking back rolls: with the referee's
    approval")."""
    said = VALUE_WORDS.get(str(value).lower(), str(value))
    return f"{SETTING_WORDS.get(str(name), str(name))}: {said}"


def game_title(game: JSONValue) -> str:
    """A game's title ("Mneme CE") from its name in an event; the name itself for a game
    this program does not know."""
    try:
        return get(str(game)).title
    except RulesError:
        return str(game)


KIND_WORDS: Final = {
    "table-created": "created the table",
    "options-changed": "changed the house rules",
    "sheets-shown": "changed who sees the sheets",
    "settings-changed": "changed the table's settings",
    "participant-joined": "added a participant",
    "participant-left": "removed a participant",
    "role-changed": "changed a role",
    "character-added": "seated a character",
    "character-updated": "updated a character",
    "character-removed": "removed a character",
    "action-resolved": "rolled",
    "action-failed": "rolled",
    "action-proposed": "proposed an action",
    "proposal-closed": "closed a proposal",
    "request-made": "asked the referee",
    "request-closed": "closed a request",
    "roll-requested": "asked for a roll",
    "roll-request-closed": "withdrew a roll request",
    "state-edited": "corrected the state by hand",
    "note": "said something",
    "undo": "took back a roll",
    "redo": "put back a roll",
    "reveal": "revealed a roll",
}
"""What each kind of event is, in words (for one whose payload a viewer may not see)."""


def kind_text(kind: JSONValue) -> str:
    """An event's kind in words ("seated a character")."""
    return KIND_WORDS.get(str(kind or ""), "did something")


def visibility_text(visibility: JSONValue, audience: JSONValue = None) -> str:
    """``"secret"``, ``"private to Ben"``; empty for a public event."""
    vis = str(visibility or "public")
    if vis == "public":
        return ""
    said = VISIBILITY_WORDS.get(vis, "hidden")
    return f"{said} to {audience}" if vis == "private" and audience else said


def _payload(e: Mapping[str, JSONValue]) -> JSONObject:
    raw = e.get("payload")
    return raw if isinstance(raw, dict) else {}


def event_names(e: Mapping[str, JSONValue], more: Mapping[str, str] | None = None) -> Names:
    """The names an event carries, with ``more`` (a viewer's table's) under them."""
    carried = _payload(e).get("names")
    own = {str(k): str(v) for k, v in carried.items()} if isinstance(carried, dict) else {}
    return Names({**(more or {}), **own})


def voice(system: JSONValue, names: Names) -> Words:
    """The game ``system``'s words with ``names`` (the plain default for an unknown game)."""
    try:
        return get(str(system)).words(names.known)
    except RulesError:
        return WORDS.with_names(names)


def outcome_words(
    e: Mapping[str, JSONValue], more: Mapping[str, str] | None = None
) -> OutcomeWords | None:
    """A resolved action's event in words (``None`` for another kind, or one whose
    outcome its viewer may not see)."""
    p = _payload(e)
    o = p.get("outcome")
    if e.get("kind") != "action-resolved" or not isinstance(o, dict):
        return None
    fields = p.get("fields")
    words = voice(o.get("system"), event_names(e, more))
    return words.outcome(o, str(p.get("action") or ""), fields if isinstance(fields, dict) else {})


def change_lines(e: Mapping[str, JSONValue], more: Mapping[str, str] | None = None) -> list[str]:
    """A hand correction's changes, each a sentence in the game's words."""
    p = _payload(e)
    words = voice(p.get("system"), event_names(e, more))
    changes = p.get("changes")
    return [
        words.change(c)
        for c in (changes if isinstance(changes, list) else [])
        if isinstance(c, dict)
    ]


def action_words(e: Mapping[str, JSONValue], more: Mapping[str, str] | None = None) -> str:
    """What an event's action is, in words ("Alex attacks Brad"), for a proposal, a blind
    roll or a failed one (whose outcome is not shown)."""
    p = _payload(e)
    fields = p.get("fields")
    system = p.get("system")
    outcome = p.get("outcome")
    if system is None and isinstance(outcome, dict):
        system = outcome.get("system")
    words = voice(system or _game_of(e), event_names(e, more))
    return words.action(
        str(p.get("action") or "an action"), fields if isinstance(fields, dict) else {}
    )


def _game_of(e: Mapping[str, JSONValue]) -> str:
    game = e.get("game")
    return str(game) if isinstance(game, str) else ""


def name_of(e: Mapping[str, JSONValue], cid: JSONValue) -> str:
    """The name of the character ``cid`` as the event knows it."""
    return event_names(e)(cid)


def table_names(ts: object) -> dict[str, str]:
    """The seated characters' names by id in a table's state (``ts.state.characters``),
    for a page that words what the table waits for (:func:`words_for`)."""
    seated = getattr(getattr(ts, "state", None), "characters", None) or {}
    out: dict[str, str] = {}
    for cid, seat in seated.items():
        name = getattr(getattr(seat, "sheet", None), "name", None)
        out[str(cid)] = str(name) if name else str(cid)
    return out


def words_for(game: JSONValue, names: Mapping[str, str] | None = None) -> Words:
    """The game's words with the characters' ``names``: ``words_for(ts.game,
    table_names(ts)).decision(d)`` says a decision waited for ("Alex decides: ...")."""
    return voice(game, Names(names))
