"""How a preset's result reads: a wing's report function, handed the result and what it
needs of the command. (A candidate for :mod:`referee.cli.presets`.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.cli.presets import Render


def on(render: Callable[..., Any], *keys: str) -> Render:
    """``render(result, *values)`` with the command's values at ``keys``: ``_action``,
    ``_after``, ``_options``, ``_state``, a flag's key; ``_weigh`` gives the action's
    exact distribution."""

    def read(result: Any, values: Any) -> Any:
        given = [values[k]() if k == "_weigh" else values[k] for k in keys]
        return render(result, *given)

    return read
