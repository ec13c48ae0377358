"""A time budget for analysis work done for a request (the web's analysis view).

Exact odds spend an *estimated* budget before each costly step
(:func:`referee.dice.odds.limited_work`); a conflict's chain and simulation have no
such estimate - one step of a chain may resolve the game's plan thousands of times.
So they are bounded by the CPU time of the thread doing them: :func:`within` sets a
budget for a block, and :func:`check` (called once per explored state, enumerated
face path and simulated step) raises :class:`WorkLimit` once it is spent, naming
the limit. CPU time (``time.thread_time``) and not the clock: a busy machine makes
a request wait, not fail.

Budgets nest: an inner block gets at most what the outer one has left.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .errors import AnalysisError


class WorkLimit(AnalysisError):
    """Analysis work past the budget of its request (the message names the limit)."""


_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar(
    "referee_analysis_deadline", default=None
)
"""``(thread CPU time at which the budget is spent, the budget in seconds)``."""


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """Bound the block's analysis work to ``seconds`` of this thread's CPU time (or what
    an enclosing :func:`within` has left, if less)."""
    now = time.thread_time()
    outer = _DEADLINE.get()
    end = now + seconds
    given = seconds
    if outer is not None and outer[0] < end:
        end, given = outer[0], outer[1]
    token = _DEADLINE.set((end, given))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def left() -> float | None:
    """Seconds of the budget left (``None``: no budget set)."""
    found = _DEADLINE.get()
    return None if found is None else found[0] - time.thread_time()


def check(what: str) -> None:
    """Refuse to go on with ``what`` once the budget is spent."""
    found = _DEADLINE.get()
    if found is not None and time.thread_time() > found[0]:
        raise WorkLimit(
            f"{what} passes the {found[1] * 1000:,.0f} ms of work an analysis request may take"
        )
