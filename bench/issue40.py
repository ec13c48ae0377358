"""Issue 40: CPU time of the dice cases the issue touched, before and after.

Usage: ``PYTHONPATH=src python bench/issue40.py [rounds] [case ...]``. Each case is
asked for its exact odds from text with every referee cache cleared before each call
(functools caches, the parse cache, the memo of sums); the median CPU time
(``time.process_time_ns``) of the rounds is printed (of 5 for a case over 0.2 s),
then parsing times. No peers: the dice table of RESULTS.md compares with icepool and
dyce; this checks that the cases the change touches did not get slower.
"""

from __future__ import annotations

import importlib
import statistics
import sys
import time
from collections.abc import Callable

from referee.dice import evaluate, notation
from referee.dice.evaluate import ODDS_BUDGET, cost, odds
from referee.dice.notation import parse

ODDS_CASES = (
    "2d6",
    "2d6+3",
    "3d6kh2",
    "4d6kh3",
    "4d6dl1",
    "20d6kh3",
    "1000d6kh3",
    "100d100kh1",
    "1000d1000kh1",
    "4d6ro1",
    "3d6!",
    "10d6!>=5",
    "1000d2kh500",
    "1000d2kl500",
    "1000d3kh500",
    "1000d1000kh2",
    "300d6kh150",
    "100d20kh50",
)
odds_module = importlib.import_module("referee.dice.odds")
PARSE_CASES = ("2d6+3", "3d6kh2", "4d6>=5", "4d6ro1kh3", "2d6[fire]+1d4[cold]")


def clear() -> None:
    """Every referee cache that outlives a call."""
    notation._parse.cache_clear()
    odds_module.clear_caches()
    for module in (evaluate, notation, odds_module):
        for value in vars(module).values():
            clear_cache = getattr(value, "cache_clear", None)
            if callable(clear_cache) and not isinstance(value, type):
                clear_cache()


def cpu_us(call: Callable[[], object], rounds: int) -> float:
    """Median CPU microseconds of ``call``, caches cleared before each."""
    samples = []
    for _ in range(rounds):
        clear()
        t0 = time.process_time_ns()
        call()
        samples.append((time.process_time_ns() - t0) / 1000)
    return statistics.median(samples)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    chosen = set(sys.argv[2:])
    for text in ODDS_CASES:
        if chosen and text not in chosen:
            continue
        estimate = cost(parse(text))
        if estimate > ODDS_BUDGET:
            print(f"odds  {text:14} refused (estimate {estimate:,} steps)")
            continue
        one = cpu_us(lambda text=text: odds(text), 1)
        slow = one > 200_000
        got = cpu_us(lambda text=text: odds(text), 5 if slow else rounds)
        note = f"  estimate {estimate / 20:,.0f} us" + ("  (median of 5)" if slow else "")
        print(f"odds  {text:14} {got:>14,.1f} us" + note)
    for text in PARSE_CASES:
        if chosen and text not in chosen:
            continue
        got = cpu_us(lambda text=text: parse(text), rounds * 20)
        print(f"parse {text:22} {got:>8,.2f} us")


if __name__ == "__main__":
    main()
