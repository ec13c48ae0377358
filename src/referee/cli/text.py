"""Plain-text output for the command line: a printer and a boxed table.

The command line prints text and tables and nothing fancier, so it does this itself
instead of importing a terminal-rendering library (~50 ms of a start that should stay
near 100 ms; issue 9). Tables draw with box characters when the stream can encode them
and with ``+ - |`` when it cannot (a C locale, a legacy Windows code page).
"""

from __future__ import annotations

import sys
from typing import Literal, TextIO

Justify = Literal["left", "right", "center"]
FIT = {"left": str.ljust, "right": str.rjust, "center": str.center}
BOX = {False: ("┏┳┓━┃", "┡╇┩━│", "└┴┘─"), True: ("+++-|", "+++=|", "+++-")}
"""Box characters (``True``: ASCII): each rule's left end, joint, right end and bar, then
the separator of the cells below it (the header's, the body's)."""


class Table:
    """Rows of cells under a header, with an optional title line above the box."""

    def __init__(self, title: str | None = None, title_justify: Justify = "center") -> None:
        self.title = title
        self.title_justify: Justify = title_justify
        self.columns: list[tuple[str, Justify]] = []
        self.rows: list[tuple[str, ...]] = []

    def add_column(self, header: str, justify: Justify = "left") -> None:
        """Add a column; cells are aligned ``justify`` within it."""
        self.columns.append((header, justify))

    def add_row(self, *cells: str) -> None:
        """Add one row; missing cells print empty, extra cells are an error."""
        if len(cells) > len(self.columns):
            raise ValueError(f"row has {len(cells)} cells for {len(self.columns)} columns")
        self.rows.append(cells + ("",) * (len(self.columns) - len(cells)))

    def lines(self, *, ascii_only: bool = False) -> list[str]:
        """The table as text lines, the title first when there is one."""
        top, under, bottom = BOX[ascii_only]
        header = tuple(h for h, _ in self.columns)
        widths = [max(map(len, cells)) for cells in zip(header, *self.rows, strict=True)]

        def rule(box: str) -> str:
            return box[0] + box[1].join(box[3] * (w + 2) for w in widths) + box[2]

        def row(sep: str, cells: tuple[str, ...]) -> str:
            fitted = zip(cells, widths, self.columns, strict=True)
            return sep + sep.join(f" {FIT[j](c, w)} " for c, w, (_, j) in fitted) + sep

        title = FIT[self.title_justify](self.title or "", len(rule(top))).rstrip()
        head = [title] if title else []
        body = [row(under[4], cells) for cells in self.rows]
        return [*head, rule(top), row(top[4], header), rule(under), *body, rule(bottom)]


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
            "┃━│".encode(getattr(out, "encoding", None) or "ascii")
        except (LookupError, UnicodeEncodeError):
            return out, False
        return out, True

    def print(self, *objects: str | Table, markup: bool = False) -> None:
        """Print strings (joined by spaces) or tables, as given (``markup`` is ignored)."""
        out, boxes = self._stream()
        shown = (
            "\n".join(o.lines(ascii_only=not boxes)) if isinstance(o, Table) else o for o in objects
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
