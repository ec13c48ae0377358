"""Sweeps: cells and their seeds, bad grids refused before any work, and the same numbers
from one process and from a LocalCluster of several worker processes."""

from __future__ import annotations

import pytest

from referee.analysis.errors import AnalysisError
from referee.analysis.scenario import Scenario
from referee.analysis.sweep import MAX_CELLS, cell_seed, cells, jobs, run, run_cell

GRID = {"policy.mick": ["attack", "dodge"], "mick.talents.Dangerous": [2, 5]}


def test_cells_and_seeds_depend_only_on_the_cell() -> None:
    found = cells(GRID)
    assert len(found) == 4 and found[0] == {"policy.mick": "attack", "mick.talents.Dangerous": 2}
    assert cell_seed(1, found[2]) == cell_seed(1, dict(reversed(list(found[2].items()))))
    assert cell_seed(1, found[2]) != cell_seed(2, found[2])
    assert cell_seed(1, found[1]) != cell_seed(1, found[2])


def test_a_cell_changes_what_it_names() -> None:
    base = Scenario.default("mnemonic")
    todo = jobs(base, {"mick.talents.Dangerous": [0, 6]}, runs=3000, seed=4)
    weak, strong = (run_cell(j)["result"]["p"]["a"]["value"] for j in todo)
    assert weak < strong


def test_bad_grids_fail_before_anything_runs() -> None:
    base = Scenario.default("mnemonic")
    with pytest.raises(AnalysisError, match="at least one axis"):
        jobs(base, {})
    with pytest.raises(AnalysisError, match="not policy, param, option or a seated"):
        jobs(base, {"nobody.talents.Agile": [1]})
    with pytest.raises(AnalysisError, match="unknown policy"):
        jobs(base, {"policy.mick": ["attack", "flee"]})
    with pytest.raises(AnalysisError, match=f"at most {MAX_CELLS}"):
        jobs(base, {"param.chances": list(range(30)), "param.injury_chances": list(range(30))})
    with pytest.raises(AnalysisError, match="conflicts; at most"):
        jobs(base, {"policy.mick": ["attack"]}, runs=10**9)
    with pytest.raises(AnalysisError, match="the sheet has no"):
        jobs(base, {"mick.talents.Flying.high": [1]})


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_one_process_and_a_cluster_of_worker_processes_agree() -> None:
    todo = jobs(Scenario.default("mnemonic"), GRID, runs=2000, seed=9)
    alone = run(todo, workers=0)
    cluster = run(todo, workers=2, processes=True)
    in_process = run(todo, workers=1)
    assert alone == cluster == in_process
    assert [r["cell"] for r in alone] == cells(GRID)


def test_an_address_that_is_not_a_dask_scheduler_is_named_not_a_crash() -> None:
    """Something answers at the address but speaks no Dask (an HTTP server, say): the sweep
    says no scheduler answered there, naming it, instead of an internal error (it was
    'MemoryError: Unable to allocate 3.07 EiB', reading the garbage as a frame length)."""
    import socket
    import threading

    from referee.analysis.errors import AnalysisError
    from referee.analysis.sweep import run

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    port = listener.getsockname()[1]
    stop = threading.Event()

    def answer() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            with conn:
                conn.sendall(b"HTTP/1.1 200 OK\r\n\r\n" + b"\xff" * 64)

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        with pytest.raises(
            AnalysisError, match=f"no Dask scheduler answered at 'tcp://127.0.0.1:{port}'"
        ):
            run([], scheduler=f"tcp://127.0.0.1:{port}")
    finally:
        stop.set()
        thread.join(timeout=5)
        listener.close()
