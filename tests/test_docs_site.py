"""The documentation site's hooks (scripts/docs_hooks.py): the HTTP API page names every
endpoint the server has, the README's part on the home page has the site's links, and a
page written on another branch stays out of the nav until it exists. ``make docs`` builds
the whole site with ``mkdocs build --strict``."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def hooks() -> ModuleType:
    pytest.importorskip("mkdocs", reason="the docs group: pip install --group docs")
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts/docs_hooks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_http_api_page_lists_every_endpoint(hooks: ModuleType) -> None:
    schema = hooks.openapi_schema()
    page = hooks.markdown(schema)
    operations = [
        (method.upper(), path)
        for path, item in schema["paths"].items()
        for method in item
        if method in hooks.METHODS
    ]
    assert len(operations) > 20
    for method, path in operations:
        assert f"## {method} `{path}`" in page
        assert f"| {method} | `{path}` |" in page
    assert "## POST `/api/tables`" in page


def test_the_home_page_takes_the_readme_command_line_with_site_links(
    hooks: ModuleType,
) -> None:
    part = hooks.readme_part("cli", ROOT)
    assert "referee table char add Friday vooruk --owner Ann --force" in part
    assert "--8<--" not in part
    assert "](docs/" not in part
    assert "](table.md)" in part
    with pytest.raises(ValueError, match="no section 'nothing'"):
        hooks.readme_part("nothing", ROOT)


def test_a_page_not_yet_written_stays_out_of_the_nav(hooks: ModuleType, tmp_path: Path) -> None:
    nav = [{"Home": "index.md"}, {"Deploying": "deploy.md"}, {"Ref": [{"X": "deploy.md"}]}]
    assert hooks._prune(nav, tmp_path) == [{"Home": "index.md"}, {"Ref": []}]
    (tmp_path / "deploy.md").write_text("# Deploying\n")
    assert hooks._prune(nav, tmp_path) == nav
