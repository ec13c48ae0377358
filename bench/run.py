"""Run the benchmarks and write ``bench/RESULTS.md``.

Usage: ``python bench/run.py [module ...]`` (module names without ``bench_``,
e.g. ``dice mneme``); with no names every ``bench_*.py`` runs. Each module's
table goes to ``bench/results/<module>.md``; RESULTS.md is rebuilt from all of
them, so modules can be re-measured one at a time.
"""

from __future__ import annotations

import datetime
import importlib
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import markdown, measure  # noqa: E402

HEADER = """# Benchmark results

Written by `make bench` (`python bench/run.py`). Each figure is the median of
repeated single calls in one process, with every functools cache of icepool,
dyce and referee cleared before each call (the dice grammar, built once per
process, is kept: odds are timed on parsed expressions). "speed-up" is the
fastest reference library's time over ours. Machine: 2 cores, {python}.
Targets come from the issues; "met" checks both the ceiling and the speed-up.
"""


def main(argv: list[str]) -> int:
    names = argv or sorted(p.stem[len("bench_") :] for p in HERE.glob("bench_*.py"))
    out_dir = HERE / "results"
    out_dir.mkdir(exist_ok=True)
    failed = 0
    for name in names:
        module = importlib.import_module(f"bench_{name}")
        rows = measure(module.cases())
        stamp = datetime.date.today().isoformat()
        text = markdown(f"{module.TITLE} (measured {stamp})", rows)
        if hasattr(module, "extra"):
            text += "\n" + module.extra()
        (out_dir / f"{name}.md").write_text(text, encoding="utf-8")
        print(text)
        failed += sum(not r["ok"] for r in rows)
    parts = [HEADER.format(python=f"Python {platform.python_version()}")]
    parts += [p.read_text(encoding="utf-8") for p in sorted(out_dir.glob("*.md"))]
    (HERE / "RESULTS.md").write_text("\n".join(parts), encoding="utf-8")
    if failed:
        print(f"{failed} case(s) missed their target", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
