"""Benchmark harness: referee beside icepool and dyce, measured so a sceptic can rerun it.

Each ``bench/bench_*.py`` module defines ``TITLE`` and ``cases() -> list[Case]``.
A :class:`Case` is one question answered by ours and by each peer library in
one or more formulations. :func:`measure`:

1. runs every formulation once and compares its answer, as exact fractions,
   with ours (:func:`exact_view`); a mismatch stops the benchmark;
2. times, in rounds, every formulation twice: **cold** (every cache of
   referee, icepool and dyce cleared just before the call, icepool's evaluator
   and dungeon caches included: :class:`Caches`) and **warm** (the same call
   made once untimed just before, caches kept). In each round the slots run
   in a freshly shuffled order, so load changes on the machine fall on every
   library alike;
3. reports the median of each slot and, per library, its fastest formulation
   per column; "speed-up" is the best peer's median over ours.

:func:`audit_coldness` re-times each case's first call in fresh interpreters
(after warming up on a different case and clearing caches) to show whether
any in-process "cold" figure is flattered by a cache the clearing missed.
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

# dyce marks some reference methods experimental; the warning would be timed too.
warnings.filterwarnings("ignore", module="dyce")
warnings.filterwarnings("ignore", message=".*experimental.*")
sys.setrecursionlimit(20_000)  # icepool adds n dice by recursion (1000d6)

HERE = Path(__file__).resolve().parent
SEED = int(os.environ.get("BENCH_SEED", "20261123"))

Formulations = dict[str, Callable[[], Any]]


@dataclass
class Case:
    """One question, answered by ours and by each peer library.

    ``ours`` answers it from scratch (from the text a user types, where the
    question is dice notation: the parse is timed too); ``parsed`` is ours on
    an already parsed expression (shown for information). ``peers`` maps a
    library to its formulations: each is timed and the fastest counts.
    ``view`` turns any answer into an exact, comparable value. ``min_ratio``
    is the speed-up the issue asks for over the best peer (cold, from text).
    """

    name: str
    ours: Callable[[], Any]
    peers: dict[str, Formulations] = field(default_factory=dict)
    parsed: Callable[[], Any] | None = None
    view: Callable[[Any], Any] | None = None
    min_ratio: float | None = 2.0
    target_us: float | None = None
    note: str = ""


# ---------------------------------------------------------------------------
# exact views


def exact_view(result: Any) -> Any:
    """An answer as exact fractions: ``{outcome: Fraction}`` for any distribution.

    Handles referee distributions, icepool dice, dyce histograms, weight
    mappings, fractions, and tuples of those.
    """
    if isinstance(result, tuple) and not hasattr(result, "items"):
        return tuple(exact_view(r) for r in result)
    if isinstance(result, Fraction | int) and not isinstance(result, bool):
        return Fraction(result)
    denominator = getattr(result, "denominator", None)
    if callable(denominator):  # icepool.Die
        total = denominator()
        return {_outcome(o): Fraction(q, total) for o, q in result.items() if q}
    if hasattr(result, "probabilities") and hasattr(result, "total"):  # referee
        total = result.total
        return {_outcome(o): Fraction(w, total) for o, w in result.items()}
    if hasattr(result, "total") and hasattr(result, "items"):  # dyce.H
        total = result.total
        return {_outcome(o): Fraction(c, total) for o, c in result.items() if c}
    if isinstance(result, Mapping):
        total = sum(result.values())
        return {_outcome(o): Fraction(w, total) for o, w in result.items() if w}
    raise TypeError(f"no exact view of {type(result).__name__}")


def _outcome(o: Any) -> Any:
    if isinstance(o, bool):
        return int(o)
    if isinstance(o, int):
        return o
    if isinstance(o, tuple) or type(o).__name__ == "Vector":
        return tuple(_outcome(x) for x in o)
    return o


# ---------------------------------------------------------------------------
# caches


def _icepool_comb_rows() -> list[Callable[[], None]]:
    module = sys.modules.get("icepool.math")
    rows = getattr(module, "comb_row_cache", None)
    return [rows.clear] if isinstance(rows, dict) else []


class Caches:
    """Every cache of referee, icepool and dyce that outlives a call.

    Found by walking their modules and classes: functools caches
    (``cache_clear``, which also covers referee's memo of sums and its parse
    cache), objects holding a ``_cache`` dict (icepool's evaluators, which
    keep their dungeons and so every intermediate result) and icepool's table
    of binomial rows. Dice such as ``icepool.d6`` come from a functools cache,
    so clearing it hands out fresh dice without their memo of sums. Call
    :meth:`refresh` after new modules load (evaluators create their cache on
    first use, which is why it is looked up at clearing time).
    """

    PREFIXES = ("icepool", "dyce", "referee")

    def __init__(self) -> None:
        self.clears: list[Callable[[], None]] = []
        self.holders: list[Any] = []
        self.refresh()

    def refresh(self) -> None:
        clears: list[Callable[[], None]] = []
        holders: list[Any] = []
        seen: set[int] = set()
        for name, module in list(sys.modules.items()):
            if module is None or not name.startswith(self.PREFIXES):
                continue
            for value in list(vars(module).values()):
                candidates = [value]
                if isinstance(value, type):
                    candidates.extend(vars(value).values())
                for c in candidates:
                    inner = getattr(c, "__func__", c)
                    if id(inner) in seen:
                        continue
                    seen.add(id(inner))
                    if isinstance(inner, type):  # a class's own methods are unbound
                        continue
                    try:
                        clear = getattr(inner, "cache_clear", None)
                        has_cache = hasattr(inner, "_cache")
                    except Exception:  # lazy module attributes, descriptors
                        continue
                    if callable(clear):
                        clears.append(clear)
                    elif has_cache:
                        holders.append(inner)
        self.clears = clears + _icepool_comb_rows()
        self.holders = holders

    def clear(self) -> None:
        for clear in self.clears:
            clear()
        for holder in self.holders:
            cache = getattr(holder, "_cache", None)
            if isinstance(cache, dict):
                cache.clear()


# ---------------------------------------------------------------------------
# timing


def _time(func: Callable[[], Any]) -> float:
    gc_was = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter_ns()
        func()
        return (time.perf_counter_ns() - t0) / 1e9
    finally:
        if gc_was:
            gc.enable()


@dataclass
class Slot:
    """One formulation in one column (cold or warm), and its samples."""

    who: str  # "ours", "ours parsed", or a library name
    label: str  # the formulation
    func: Callable[[], Any]
    warm: bool
    first_s: float
    samples: list[float] = field(default_factory=list)

    @property
    def spent(self) -> float:
        return sum(self.samples)


def _check(case: Case) -> dict[str, float]:
    """Run every formulation once and compare its exact answer with ours.

    Returns first-call seconds. A peer formulation whose answer differs is
    dropped from the case (it does not count) and named in the case's note;
    ours parsed must agree with ours from text.
    """
    view = case.view or exact_view
    firsts: dict[str, float] = {}
    t0 = time.perf_counter()
    expected = view(case.ours())
    firsts["ours"] = time.perf_counter() - t0
    if case.parsed is not None:
        t0 = time.perf_counter()
        got = view(case.parsed())
        firsts["ours parsed"] = time.perf_counter() - t0
        assert got == expected, f"{case.name}: ours parsed disagrees with ours from text"
    dropped = []
    for lib, formulations in list(case.peers.items()):
        for label, func in list(formulations.items()):
            t0 = time.perf_counter()
            got = view(func())
            firsts[f"{lib}:{label}"] = time.perf_counter() - t0
            if got != expected:
                del formulations[label]
                dropped.append(f"{lib} `{label}`")
        if not formulations:
            del case.peers[lib]
    if dropped:
        said = "answers differently from ours, not counted: " + ", ".join(dropped)
        case.note = f"{case.note}; {said}" if case.note else said
        print(f"warning: {case.name}: {said}", file=sys.stderr)
    return firsts


WARMUP_CALLS = 10
"""Untimed cold calls of each quick formulation before its rounds: Python 3.11
specialises bytecode over its first several runs, for every library alike (the
coldness audit shows those first calls separately)."""

WARMUP_BELOW_S = 0.1


def measure(
    cases: list[Case], rounds: int = 31, budget_s: float = 1.5, min_samples: int = 5
) -> list[dict[str, Any]]:
    """Check and time every case; one row of figures per case (see the module doc)."""
    rng = random.Random(SEED)
    caches = Caches()
    rows = []
    for case in cases:
        firsts = _check(case)
        caches.refresh()
        slots: list[Slot] = []
        entries: list[tuple[str, str, Callable[[], Any]]] = [("ours", "", case.ours)]
        if case.parsed is not None:
            entries.append(("ours parsed", "", case.parsed))
        for lib, formulations in case.peers.items():
            entries += [(lib, label, f) for label, f in formulations.items()]
        for who, label, func in entries:
            first = firsts[f"{who}:{label}" if label else who]
            if first < WARMUP_BELOW_S:  # let the interpreter settle on this code first
                for _ in range(WARMUP_CALLS):
                    caches.clear()
                    func()
            for warm in (False, True):
                slots.append(Slot(who, label, func, warm, first))
        for _ in range(rounds):
            active = [s for s in slots if _wants_more(s, budget_s, min_samples)]
            if not active:
                break
            rng.shuffle(active)
            for slot in active:
                if slot.warm:
                    slot.func()
                else:
                    caches.clear()
                slot.samples.append(_time(slot.func))
        row = _row(case, slots)
        if case.target_us is not None:
            row["ours_back"] = _back_to_back(case.ours, caches)
            row["met"] = row["met_ratio"] and row["ours_back"] * 1e6 <= case.target_us
        rows.append(row)
    return rows


BACK_TO_BACK = 31
"""Calls of ours, one after another, for a microsecond ceiling."""


def _back_to_back(func: Callable[[], Any], caches: Caches) -> float:
    """The median of calls made one after another, every cache cleared before each.

    How the earlier issues' microsecond ceilings (Mneme CE <= 20 us, Mnemonic <= 30 us)
    were measured: the libraries' caches cleared, no other library's call in between.
    Interleaved, a call of a few microseconds also pays for refetching its code into
    the processor's caches after a peer's millisecond of work, which the ratio targets
    count (both sides pay it) but a ceiling on our own time should not.
    """
    samples = []
    for _ in range(BACK_TO_BACK):
        caches.clear()
        samples.append(_time(func))
    return statistics.median(samples)


def _wants_more(slot: Slot, budget_s: float, min_samples: int) -> bool:
    if slot.first_s > 1.0:  # a call over a second: one sample of each kind
        return not slot.samples
    return len(slot.samples) < min_samples or slot.spent < budget_s


def _row(case: Case, slots: list[Slot]) -> dict[str, Any]:
    def best(who: str, warm: bool) -> tuple[float, str, int] | None:
        found = [
            (statistics.median(s.samples), s.label, len(s.samples))
            for s in slots
            if s.who == who and s.warm == warm and s.samples
        ]
        return min(found) if found else None

    ours = best("ours", False)
    ours_warm = best("ours", True)
    parsed = best("ours parsed", False)
    assert ours is not None and ours_warm is not None
    peers = {lib: (best(lib, False), best(lib, True)) for lib in case.peers}
    cold = [p[0][0] for p in peers.values() if p[0]]
    warm = [p[1][0] for p in peers.values() if p[1]]
    ratio = min(cold) / ours[0] if cold else None
    ratio_warm = min(warm) / ours_warm[0] if warm else None
    # the least disturbed cold call of each (standard for micro-benchmarks; the
    # target is judged on medians, which a loaded machine moves more for short calls)
    fastest: dict[str, float] = {}
    for slot in slots:
        if not slot.warm and slot.samples:
            fastest[slot.who] = min(fastest.get(slot.who, float("inf")), min(slot.samples))
    peer_fastest = [fastest[lib] for lib in case.peers if lib in fastest]
    ratio_min = min(peer_fastest) / fastest["ours"] if peer_fastest else None
    met_ratio = case.min_ratio is None or ratio is None or ratio >= case.min_ratio
    return {
        "case": case,
        "ours": ours,
        "ours_warm": ours_warm,
        "parsed": parsed,
        "peers": peers,
        "ratio": ratio,
        "ratio_warm": ratio_warm,
        "ratio_min": ratio_min,
        "met_ratio": met_ratio,
        "met": met_ratio,
    }


# ---------------------------------------------------------------------------
# reporting


def us(seconds: float) -> str:
    """Microseconds, three significant figures or whole."""
    v = seconds * 1e6
    if v < 10:
        return f"{v:.2f}"
    if v < 100:
        return f"{v:.1f}"
    return f"{v:,.0f}"


def markdown(title: str, rows: list[dict[str, Any]], audit: dict[str, Any] | None = None) -> str:
    """A Markdown section: one table row per case, then the formulations used."""
    libs = sorted({lib for r in rows for lib in r["case"].peers})
    has_parsed = any(r["parsed"] for r in rows)
    head = ["case", "ours µs (cold, from text)", "ours µs (warm)"]
    if has_parsed:
        head.append("ours µs (parsed, cold)")
    for lib in libs:
        head += [f"{lib} µs (cold)", f"{lib} µs (warm)"]
    head += ["speed-up cold", "speed-up cold (minima)", "speed-up warm", "needed", "met"]
    lines = [f"## {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    used: dict[str, set[str]] = {}
    for r in rows:
        c: Case = r["case"]
        cells = [c.name, us(r["ours"][0]), us(r["ours_warm"][0])]
        if has_parsed:
            cells.append(us(r["parsed"][0]) if r["parsed"] else "-")
        for lib in libs:
            cold, warm = r["peers"].get(lib, (None, None))
            for figure in (cold, warm):
                if figure is None:
                    cells.append("-")
                else:
                    mark = "¹" if figure[2] == 1 else ""
                    cells.append(us(figure[0]) + mark)
                    used.setdefault(lib, set()).add(figure[1])
        for key in ("ratio", "ratio_min", "ratio_warm"):
            v = r[key]
            cells.append("-" if v is None else f"{v:.2f}×" if v < 10 else f"{v:.0f}×")
        cells.append("-" if c.min_ratio is None else f"{c.min_ratio:g}×")
        cells.append("yes" if r["met"] else "**no**")
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    if any(f and f[2] == 1 for r in rows for pair in r["peers"].values() for f in pair):
        lines.append("¹ one sample: a single call takes over a second.")
    for lib in libs:
        if lib in used:
            lines.append(f"- {lib}, fastest formulations used: " + "; ".join(sorted(used[lib])))
    notes = [f"- {r['case'].name}: {r['case'].note}" for r in rows if r["case"].note]
    lines += notes
    if audit:
        lines += ["", *audit_lines(audit)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# coldness audit: first calls in fresh interpreters


AUDIT_SCRIPT = """
import sys, time
sys.path.insert(0, {here!r})
import harness, {module}
cases = {module}.cases()
case, other = cases[{index}], cases[{other}]
def pick(c, who):
    if who == "ours":
        return c.ours
    return next(iter(c.peers[who].values())) if who in c.peers else c.ours
target = case.ours if {who!r} == "ours" else case.peers[{who!r}][{label!r}]
pick(other, {who!r})()
caches = harness.Caches()
caches.clear()
times = []
for i in range(9):
    t0 = time.perf_counter_ns()
    target()
    times.append((time.perf_counter_ns() - t0) / 1e9)
    if i == 0:
        caches.refresh()  # caches created on first use are found too
    caches.clear()
print(times[0], sorted(times[1:])[len(times[1:]) // 2])
"""


def audit_coldness(
    module: str, rows: list[dict[str, Any]], runs: int = 2, max_first_s: float = 2.0
) -> dict[str, Any]:
    """First call of each case's fastest cold formulation in fresh interpreters.

    Each interpreter imports everything, answers a *different* case of the
    same module with the same library (so lazy imports and first-use set-up
    are done), clears caches as the harness does, then times this case once.
    The figure is the minimum over ``runs`` interpreters. A fresh figure far
    above the in-process cold median would mean a cache survived the clearing.
    """
    out: dict[str, Any] = {}

    def slowest(r: dict[str, Any]) -> float:
        return max([r["ours"][0]] + [p[0][0] for p in r["peers"].values() if p[0]])

    by_cost = sorted(range(len(rows)), key=lambda i: slowest(rows[i]))
    for index, r in enumerate(rows):
        case: Case = r["case"]
        # warm up on the quickest other case (a slow one would take minutes)
        other = next((i for i in by_cost if i != index), index)
        targets = [("ours", "", r["ours"][0])]
        for lib, (cold, _) in r["peers"].items():
            if cold is not None:
                targets.append((lib, cold[1], cold[0]))
        for who, label, in_process in targets:
            if in_process > max_first_s:
                continue
            script = AUDIT_SCRIPT.format(
                here=str(HERE), module=module, index=index, other=other, who=who, label=label
            )
            firsts, repeats = [], []
            for _ in range(runs):
                done = subprocess.run(
                    [sys.executable, "-c", script], capture_output=True, text=True, check=True
                )
                first, repeat = done.stdout.strip().splitlines()[-1].split()
                firsts.append(float(first))
                repeats.append(float(repeat))
            out[f"{case.name}|{who}"] = (min(firsts), min(repeats), in_process)
    return out


def audit_lines(audit: dict[str, Any]) -> list[str]:
    """The audit as a table: fresh first call, fresh cleared repeats, in-process cold."""
    lines = [
        "Coldness audit. In fresh interpreters (minimum of 2), after warming up on another "
        "case: the case's very first call, then the median of eight more calls with every "
        "cache cleared before each, beside the in-process cold median. The first calls also "
        "pay for code run for the first times (Python 3.11 specialises bytecode as it runs, "
        "over several calls); a cache the clearing missed would show as a sudden drop after "
        "the first call and an in-process figure far below the cleared repeats.",
        "",
        "| case | library | fresh first call µs | fresh cleared repeats µs | in-process cold µs |"
        " repeats / in-process |",
        "|---|---|---|---|---|---|",
    ]
    worst = 0.0
    for key, (first, repeat, in_process) in audit.items():
        name, who = key.split("|")
        ratio = repeat / in_process
        worst = max(worst, ratio)
        lines.append(
            f"| {name} | {who} | {us(first)} | {us(repeat)} | {us(in_process)} | {ratio:.1f} |"
        )
    lines.append("")
    lines.append(f"Largest repeats / in-process ratio: {worst:.1f}.")
    return lines


# ---------------------------------------------------------------------------
# whole processes


def installed_env() -> dict[str, str]:
    """The environment of an installed package: bytecode caches may be written and read.

    Some shells set ``PYTHONDONTWRITEBYTECODE``; then referee (installed
    editable from ``src/``) is compiled from source at every start while the
    peers' site-packages ship compiled. Processes timed here run without it,
    after one untimed run that writes the caches, as after any install.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def process_seconds(argv: list[str], runs: int = 15) -> float:
    """Minimum wall time of a whole process over ``runs`` runs (one untimed run first)."""
    env = installed_env()
    subprocess.run(argv, check=True, capture_output=True, env=env)
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True, env=env)
        best = min(best, time.perf_counter() - t0)
    return best


def first_answer_seconds(code: str, runs: int = 15) -> tuple[float, float]:
    """(min, median) seconds a fresh interpreter spends inside ``code`` (timed in it)."""
    timed = f"import time\n_t0 = time.perf_counter()\n{code}\nprint(time.perf_counter() - _t0)"
    env = installed_env()
    subprocess.run([sys.executable, "-c", timed], capture_output=True, check=True, env=env)
    samples = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", timed], capture_output=True, text=True, check=True, env=env
        )
        samples.append(float(done.stdout.strip().splitlines()[-1]))
    return min(samples), statistics.median(samples)


# ---------------------------------------------------------------------------
# peer formulations shared by several modules


def dyce_keep_survey(h: Any, n: int, keep: int, highest: bool = True) -> Any:
    """dyce's survey of ``n`` rolls of ``h``, walking sorted outcomes from one end."""
    from dyce import P
    from dyce.p import survey_outcome_order_ascending, survey_outcome_order_descending

    def accumulate(state: Any, outcome: Any, count: int) -> Any:
        kept, total = state if state is not None else (0, 0)
        take = min(count, keep - kept)
        return kept + take, total + take * outcome

    order = survey_outcome_order_descending if highest else survey_outcome_order_ascending
    return (n @ P(h)).survey(accumulate=accumulate, order=order, settle=lambda s: s[1])


def dyce_keep_at(h: Any, n: int, keep: int, highest: bool = True) -> Any:
    """dyce's ``P.at``: the sum of the selected positions of the sorted roll."""
    from dyce import P

    which = slice(-keep, None) if highest else slice(None, keep)
    return (n @ P(h)).at(which)
