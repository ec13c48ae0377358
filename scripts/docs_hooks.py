"""MkDocs hooks: the HTTP API page, made from the running code at build time.

``mkdocs build`` imports this file (``hooks:`` in ``mkdocs.yml``). It builds the web
table with :func:`referee.web.create_app` over a throwaway SQLite file, takes its OpenAPI
schema, and adds two generated files to the site: ``openapi.json`` (the schema as the
server serves it at ``/openapi.json``) and ``http-api.md`` (every path and method with its
summary, parameters and request body, as a Markdown page). Nothing is written into docs/.
"""

from __future__ import annotations

import json
import logging
import re
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

log = logging.getLogger("mkdocs.hooks.referee")

METHODS = ("get", "post", "put", "patch", "delete")


def openapi_schema() -> dict[str, Any]:
    """The OpenAPI schema of the web table, as ``referee serve`` publishes it."""
    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.web import create_app

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'schema.db'}")
        try:
            app = create_app(TableService(store), watch=False)
            return app.openapi()
        finally:
            store.close()


def _ref_name(schema: dict[str, Any]) -> str:
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return ref.rsplit("/", 1)[-1]
    if "items" in schema:
        return f"list of {_ref_name(schema['items'])}"
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(_ref_name(s) for s in schema[key])
    return str(schema.get("type", "object"))


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def markdown(schema: dict[str, Any]) -> str:
    """The schema as a Markdown page: one section per path and method."""
    info = schema.get("info", {})
    lines = [
        "# HTTP API",
        "",
        f"{info.get('title', 'referee')} {info.get('version', '')}: every endpoint of the web "
        "table, generated at build time from the running code's OpenAPI schema "
        "([openapi.json](openapi.json), the same document `referee serve` answers at "
        "`/openapi.json`, and as a page of its own at `/docs`). How to use it, with `curl` "
        "examples, is in [the web table](web.md#the-json-api).",
        "",
        "| method | path | summary |",
        "|---|---|---|",
    ]
    ops: list[tuple[str, str, dict[str, Any]]] = []
    for path, item in schema.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                ops.append((path, method, item[method]))
    for path, method, op in ops:
        lines.append(f"| {method.upper()} | `{path}` | {_cell(op.get('summary', ''))} |")
    for path, method, op in ops:
        lines += ["", f"## {method.upper()} `{path}`", ""]
        if op.get("description"):
            lines += [op["description"].strip(), ""]
        elif op.get("summary"):
            lines += [op["summary"], ""]
        params = op.get("parameters", [])
        if params:
            lines += ["| parameter | in | required | type | description |", "|---|---|---|---|---|"]
            for p in params:
                lines.append(
                    f"| `{p['name']}` | {p.get('in', '')} | {'yes' if p.get('required') else 'no'}"
                    f" | {_ref_name(p.get('schema', {}))} | {_cell(p.get('description', ''))} |"
                )
            lines.append("")
        body = op.get("requestBody", {}).get("content", {})
        for mime, content in body.items():
            lines += [f"Request body ({mime}): {_ref_name(content.get('schema', {}))}", ""]
        codes = ", ".join(f"{code}" for code in op.get("responses", {}))
        if codes:
            lines += [f"Responses: {codes}.", ""]
    return "\n".join(lines) + "\n"


LATER_PAGES = frozenset({"deploy.md"})
"""Pages in the nav written on another branch: left out of the nav, with a notice, until
the file is there (so the site builds strict on either side of the merge)."""


def _prune(nav: list[Any], docs: Path) -> list[Any]:
    kept: list[Any] = []
    for entry in nav:
        if isinstance(entry, dict):
            ((title, value),) = entry.items()
            if isinstance(value, list):
                kept.append({title: _prune(value, docs)})
                continue
            if value in LATER_PAGES and not (docs / value).exists():
                log.info("docs: %s is not written yet; left out of the nav", value)
                continue
        kept.append(entry)
    return kept


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Leaves a page of :data:`LATER_PAGES` out of the nav while its file is missing."""
    if config.nav:
        config.nav = _prune(config.nav, Path(config.docs_dir))
    return config


README_PART = re.compile(r'^--8<-- "README.md:(\w+)"$', re.M)


def readme_part(name: str, root: Path) -> str:
    """The README's section between ``<!-- --8<-- [start:NAME] -->`` and its end marker, its
    links (``docs/x.md``, from the repository's root) turned into the site's (``x.md``)."""
    text = (root / "README.md").read_text(encoding="utf-8")
    start, end = f"--8<-- [start:{name}]", f"--8<-- [end:{name}]"
    if start not in text or end not in text:
        raise ValueError(f"README.md has no section {name!r} (markers {start!r}, {end!r})")
    part = text.split(start, 1)[1].split("\n", 1)[1].split(end, 1)[0]
    part = part.rsplit("\n", 1)[0]  # the end marker's line
    return part.replace("](docs/", "](")


def on_page_markdown(markdown: str, page: Any, config: MkDocsConfig, files: Files) -> str:
    """Includes a section of the README: a line ``--8<-- "README.md:NAME"``."""
    root = Path(config.config_file_path).parent
    return README_PART.sub(lambda m: readme_part(m.group(1), root), markdown)


ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):(?=<code>|`)")


def on_page_content(html: str, page: Any, config: MkDocsConfig, files: Files) -> str:
    """Docstrings are written with Sphinx roles (``:class:`X```) and ``Example::``; on the
    site a role shows as its code alone and the example heading ends in one colon."""
    return ROLE.sub("", html).replace("<p>Example::</p>", "<p>Example:</p>")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Adds ``openapi.json`` and ``http-api.md`` to the site."""
    schema = openapi_schema()
    files.append(File.generated(config, "openapi.json", content=json.dumps(schema, indent=1)))
    files.append(File.generated(config, "http-api.md", content=markdown(schema)))
    return files
