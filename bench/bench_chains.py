"""Exact whole-conflict chains (issues 23 and 38): ``referee analyze conflict`` while you wait.

Run ``python bench/run.py chains`` (or this file). Each game's fight, answered exactly
(explore the chain, solve it in fractions) by today's code, and in the same run
simulated by today's simulator to +-0.001 (the half-width of the 95% interval on each
win chance, the simulator's own early stop), so "exact is cheaper than simulating" is
measured, not assumed:

* ARM, ``referee analyze conflict arm --seat alex=example:alex --seat brad=example:brad
  --policy alex=defend`` (11,941 states; issue 23's fight);
* ARM's default fight, ``referee analyze conflict arm`` (Brad vs Christine, 13,066);
* Mongrel's default, ``referee analyze conflict mongrel`` (Vooruk vs Giazza, 4,261 states);
* Mneme CE's default, ``referee analyze conflict mneme`` (Ada vs the raider, 698 states:
  the game declares ``{"adversary_attacks": "referee_rolls"}`` for it, so both sides roll);
* Mnemonic's default, ``referee analyze conflict mnemonic`` (two boxers, 96 states).

The issue-23 fights are also answered by the code before issue 23 (``chains_before.py``),
their answers checked equal to today's as fractions.

Each figure is CPU seconds of this process (``time.process_time``: other work on the
shared 2-core machine slows the clock, not this) for building the model from the
scenario, exploring and solving (or simulating), from a fresh model each round (its state
keys, the step's shared outcomes and the simulator's table are per model). "first" is
the first round in the process (the game's rules and the dice layer's caches cold); the
targets are judged on the median of the later rounds, as a server answering a page would
be warm. Exact and simulated rounds alternate, so load on the machine falls on both;
"exact / simulated" is the ratio of each round's pair (min, median, max).
"""

from __future__ import annotations

import datetime
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
START, END = "<!-- chains -->", "<!-- /chains -->"

RECORDED = {"arm": 16.6, "mongrel": 2.4, "mneme": 1.3}
"""Issue 23's figures (seconds, the command as a whole) before any change."""
ISSUE38 = {"arm": 1.63, "mongrel": 1.50, "mneme": 1.04}
"""``bench/RESULTS.md``'s medians when issue 38 was filed (CPU seconds)."""
TARGETS = {"arm": 1.0, "mongrel": 0.5, "mneme": 0.2}
"""Issue 38's ceilings (CPU seconds, median); every fight must also beat its simulation."""
TITLES = {
    "arm": "ARM, alex defends, brad attacks",
    "arm-default": "ARM, Brad vs Christine (default)",
    "mongrel": "Mongrel, Vooruk vs Giazza (default)",
    "mneme": "Mneme CE, Ada vs the raider (default)",
    "mnemonic": "Mnemonic, two boxers (default)",
}
PRECISION, CONFIDENCE = 0.001, 0.95
"""The simulation's half-width on each win chance, and the interval's confidence."""


def scenario(fight: str) -> Any:
    """The fight as the command line builds it."""
    from referee.analysis.scenario import Scenario

    sc = Scenario.default(fight.removesuffix("-default"))
    if fight == "arm":
        sc.seats = {"alex": "example:alex", "brad": "example:brad"}
        sc.a, sc.b = ("alex",), ("brad",)
        sc.policies = {"alex": "defend"}
    if fight == "mneme":
        sc.options = {"adversary_attacks": "referee_rolls"}
    return sc


def today(fight: str) -> dict[str, Any]:
    """The fight's exact answer by today's code (JSON data)."""
    from referee.analysis.chain import explore
    from referee.analysis.solve import solve

    return solve(explore(scenario(fight).model())).data()


def simulated(fight: str) -> dict[str, Any]:
    """The same fight simulated by today's simulator to +-PRECISION at CONFIDENCE."""
    from referee.analysis.simulate import simulate

    return simulate(scenario(fight).model(), precision=PRECISION, confidence=CONFIDENCE).data()


def before(fight: str) -> dict[str, Any]:
    """The same by the code before issue 23."""
    import chains_before

    data: dict[str, Any] = chains_before.solve(
        chains_before.explore(scenario(fight).model())
    ).data()
    return data


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    began = time.process_time()
    out = fn()
    return time.process_time() - began, out


def _agrees(exact: dict[str, Any], sim: dict[str, Any]) -> bool:
    """Whether the exact win chances lie within the simulation's intervals."""
    return all(
        sim["p"][k]["low"] <= exact["p"][k]["value"] <= sim["p"][k]["high"] for k in ("a", "b")
    )


def fight(name: str, rounds: int, old_rounds: int) -> dict[str, Any]:
    """Time one fight: today's exact answer (its first round cold), then rounds of exact
    and simulated answers in turn, then the old code."""
    first, answer = _cpu(lambda: today(name))
    warm: list[float] = []
    sims: list[float] = []
    sim: dict[str, Any] = {}
    for _ in range(rounds):
        warm.append(_cpu(lambda: today(name))[0])
        seconds, sim = _cpu(lambda: simulated(name))
        sims.append(seconds)
    old: list[float] = []
    for _ in range(old_rounds):
        seconds, reference = _cpu(lambda: before(name))
        if reference != answer:
            raise AssertionError(f"{name}: today's exact answer differs from the old code's")
        old.append(seconds)
    ratios = [e / s for e, s in zip(warm, sims, strict=True)]
    return {
        "states": answer["states"],
        "first": first,
        "warm": warm,
        "sims": sims,
        "runs": sim["runs"],
        "agrees": _agrees(answer, sim),
        "ratios": ratios,
        "old": statistics.median(old) if old else None,
        "rounds": rounds,
        "old_rounds": old_rounds,
    }


def _yes(flag: bool) -> str:
    return "yes" if flag else "**no**"


def _spread(xs: list[float]) -> str:
    return f"{min(xs):.2f} / {statistics.median(xs):.2f} / {max(xs):.2f}"


def section(quick: bool = False) -> tuple[str, list[dict[str, Any]]]:
    """Measure the fights: the section (with its markers) and its targets."""
    plan = {"arm": (5, 1), "arm-default": (3, 0), "mongrel": (7, 3), "mneme": (5, 3)}
    plan["mnemonic"] = (7, 0)
    if quick:
        plan = {"arm": (2, 0), "arm-default": (1, 0), "mongrel": (3, 0), "mneme": (2, 0)}
        plan["mnemonic"] = (3, 0)
    found = {name: fight(name, *counts) for name, counts in plan.items()}
    stamp = datetime.date.today().isoformat()
    lines = [
        START,
        f"## Exact whole-conflict chains (measured {stamp}, Python {platform.python_version()})",
        "",
        "Written by `python bench/run.py chains`; CPU seconds of one process for model + "
        "explore + solve (exact) and for model + simulation to ±0.001 at 95% (simulated), "
        "alternating in one run; the code before issue 23 (`bench/chains_before.py`) in the "
        "same run, its exact answers checked equal to today's. Figures are min / median / max "
        "of the rounds; the simulation's seed is 0 (its runs the same each round).",
        "",
        "| fight | states | exact: first | exact | simulated (runs) | exact / simulated "
        "| exact inside the intervals | issue 38 filed | before issue 23: this run (issue's "
        "figure) | target | met |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    targets = []
    for name, r in found.items():
        median = statistics.median(r["warm"])
        ratio = statistics.median(r["ratios"])
        ceiling = TARGETS.get(name)
        met = ratio < 1 and (ceiling is None or median <= ceiling)
        old = f"{r['old']:.2f} s" if r["old"] is not None else "not run"
        if name in RECORDED:
            old += f" ({RECORDED[name]} s)"
        filed = f"{ISSUE38[name]:.2f} s" if name in ISSUE38 else "-"
        need = "exact < simulated" + (f", <= {ceiling} s" if ceiling is not None else "")
        lines.append(
            f"| {TITLES[name]} | {r['states']:,} | {r['first']:.2f} s | {_spread(r['warm'])} s "
            f"| {_spread(r['sims'])} s ({r['runs']:,}) | {_spread(r['ratios'])} "
            f"| {_yes(r['agrees'])} | {filed} | {old} | {need} | {_yes(met)} |"
        )
        targets.append(
            {
                "label": f"chains: {TITLES[name]}, exact answer (CPU s, median) and "
                "exact / simulated to ±0.001",
                "figure": f"{median:.2f} s; {ratio:.2f}× the simulation's CPU "
                f"(min {min(r['ratios']):.2f}, max {max(r['ratios']):.2f})",
                "needed": need,
                "met": met,
            }
        )
    lines += [
        "",
        "Rounds (exact and simulated, in turn, after the first exact one): "
        + ", ".join(f"{TITLES[n].split(',')[0]} {c[0]}" for n, c in plan.items())
        + "; of the old code: "
        + ", ".join(f"{c[1]}" for c in plan.values())
        + ". See the notes on exact whole-conflict chains for where the time goes.",
        END,
    ]
    return "\n".join(lines) + "\n", targets


def main(argv: list[str]) -> int:
    text, _ = section("--quick" in argv)
    print(text)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent / "src"))
    sys.path.insert(0, str(HERE))
    raise SystemExit(main(sys.argv[1:]))
