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

from referee.errors import OddsTooComplex, RulesError
from referee.systems.base import get

QUICK_STEPS = 0
"""Under a work budget, simulated runs are resolved by the game one at a time (no
state's step is tabulated first): at the few hundred runs a request affords,
tabulating the steps costs more than it saves (measured on the demo tables)."""


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
    seconds: float | None = None,
    confidence: float = 0.999,
    variants: bool = True,
) -> dict[str, Any]:
    """Everything an analysis page shows for ``game`` at a table (see the module text).

    ``state`` / ``options`` default to the game's example conflict; ``a`` and ``b`` to
    the first two seated characters; ``check`` holds the variant parameters (as the
    ``compare`` command's ``-p``); the variants are computed under ``options`` (the
    table's own house rules). A part that cannot be made says why under ``errors``
    instead of failing the page.

    ``seconds`` bounds the conflict's work (:mod:`.budget`, CPU time): the exact chain
    gets a third of it, and a chain that passes ``max_states`` or its third is simulated
    in what is left, stopping after the last batch of runs that fits (the result says
    how many of ``runs`` were done). A simulation whose first batch does not fit raises
    :class:`~.budget.WorkLimit`: the request is over its budget. ``variants=False``
    leaves out the variants and curves (a caller that keeps them: they depend only on
    the game, the options and ``check``).
    """
    from .budget import WorkLimit

    out: dict[str, Any] = {"game": game, "errors": {}}
    try:
        if variants:
            out.update(variants_data(game, options, check))
    except RulesError as e:
        out["errors"]["compare"] = str(e)
    try:
        result = _conflict(
            game,
            state,
            options,
            a,
            b,
            policies,
            params,
            max_states,
            runs,
            seed,
            seconds,
            confidence,
        )
        out["conflict"] = {**result, "svg": _conflict_svg(result)}
    except WorkLimit:
        raise
    except RulesError as e:
        out["errors"]["conflict"] = str(e)
    return out


def variants_data(
    game: str, options: Any = None, check: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The check variants (``compare``) and P(success) curves (``curve``) of ``game``
    under ``options``, each as JSON with its SVG chart."""
    from .charts import comparison_chart, curve_chart
    from .compare import compare, curve

    comp = compare(game, check or {}, options)
    cur = curve(game, check or {}, options)
    return {
        "compare": {**comp.data(), "svg": comparison_chart(comp, "svg").decode()},
        "curve": {**cur.data(), "svg": curve_chart(cur, "svg").decode()},
    }


def _conflict_svg(result: dict[str, Any]) -> str:
    from .charts import conflict_chart

    return conflict_chart(result, "svg").decode()


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
    seconds: float | None = None,
    confidence: float = 0.999,
) -> dict[str, Any]:
    from contextlib import nullcontext

    from . import budget
    from .chain import explore
    from .scenario import Scenario, model_type
    from .simulate import SIM_BUDGET, simulate
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
        model = model_type(ruleset.name)(
            ruleset, opts, state, side_a, side_b, dict(policies or {}), **dict(params or {})
        )
    whole = budget.within(seconds) if seconds is not None else nullcontext()
    with whole:
        why = ""
        try:
            half = budget.within(seconds / 3) if seconds is not None else nullcontext()
            with half:
                return {**solve(explore(model, max_states=max_states)).data(), "why": ""}
        except OddsTooComplex as e:  # a chain past max_states, a step past its budget
            why = str(e)
        except budget.WorkLimit:
            left = budget.left()
            if seconds is None:
                raise
            if left is not None and left <= 0:  # the chain spent the whole request's budget
                raise budget.WorkLimit(
                    f"the exact chain passes the {seconds * 1000:,.0f} ms of work an analysis "
                    "request may take"
                ) from None
            why = (
                f"the exact chain needs more than its third of the work budget "
                f"({seconds / 3 * 1000:,.0f} ms)"
            )
        batch = min(runs, 100) if seconds is not None else min(runs, 20_000)
        found = simulate(
            model,
            runs=runs,
            seed=seed,
            confidence=confidence,
            batch=batch,
            fit_budget=seconds is not None,
            budget=QUICK_STEPS if seconds is not None else SIM_BUDGET,
        )
        return {**found.data(), "why": why}
