"""Exact whole-conflict chains (issue 23, target 1): ``referee analyze conflict`` while you wait.

Run ``python bench/run.py chains`` (or this file). Three fights, the ones the issue
measured, each answered exactly (explore the chain, solve it in fractions) by today's
code and by the code before issue 23 (``chains_before.py``), in one run, with the two
answers checked equal as fractions:

* ARM, ``referee analyze conflict arm --seat alex=example:alex --seat brad=example:brad
  --policy alex=defend`` (11,941 states);
* Mongrel, ``referee analyze conflict mongrel`` (Vooruk vs Giazza, 4,261 states);
* Mneme CE, ``referee analyze conflict mneme --options opts.json`` with
  ``{"adversary_attacks": "referee_rolls"}`` (Ada vs the raider, 698 states: since issue
  22 the table refuses the raider's own attack roll by default, which the issue's figure
  predates; the option lets both sides roll as they did then).

Each figure is CPU seconds of this process (``time.process_time``: other work on the
shared 2-core machine slows the clock, not this) for building the model from the
scenario, exploring and solving, from a fresh model each round (its state keys and the
step's shared outcomes are per model). "first" is the first round in the process (the
game's rules and the dice layer's caches cold); the target is judged on the median of the
later rounds, as a server answering a page would be warm.
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
"""The issue's figures (seconds, the command as a whole) before any change."""
TARGETS = {"arm": 2.0, "mongrel": 0.5, "mneme": 0.2}
TITLES = {
    "arm": "ARM, alex defends, brad attacks",
    "mongrel": "Mongrel, Vooruk vs Giazza",
    "mneme": "Mneme CE, Ada vs the raider",
}


def scenario(game: str) -> Any:
    """The fight the issue measured, as the command line builds it."""
    from referee.analysis.scenario import Scenario

    sc = Scenario.default(game)
    if game == "arm":
        sc.seats = {"alex": "example:alex", "brad": "example:brad"}
        sc.a, sc.b = ("alex",), ("brad",)
        sc.policies = {"alex": "defend"}
    if game == "mneme":
        sc.options = {"adversary_attacks": "referee_rolls"}
    return sc


def today(game: str) -> dict[str, Any]:
    """The fight's exact answer by today's code (JSON data)."""
    from referee.analysis.chain import explore
    from referee.analysis.solve import solve

    return solve(explore(scenario(game).model())).data()


def before(game: str) -> dict[str, Any]:
    """The same by the code before issue 23."""
    import chains_before

    data: dict[str, Any] = chains_before.solve(chains_before.explore(scenario(game).model())).data()
    return data


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    began = time.process_time()
    out = fn()
    return time.process_time() - began, out


def fight(game: str, rounds: int, old_rounds: int) -> dict[str, Any]:
    """Time one fight: today's code first (its first round cold), then the old code."""
    first, answer = _cpu(lambda: today(game))
    warm = [_cpu(lambda: today(game))[0] for _ in range(rounds)]
    old: list[float] = []
    for _ in range(old_rounds):
        seconds, reference = _cpu(lambda: before(game))
        if reference != answer:
            raise AssertionError(f"{game}: today's exact answer differs from the old code's")
        old.append(seconds)
    return {
        "states": answer["states"],
        "first": first,
        "median": statistics.median(warm),
        "min": min(warm),
        "old": statistics.median(old) if old else None,
        "rounds": rounds,
        "old_rounds": old_rounds,
    }


def section(quick: bool = False) -> tuple[str, list[dict[str, Any]]]:
    """Measure the three fights: the section (with its markers) and its targets."""
    plan = {"arm": (5, 1), "mongrel": (7, 3), "mneme": (9, 3)}
    if quick:
        plan = {"arm": (2, 0), "mongrel": (3, 1), "mneme": (3, 1)}
    found = {game: fight(game, *counts) for game, counts in plan.items()}
    stamp = datetime.date.today().isoformat()
    lines = [
        START,
        f"## Exact whole-conflict chains (measured {stamp}, Python {platform.python_version()})",
        "",
        "Written by `python bench/run.py chains`; CPU seconds of one process for "
        "model + explore + solve, today's code and the code before issue 23 "
        "(`bench/chains_before.py`) in the same run, their exact answers checked equal.",
        "",
        "| fight | states | before: issue's figure | before: old code, this run "
        "| today: first | today: median (min) | target | met |",
        "|---|---|---|---|---|---|---|---|",
    ]
    targets = []
    for game, r in found.items():
        met = r["median"] <= TARGETS[game]
        old = f"{r['old']:.2f} s" if r["old"] is not None else "not run (--quick)"
        lines.append(
            f"| {TITLES[game]} | {r['states']:,} | {RECORDED[game]} s | {old} "
            f"| {r['first']:.2f} s | {r['median']:.2f} s ({r['min']:.2f} s) "
            f"| <= {TARGETS[game]} s | {'yes' if met else '**no**'} |"
        )
        targets.append(
            {
                "label": f"chains: {TITLES[game]}, exact answer (CPU s, median)",
                "figure": f"{r['median']:.2f} s (before: {RECORDED[game]} s)",
                "needed": f"<= {TARGETS[game]} s",
                "met": met,
            }
        )
    lines += [
        "",
        "Rounds: ARM {arm[0]}, Mongrel {mongrel[0]}, Mneme CE {mneme[0]} of today's code "
        "after the first; {arm[1]}, {mongrel[1]} and {mneme[1]} of the old code.".format(**plan),
        "See the notes on issue 23's chains for where the time goes and what limits it.",
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
