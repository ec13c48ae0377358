"""A bounded slice of ``bench/bench_fuzz.py``: schemathesis cases on live tables of every game,
mutated with non-finite numbers and values of the wrong type; no answer is a 5xx (the
bench sends 100,000)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def test_a_slice_of_the_fuzzing_gets_no_server_error(new_site: Any, tmp_path: Path) -> None:
    from referee.web.limits import Limits

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from bench_fuzz import fuzz  # type: ignore[import-not-found]

    site = new_site(f"sqlite:///{tmp_path / 'fuzz.db'}", Limits.off())
    tally = fuzz(site.base, requests=1500, seconds=240, seed=11)
    assert tally.sent >= 1000 and tally.mutated >= 200  # the cases went out
    assert sum(n for s, n in tally.statuses.items() if s >= 500) == 0, tally.errors
    assert tally.statuses[422] > 0 and tally.statuses[200] > 0  # refused and answered both
    assert not [e for e in tally.errors if "->" in e or "Error" in e], tally.errors
