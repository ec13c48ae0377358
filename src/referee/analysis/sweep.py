"""Sweeps: a grid of conflicts mapped over a Dask cluster, the same numbers anywhere.

A grid is named axes, each a list of values; a cell sets one value per axis on a
base :class:`~.scenario.Scenario`. Axis names say where the value goes:

* ``policy.ID`` - the policy of character ``ID``;
* ``param.NAME`` - a model parameter (``param.until``, ``param.threshold``);
* ``option.NAME`` - a house-rule option of the table;
* ``ID.PATH`` - a value on ``ID``'s sheet (``vooruk.expertise.Rend``).

Each cell is simulated (or solved exactly with ``exact=True``) by :func:`run_cell`,
a plain function of JSON data: a Dask worker rebuilds the model with the game's
rules and runs it. A cell's seed comes from the sweep's seed and the cell's own
values (a ``SeedSequence`` of the seed and a CRC of the cell's canonical JSON),
never from where or when it runs, so one machine and a cluster give the same
numbers. The grid's size and total work are checked before anything is sent.
"""

from __future__ import annotations

import itertools
import json
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import AnalysisError, need
from .scenario import Scenario

SCHEDULER_TIMEOUT = 10
"""Seconds to wait for a Dask scheduler at the address given before saying none answers."""

MAX_CELLS = 500
MAX_WORK = 50_000_000
"""The most simulated conflicts a sweep may ask for in all (cells x runs)."""


def cells(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the axes' values, in order (the first axis slowest)."""
    if not grid:
        raise AnalysisError("a sweep needs at least one axis (--grid NAME=V1,V2)")
    for name, values in grid.items():
        if not values:
            raise AnalysisError(f"axis {name!r} has no values")
    size = 1
    for values in grid.values():
        size *= len(values)
    if size > MAX_CELLS:
        raise AnalysisError(f"the grid has {size:,} cells; at most {MAX_CELLS:,}")
    names = list(grid)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*grid.values())]


def cell_scenario(base: Scenario, cell: Mapping[str, Any]) -> Scenario:
    """``base`` with the cell's values set (see the module text for the axis names)."""
    data = json.loads(json.dumps(base.data()))
    for name, value in cell.items():
        head, _, rest = name.partition(".")
        if not rest:
            raise AnalysisError(
                f"axis {name!r}: write policy.ID, param.NAME, option.NAME or ID.PATH"
            )
        if head == "policy":
            data["policies"][rest] = value
        elif head == "param":
            data["params"][rest] = value
        elif head == "option":
            data["options"][rest] = value
        elif head in data["seats"]:
            data["overrides"].setdefault(head, {})[rest] = value
        else:
            raise AnalysisError(
                f"{name!r}: {head!r} is not policy, param, option or a seated character"
            )
    return Scenario.load(data)


def cell_seed(seed: int, cell: Mapping[str, Any]) -> list[int]:
    """The entropy of a cell's generator: the sweep's seed and a CRC of the cell."""
    text = json.dumps(cell, sort_keys=True, separators=(",", ":"))
    return [seed, zlib.crc32(text.encode())]


def run_cell(job: Mapping[str, Any]) -> dict[str, Any]:
    """One cell, from JSON data: ``scenario``, ``cell``, ``seed``, ``runs``, ``exact``.
    Returns the cell, the method and the result's JSON (the same on any machine)."""
    scenario = cell_scenario(Scenario.load(job["scenario"]), job["cell"])
    model = scenario.model()
    if job.get("exact"):
        from .chain import explore
        from .solve import solve

        result = solve(explore(model, max_states=int(job.get("max_states", 20_000)))).data()
    else:
        from .simulate import simulate

        entropy = cell_seed(int(job["seed"]), job["cell"])
        result = simulate(model, runs=int(job["runs"]), seed=_seed_int(entropy)).data()
        result.pop("seconds", None)  # the one number that depends on the machine
    return {"cell": dict(job["cell"]), "result": result}


def _seed_int(entropy: list[int]) -> int:
    import numpy as np

    state = np.random.SeedSequence(entropy).generate_state(2, dtype=np.uint64)
    return int(state[0]) << 64 | int(state[1])


def jobs(
    base: Scenario,
    grid: Mapping[str, Sequence[Any]],
    *,
    seed: int = 0,
    runs: int = 20_000,
    exact: bool = False,
) -> list[dict[str, Any]]:
    """The sweep's cells as jobs, checked before any is run: every cell's scenario
    builds, and the total work is within :data:`MAX_WORK`."""
    found = cells(grid)
    if not exact and len(found) * runs > MAX_WORK:
        raise AnalysisError(
            f"{len(found):,} cells x {runs:,} runs = {len(found) * runs:,} conflicts; at most "
            f"{MAX_WORK:,}"
        )
    out = []
    for cell in found:
        cell_scenario(base, cell).model()  # bad input fails here, before the cluster
        out.append(
            {"scenario": base.data(), "cell": cell, "seed": seed, "runs": runs, "exact": exact}
        )
    return out


def run(
    todo: list[dict[str, Any]],
    *,
    scheduler: str | None = None,
    workers: int = 0,
    processes: bool = False,
) -> list[dict[str, Any]]:
    """Run the jobs on Dask: at ``scheduler`` (an address), else on a new LocalCluster
    (in this process, or ``workers`` worker processes). Results come back in cell
    order. ``workers=0`` and no scheduler with ``processes=False``: one process, no
    cluster at all (:func:`run_cell` in turn)."""
    if scheduler is None and workers == 0 and not processes:
        return [run_cell(j) for j in todo]
    need("distributed")
    from dask.distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)  # type: ignore[no-untyped-call]
        except Exception as e:  # nothing there, or something that is not a Dask scheduler
            raise AnalysisError(
                f"no Dask scheduler answered at {scheduler!r} within {SCHEDULER_TIMEOUT} s "
                f"({type(e).__name__}); start one with 'dask scheduler', or leave out "
                "--scheduler to run on this machine"
            ) from None
        with client:
            return list(client.gather(client.map(run_cell, todo, pure=False)))  # type: ignore[no-untyped-call]
    n = max(1, workers)
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=n,
            threads_per_worker=1,
            processes=processes,
            dashboard_address=None,
            silence_logs=40,
        ) as cluster,
        Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):
        return list(client.gather(client.map(run_cell, todo, pure=False)))
