"""Designer analysis (issue 14): the simulator's speed and memory, and sweeps on Dask.

Run ``python bench/bench_analysis.py``: it measures, prints, and writes its own
section into ``bench/RESULTS.md`` between ``<!-- analysis -->`` and
``<!-- /analysis -->`` (appended if absent), and into ``bench/results/analysis.md``
(with ``results/analysis.json``, its targets), so ``bench/run.py``'s rebuild of
RESULTS.md keeps it. ``bench/run.py`` runs it too, as a whole-system benchmark:
:func:`section` measures afresh (``--quick``: smaller counts).

Figures, side by side in one run (bounded to a couple of minutes on 2 cores):

* the 2d6-check kernel (:class:`~referee.analysis.kernel.CheckSampler` over the
  Mneme CE check's exact odds) against plain numpy's bound for the same check
  (int8 faces, a sum, a compare), in checks per second;
* whole Mongrel conflicts simulated per second (Vooruk against Giazza), the first
  run tabulating the chain and a run on the tabulated chain;
* peak RSS over 10^8 simulated checks (chunked; the simulator's rollers keep no
  per-die record, unlike the table's seeded roller);
* a sweep's throughput on a LocalCluster of 2 worker processes against one process.
"""

from __future__ import annotations

import datetime
import json
import platform
import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
START, END = "<!-- analysis -->", "<!-- /analysis -->"


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def _best(fn: Any, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - began)
    return best


def check_kernel(n: int = 20_000_000) -> dict[str, float]:
    """Checks per second: the kernel against plain numpy, 2d6 >= 8, chunks of 2^20."""
    from referee.analysis.compare import compare
    from referee.analysis.kernel import CHUNK, CheckSampler

    dist = compare("mneme", {"difficulty": 8}).series["plain"]  # Effect = 2d6 - 8
    sampler = CheckSampler(dist)
    success = np.asarray([o >= 0 for o in sampler.outcomes])
    rng = np.random.default_rng(1)

    def ours() -> int:
        hits, left = 0, n
        while left:
            size = min(CHUNK, left)
            hits += int(success[sampler.draw(size, rng)].sum())
            left -= size
        return hits

    def bound() -> int:
        hits, left = 0, n
        while left:
            size = min(CHUNK, left)
            faces = rng.integers(1, 7, size=(2, size), dtype=np.int8)
            hits += int(((faces[0] + faces[1]) >= 8).sum())
            left -= size
        return hits

    t_ours, t_bound = _best(ours), _best(bound)
    return {"ours": n / t_ours, "bound": n / t_bound, "ratio": t_bound / t_ours}


def memory(n: int = 100_000_000) -> dict[str, float]:
    """Peak RSS before and after 10^8 simulated checks."""
    from referee.analysis.compare import compare
    from referee.analysis.kernel import CheckSampler
    from referee.analysis.simulate import NumpyRoller

    sampler = CheckSampler(compare("mneme", {"difficulty": 8}).series["plain"])
    rng = np.random.default_rng(2)
    before = _rss_mb()
    began = time.perf_counter()
    counts = sampler.counts(n, rng)
    seconds = time.perf_counter() - began
    after = _rss_mb()
    roller = NumpyRoller(rng)
    for _ in range(1000):
        roller.roll(2, 6)
    assert int(counts.sum()) == n and roller.records == ()
    return {"before": before, "after": after, "seconds": seconds}


def conflicts(runs: int = 200_000) -> dict[str, float]:
    """Whole Mongrel conflicts per second (Vooruk vs Giazza, both attacking)."""
    from referee.analysis.scenario import Scenario
    from referee.analysis.simulate import Table, simulate

    model = Scenario.default("mongrel").model()
    table = Table(model)
    began = time.perf_counter()
    first = simulate(model, runs=runs, seed=1, table=table)
    cold = time.perf_counter() - began
    began = time.perf_counter()
    simulate(model, runs=runs, seed=2, table=table)
    warm = time.perf_counter() - began
    return {
        "runs": runs,
        "cold": runs / cold,
        "warm": runs / warm,
        "states": first.states,
        "actions": first.expected_rounds.value,
    }


def sweep(runs: int = 20_000) -> dict[str, float]:
    """Conflicts per second of an 8-cell Mongrel sweep: one process, then 2 workers."""
    from referee.analysis.scenario import Scenario
    from referee.analysis.sweep import jobs, run

    grid = {"policy.vooruk": ["attack", "balanced"], "vooruk.expertise.Rend": [3, 4, 5, 6]}
    todo = jobs(Scenario.default("mongrel"), grid, runs=runs, seed=3)
    total = runs * len(todo)
    began = time.perf_counter()
    alone = run(todo, workers=0)
    single = time.perf_counter() - began
    began = time.perf_counter()
    cluster = run(todo, workers=2, processes=True)
    double = time.perf_counter() - began
    assert alone == cluster, "a sweep must give the same numbers on a cluster"
    from dask.distributed import Client, LocalCluster

    from referee.analysis.sweep import run_cell

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
            silence_logs=40,
        ) as cl,
        Client(cl) as client,
    ):  # fmt: skip
        client.gather(client.map(run_cell, todo[:2], pure=False))  # imports on the workers
        began = time.perf_counter()
        warm = client.gather(client.map(run_cell, todo, pure=False))
        running = time.perf_counter() - began
    assert list(warm) == alone
    return {
        "cells": len(todo),
        "conflicts": total,
        "single": total / single,
        "two": total / double,
        "running": total / running,
    }


def section(quick: bool = False) -> tuple[str, list[dict[str, Any]]]:
    """Measure everything: the section (with its markers) and its one target, in the
    form ``bench/run.py`` collects (``quick``: a tenth of the counts)."""
    scale = 10 if quick else 1
    k = check_kernel(20_000_000 // scale)
    m = memory(100_000_000 // scale)
    c = conflicts(200_000 // scale)
    s = sweep(20_000 // scale)
    stamp = datetime.date.today().isoformat()
    met = "met" if k["ratio"] >= 0.3 else "NOT met"
    lines = [
        START,
        f"## Designer analysis (measured {stamp}, Python {platform.python_version()})",
        "",
        "Written by `python bench/bench_analysis.py`; every figure from one run.",
        "",
        "| measurement | figure |",
        "|---|---|",
        f"| 2d6 check kernel (exact odds, lookup table), checks/s | {k['ours']:,.0f} |",
        f"| plain numpy bound (int8 faces, sum, compare), checks/s | {k['bound']:,.0f} |",
        f"| kernel / bound (target >= 0.3) | {k['ratio']:.2f} ({met}) |",
        f"| whole Mongrel conflicts/s, first run (tabulating {c['states']:.0f} states) "
        f"| {c['cold']:,.0f} |",
        f"| whole Mongrel conflicts/s, on the tabulated chain | {c['warm']:,.0f} |",
        f"| actions per conflict (mean) | {c['actions']:.2f} |",
        f"| {100 // scale} million simulated checks: seconds | {m['seconds']:.1f} |",
        f"| peak RSS before / after them, MiB | {m['before']:.0f} / {m['after']:.0f} |",
        f"| sweep, {s['cells']:.0f} cells x {s['conflicts'] / s['cells']:,.0f} conflicts: "
        f"one process, conflicts/s | {s['single']:,.0f} |",
        f"| the same sweep on a new LocalCluster of 2 worker processes (start-up "
        f"included), conflicts/s | {s['two']:,.0f} |",
        f"| the same sweep on that cluster already running, conflicts/s | {s['running']:,.0f} |",
        "",
        "The kernel draws uniform integers below the check's total weight (36) and reads "
        "the outcome from a lookup table: exact odds, one byte per draw. Conflicts move "
        "through a table of each reached state's exact step (built by the game's rules). "
        "The sweep's two results are asserted identical; the cluster pays for starting "
        "its processes and shipping the rules on a machine whose 2 cores are shared.",
        END,
    ]
    target = {
        "label": "analysis: 2d6 check kernel / plain numpy bound",
        "figure": f"{k['ratio']:.2f}",
        "needed": ">= 0.3",
        "met": k["ratio"] >= 0.3,
    }
    return "\n".join(lines) + "\n", [target]


def write(text_: str, targets: list[dict[str, Any]]) -> None:
    """Put the section into RESULTS.md (replacing the old one, or appended) and into
    results/analysis.md and .json."""
    section = text_
    results = HERE / "RESULTS.md"
    text = results.read_text(encoding="utf-8") if results.exists() else ""
    if START in text and END in text:
        head, _, rest = text.partition(START)
        _, _, tail = rest.partition(END)
        text = head + section.rstrip("\n") + tail
    else:
        text = text.rstrip("\n") + "\n\n" + section
    results.write_text(text, encoding="utf-8")
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "analysis.md").write_text(section, encoding="utf-8")
    (HERE / "results" / "analysis.json").write_text(json.dumps(targets, indent=1), "utf-8")


def main(argv: list[str]) -> int:
    text, targets = section("--quick" in argv)
    print(text)
    write(text, targets)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent / "src"))
    raise SystemExit(main(sys.argv[1:]))
