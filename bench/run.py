"""Run the benchmarks and write ``bench/RESULTS.md``.

Usage: ``python bench/run.py [--quick] [module ...]`` (module names without
``bench_``, e.g. ``dice mneme``); with no names every ``bench_*.py`` runs.
Each module's section goes to ``bench/results/<module>.md`` and RESULTS.md is
rebuilt from all of them, so modules can be re-measured one at a time.
``--quick`` takes fewer rounds and skips the audits (for development only);
``--assemble`` only rebuilds RESULTS.md from the stored sections (after
editing ``NOTES.md``, the commentary on the targets placed under their table).
"""

from __future__ import annotations

import datetime
import importlib
import json
import platform
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import SEED, audit_coldness, markdown, measure, us  # noqa: E402

METHOD = """# Benchmark results

Written by `make bench` (`python bench/run.py`). Machine: 2 cores shared with other work,
{python}, icepool {icepool}, dyce {dyce}.

**Method, in one paragraph a sceptic can rerun.** Every case is a question answered by
referee and, where they can answer it, by icepool and dyce, each in every formulation
listed under its table (the fastest one counts). Before anything is timed, each answer is
turned into exact fractions and compared with ours; a formulation that disagrees is not
timed and is named under the table. Then the case is timed in rounds: in each round every
formulation is timed **cold** (after ten untimed cold calls of each formulation, so the
interpreter has settled on its code; every cache of all three libraries cleared just before the
call: functools caches, referee's parse cache and memo of sums, icepool's cached dice,
binomial rows and its evaluators' dungeon caches) and **warm** (called once untimed just
before, caches kept), the slots in a newly shuffled order each round (seed {seed}), until
each slot has at least 5 samples and 1.5 s of calls or 31 rounds; a call slower than a
second is taken once. Figures are medians of single calls in microseconds. Ours is timed
**from the text** (parsing included: the question a user types); "parsed" is the same on
an expression parsed beforehand. "speed-up" is the best peer's median over ours, cold
against cold and warm against warm; the target is the cold one. "minima" divides each
side's fastest cold call instead (the least disturbed by other work on the machine, which
slows the shortest calls most). The microsecond ceilings of earlier issues (Mneme CE,
Mnemonic) are judged as those issues measured them: "back to back", the median of 31 calls
of ours made one after another with every cache cleared before each, no other library's
call in between (interleaved, a call of a few microseconds also pays for refetching its
code after a peer's millisecond of work: the ratio counts that, as both sides pay it).
The coldness audit then re-times each case in fresh
interpreters, after warming up on a different case: the first call, and the median of
eight more with every cache cleared before each, so a cache the clearing missed would
show as an in-process figure far below the fresh cleared repeats. Imports and command
lines are timed as whole fresh processes with bytecode caches written first for every
library, as after an install (this machine's shell sets `PYTHONDONTWRITEBYTECODE`, which
would otherwise recompile referee, installed from `src/`, at every start while the peers
ship compiled). Rerun: `make bench` (or `.venv/bin/python bench/run.py dice`),
`BENCH_SEED` to reshuffle.
"""


def _times(ratio: float) -> str:
    """A speed-up with enough digits to show which side of a target it falls."""
    return f"{ratio:.2f}×" if ratio < 10 else f"{ratio:.0f}×"


def _targets(title: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for r in rows:
        case = r["case"]
        if case.min_ratio is None and case.target_us is None:
            continue
        peers = [p[0][0] for p in r["peers"].values() if p[0]]
        if case.min_ratio is not None and peers:
            figure = (
                f"{_times(r['ratio'])} ({us(r['ours'][0])} µs vs {us(min(peers))} µs); "
                f"minima {_times(r['ratio_min'])}"
            )
            needed = f"≥ {case.min_ratio:g}× best peer"
        else:
            figure = f"{us(r['ours'][0])} µs"
            needed = ""
        if case.target_us is not None:
            ceiling = f"≤ {case.target_us:g} µs back to back"
            needed = f"{needed}, {ceiling}" if needed else ceiling
            back = f"{us(r['ours_back'])} µs back to back"
            figure = back if case.min_ratio is None or not peers else f"{figure}; {back}"
        found.append(
            {"label": f"{title}: {case.name}", "figure": figure, "needed": needed, "met": r["met"]}
        )
    return found


def _summary(targets: list[dict[str, Any]]) -> str:
    met = sum(t["met"] for t in targets)
    lines = [
        "## Targets",
        "",
        f"{met} of {len(targets)} targets met in this run. Ratios are cold, from text, "
        "against the best peer formulation, on medians (the target) and on each side's "
        "least disturbed call (minima).",
        "",
        "| target | measured | needed | met |",
        "|---|---|---|---|",
    ]
    for t in targets:
        lines.append(
            f"| {t['label']} | {t['figure']} | {t['needed']} | {'yes' if t['met'] else '**no**'} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    names = [a for a in argv if not a.startswith("--")]
    names = names or sorted(p.stem[len("bench_") :] for p in HERE.glob("bench_*.py"))
    if "--assemble" in argv:
        names = []
    out_dir = HERE / "results"
    out_dir.mkdir(exist_ok=True)
    for name in names:
        module = importlib.import_module(f"bench_{name}")
        if hasattr(module, "section"):  # a whole-system benchmark that measures itself
            text, targets = module.section(quick)
            (out_dir / f"{name}.md").write_text(text, encoding="utf-8")
            (out_dir / f"{name}.json").write_text(json.dumps(targets, indent=1), encoding="utf-8")
            print(text, flush=True)
            continue
        cases = module.cases()
        rows = measure(cases, rounds=7 if quick else 31, budget_s=0.3 if quick else 1.5)
        audit = None if quick else audit_coldness(f"bench_{name}", rows)
        stamp = datetime.date.today().isoformat()
        text = markdown(f"{module.TITLE} (measured {stamp})", rows, audit)
        targets = _targets(module.TITLE, rows)
        if hasattr(module, "extra"):
            more, more_targets = module.extra(quick)
            text += "\n" + more
            targets += more_targets
        (out_dir / f"{name}.md").write_text(text, encoding="utf-8")
        (out_dir / f"{name}.json").write_text(json.dumps(targets, indent=1), encoding="utf-8")
        print(text, flush=True)
    import dyce
    import icepool

    header = METHOD.format(
        python=f"Python {platform.python_version()}",
        icepool=icepool.__version__,
        dyce=dyce.__version__,
        seed=SEED,
    )
    all_targets = []
    for path in sorted(out_dir.glob("*.json")):
        all_targets += json.loads(path.read_text(encoding="utf-8"))
    parts = [header, _summary(all_targets)]
    notes = HERE / "NOTES.md"
    if notes.exists():
        parts.append(notes.read_text(encoding="utf-8"))
    parts += [p.read_text(encoding="utf-8") for p in sorted(out_dir.glob("*.md"))]
    (HERE / "RESULTS.md").write_text("\n".join(parts), encoding="utf-8")
    missed = [t["label"] for t in all_targets if not t["met"]]
    if missed:
        print(f"{len(missed)} target(s) missed: " + "; ".join(missed), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
