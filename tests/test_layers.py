"""The layers' imports (issue 35, principle 11): nothing in ``referee.systems`` exists only
for the command line. Every module of the rules is reached, through imports, from
something other than ``referee.cli`` - the table, the web, the analysis, the dice, or the
games' own packages (which the registry loads for every edge) - so what the command line
prints about a game is what every edge can use."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "referee"


def _name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in PACKAGE.rglob("*.py")}
ROLE = re.compile(r'_wing\("(\w+)"\)|\}\.(\w+)"')
"""How the base loads a game's module by its role (``self._wing("sheet")``,
``f"{package}.words"``): the Ruleset's public surface, reached by name, not by import."""


def _roles() -> set[str]:
    """The roles the shared code loads from every game's package by name."""
    found: set[str] = set()
    for shared in ("base.py", "building.py"):
        text = (PACKAGE / "systems" / shared).read_text(encoding="utf-8")
        found |= {a or b for a, b in ROLE.findall(text)}
    return found


def _imports(name: str, path: Path, wing: bool = False) -> Iterator[str]:
    """Every module of the package ``name`` imports, anywhere in it (lazy imports too);
    ``from a import b`` counts ``a.b`` when that is a module. ``wing``: each import by
    the module it names only (``from referee.systems.arm import fight`` is ``fight``, not
    the package), never ``name`` itself."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            named = [f"{base}.{a.name}" for a in node.names]
            found = [n if n in MODULES else base for n in named] if wing else [base, *named]
        else:
            continue
        for module in found:
            while module and module not in MODULES:  # a name in a module: the module
                module = module.rpartition(".")[0]
            if module and not (wing and module == name):
                yield module


def _reached(roots: set[str], edges: dict[str, set[str]]) -> set[str]:
    seen, todo = set(roots), list(roots)
    while todo:
        for nxt in edges.get(todo.pop(), set()) - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_nothing_in_systems_exists_only_for_the_command_line() -> None:
    """A module of ``referee.systems`` the command line reaches is reached from elsewhere
    too: from another layer, or from a game's package and the modules the base loads from
    it by role (the Ruleset's surface: ``words``, ``sheet``, ``actions``...)."""
    edges = {name: set(_imports(name, path)) for name, path in MODULES.items()}
    cli = {n for n in MODULES if n.startswith("referee.cli")}
    elsewhere = {n: e for n, e in edges.items() if n not in cli}
    games = {n for n in MODULES if n.count(".") == 2 and MODULES[n].name == "__init__.py"}
    by_role = {f"{g}.{r}" for g in games for r in _roles()} & set(MODULES)
    assert {"referee.systems.arm.words", "referee.systems.mneme.sheet"} <= by_role
    roots = {n for n in elsewhere if not n.startswith("referee.systems")} | games | by_role
    from_cli = _reached(cli, edges) - cli
    assert "referee.systems.mneme.damage" in from_cli  # the walk sees the command line's
    only_cli = sorted(
        n for n in from_cli - _reached(roots, elsewhere) if n.startswith("referee.systems")
    )
    assert only_cli == []


def test_no_game_keeps_a_report_of_the_command_lines_own() -> None:
    """The outcomes' words are the game's ``words.py``, shared by every edge."""
    for game in ("arm", "mneme", "mnemonic", "mongrel"):
        assert not (PACKAGE / "systems" / game / "report.py").exists(), game
        assert (PACKAGE / "systems" / game / "words.py").is_file(), game


EDGE_LIBRARIES = ("fastapi", "starlette", "click", "jinja2", "uvicorn", "httpx")


def _library_imports(path: Path) -> set[str]:
    """The top-level names of every module ``path`` imports (lazy imports too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_core_holds_no_edge_code() -> None:
    """Issue 36 item 1: what a table or a game can do holds no HTTP, no command line and
    no markup (the web and the command line spell it), and no test's launcher ships."""
    for name, path in MODULES.items():
        if name.startswith(("referee.table", "referee.systems")):
            edge = _library_imports(path) & set(EDGE_LIBRARIES)
            assert not edge, f"{name} imports {sorted(edge)}"
    assert not any(p.name == "throwaway.py" for p in PACKAGE.rglob("*.py"))
    assert "subprocess" not in _library_imports(PACKAGE / "table" / "scratch.py")


def test_the_pages_take_nothing_from_the_api_routes() -> None:
    """Issue 36 item 4: what the pages share with the API lives in ``web/deps.py`` and
    ``web/models.py``, not in a module of routes."""
    routes = {"referee.web.api", *(n for n in MODULES if n.startswith("referee.web.api_"))}
    for name in ("referee.web.pages", "referee.web.recaps", "referee.web.analysis_routes"):
        taken = set(_imports(name, MODULES[name])) & routes
        assert not taken, f"{name} imports {sorted(taken)}"


def _loops(nodes: set[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """The import loops among ``nodes``: each set of modules that reach one another."""
    reach = {
        n: _reached(edges.get(n, set()) & nodes, {k: v & nodes for k, v in edges.items()})
        for n in nodes
    }
    loops: list[list[str]] = []
    for n in sorted(nodes):
        ring = sorted(m for m in nodes if n in reach[m] and m in reach[n])
        if ring and ring not in loops:
            loops.append(ring)
    return loops


def test_no_import_loop_inside_a_wing() -> None:
    """Inside a game's package the imports only point one way (issue 36): the action
    types (``actions.py``) import no planner, the ruleset declares the table and imports
    the planners, and no planner imports the ruleset (ARM's push settles through the
    table it is given)."""
    edges = {name: set(_imports(name, path, wing=True)) for name, path in MODULES.items()}
    assert _loops({"a", "b", "c"}, {"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    for game in ("arm", "mneme", "mnemonic", "mongrel"):
        wing = {n for n in MODULES if n.startswith(f"referee.systems.{game}.")}
        assert len(wing) > 10
        assert _loops(wing, edges) == [], game
    rolls = (PACKAGE / "systems" / "arm" / "rolls.py").read_text(encoding="utf-8")
    assert "RULESET" not in rolls and "arm.ruleset" not in rolls
