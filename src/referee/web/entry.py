"""One log entry as HTML, written in Python: what the table page's log and the live push
show of one redacted event (the same text for every viewer shown that form of it).

The push draws an entry for each event and each form its viewers are shown, so this is
on its hot path: a template engine's context and dispatch cost more than the entry's own
text (issue 38). Everything shown is escaped here (:func:`_h`); the words
come from :mod:`referee.table.words`, as everywhere else a log is written.
"""

from __future__ import annotations

import re

from referee.systems.base import JSONObject, JSONValue
from referee.systems.words import OutcomeWords
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

ROLLS = frozenset({"action-resolved", "action-failed", "action-proposed", "proposal-closed"})
"""Kinds the log's filter shows with the rolls (a note is chat, the rest the table's)."""

UNDOABLE = frozenset({"action-resolved", "state-edited"})
"""Kinds a referee may take back from the log."""

LINKED = {"undo": "took back", "redo": "put back", "reveal": "revealed"}
"""Kinds that point at an earlier entry, and what they did to it."""


def _h(value: object) -> str:
    """``value`` as escaped text (nothing for ``None``): ``& < > " '`` as entities, the
    forms the page's templates write."""
    if value is None:
        return ""
    text = value if type(value) is str else str(value)
    if _SPECIAL.search(text) is None:  # most of a log's words: nothing to escape
        return text
    return text.translate(_ENTITIES)


_SPECIAL = re.compile("[&<>\"']")
_ENTITIES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;"})


def _clock(stamp: JSONValue) -> str:
    """An event's time of day (``HH:MM:SS``) from its ISO stamp."""
    text = str(stamp or "")
    return text[11:19] if len(text) >= 19 else text


def _link(seq: JSONValue) -> str:
    """A link to entry ``seq`` of the same log."""
    return f'<a href="#e{_h(seq)}">#{_h(seq)}</a>'


def _dict(value: JSONValue) -> JSONObject:
    return value if isinstance(value, dict) else {}


def _list(value: JSONValue) -> list[JSONValue]:
    return value if isinstance(value, list) else []


def entry_html(e: JSONObject, undone: bool = False) -> str:
    """The log entry of the redacted event ``e`` (``undone``: taken back since)."""
    kind = e.get("kind")
    p = _dict(e.get("payload"))
    who = e.get("actor")
    who = "someone" if who is None else who
    vis = e.get("visibility")
    redacted = bool(e.get("redacted"))
    seq = _h(e.get("seq"))
    group = "chat" if kind == "note" else "roll" if kind in ROLLS else "table"
    classes = f"entry kind-{_h(kind or 'hidden')} vis-{_h(vis)}"
    if undone:
        classes += " undone"
    if redacted:
        classes += " redacted"
    attrs = (
        f'id="e{seq}" class="{classes}" data-seq="{seq}" data-kind="{_h(kind or "")}" '
        f'data-actor="{_h(who)}" data-visibility="{_h(vis)}" data-group="{group}"'
    )
    if e.get("audience"):
        attrs += f' data-audience="{_h(e.get("audience"))}"'
    if kind in UNDOABLE and not redacted:
        attrs += " data-undoable"
    head = (
        f'<span class="seq">#{seq}</span> <time datetime="{_h(e.get("time"))}">'
        f'{_h(_clock(e.get("time")))}</time> <span class="actor">{_h(who)}</span>'
    )
    if vis != "public":
        head += f' <span class="badge vis">{_h(visibility_text(vis, e.get("audience")))}</span>'
    if undone:
        head += ' <span class="badge undone-badge">undone</span>'
    body = _hidden(e, vis, kind) if redacted else _body(e, kind, p)
    return (
        f'<li {attrs}>\n<div class="entry-head">{head}</div>\n{body}\n'
        '<div class="entry-actions"></div>\n</li>'
    )


def _hidden(e: JSONObject, vis: JSONValue, kind: JSONValue) -> str:
    """What a viewer who may not see an event is told of it."""
    if vis == "blind":
        said = (
            f"rolled blind: <strong>{_h(action_words(e))}</strong> — only the referee sees "
            "the result."
        )
    elif vis == "referee":
        if kind in ("action-resolved", "action-failed"):
            said = "rolled in secret."
        else:
            said = f"did something only the referees see ({_h(kind_text(kind))})."
    elif vis == "self":
        said = "rolled dice that only they see."
    else:
        said = "something private happened."
    return f'<p class="hidden-note">{said}</p>'


def _body(e: JSONObject, kind: JSONValue, p: JSONObject) -> str:
    """What an event visible to its viewer says, by kind."""
    if kind == "action-resolved":
        return _resolved(e, p)
    if kind == "action-failed":
        return _failed(e, p)
    if kind == "action-proposed":
        return _proposed(e, p)
    if kind == "proposal-closed":
        return f"<p>withdrew {_link(p.get('seq'))}</p>"
    if kind == "note":
        return f'<p class="note-text">{_h(p.get("text"))}</p>'
    if isinstance(kind, str) and kind in LINKED:
        asked = f", as {_link(p.get('request'))} asked" if p.get("request") else ""
        return f"<p>{LINKED[kind]} {_link(p.get('seq'))}{asked}</p>"
    if kind == "request-made":
        if p.get("what") == "undo":
            return f"<p>asks the referee to take back {_link(p.get('seq'))}</p>"
        faces = ", ".join(_h(f) for f in _list(p.get("faces")))
        action = _h(str(p.get("action") or "").replace("-", " "))
        return (
            f"<p>asks the referee to approve their own dice ({faces}) for "
            f"<strong>{action}</strong></p>"
        )
    if kind == "roll-requested":
        return _requested(p)
    if kind == "request-closed":
        did = "withdrew" if p.get("withdrawn") else "refused"
        return f"<p>{did} the request {_link(p.get('request'))}</p>"
    if kind == "settings-changed":
        said = "; ".join(setting_text(k, v) for k, v in _dict(p.get("settings")).items())
        return f"<p>changed the table's settings: {_h(said)}</p>"
    if kind == "sheets-shown":
        return f"<p>showed {_h(sheets_text(p.get('sheets')))}</p>"
    if kind == "roll-request-closed":
        return f"<p>withdrew the roll request {_link(p.get('roll_request'))}</p>"
    if kind in ("character-added", "character-updated"):
        return _seated(e, kind, p)
    if kind == "character-removed":
        return f"<p>removed <strong>{_h(event_names(e)(p.get('id')))}</strong></p>"
    if kind == "state-edited":
        lines = "".join(f"<li>{_h(c)}</li>" for c in change_lines(e))
        return (
            f"<p>corrected by hand: <em>{_h(p.get('reason'))}</em></p>\n"
            f'<ul class="changes">{lines}</ul>'
        )
    if kind == "participant-joined":
        return f"<p>{_h(p.get('name'))} joined as {_h(p.get('role'))}</p>"
    if kind == "participant-left":
        return f"<p>{_h(p.get('name'))} left</p>"
    if kind == "role-changed":
        return f"<p>{_h(p.get('name'))} is now {_h(p.get('role'))}</p>"
    if kind == "options-changed":
        return "<p>house rules changed</p>"
    if kind == "table-created":
        seed = p.get("seed")
        playtest = f", a playtest table with seed {_h(seed)}" if seed is not None else ""
        return f"<p>created the table for {_h(game_title(p.get('game')))}{playtest}</p>"
    return "<p>something happened</p>"


def _resolved(e: JSONObject, p: JSONObject) -> str:
    """A resolved action: the sentence, its dice by role, modifiers, numbers, changes."""
    o = _dict(p.get("outcome"))
    w = outcome_words(e) or OutcomeWords("")
    badges = ""
    if p.get("proposal"):
        badges += (
            f' <span class="badge">as {_link(p.get("proposal"))} proposed; '
            f"{_h(p.get('decided_by'))} decided</span>"
        )
    if o.get("manual"):
        approved = ""
        if p.get("approved_by"):
            approved = f", approved by {_h(p.get('approved_by'))} ({_link(p.get('request'))})"
        badges += f' <span class="badge">dice entered by hand{approved}</span>'
    out = [f'<p class="what"><strong>{_h(w.sentence)}</strong>{badges}</p>']
    if w.dice:
        faces = _list(o.get("faces"))
        groups = "".join(
            f'<span class="dice-group" data-role="{_h(g.role)}"><span class="role">'
            f"{_h(g.role)}</span>{''.join(_die(g.role, _dict(faces[i])) for i in g.at)}</span>"
            for g in w.dice
        )
        out.append(f'<p class="faces" aria-label="dice">{groups}</p>')
    if w.modifiers:
        mods = "".join(f"<li>{_h(m)}</li>" for m in w.modifiers)
        out.append(f'<ul class="mods">{mods}</ul>')
    numbers = "".join(f"<span>{_h(n)}</span> " for n in w.numbers)
    success = o.get("success")
    if success is True:
        numbers += '<span class="badge ok">success</span>'
    elif success is False:
        numbers += '<span class="badge fail">failure</span>'
    out.append(f'<p class="result">{numbers}</p>')
    if w.changes or w.waiting:
        lines = "".join(f"<li>{_h(c)}</li>" for c in w.changes) + "".join(
            f'<li class="waiting">{_h(c)}</li>' for c in w.waiting
        )
        out.append(f'<ul class="changes" aria-label="changes">{lines}</ul>')
    return "\n".join(out)


def _die(role: str, f: JSONObject) -> str:
    """One die of an outcome: its worth, whether kept, rerolled or exploded (also in
    words for a screen reader)."""
    worth = f.get("value")
    if worth is None:
        worth = f.get("face")
    kept, rerolled, exploded = bool(f.get("kept")), bool(f.get("rerolled")), f.get("exploded")
    classes = "die kept" if kept else "die dropped"
    title = f"{_h(role)}, d{_h(f.get('sides'))}"
    said = ""
    if not kept:
        title += ", dropped"
        said += '<span class="sr"> (dropped)</span>'
    if rerolled:
        classes += " rerolled"
        title += ", rerolled"
        said += '<span class="sr"> (rerolled)</span>'
    if exploded:
        classes += " exploded"
        title += ", exploded"
        said += '<span class="sr"> (exploded)</span>'
    return f' <span class="{classes}" title="{title}">{_h(worth)}{said}</span>'


def _failed(e: JSONObject, p: JSONObject) -> str:
    """An action that failed after its dice were drawn: what it was, why, the dice."""
    out = [
        f'<p class="what"><strong>{_h(action_words(e))}</strong> '
        '<span class="badge fail">failed after its dice were drawn</span></p>',
        f'<p class="result">{_h(event_names(e).say(str(p.get("error") or "")))}</p>',
    ]
    rolls = _list(e.get("rolls"))
    if rolls:
        dice = "".join(
            f' <span class="die kept" title="d{_h(r.get("sides"))}">{_h(face)}</span>'
            for r in map(_dict, rolls)
            for face in _list(r.get("faces"))
        )
        out.append(
            '<p class="faces" aria-label="dice"><span class="dice-group" data-role="drawn">'
            f'<span class="role">dice drawn</span>{dice}</span></p>'
        )
    return "\n".join(out)


def _proposed(e: JSONObject, p: JSONObject) -> str:
    """A proposed action waiting for the choices it asks of others."""
    names = event_names(e)
    ask = _dict(p.get("ask"))
    deciders: list[str] = []
    seen: set[object] = set()
    for v in ask.values():  # each decider once, whatever the case of the name
        key = v.lower() if isinstance(v, str) else v
        if key not in seen:
            seen.add(key)
            deciders.append(names(v) if v else "the referee")
    choices = ", ".join(str(k).replace("_", " ") for k in ask)
    return (
        f'<p class="what">proposed <strong>{_h(action_words(e))}</strong>: waits for '
        f"{_h(', '.join(deciders))}'s choice of {_h(choices)} (nothing rolled yet)</p>"
    )


def _requested(p: JSONObject) -> str:
    """A roll request (seen whole only where its difficulty is open, or by the referee)."""
    count = len(_list(p.get("characters")))
    action = _h(str(p.get("action") or "").replace("-", " "))
    against = ""
    if p.get("difficulty") is not None:
        secret = "a secret " if p.get("secret") else ""
        field = p.get("field") or "difficulty"
        against = f" against {secret}{_h(field)} {_h(p.get('difficulty'))}"
    plural = "" if count == 1 else "s"
    return f"<p>asks {count} character{plural} for <strong>{action}</strong>{against}</p>"


def _seated(e: JSONObject, kind: JSONValue, p: JSONObject) -> str:
    """A character seated or updated, with what the sheet's checks found."""
    sheet = _dict(p.get("sheet"))
    name = sheet.get("name") or event_names(e)(p.get("id"))
    did = "seated" if kind == "character-added" else "updated"
    owner = f" for {_h(p.get('owner'))}" if p.get("owner") else ""
    out = f"<p>{did} <strong>{_h(name)}</strong>{owner}</p>"
    problems = _list(p.get("problems"))
    if problems:
        found = "".join(
            f"<li>{_h(f.get('field'))}: {_h(f.get('message'))} "
            f'<span class="muted">[{_h(f.get("rule"))}]</span></li>'
            for f in map(_dict, problems)
        )
        out += f'\n<ul class="findings">{found}</ul>'
    return out
