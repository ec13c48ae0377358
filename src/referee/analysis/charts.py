"""Charts of comparisons, curves and conflicts, drawn with matplotlib (imported here, only
when a chart is asked for: ``import referee`` and ``referee odds`` never load it).

Every function returns the figure's bytes in the format asked (``png`` or ``svg``),
so a command writes files and the web embeds SVG text. Figures are small and
plain: one axis, one line or bar per variant, the exact values plotted as floats.
"""

from __future__ import annotations

import io
from typing import Any

from .compare import Comparison, Curve
from .errors import AnalysisError, need

FORMATS = ("png", "svg")


def _pyplot() -> Any:
    need("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "referee"  # the same figure gives the same SVG bytes
    plt.rcParams["svg.fonttype"] = "none"
    return plt


def _text(s: str) -> str:
    """Text from a table (a character's id) drawn as itself: matplotlib reads ``$...$``
    as mathematics, so a dollar sign is escaped."""
    return s.replace("$", r"\$")


def _save(fig: Any, fmt: str) -> bytes:
    if fmt not in FORMATS:
        raise AnalysisError(f"chart format must be png or svg, not {fmt!r}")
    buf = io.BytesIO()
    meta = {"Date": None} if fmt == "svg" else {"Software": None}
    fig.savefig(buf, format=fmt, dpi=100, bbox_inches="tight", metadata=meta)
    _pyplot().close(fig)
    return buf.getvalue()


def comparison_chart(comp: Comparison, fmt: str = "png", show: str = "at-least") -> bytes:
    """One step line per variant: P(statistic >= value) (or exact / at most) per value."""
    plt = _pyplot()
    values = comp.values()
    rows = comp.table(show)
    fig, ax = plt.subplots(figsize=(7, 4))
    for k, label in enumerate(comp.series):
        ys = [float(r[k]) for r in rows]
        if show == "exact":
            ax.plot(values, ys, marker="o", markersize=3, label=label)
        else:
            ax.step(values, ys, where="mid", label=label)
    ax.set_xlabel(comp.stat)
    ax.set_ylabel(f"P({show.replace('-', ' ')})")
    ax.set_title(comp.title, fontsize=10)
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    return _save(fig, fmt)


def curve_chart(cur: Curve, fmt: str = "png") -> bytes:
    """P(success) of each variant over the check's main number."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, ps in cur.series.items():
        ax.plot(cur.xs, [float(p) for p in ps], marker="o", markersize=3, label=label)
    ax.set_xlabel(cur.x)
    ax.set_ylabel("P(success)")
    ax.set_title(cur.title, fontsize=10)
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    return _save(fig, fmt)


def conflict_chart(result: dict[str, Any], fmt: str = "png") -> bytes:
    """A conflict's result (exact or simulated, as :meth:`data` gives it): who wins, and
    the distribution of its length."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(9, 3.6), width_ratios=(1, 2), layout="constrained"
    )
    model = result["model"]
    labels = {
        "a": _text(" + ".join(model["a"])),
        "b": _text(" + ".join(model["b"])),
        "draw": "draw",
        "endless": "endless",
    }
    ps = result["p"]
    keys = [k for k in ("a", "b", "draw", "endless") if ps[k]["value"] > 0 or k in ("a", "b")]
    heights = [ps[k]["value"] for k in keys]
    left.bar(
        [labels[k] for k in keys],
        heights,
        color=["#4c72b0", "#dd8452", "#999", "#555"][: len(keys)],
    )
    if result["method"] == "simulated":
        lows = [heights[i] - ps[k]["low"] for i, k in enumerate(keys)]
        highs = [ps[k]["high"] - heights[i] for i, k in enumerate(keys)]
        left.errorbar(range(len(keys)), heights, yerr=[lows, highs], fmt="none", color="k")
    left.set_ylim(0, 1.05)
    left.set_ylabel("P(wins)")
    rounds = result["rounds"]
    if result["method"] == "exact":
        xs = [int(k) for k in rounds]
        ys = [v["value"] for v in rounds.values()]
    else:
        total = sum(rounds.values()) or 1
        xs = [int(k) for k in rounds]
        ys = [v / total for v in rounds.values()]
    right.bar(xs, ys, color="#4c72b0")
    right.set_xlabel(f"{model['unit']}s")
    right.set_ylabel("P(ends after exactly this many)")
    nonzero = [x for x, y in zip(xs, ys, strict=True) if y > 1e-4]
    if nonzero:
        right.set_xlim(min(nonzero) - 1, max(nonzero) + 1)
    what = "exact" if result["method"] == "exact" else f"{result['runs']:,} runs"
    fig.suptitle(f"{model['game']}: {labels['a']} vs {labels['b']} ({what})", fontsize=10)
    return _save(fig, fmt)
