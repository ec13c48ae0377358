"""Package hygiene: a light import and no module-level randomness in the rules."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "referee"


def test_importing_referee_pulls_in_no_heavy_dependency() -> None:
    code = (
        "import sys, referee; "
        "heavy = [m for m in ('numpy', 'fastapi', 'lark', 'pydantic', 'rich', 'typer') "
        "if m in sys.modules]; print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_rules_never_use_the_random_module() -> None:
    for path in list((SRC / "systems").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names]
                module = getattr(node, "module", None) or ""
                assert "random" not in names and module != "random", path
