"""Plain-text output for the command line: a printer and a boxed table.

The command line prints text and tables and nothing fancier, so it does this
itself instead of importing a terminal-rendering library (~50 ms of a start
that should stay near 100 ms; issue 9). Tables draw with box characters when
the stream can encode them and with ``+ - |`` when it cannot (a C locale, a
legacy Windows code page).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Literal, TextIO

Justify = Literal["left", "right", "center"]

# top-left, top-join, top-right, header-bar, header-sep, under-header left/join/right/bar,
# body sep, bottom-left/join/right/bar
_UNICODE = ("┏", "┳", "┓", "━", "┃", "┡", "╇", "┩", "━", "│", "└", "┴", "┘", "─")
_ASCII = ("+", "+", "+", "-", "|", "+", "+", "+", "=", "|", "+", "+", "+", "-")


def _fit(text: str, width: int, justify: Justify) -> str:
    if justify == "right":
        return text.rjust(width)
    if justify == "center":
        return text.center(width)
    return text.ljust(width)


class Table:
    """Rows of cells under a header, with an optional title line above the box."""

    def __init__(self, title: str | None = None, title_justify: Justify = "center") -> None:
        self.title = title
        self.title_justify: Justify = title_justify
        self.headers: list[str] = []
        self.justify: list[Justify] = []
        self.rows: list[tuple[str, ...]] = []

    def add_column(self, header: str, justify: Justify = "left") -> None:
        """Add a column; cells are aligned ``justify`` within it."""
        self.headers.append(header)
        self.justify.append(justify)

    def add_row(self, *cells: str) -> None:
        """Add one row; missing cells print empty, extra cells are an error."""
        if len(cells) > len(self.headers):
            raise ValueError(f"row has {len(cells)} cells for {len(self.headers)} columns")
        self.rows.append(tuple(cells) + ("",) * (len(self.headers) - len(cells)))

    def lines(self, *, ascii_only: bool = False) -> list[str]:
        """The table as text lines, the title first when there is one."""
        tl, tj, tr, hb, hs, ul, uj, ur, ub, bs, bl, bj, br, bb = _ASCII if ascii_only else _UNICODE
        widths = [
            max([len(h)] + [len(row[i]) for row in self.rows]) for i, h in enumerate(self.headers)
        ]
        total = sum(w + 3 for w in widths) + 1
        out: list[str] = []
        if self.title:
            out.append(_fit(self.title, total, self.title_justify).rstrip())
        out.append(tl + tj.join(hb * (w + 2) for w in widths) + tr)
        out.append(self._row(hs, self.headers, widths))
        out.append(ul + uj.join(ub * (w + 2) for w in widths) + ur)
        out.extend(self._row(bs, row, widths) for row in self.rows)
        out.append(bl + bj.join(bb * (w + 2) for w in widths) + br)
        return out

    def _row(self, sep: str, cells: Sequence[str], widths: Sequence[int]) -> str:
        fitted = zip(cells, widths, self.justify, strict=True)
        return sep + sep.join(f" {_fit(c, w, j)} " for c, w, j in fitted) + sep


class Console:
    """Prints text and tables to stdout (or stderr); the text is never reinterpreted."""

    def __init__(self, *, stderr: bool = False, file: TextIO | None = None) -> None:
        self._stderr = stderr
        self._file = file

    @property
    def file(self) -> TextIO:
        """The stream in use: ``file`` if given, else stdout or stderr looked up on each
        print, so redirection works."""
        if self._file is not None:
            return self._file
        return sys.stderr if self._stderr else sys.stdout

    def _unicode_ok(self) -> bool:
        encoding = getattr(self.file, "encoding", None) or "ascii"
        try:
            "┃━│".encode(encoding)
        except (LookupError, UnicodeEncodeError):
            return False
        return True

    def print(self, *objects: str | Table, markup: bool = False, soft_wrap: bool = False) -> None:
        """Print strings (joined by spaces) or tables, each table on its own lines.

        ``markup`` and ``soft_wrap`` are accepted for the callers' readability and
        change nothing: text is printed as given and never wrapped.
        """
        del markup, soft_wrap
        parts: list[str] = []
        for obj in objects:
            if isinstance(obj, Table):
                parts.append("\n".join(obj.lines(ascii_only=not self._unicode_ok())))
            else:
                parts.append(str(obj))
        print(" ".join(parts), file=self.file)

    def rule(self, title: str = "") -> None:
        """A horizontal line across the terminal with ``title`` in its middle."""
        import shutil

        width = min(shutil.get_terminal_size((80, 24)).columns, 100)
        bar = "─" if self._unicode_ok() else "-"
        label = f" {title} " if title else ""
        side = max(2, (width - len(label)) // 2)
        print((bar * side + label + bar * side)[: max(width, len(label) + 4)], file=self.file)
