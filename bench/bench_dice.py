"""Dice core: exact distributions of notation expressions, from the text a user types
(issue 11's table), then what starting the package and the command line costs."""

from __future__ import annotations

import gc
import math
import random
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import icepool
from dyce import H, P
from dyce.evaluation import expand, explode_n

import refusals
from harness import (
    SEED,
    Caches,
    Case,
    dyce_keep_survey,
    exact_view,
    first_answer_seconds,
    measure,
    process_seconds,
    us,
)
from referee.dice import bigint
from referee.dice.evaluate import odds
from referee.dice.notation import parse

TITLE = "Dice core: exact odds from text"


def _from_text(text: str) -> Case:
    tree = parse(text)
    return Case(text, lambda: odds(text), parsed=lambda: odds(tree))


def cases() -> list[Case]:
    """Every case of the issue's table; each needs at least 2x the best peer, from text."""
    # icepool.dX is looked up at each call: it comes from a cache of dice that the
    # harness clears for cold runs, so a cold call starts from a fresh die
    ice = icepool
    table: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        (
            "2d6",
            {"2 @ d6": lambda: 2 @ ice.d6, "d6 + d6": lambda: ice.d6 + ice.d6},
            {"2 @ H(6)": lambda: 2 @ H(6), "H(6) + H(6)": lambda: H(6) + H(6)},
        ),
        (
            "3d6kh2",
            {"d6.highest(3, 2)": lambda: ice.d6.highest(3, 2)},
            {
                "(3 @ P(6)).at(slice(-2, None))": lambda: (3 @ P(6)).at(slice(-2, None)),
                "survey": lambda: dyce_keep_survey(H(6), 3, 2),
            },
        ),
        (
            "4d6kh3",
            {"d6.highest(4, 3)": lambda: ice.d6.highest(4, 3)},
            {
                "(4 @ P(6)).at(slice(-3, None))": lambda: (4 @ P(6)).at(slice(-3, None)),
                "survey": lambda: dyce_keep_survey(H(6), 4, 3),
            },
        ),
        (
            "3d12med",
            {"d12.middle(3)": lambda: ice.d12.middle(3)},
            {
                "H(12).order_stat_for_n_at_pos(3, 1)": lambda: H(12).order_stat_for_n_at_pos(3, 1),
                "(3 @ P(12)).at(1)": lambda: (3 @ P(12)).at(1),
            },
        ),
        (
            "3d12med+5",
            {"d12.middle(3) + 5": lambda: ice.d12.middle(3) + 5},
            {
                "H(12).order_stat_for_n_at_pos(3, 1) + 5": lambda: (
                    H(12).order_stat_for_n_at_pos(3, 1) + 5
                ),
            },
        ),
        (
            "d6-d6",
            {"d6 - d6": lambda: ice.d6 - ice.d6},
            {"H(6) - H(6)": lambda: H(6) - H(6)},
        ),
        (
            "6d6<=4",
            {"6 @ (d6 <= 4)": lambda: 6 @ (ice.d6 <= 4)},
            {"6 @ H(6).le(4)": lambda: 6 @ H(6).le(4)},
        ),
        (
            "8d10>=7",
            {"8 @ (d10 >= 7)": lambda: 8 @ (ice.d10 >= 7)},
            {"8 @ H(10).ge(7)": lambda: 8 @ H(10).ge(7)},
        ),
        ("10d10", {"10 @ d10": lambda: 10 @ ice.d10}, {"10 @ H(10)": lambda: 10 @ H(10)}),
        (
            "20d6kh3",
            {"d6.highest(20, 3)": lambda: ice.d6.highest(20, 3)},
            {
                "(20 @ P(6)).at(slice(-3, None))": lambda: (20 @ P(6)).at(slice(-3, None)),
                "survey": lambda: dyce_keep_survey(H(6), 20, 3),
            },
        ),
        ("100d6", {"100 @ d6": lambda: 100 @ ice.d6}, {"100 @ H(6)": lambda: 100 @ H(6)}),
        ("1000d6", {"1000 @ d6": lambda: 1000 @ ice.d6}, {"1000 @ H(6)": lambda: 1000 @ H(6)}),
        (
            "100d100kh1",
            {"d100.highest(100)": lambda: ice.d100.highest(100)},
            {
                "H(100).order_stat_for_n_at_pos(100, 99)": lambda: H(100).order_stat_for_n_at_pos(
                    100, 99
                ),
                "(100 @ P(100)).at(-1)": lambda: (100 @ P(100)).at(-1),
            },
        ),
        (
            "1000d1000kh1",
            {"d(1000).highest(1000)": lambda: ice.d(1000).highest(1000)},
            {
                "H(1000).order_stat_for_n_at_pos(1000, 999)": lambda: H(
                    1000
                ).order_stat_for_n_at_pos(1000, 999),
                "(1000 @ P(1000)).at(-1)": lambda: (1000 @ P(1000)).at(-1),
            },
        ),
        (
            "1000d6kh3",
            {"d6.highest(1000, 3)": lambda: ice.d6.highest(1000, 3)},
            {"(1000 @ P(6)).at(slice(-3, None))": lambda: (1000 @ P(6)).at(slice(-3, None))},
        ),
    ]
    table += _notation_cases()
    out = []
    for text, ice_forms, dyce_forms in table:
        case = _from_text(text)
        case.peers = {"icepool": ice_forms, "dyce": dyce_forms}
        case.min_ratio = MIN_RATIOS.get(text, 2.0)
        out.append(case)
    return out


MIN_RATIOS = {"1000d1000kh1": 3.0, "3d12med": 2.5, "100d100kh1": 2.5, "4d6rr1": 2.5}
"""Speed-ups above the issue 11 table's 2x: issue 23 asks 3x for the highest of many
big dice, issue 38 2.5x for its three thinnest cases (in every run: :func:`_thin_runs`)."""

THIN = ("3d12med", "100d100kh1", "4d6rr1")
"""Issue 38's thinnest cases: at least 2.5x the best peer in every run."""


def _reroll_once(r: Any) -> Any:
    return H(6) if r.outcome == 1 else r.outcome


def _explode_five(r: Any, left: int, done: int) -> Any:
    return H(6) if r.outcome >= 5 else r.outcome


def _notation_cases() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Issue 25's forms, each with icepool's and dyce's formulation of the same exact
    answer. Explosions are compared at the same depth: 9 extra rolls a die, the last
    counted at its face (referee's default, icepool's ``explode(depth=9)``, dyce's
    ``explode_n(n=9)``)."""
    ice = icepool
    return [
        (
            "4d6dl1",
            {"d6.highest(4, 3)": lambda: ice.d6.highest(4, 3)},
            {
                "(4 @ P(6)).at(slice(-3, None))": lambda: (4 @ P(6)).at(slice(-3, None)),
                "survey": lambda: dyce_keep_survey(H(6), 4, 3),
            },
        ),
        (
            "4d6ro1",
            {"4 @ d6.reroll([1], depth=1)": lambda: 4 @ ice.d6.reroll([1], depth=1)},
            {"4 @ expand(reroll a 1, H(6))": lambda: 4 @ expand(_reroll_once, H(6))},
        ),
        (
            "4d6rr1",
            {"4 @ d6.reroll([1], depth='inf')": lambda: 4 @ ice.d6.reroll([1], depth="inf")},
            {"4 @ H(6) without the 1": lambda: 4 @ H({f: c for f, c in H(6).items() if f != 1})},
        ),
        (
            "3d6!",
            {"3 @ d6.explode(depth=9)": lambda: 3 @ ice.d6.explode(depth=9)},
            {"3 @ explode_n(H(6), n=9)": lambda: 3 @ explode_n(H(6), n=9)},
        ),
        (
            "10d6!>=5",
            {"10 @ d6.explode([5, 6], depth=9)": lambda: 10 @ ice.d6.explode([5, 6], depth=9)},
            {
                "10 @ explode_n(H(6), n=9, resolver=on 5+)": lambda: (
                    10 @ explode_n(H(6), n=9, resolver=_explode_five)
                )
            },
        ),
        (
            "4dF",
            {"4 @ Die([-1, 0, 1])": lambda: 4 @ ice.Die([-1, 0, 1])},
            {"4 @ H((-1, 0, 1))": lambda: 4 @ H((-1, 0, 1))},
        ),
        ("d%", {"d(100)": lambda: ice.d(100)}, {"H(100)": lambda: H(100)}),
    ]


# ---------------------------------------------------------------------------
# growth: the highest of N dice as N grows (issue 23, target 4)

GROWTH_N = (10, 30, 100, 300, 1000)


def _slope(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of log(time) against log(N)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def _segment(points: list[tuple[int, float]], low: int, high: int) -> float:
    found = dict(points)
    return math.log(found[high] / found[low]) / math.log(high / low)


def _growth(rounds: int) -> tuple[str, list[dict[str, Any]]]:
    """CPU time of the highest of N dice (``Nd1000kh1`` and ``NdNkh1``) for each N,
    referee with GMP (as installed), referee on CPython's own powers, and dyce; every
    cache cleared before each call, the calls of a round shuffled, medians of rounds."""
    caches = Caches()
    rng = random.Random(SEED)

    def ours(text: str, gmp: bool) -> Callable[[], Any]:
        def call() -> Any:
            bigint.enabled = gmp
            try:
                return odds(text)
            finally:
                bigint.enabled = True

        return call

    families = {
        "Nd1000kh1": lambda n: (f"{n}d1000kh1", 1000),
        "NdNkh1": lambda n: (f"{n}d{n}kh1", n),
    }
    gmp_there = bigint.gmp() is not None
    who = ["referee", "referee, CPython powers", "dyce"] if gmp_there else ["referee", "dyce"]
    calls: dict[tuple[str, str, int], Callable[[], Any]] = {}
    for family, make in families.items():
        for n in GROWTH_N:
            text, sides = make(n)
            calls[family, "referee", n] = ours(text, True)
            if gmp_there:
                calls[family, "referee, CPython powers", n] = ours(text, False)
            calls[family, "dyce", n] = lambda n=n, sides=sides: H(sides).order_stat_for_n_at_pos(
                n, n - 1
            )
            caches.clear()
            reference = exact_view(odds(text))
            for key in [k for k in calls if k[0] == family and k[2] == n]:
                caches.clear()
                assert exact_view(calls[key]()) == reference, key
    samples: dict[tuple[str, str, int], list[float]] = {k: [] for k in calls}
    keys = list(calls)
    for _ in range(rounds):
        rng.shuffle(keys)
        for key in keys:
            caches.clear()
            gc.disable()
            t0 = time.process_time_ns()
            calls[key]()
            samples[key].append((time.process_time_ns() - t0) / 1e9)
            gc.enable()
    medians = {k: statistics.median(v) for k, v in samples.items()}
    lines = [
        "### Growth: the highest of N dice",
        "",
        f"CPU time (`time.process_time`) of the highest of N dice, median of {rounds} "
        "calls each, every cache cleared before each call, all calls of a round in a "
        f"shuffled order. Big powers: {bigint.backend()}"
        + (
            "; the middle row of each family is referee with GMP turned off "
            "(`referee.dice.bigint.enabled = False`, what a machine without the "
            "`fast` extra runs)."
            if gmp_there
            else " (gmpy2 is not installed: the `fast` extra)."
        )
        + " Slope: of log time against log N, fitted over the five N, and from N = 100 "
        "to 1000 alone. Target (issue 23): referee's growth no worse than dyce's, on both "
        "measures and both families (many dice of 1000 sides, and N dice of N sides), "
        "and at least 3× at `1000d1000kh1` (the dice table above).",
        "",
        "| family | library | "
        + " | ".join(f"N={n} µs" for n in GROWTH_N)
        + " | slope (fit) | slope 100→1000 | × dyce at N=1000 |",
        "|---|---|" + "---|" * (len(GROWTH_N) + 3),
    ]
    slopes: dict[tuple[str, str], tuple[float, float]] = {}
    for family in families:
        for lib in who:
            points = [(n, medians[family, lib, n]) for n in GROWTH_N]
            fit, seg = _slope(points), _segment(points, 100, 1000)
            slopes[family, lib] = fit, seg
            ratio = medians[family, "dyce", 1000] / medians[family, lib, 1000]
            lines.append(
                f"| `{family}` | {lib} | "
                + " | ".join(us(t) for _, t in points)
                + f" | {fit:.2f} | {seg:.2f} | {ratio:.2f}× |"
            )
    lines.append("")
    targets = []
    for family, what in (
        ("Nd1000kh1", "N dice of 1000 sides"),
        ("NdNkh1", "N dice of N sides"),
    ):
        ours_fit, ours_seg = slopes[family, "referee"]
        dyce_fit, dyce_seg = slopes[family, "dyce"]
        targets.append(
            {
                "label": f"growth of the highest of {what} ({family}, N = 10 to 1000, CPU): "
                "referee's log-log slope against dyce's",
                "figure": f"{ours_fit:.2f} vs {dyce_fit:.2f} (fit); {ours_seg:.2f} vs "
                f"{dyce_seg:.2f} (100→1000); big powers on {bigint.backend()}",
                "needed": "≤ dyce's, fit and 100→1000",
                "met": ours_fit <= dyce_fit and ours_seg <= dyce_seg,
            }
        )
    return "\n".join(lines), targets


# ---------------------------------------------------------------------------
# starting up

IMPORT_RATIO = 0.5
CLI_TARGET_MS = 120


def _referee_script() -> str:
    script = Path(sys.executable).with_name("referee")
    return str(script) if script.exists() else (shutil.which("referee") or "referee")


PARSE_TARGET_US = 5.0
PARSE_TEXTS = ("2d6+3", "3d6kh2", "4d6>=5", "4d6ro1kh3")
PARSE_TARGETS_US = {"2d6+3": 2.0}
"""Ceilings below issue 11's 5 µs: issue 38 asks 2 µs for ``2d6+3``."""


def _parse_times(calls: int, batches: int = 5) -> tuple[list[str], list[dict[str, Any]]]:
    """Median and minimum of ``calls`` parses of each typical text, parse cache cleared,
    in ``batches`` batches of the texts in turn: the least and most of the batches'
    medians show how far the median moves."""
    from referee.dice.notation import _parse

    rng = random.Random(SEED)
    texts = list(PARSE_TEXTS)
    for text in texts:
        for _ in range(20):  # let the interpreter settle on the parser's code
            _parse.cache_clear()
            parse(text)
    samples: dict[str, list[float]] = {t: [] for t in texts}
    spans: dict[str, list[float]] = {t: [] for t in texts}
    for _ in range(batches):
        rng.shuffle(texts)
        for text in texts:
            batch = []
            for _ in range(calls // batches):
                _parse.cache_clear()
                gc.disable()
                t0 = time.perf_counter_ns()
                parse(text)
                batch.append((time.perf_counter_ns() - t0) / 1000)
                gc.enable()
            samples[text] += batch
            spans[text].append(statistics.median(batch))
    rows, targets = [], []
    for text in PARSE_TEXTS:
        ceiling = PARSE_TARGETS_US.get(text, PARSE_TARGET_US)
        median, least = statistics.median(samples[text]), min(samples[text])
        low, high = min(spans[text]), max(spans[text])
        met = median <= ceiling
        rows.append(
            f"| `{text}` | {median:.2f} | {low:.2f} to {high:.2f} | {least:.2f} | {ceiling:g} | "
            f"{'yes' if met else '**no**'} |"
        )
        targets.append(
            {
                "label": f"parse `{text}`, parse cache cleared (median of {len(samples[text])})",
                "figure": f"{median:.2f} µs (batch medians {low:.2f} to {high:.2f})",
                "needed": f"≤ {ceiling:g} µs",
                "met": met,
            }
        )
    return rows, targets


def _thin_runs(runs: int, rounds: int) -> tuple[str, list[dict[str, Any]]]:
    """Issue 38's thinnest cases (:data:`THIN`) measured ``runs`` times over, each run as
    the main table measures (cold, from text, every formulation, shuffled rounds): the
    speed-up over the best peer in each run, and the least, median and most of them."""
    chosen = [c for c in cases() if c.name in THIN]
    ratios: dict[str, list[float]] = {c.name: [] for c in chosen}
    minima: dict[str, list[float]] = {c.name: [] for c in chosen}
    for _ in range(runs):
        for row in measure(chosen, rounds=rounds, budget_s=0.4):
            ratios[row["case"].name].append(row["ratio"])
            minima[row["case"].name].append(row["ratio_min"])
    lines = [
        "### The thinnest cases, run after run (issue 38 item 5)",
        "",
        f"`3d12med`, `100d100kh1` and `4d6rr1` measured in {runs} runs one after another, "
        "each as the table above measures them (cold, from text, against the best peer "
        f"formulation, all slots shuffled, up to {rounds} rounds): the speed-up of each "
        "run, then the least, median and most. Target: at least 2.5× in every run.",
        "",
        "| case | speed-up per run | least | median | most | least on minima | met |",
        "|---|---|---|---|---|---|---|",
    ]
    targets: list[dict[str, Any]] = []
    for name in THIN:
        got = ratios[name]
        low, mid, high = min(got), statistics.median(got), max(got)
        met = low >= MIN_RATIOS[name]
        each = ", ".join(f"{r:.2f}" for r in got)
        lines.append(
            f"| `{name}` | {each} | {low:.2f}× | {mid:.2f}× | {high:.2f}× | "
            f"{min(minima[name]):.2f}× | {'yes' if met else '**no**'} |"
        )
        targets.append(
            {
                "label": f"Dice core: `{name}` against the best peer in every one of {runs} runs",
                "figure": f"{low:.2f}× to {high:.2f}× (median {mid:.2f}×)",
                "needed": f"≥ {MIN_RATIOS[name]:g}× in every run",
                "met": met,
            }
        )
    return "\n".join(lines), targets


def extra(quick: bool = False) -> tuple[str, list[dict[str, Any]]]:
    """Import + first answer, whole command-line processes, and the refusal audit.

    Returns the Markdown and the targets it measured (label, figure, needed, met).
    """
    runs = 5 if quick else 15
    firsts = {
        "referee": "import referee.dice\nreferee.dice.odds('2d6')",
        "icepool": "import icepool\n2 @ icepool.d6",
        "dyce": "from dyce import H\n2 @ H(6)",
    }
    measured = {name: first_answer_seconds(code, runs) for name, code in firsts.items()}
    ice_best = measured["icepool"][0]
    rows = []
    for name, (best, median) in measured.items():
        code = firsts[name].replace("\n", "; ")
        rows.append(
            f"| {name} | `{code}` | {best * 1e3:.1f} | {median * 1e3:.1f} | {best / ice_best:.2f} |"
        )
    ours_best = measured["referee"][0]
    targets: list[dict[str, Any]] = [
        {
            "label": "`import referee.dice` + first `odds('2d6')`, against icepool's",
            "figure": f"{ours_best * 1e3:.1f} ms vs {ice_best * 1e3:.1f} ms "
            f"({ours_best / ice_best:.2f}×)",
            "needed": f"≤ {IMPORT_RATIO}×",
            "met": ours_best <= IMPORT_RATIO * ice_best,
        }
    ]
    parse_rows, parse_targets = _parse_times(201 if quick else 2001)
    targets += parse_targets
    thin_md, thin_targets = _thin_runs(2 if quick else 7, 7 if quick else 21)
    targets += thin_targets
    growth_md, growth_targets = _growth(5 if quick else 21)
    targets += growth_targets
    referee = _referee_script()
    commands = {
        "bare interpreter: `python -c pass`": [sys.executable, "-c", "pass"],
        "`referee odds 2d6 --json`": [referee, "odds", "2d6", "--json"],
        "`referee mneme odds --modifier 2 --difficulty 8`": [
            referee,
            *["mneme", "odds", "--modifier", "2", "--difficulty", "8"],
        ],
    }
    cli_rows = []
    for name, argv in commands.items():
        seconds = process_seconds(argv, runs)
        if "bare" in name:
            cli_rows.append(f"| {name} | {seconds * 1e3:.0f} | - | - |")
            continue
        met = seconds * 1e3 <= CLI_TARGET_MS
        cli_rows.append(
            f"| {name} | {seconds * 1e3:.0f} | {CLI_TARGET_MS} | {'yes' if met else '**no**'} |"
        )
        targets.append(
            {
                "label": f"whole process {name} (issue 9; the CLI's imports are not dice work)",
                "figure": f"{seconds * 1e3:.0f} ms",
                "needed": f"≤ {CLI_TARGET_MS} ms",
                "met": met,
            }
        )
    parts = [
        "### Import and first answer",
        "",
        "A fresh interpreter imports the library and answers 2d6; the time is measured inside "
        f"it (interpreter start excluded), min and median of {runs} interpreters. "
        f"Target: referee at most {IMPORT_RATIO}× icepool (min against min).",
        "",
        "| library | code | min ms | median ms | × icepool |",
        "|---|---|---|---|---|",
        *rows,
        "",
        "### Parsing",
        "",
        "`parse(text)` of a typical expression (issue 11: at most "
        f"{PARSE_TARGET_US:g} µs; issue 38: `2d6+3` in at most 2 µs), its cache of parsed "
        "texts cleared before each call: the median and the minimum of calls made one after "
        "another in this process, in five batches of the texts in turn (the least and most "
        "of the batches' medians beside the median of all). A plain "
        "sum asked for its odds is not parsed into a tree at all (its terms are read "
        "straight from the text), so these are the times of `roll`, the command line "
        "and everything that keeps a tree.",
        "",
        "| text | median µs | batch medians µs | min µs | target µs | met |",
        "|---|---|---|---|---|---|",
        *parse_rows,
        "",
        thin_md,
        "",
        growth_md,
        "### Command line, whole processes",
        "",
        f"Wall time of the whole process, minimum of {runs} runs (issue 9's target; the "
        "command line's imports are another engineer's work, measured here).",
        "",
        "| process | ms | target ms | met |",
        "|---|---|---|---|",
        *cli_rows,
        "",
    ]
    if not quick:
        accepted_md, accepted_target = refusals.accepted_audit()
        parts.append(accepted_md)
        targets.append(accepted_target)
        audit_md, none_answered = refusals.audit()
        parts.append(audit_md)
        targets.append(
            {
                "label": "no expression a peer answers in under 1 s is refused (refusal audit)",
                "figure": "none answered" if none_answered else "some answered",
                "needed": "none",
                "met": none_answered,
            }
        )
    return "\n".join(parts), targets
