"""Plain-text output for the command line: a printer of text and tables.

The command line prints text and tables and nothing fancier, so it does this itself
instead of importing a terminal-rendering library (~50 ms of a start that should stay
near 100 ms; issue 9). Tables draw with box characters when the stream can encode them
and with ``+ - |`` when it cannot (a C locale, a legacy Windows code page).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from contextlib import suppress
from typing import Any, Literal, TextIO

Justify = Literal["left", "right", "center"]
FIT = {"left": str.ljust, "right": str.rjust, "center": str.center}
BOX = {False: ("┏┳┓━┃", "┡╇┩━│", "└┴┘─"), True: ("+++-|", "+++=|", "+++-")}
"""Box characters (``True``: ASCII): each rule's left end, joint, right end and bar, then
the separator of the cells below it (the header's, the body's)."""


def boxed(table: Mapping[str, Any], *, ascii_only: bool = False) -> list[str]:
    """A table as data (as the odds give it), in text lines: ``rows`` of cells
    under ``columns`` (aligned by ``justify``, one for all or one per column; a row may
    be short, never long), the ``title`` above aligned by ``title_justify``."""
    columns = [str(c) for c in table["columns"]]
    justify = table.get("justify", "left")
    sides = [justify] * len(columns) if isinstance(justify, str) else list(justify)
    rows = [[str(c) for c in row] for row in table.get("rows", ())]
    for row in rows:
        if len(row) > len(columns):
            raise ValueError(f"row has {len(row)} cells for {len(columns)} columns")
        row += [""] * (len(columns) - len(row))
    widths = [max(map(len, cells)) for cells in zip(columns, *rows, strict=True)]
    top, under, bottom = BOX[ascii_only]

    def rule(box: str) -> str:
        return box[0] + box[1].join(box[3] * (w + 2) for w in widths) + box[2]

    def line(sep: str, cells: list[str]) -> str:
        fitted = zip(cells, widths, sides, strict=True)
        return sep + sep.join(f" {FIT[j](c, w)} " for c, w, j in fitted) + sep

    title = table.get("title")
    place = FIT[table.get("title_justify", "center")]
    head = [place(title, len(rule(top))).rstrip()] if title else []
    body = [line(under[4], row) for row in rows]
    return [*head, rule(top), line(top[4], columns), rule(under), *body, rule(bottom)]


class Console:
    """Prints text and tables to stdout, stderr or ``file``, never reinterpreting the text."""

    def __init__(self, *, stderr: bool = False, file: TextIO | None = None) -> None:
        self.stderr = stderr
        self.file = file

    def _stream(self) -> tuple[TextIO, bool]:
        """The stream (stdout or stderr looked up on each print, so redirection works) and
        whether it can encode box characters."""
        out = self.file or (sys.stderr if self.stderr else sys.stdout)
        try:
            return out, bool("┃━│".encode(getattr(out, "encoding", None) or "ascii"))
        except (LookupError, UnicodeEncodeError):
            return out, False

    def print(self, *objects: object) -> None:
        """Print strings (joined by spaces) or tables as data (:func:`boxed`), as given."""
        out, boxes = self._stream()
        shown = (
            "\n".join(boxed(o, ascii_only=not boxes)) if isinstance(o, Mapping) else o
            for o in objects
        )
        print(" ".join(map(str, shown)), file=out)

    def rule(self, title: str = "") -> None:
        """A line across the terminal (at most 100 wide) with ``title`` in its middle."""
        import shutil

        out, boxes = self._stream()
        bar = "─" if boxes else "-"
        label = f" {title} " if title else ""
        side = max(2, (min(shutil.get_terminal_size((80, 24)).columns, 100) - len(label)) // 2)
        print(bar * side + label + bar * side, file=out)


def help_width() -> int:
    """The width click gives help text (``COLUMNS``, else the terminal's, else 80; at most
    80, less 2, at least 50), worked out as click does but without ``shutil``, which
    brings the compression modules with it: a tenth of ``referee --help``'s start."""
    columns = 0
    with suppress(ValueError):
        columns = int(os.environ.get("COLUMNS", "0"))
    if columns <= 0:
        with suppress(AttributeError, ValueError, OSError):
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    return max(min(columns if columns > 0 else 80, 80) - 2, 50)
