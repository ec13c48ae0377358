"""One call for a web page of analysis on a live table: :func:`page_data`.

The web passes the table's own state and options; the page gets the variants of the
game's check (table and SVG chart), P(success) curves, and a conflict between two
of the table's characters - exact when the chain is within ``max_states``, else
simulated - each as JSON with its SVG. Nothing here renders HTML and nothing reads
the web package: the result is plain JSON-ready data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.errors import RulesError
from referee.systems.base import get

from .errors import ChainTooLarge


def page_data(
    game: str,
    state: Any = None,
    options: Any = None,
    *,
    a: tuple[str, ...] | None = None,
    b: tuple[str, ...] | None = None,
    policies: Mapping[str, str] | None = None,
    params: Mapping[str, Any] | None = None,
    check: Mapping[str, Any] | None = None,
    max_states: int = 4_000,
    runs: int = 20_000,
    seed: int = 0,
) -> dict[str, Any]:
    """Everything an analysis page shows for ``game`` at a table (see the module text).

    ``state`` / ``options`` default to the game's example conflict; ``a`` and ``b`` to
    the first two seated characters; ``check`` holds the variant parameters (as the
    ``compare`` command's ``-p``). A part that cannot be made says why under
    ``errors`` instead of failing the page.
    """
    from .charts import comparison_chart, conflict_chart, curve_chart
    from .compare import compare, curve

    out: dict[str, Any] = {"game": game, "errors": {}}
    try:
        comp = compare(game, check or {})
        out["compare"] = {**comp.data(), "svg": comparison_chart(comp, "svg").decode()}
        cur = curve(game, check or {})
        out["curve"] = {**cur.data(), "svg": curve_chart(cur, "svg").decode()}
    except RulesError as e:
        out["errors"]["compare"] = str(e)
    try:
        result = _conflict(game, state, options, a, b, policies, params, max_states, runs, seed)
        out["conflict"] = {**result, "svg": conflict_chart(result, "svg").decode()}
    except RulesError as e:
        out["errors"]["conflict"] = str(e)
    return out


def _conflict(
    game: str,
    state: Any,
    options: Any,
    a: tuple[str, ...] | None,
    b: tuple[str, ...] | None,
    policies: Mapping[str, str] | None,
    params: Mapping[str, Any] | None,
    max_states: int,
    runs: int,
    seed: int,
) -> dict[str, Any]:
    from .chain import explore
    from .scenario import Scenario, _model_type
    from .simulate import simulate
    from .solve import solve

    if state is None:
        sc = Scenario.default(game)
        sc.policies = dict(policies or {})
        sc.params.update(params or {})
        model = sc.model()
    else:
        ruleset = get(game)
        opts = options if options is not None else ruleset.options_type()
        ids = tuple(state.characters)
        side_a = a or ids[:1]
        side_b = b or ids[1:2]
        model = _model_type(ruleset.name)(
            ruleset, opts, state, side_a, side_b, dict(policies or {}), **dict(params or {})
        )
    try:
        return solve(explore(model, max_states=max_states)).data()
    except ChainTooLarge:
        return simulate(model, runs=runs, seed=seed).data()
