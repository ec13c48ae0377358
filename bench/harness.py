"""Benchmark harness: ours beside the reference libraries, same process, caches cleared.

Each ``bench/bench_*.py`` module defines ``cases() -> list[Case]``. For every
case the harness times our callable and each reference (icepool, dyce) as the
median of repeated single calls, clearing every library cache before each
call, and writes a Markdown table to ``bench/results/<module>.md``;
``bench/run.py`` then joins all result files into ``bench/RESULTS.md``.
"""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# dyce marks some reference methods experimental; the warning would be timed too.
warnings.filterwarnings("ignore", module="dyce")
warnings.filterwarnings("ignore", message=".*experimental.*")

# Caches we must not clear: the grammar is built once per process by design and
# benchmarks time odds on trees that are already parsed.
_KEEP = {"referee.dice.notation"}


@dataclass
class Case:
    """One measured computation.

    ``ours`` and each of ``references`` compute the same thing; ``target_us``
    is the issue's ceiling for ours; ``min_ratio`` the required speed-up over
    the fastest reference.
    """

    name: str
    ours: Callable[[], Any]
    references: dict[str, Callable[[], Any]] = field(default_factory=dict)
    target_us: float | None = None
    min_ratio: float | None = None
    note: str = ""


def _clearables() -> list[Callable[[], None]]:
    found: list[Callable[[], None]] = []
    seen: set[int] = set()
    for name, module in list(sys.modules.items()):
        if module is None or name in _KEEP:
            continue
        if not name.startswith(("icepool", "dyce", "referee")):
            continue
        for value in list(vars(module).values()):
            candidates = [value]
            if isinstance(value, type):
                candidates.extend(vars(value).values())
            for c in candidates:
                inner = getattr(c, "__func__", c)
                clear = getattr(inner, "cache_clear", None)
                if callable(clear) and id(clear) not in seen:
                    seen.add(id(clear))
                    found.append(clear)
    return found


def clear_caches() -> None:
    """Clear every functools cache in icepool, dyce and referee (not the grammar)."""
    for clear in _clearables():
        clear()


def time_call(func: Callable[[], Any], rounds: int, budget_s: float = 2.0) -> float:
    """Median seconds of one call over ``rounds`` runs, caches cleared before each."""
    clears = _clearables()
    samples: list[float] = []
    start = time.perf_counter()
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            for clear in clears:
                clear()
            t0 = time.perf_counter_ns()
            func()
            samples.append((time.perf_counter_ns() - t0) / 1e9)
            if time.perf_counter() - start > budget_s and len(samples) >= 5:
                break
    finally:
        if gc_was:
            gc.enable()
    return statistics.median(samples)


def measure(cases: list[Case], rounds: int = 301) -> list[dict[str, Any]]:
    """Time every case; one row of figures per case."""
    rows = []
    for case in cases:
        case.ours()  # warm imports and lazy tables outside the timing
        for ref in case.references.values():
            ref()
        ours = time_call(case.ours, rounds)
        refs = {name: time_call(f, rounds) for name, f in case.references.items()}
        fastest = min(refs.values()) if refs else None
        ratio = fastest / ours if fastest else None
        ok = (case.target_us is None or ours * 1e6 <= case.target_us) and (
            case.min_ratio is None or (ratio is not None and ratio >= case.min_ratio)
        )
        rows.append({"case": case, "ours": ours, "refs": refs, "ratio": ratio, "ok": ok})
    return rows


def _us(seconds: float) -> str:
    us = seconds * 1e6
    return f"{us:,.1f}" if us < 1000 else f"{us:,.0f}"


def markdown(title: str, rows: list[dict[str, Any]]) -> str:
    """A Markdown section with one table row per case."""
    ref_names = sorted({n for r in rows for n in r["refs"]})
    head = [
        "case",
        "ours µs",
        "target µs",
        *[f"{n} µs" for n in ref_names],
        "speed-up",
        "needed",
        "met",
    ]
    lines = [f"## {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        c: Case = r["case"]
        cells = [c.name, _us(r["ours"]), "-" if c.target_us is None else f"{c.target_us:g}"]
        cells += [_us(r["refs"][n]) if n in r["refs"] else "-" for n in ref_names]
        cells.append("-" if r["ratio"] is None else f"{r['ratio']:.1f}×")
        cells.append("-" if c.min_ratio is None else f"{c.min_ratio:g}×")
        cells.append("yes" if r["ok"] else "**no**")
        lines.append("| " + " | ".join(cells) + " |")
    notes = [f"- {r['case'].name}: {r['case'].note}" for r in rows if r["case"].note]
    if notes:
        lines += ["", *notes]
    return "\n".join(lines) + "\n"


def dyce_keep(h: Any, n: int, keep: int, highest: bool = True) -> Any:
    """dyce's idiomatic keep-highest/lowest: a descending (or ascending) survey."""
    from dyce import P
    from dyce.p import survey_outcome_order_ascending, survey_outcome_order_descending

    def accumulate(state: Any, outcome: Any, count: int) -> Any:
        kept, total = state if state is not None else (0, 0)
        take = min(count, keep - kept)
        return kept + take, total + take * outcome

    order = survey_outcome_order_descending if highest else survey_outcome_order_ascending
    return (n @ P(h)).survey(accumulate=accumulate, order=order, settle=lambda s: s[1])


def startup_seconds(code: str, runs: int = 25) -> float:
    """Median wall time of ``python -c code`` in a fresh interpreter."""
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def import_milliseconds(module: str, runs: int = 25) -> float:
    """Median cumulative import time of ``module`` in a fresh interpreter (``-X importtime``)."""
    samples = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            check=True,
            capture_output=True,
            text=True,
        )
        for line in done.stderr.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and parts[2] == module:
                samples.append(int(parts[1]) / 1000)
    return statistics.median(samples)
