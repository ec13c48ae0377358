"""Command-line start (issue 23, target 2; issue 38, target 4: every group's help screen
at most 4 bare interpreters): whole processes beside a bare interpreter.

Each command runs as pip's console script does (``import sys`` and the entry point
``referee.cli.dice:main``), from this checkout's ``src``, with bytecode caches written
first (:func:`harness.installed_env`). The commands and the bare interpreter are timed
in interleaved rounds, so a busy moment slows them alike; the ratio is each command's
least disturbed run over the bare interpreter's, and the medians are beside it.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from harness import installed_env

SRC = Path(__file__).resolve().parents[1] / "src"
SCRIPT = "import sys\nfrom referee.cli.dice import main\nsys.argv[0] = 'referee'\nsys.exit(main())"

COMMANDS: dict[str, tuple[list[str], float | None]] = {
    "bare interpreter: `python -c pass`": (["-c", "pass"], None),
    "`referee --help`": (["-c", SCRIPT, "--help"], 4.0),
    "`referee odds 2d6`": (["-c", SCRIPT, "odds", "2d6"], 3.0),
    "`referee odds 2d6 --json`": (["-c", SCRIPT, "odds", "2d6", "--json"], 3.0),
    "`referee roll 3d6 --seed 1`": (["-c", SCRIPT, "roll", "3d6", "--seed", "1"], None),
    "`referee mneme odds -m 2 -d 8`": (["-c", SCRIPT, "mneme", "odds", "-m", "2", "-d", "8"], None),
    **{
        f"`referee {group} --help`": (["-c", SCRIPT, group, "--help"], 4.0)
        for group in ("serve", "table", "analyze", "mnemonic", "mongrel", "mneme", "arm")
    },
    "`referee mneme check --help`": (["-c", SCRIPT, "mneme", "check", "--help"], None),
}
"""Name -> (interpreter arguments, the target: at most this many bare interpreters)."""


def _env() -> dict[str, str]:
    env = installed_env()
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def section(quick: bool) -> tuple[str, list[dict[str, Any]]]:
    """Time every command in interleaved rounds; the table and the targets."""
    env, rounds = _env(), 9 if quick else 41
    argv = {name: [sys.executable, *args] for name, (args, _) in COMMANDS.items()}
    for cmd in argv.values():  # writes the bytecode caches, checks each command works
        subprocess.run(cmd, check=True, capture_output=True, env=env)
    samples: dict[str, list[float]] = {name: [] for name in argv}
    for _ in range(rounds):
        for name, cmd in argv.items():
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, env=env)
            samples[name].append(time.perf_counter() - t0)
    bare_name = next(iter(argv))
    bare_min, bare_med = min(samples[bare_name]), statistics.median(samples[bare_name])
    rows, targets = [], []
    for name, times in samples.items():
        low, mid, high = min(times), statistics.median(times), max(times)
        ratio, ratio_med, ratio_max = low / bare_min, mid / bare_med, high / max(samples[bare_name])
        limit = COMMANDS[name][1]
        met = limit is None or ratio <= limit
        needed = "-" if limit is None else f"≤ {limit:g}×"
        rows.append(
            f"| {name} | {low * 1e3:.1f} | {mid * 1e3:.1f} | {high * 1e3:.1f} | {ratio:.2f}× "
            f"| {ratio_med:.2f}× | {ratio_max:.2f}× "
            f"| {needed} | {'-' if limit is None else ('yes' if met else '**no**')} |"
        )
        if limit is not None:
            targets.append(
                {
                    "label": f"command-line start: {name} over a bare interpreter (fastest runs)",
                    "figure": f"{ratio:.2f}× ({low * 1e3:.1f} ms vs {bare_min * 1e3:.1f} ms); "
                    f"medians {ratio_med:.2f}×",
                    "needed": needed,
                    "met": met,
                }
            )
    text = "\n".join(
        [
            "### Command-line start (issues 23 and 38)",
            "",
            f"Whole processes, {rounds} interleaved rounds, bytecode caches written, run as "
            "pip's console script (`import sys`, then `referee.cli.dice:main`). `roll` and "
            "`odds` in their plain forms are read without click; `--help` lists the groups without "
            "importing them; a group's `--help` is printed from `cli/helps.json` without importing "
            "the group, and `serve --help` reads the settings without the web framework. The "
            "max column is the slowest run over the bare interpreter's slowest.",
            "",
            "| process | min ms | median ms | max ms | min / bare | median / bare | max / bare "
            "| target | met |",
            "|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
    return text, targets
