"""Jinja2: the pages and their fragments, server-rendered and autoescaped; each log entry
is :mod:`referee.web.entry`'s."""

from __future__ import annotations

import json
import re
import zlib
from fractions import Fraction
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from referee.systems.base import JSONObject, JSONValue
from referee.table.words import (
    action_words,
    change_lines,
    event_names,
    kind_text,
    outcome_words,
    table_names,
    visibility_text,
    words_for,
)
from referee.web.entry import entry_html
from referee.web.views import field_matters, field_text, simple_list, value_text

HERE = Path(__file__).parent


def _pct(p: Fraction | float | None, digits: int = 2) -> str:
    if p is None:
        return "-"
    return f"{float(p) * 100:.{digits}f}%"


def _frac(p: Fraction | None) -> str:
    if p is None:
        return "-"
    from referee.web.views import MAX_EXACT, exact_text

    text = exact_text(p)
    if text is None or len(text) > MAX_EXACT:
        return "(an exact fraction too long to write here: the command line prints it)"
    return text


def _clock(stamp: JSONValue) -> str:
    text = str(stamp or "")
    return text[11:19] if len(text) >= 19 else text


def _signed(n: JSONValue) -> str:
    if isinstance(n, int) and not isinstance(n, bool):
        return f"{n:+d}"
    return str(n)


def _json(value: JSONValue, indent: int | None = 2) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent)


def _domid(text: JSONValue) -> str:
    raw = str(text)
    clean = re.sub(r"[^A-Za-z0-9_-]+", "_", raw)[:40]
    return f"{clean}-{zlib.crc32(raw.encode()):08x}"


def environment() -> Environment:
    """The templates of :mod:`referee.web` with their filters."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html", "svg"], default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pct"] = _pct
    env.filters["frac"] = _frac
    env.filters["clock"] = _clock
    env.filters["signed"] = _signed
    env.filters["tojson_text"] = _json
    env.filters["vtext"] = value_text
    env.filters["ftext"] = field_text
    env.filters["domid"] = _domid
    env.tests["simple_list"] = simple_list
    env.globals.update(
        outcome_words=outcome_words,
        change_lines=change_lines,
        action_words=action_words,
        visibility_text=visibility_text,
        event_names=event_names,
        kind_text=kind_text,
        words_for=words_for,
        table_names=table_names,
    )
    env.tests["matters"] = field_matters
    return env


class Renderer:
    """Renders pages and fragments; :meth:`entry` is what the live hub calls per event."""

    def __init__(self) -> None:
        self.env = environment()

    def warm(self) -> int:
        """Compile every template now (a server calls this at start): compiled on first use
        instead, the first event's push would compile the panels' templates once per
        worker thread drawing at that moment. How many."""
        names = self.env.list_templates(extensions=["html", "svg"])
        for name in names:
            self.env.get_template(name)
        return len(names)

    def page(self, name: str, **context: Any) -> str:
        """A whole template."""
        return self.env.get_template(name).render(**context)

    def entry(self, event: JSONObject, undone: bool = False) -> str:
        """One log entry (a redacted event) as HTML (:func:`~referee.web.entry.entry_html`:
        drawn for every event and form of it the push sends, so without a template)."""
        return entry_html(event, undone)
