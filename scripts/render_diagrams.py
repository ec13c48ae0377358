"""Draw the documentation's diagrams as SVG files, so the site shows them offline and
opened from disk (no script, no CDN).

Each ``docs/diagrams/NAME.mmd`` (Mermaid source) becomes ``docs/img/diagram-NAME.svg``,
drawn by Mermaid in Debian's Chromium; the SVG carries the SHA-256 of its source, and
``tests/test_docs_diagrams.py`` fails when a source changed without its picture.
Mermaid is a declared npm dependency (``scripts/diagrams/package.json``), installed into
a temporary directory at each run:

    python scripts/render_diagrams.py          # every diagram
    python scripts/render_diagrams.py wing     # one

Needs Node's npm, the registry, Playwright for Python (the dev group) and
``/usr/bin/chromium``.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "docs" / "diagrams"
PICTURES = ROOT / "docs" / "img"
PACKAGE = Path(__file__).resolve().parent / "diagrams" / "package.json"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
CONFIG = {
    "startOnLoad": False,
    "theme": "neutral",
    "securityLevel": "strict",
    "htmlLabels": False,
    "flowchart": {"htmlLabels": False},
    "sequence": {"useMaxWidth": False},
}
"""Mermaid's settings: labels as SVG text (an SVG shown as an image draws no HTML)."""


def digest(source: str) -> str:
    """The mark a picture carries of the source it was drawn from."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def sized(svg: str) -> str:
    """The picture with its own width and height (its viewBox's), as an image needs: Mermaid
    draws it 100% wide for a page to scale, which leaves an ``<img>`` no size of its own."""
    box = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', svg)
    if box is None:
        raise ValueError("the drawn diagram has no viewBox")
    width, height = (round(float(n)) for n in box.groups())
    head = re.sub(r' style="max-width: [^"]*"', "", svg[: svg.index(">")], count=1)
    head = head.replace('width="100%"', f'width="{width}" height="{height}"', 1)
    return head + svg[svg.index(">") :]


def picture_of(source_file: Path) -> Path:
    """Where the diagram ``docs/diagrams/NAME.mmd`` is drawn."""
    return PICTURES / f"diagram-{source_file.stem}.svg"


def mermaid_script(work: Path) -> Path:
    """Install the declared Mermaid into ``work`` and return its browser bundle."""
    shutil.copy(PACKAGE, work / "package.json")
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"], cwd=work, check=True)
    return work / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"


def draw(sources: list[Path]) -> None:
    """Draw each source into its picture."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        script = mermaid_script(Path(tmp))
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_content("<!doctype html><meta charset=utf-8><body></body>")
        page.add_script_tag(path=str(script))
        page.evaluate(f"mermaid.initialize({json.dumps(CONFIG)})")
        for number, source_file in enumerate(sources):
            source = source_file.read_text(encoding="utf-8")
            svg: str = page.evaluate(
                "async ([id, text]) => new XMLSerializer().serializeToString(new DOMParser()"
                "  .parseFromString((await mermaid.render(id, text)).svg, 'text/html')"
                "  .querySelector('svg'))",
                [f"diagram{number}", source],
            )
            svg = sized(svg)
            mark = f"<!-- drawn by scripts/render_diagrams.py from {source_file.name}, "
            mark += f"sha256 {digest(source)} -->\n"
            picture_of(source_file).write_text(mark + svg + "\n", encoding="utf-8")
            print(f"drew {picture_of(source_file).relative_to(ROOT)}", file=sys.stderr)
        browser.close()


def main(names: list[str]) -> int:
    """Draw the diagrams named (all if none)."""
    sources = sorted(SOURCES.glob("*.mmd"))
    if names:
        sources = [s for s in sources if s.stem in names]
        missing = set(names) - {s.stem for s in sources}
        if missing:
            print(f"error: no docs/diagrams/{sorted(missing)[0]}.mmd", file=sys.stderr)
            return 2
    draw(sources)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
