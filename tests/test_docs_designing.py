"""docs/designing.md runs: its Python blocks, in order, print what the page shows.

The page's ``python`` blocks run one after another in one namespace (as a notebook's
cells would), in a fresh directory; a ``text`` block right after a ``python`` block is
that block's output, compared exactly. The figures the code writes under
``docs/img/designing/`` are checked to be PNG images.

``python tests/test_docs_designing.py`` runs the page from the repository's root: it
redraws the committed figures and prints each block's output, to paste into the page
when the numbers change.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # kills servers / runs a page: `make test` runs it

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "designing.md"
FENCE = re.compile(r"^```(\w*)\s*$")


def cells(path: Path = PAGE) -> list[tuple[int, str, str | None]]:
    """``(line, code, shown output or None)`` for each ``python`` block."""
    found: list[tuple[str, int, str]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        start, body = i + 1, []
        i += 1
        while i < len(lines) and lines[i].rstrip() != "```":
            body.append(lines[i])
            i += 1
        found.append((m.group(1), start, "\n".join(body)))
        i += 1
    out: list[tuple[int, str, str | None]] = []
    for k, (lang, line, text) in enumerate(found):
        if lang != "python":
            continue
        nxt = found[k + 1] if k + 1 < len(found) else None
        shown = nxt[2] if nxt and nxt[0] == "text" and _adjacent(lines, line, nxt[1]) else None
        out.append((line, text, shown))
    return out


def _adjacent(lines: list[str], line: int, next_line: int) -> bool:
    """Only blank lines between the python block's closing fence and the text block."""
    between = lines[line : next_line - 1]
    closing = next(n for n, t in enumerate(between) if t.rstrip() == "```")
    return all(not t.strip() for t in between[closing + 1 :])


def run_page(where: Path) -> list[tuple[int, str, str | None]]:
    """Runs the page's blocks in ``where``: ``(line, printed, shown)`` for each."""
    namespace: dict[str, object] = {"__name__": "designing"}
    results = []
    here = Path.cwd()
    os.chdir(where)
    try:
        for line, code, shown in cells():
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                exec(compile(code, f"{PAGE}:{line}", "exec"), namespace)
            results.append((line, buffer.getvalue(), shown))
    finally:
        os.chdir(here)
    return results


def test_the_page_has_code_output_and_figures() -> None:
    found = cells()
    assert len(found) >= 5
    assert sum(shown is not None for _, _, shown in found) >= 3
    text = PAGE.read_text(encoding="utf-8")
    for figure in re.findall(r"\]\((img/designing/[\w-]+\.png)\)", text):
        assert (ROOT / "docs" / figure).stat().st_size > 10_000, figure


def test_the_page_runs_and_prints_what_it_shows(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    for line, printed, shown in run_page(tmp_path):
        if shown is not None:
            assert printed.rstrip() == shown.rstrip(), f"docs/designing.md:{line}"
    written = sorted(p.name for p in (tmp_path / "docs" / "img" / "designing").iterdir())
    assert written == ["conflict.png", "house-rule.png", "sweep.png"]
    for name in written:
        assert (tmp_path / "docs/img/designing" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


if __name__ == "__main__":
    for line, printed, _shown in run_page(ROOT):
        sys.stdout.write(f"--- docs/designing.md:{line}\n{printed}")
