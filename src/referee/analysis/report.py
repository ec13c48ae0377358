"""Plain-text and CSV views of analysis results (JSON is each result's ``data()``)."""

from __future__ import annotations

import csv
import io
from typing import Any

HORIZON = 40
"""Rounds listed one by one in text (the rest as one line)."""


def _pct(x: float) -> str:
    return f"{x * 100:.3f}%"


def conflict_text(result: dict[str, Any]) -> str:
    """A conflict's result as lines of text (exact fractions or intervals)."""
    model = result["model"]
    names = {"a": " + ".join(model["a"]), "b": " + ".join(model["b"])}
    policies = ", ".join(f"{k}: {v}" for k, v in model["policies"].items())
    lines = [f"{model['game']}: {names['a']} vs {names['b']} ({policies})"]
    exact = result["method"] == "exact"
    if exact:
        lines.append(f"exact Markov chain over {result['states']:,} states")
    else:
        how = f"{result['runs']:,} simulated conflicts, seed {result['seed']}"
        how += f", {result['confidence']:.1%} intervals"
        if result["stopped_early"]:
            how += ", stopped early at the precision asked"
        lines.append(how + f" ({result['states']:,} states reached)")

    def frac(v: dict[str, Any]) -> str:
        text = str(v["exact"])
        return f"  ({text})" if len(text) <= 40 else "  (exact fraction: --json)"

    def show(v: dict[str, Any]) -> str:
        if exact:
            return f"{_pct(v['value'])}{frac(v)}"
        return f"{_pct(v['value'])}  [{_pct(v['low'])}, {_pct(v['high'])}]"

    def num(v: dict[str, Any]) -> str:
        if exact:
            return f"{v['value']:.4f}{frac(v)}"
        return f"{v['value']:.4f}  [{v['low']:.4f}, {v['high']:.4f}]"

    for key, label in (("a", f"{names['a']} wins"), ("b", f"{names['b']} wins")):
        lines.append(f"  P({label}) = {show(result['p'][key])}")
    for key in ("draw", "endless"):
        if result["p"][key]["value"] or key == "draw":
            lines.append(f"  P({key}) = {show(result['p'][key])}")
    unit = model["unit"]
    er = result["expected_rounds"]
    lines.append(f"  expected {unit}s: " + (num(er) if er is not None else "infinite (stalemate)"))
    for cid, v in result["damage"].items():
        lines.append(f"  expected final damage of {cid}: {num(v)}")
    if exact:
        shown = [(int(k), v["value"]) for k, v in result["rounds"].items() if v["value"] > 5e-5]
        beyond = result["rounds_beyond"]["value"]
    else:
        total = max(1, result["runs"])
        every = [(int(k), v / total) for k, v in result["rounds"].items()]
        shown = [(k, p) for k, p in every if k <= HORIZON and p > 5e-5]
        beyond = sum(p for k, p in every if k > HORIZON)
    if shown:
        lines.append(f"  {unit}s until it ends:")
        for k, p in shown:
            lines.append(f"    {k:4d}  {_pct(p):>9}  " + "#" * max(1, round(40 * p)))
    if beyond > 5e-5:
        lines.append(f"    more than {result.get('horizon', HORIZON)}: {_pct(beyond)}")
    return "\n".join(lines)


def _flat(result: dict[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = {"method": result["method"]}
    for k in ("a", "b", "draw"):
        v = result["p"][k]
        row[f"p_{k}"] = v["value"]
        row[f"p_{k}_low"] = v.get("low", v["value"])
        row[f"p_{k}_high"] = v.get("high", v["value"])
    er = result["expected_rounds"]
    row["expected_rounds"] = None if er is None else er["value"]
    return row


def sweep_csv(results: list[dict[str, Any]]) -> str:
    """One CSV row per cell: the cell's values, then the estimates."""
    buf = io.StringIO()
    rows = [{**r["cell"], **_flat(r["result"])} for r in results]
    if not rows:
        return ""
    w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def sweep_text(results: list[dict[str, Any]]) -> str:
    """One line per cell."""
    lines = []
    for r in results:
        cell = ", ".join(f"{k}={v}" for k, v in r["cell"].items())
        f = _flat(r["result"])
        er = f["expected_rounds"]
        lines.append(
            f"{cell}: P(a) {_pct(f['p_a'])} [{_pct(f['p_a_low'])}, {_pct(f['p_a_high'])}]"
            f"  P(b) {_pct(f['p_b'])}  length {'-' if er is None else f'{er:.2f}'}"
        )
    return "\n".join(lines)
