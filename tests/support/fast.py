"""Parameters of which make check runs one and make test runs all.

A check run on every game is worth its time once per game in CI, but the fast loop
(`make check`) needs only one of them to catch a broken change: the others are marked
``slow`` here, so they run in ``make test`` (and CI) and not in ``make check``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest


def one_fast(values: Iterable[Any]) -> list[Any]:
    """The values as parameters, every one after the first marked ``slow``."""
    return [
        value if i == 0 else pytest.param(value, marks=pytest.mark.slow)
        for i, value in enumerate(values)
    ]
