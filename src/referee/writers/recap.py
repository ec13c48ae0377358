"""A recap written out: Markdown, an HTML fragment, a whole page (print-friendly).

Each is a Jinja template in ``templates/`` over a :class:`~referee.table.recap.Recap`:
the HTML ones autoescaped (every text a participant or a sheet wrote is escaped, no
script), the Markdown one with every text through :func:`md_escape`.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Final

from jinja2 import Environment, FileSystemLoader, select_autoescape

from referee.table.recap import Recap

HERE = Path(__file__).parent / "templates"

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|~!])")


def md_escape(text: object) -> str:
    """Text that Markdown shows as written (its markup characters escaped; no HTML)."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def clock(stamp: object) -> str:
    """``"20:05"`` from an ISO time stamp."""
    text = str(stamp or "")
    return text[11:16] if len(text) >= 16 else text


@cache
def _environment(markup: bool) -> Environment:
    env = Environment(
        loader=FileSystemLoader(HERE),
        autoescape=select_autoescape(["html"], default=True) if markup else False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = md_escape
    env.filters["clock"] = clock
    return env


RECAP_CSS: Final = (HERE / "recap.css").read_text(encoding="utf-8").strip()
"""The stand-alone page's style (print-friendly; the HTML answer allows exactly it)."""


def to_markdown(r: Recap) -> str:
    """The recap as Markdown: a heading per session date, a list item per event."""
    return _environment(False).get_template("recap.md").render(r=r)


def to_html(r: Recap) -> str:
    """The recap as an HTML fragment (an ``<article class="recap">``), every text escaped
    and no script."""
    return _environment(True).get_template("recap.html").render(r=r)


def html_document(r: Recap) -> str:
    """The recap as a whole HTML page standing alone (its style inline, no script)."""
    return _environment(True).get_template("recap_page.html").render(r=r, css=RECAP_CSS)
