"""The documentation site works with no network (issue 37, item 4): built as ``make docs``
builds it, every page opened from disk in Chromium with every network request refused
shows its navigation, its styles and its diagrams; every local link names a file that
exists; no page asks for a script, a style, a font or an image from another host.

The diagrams are SVG files drawn from ``docs/diagrams/*.mmd``: each carries the SHA-256
of its source, so a source changed without its picture fails here (redraw with
``python scripts/render_diagrams.py``).
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESOURCE = re.compile(r'<(script|link|img|source|iframe)\b[^>]*?\b(?:src|href)="([^"]+)"', re.I)
HREF = re.compile(r'<a\b[^>]*?\bhref="([^"#?]+)[^"]*"', re.I)


def test_every_diagram_is_drawn_from_its_current_source() -> None:
    sources = sorted((ROOT / "docs" / "diagrams").glob("*.mmd"))
    assert [s.stem for s in sources] == ["action", "wing"]
    for source in sources:
        picture = ROOT / "docs" / "img" / f"diagram-{source.stem}.svg"
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        first = picture.read_text(encoding="utf-8").splitlines()[0]
        assert f"sha256 {digest}" in first, f"{picture.name} is stale: redraw it"
        assert f"](img/diagram-{source.stem}.svg)" in (ROOT / "docs/architecture.md").read_text()
    assert "```mermaid" not in "".join(p.read_text() for p in (ROOT / "docs").glob("*.md"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs", reason="the docs group: pip install --group docs")
    folder = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return folder


@pytest.mark.slow
def test_no_page_needs_another_host_and_every_link_is_a_file(site: Path) -> None:
    pages = sorted(site.glob("*.html"))
    assert len(pages) >= 15 and (site / "architecture.html").is_file()
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for tag, url in RESOURCE.findall(html):
            assert not urlsplit(url).scheme and not url.startswith("//"), (page.name, tag, url)
        for url in HREF.findall(html):
            if page.name == "404.html":
                break  # a server shows it at any address: its links are from the root
            if urlsplit(url).scheme or url.startswith("//"):
                continue  # a link to read elsewhere, not part of the page
            target = (page.parent / unquote(url)).resolve()
            assert target.is_file(), f"{page.name} links {url}: not a file of the site"


@pytest.mark.slow
def test_the_site_opened_from_disk_offline_shows_its_pages_and_diagrams(
    site: Path, browser: Any, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, offline=True)
    asked: list[str] = []
    context.route("**/*", lambda route: _local_only(route, asked))
    page = context.new_page()
    page.goto((site / "index.html").as_uri())
    page.get_by_role("link", name="Architecture").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("/architecture.html")
    pictures = page.locator("img[src$='.svg']")
    assert pictures.count() == 2
    for i in range(2):
        picture = pictures.nth(i)
        picture.scroll_into_view_if_needed()
        assert picture.evaluate("img => img.complete && img.naturalWidth > 300")
    styled = page.evaluate("getComputedStyle(document.querySelector('.md-header')).position")
    assert styled in ("sticky", "fixed")  # the theme's stylesheet loaded from disk
    pictures.first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "docs-offline-architecture.png"))
    assert asked == [], f"the page asked the network for {asked}"
    context.close()


def _local_only(route: Any, asked: list[str]) -> None:
    """Files load; anything else is refused and noted."""
    url = route.request.url
    if url.startswith("file://"):
        route.continue_()
    else:
        asked.append(url)
        route.abort()
