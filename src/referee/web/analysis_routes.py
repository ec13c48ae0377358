"""The analysis view of a table: its game's check variants, P(success) curves, and who
wins a fight between characters the viewer picks.

* ``GET /t/{tid}/analysis`` - the page (a plain form: it works without a script);
* ``GET /api/tables/{tid}/analysis?a=ID&b=ID`` - the same as JSON.

The numbers come from :func:`referee.analysis.page.page_data`, on the table's own
house rules and the viewer's view of its state (:meth:`TableService.view`): a player
picks among the characters they can see, and a referee's secret roll that changed a
character changes nothing of a player's analysis. Nothing is computed on the event
loop: the work goes to the server's odds pool (:mod:`referee.web.worker`), holds one
of the link's odds slots (429 past them, :mod:`referee.web.limits`), and runs within
a work budget: the fight :data:`ANALYSIS_SECONDS` of CPU (:mod:`referee.analysis.budget`,
its dice odds an estimate as long, :func:`~referee.dice.odds.limited_work`), the
variants and curves an odds preview's :data:`~referee.web.deps.REQUEST_MICROSECONDS`.
``max_states`` and ``runs`` are bounded; a request past a bound or the budget is
refused (422), the limit named.
"""

from __future__ import annotations

import json
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Final

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from referee.dice.odds import limited_work
from referee.errors import ODD_INPUT, RulesError
from referee.table.service import Forbidden, TableService
from referee.web.app import WebError, web_of
from referee.web.auth import Caller
from referee.web.deps import REQUEST_MICROSECONDS, Reader, TableId, authenticate, in_pool
from referee.web.strict import StrictRoute
from referee.web.svg import inline_svg

router = APIRouter(route_class=StrictRoute)

ANALYSIS_SECONDS: Final = 3.0
"""The CPU time one analysis request may take (the conflict's chain and simulation;
the exact chain gets a third of it). Above an odds preview's 0.4 s: a fight is a whole
chain of checks, and the view is asked for once, not at each key stroke."""

MAX_STATES: Final = 5_000
"""The largest exact chain a request may ask for (states)."""

MAX_RUNS: Final = 20_000
"""The most simulated conflicts a request may ask for."""

DEFAULT_STATES: Final = 2_000
DEFAULT_RUNS: Final = 2_000
CONFIDENCE: Final = 0.95
"""The simulations' intervals on the page: 95 %."""

MAX_SIDE: Final = 4
"""Characters on one side at most."""

Ids = Annotated[
    list[str],
    Query(
        max_length=MAX_SIDE,
        description="A character on this side of the fight (its id; repeat for more).",
    ),
]
Policy = Annotated[
    str,
    Query(
        max_length=32,
        description="How this side plays (the answer's `policies`; blank: the game's default).",
    ),
]
States = Annotated[int, Query(ge=1, le=MAX_STATES, description="The exact chain's bound.")]
Runs = Annotated[int, Query(ge=1, le=MAX_RUNS, description="Simulated conflicts at most.")]
Seed = Annotated[
    int,
    Query(ge=0, le=2**32 - 1, description="The simulation's seed: the same seed, the same runs."),
]


# ---------------------------------------------------------------------------
# the work (in a worker process, or a thread for an in-memory database)

_CACHE: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
_CACHE_LOCK = threading.Lock()
CACHE_SIZE: Final = 64
"""Answers a worker keeps (a page opened twice is not computed twice)."""


def _cached(key: Hashable) -> dict[str, Any] | None:
    with _CACHE_LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
        return found


def _keep(key: Hashable, value: dict[str, Any]) -> None:
    with _CACHE_LOCK:
        _CACHE[key] = value
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)


def _side(picked: list[str], visible: dict[str, str], side: str) -> tuple[str, ...]:
    """The ids picked for one side, each one the viewer can see (else refused, naming
    only what the viewer gave and what they can see)."""
    out: list[str] = []
    for cid in picked:
        if cid not in visible:
            known = ", ".join(sorted(visible)) or "nobody"
            raise Forbidden(
                f"side {side}: no character {cid!r} you can see at this table (you can pick: "
                f"{known})"
            )
        if cid not in out:
            out.append(cid)
    return tuple(out)


def _policies(
    model_policies: tuple[str, ...], a: tuple[str, ...], b: tuple[str, ...], pa: str, pb: str
) -> dict[str, str]:
    out: dict[str, str] = {}
    for ids, policy, side in ((a, pa, "a"), (b, pb, "b")):
        if not policy:
            continue
        if policy not in model_policies:
            raise RulesError(
                f"side {side}: unknown policy {policy!r}; known: {', '.join(model_policies)}"
            )
        out.update(dict.fromkeys(ids, policy))
    return out


MAX_PARAMS: Final = 12
"""Model parameters one request may set."""


def parse_params(game: str, given: list[tuple[str, str]]) -> dict[str, int | str]:
    """``m.NAME=VALUE`` pairs as the model's parameters (a value equal to the default,
    or empty, is left out); an unknown name or a word for a number is refused, named."""
    from referee.analysis.scenario import model_params

    known = {str(p["name"]): p for p in model_params(game)}
    out: dict[str, int | str] = {}
    if len(given) > MAX_PARAMS:
        raise RulesError(f"at most {MAX_PARAMS} model parameters (m.NAME=VALUE)")
    for name, raw in given:
        desc = known.get(name)
        if desc is None:
            names = ", ".join(known) or "none"
            raise RulesError(f"no model parameter {name!r} for {game}; known: {names}")
        text = raw.strip()
        if not text or len(text) > 64:
            if len(text) > 64:
                raise RulesError(f"m.{name}: at most 64 characters")
            continue
        value: int | str = text
        if desc["kind"] == "integer":
            try:
                value = int(text)
            except ValueError:
                raise RulesError(f"m.{name} must be a whole number, not {text!r}") from None
            if not -1000 <= value <= 1000:
                raise RulesError(f"m.{name} must be between -1000 and 1000, not {value}")
        if value != desc["default"]:
            out[name] = value
    return out


def analyse(
    service: TableService,
    table: str,
    by: str,
    a: list[str],
    b: list[str],
    policy_a: str,
    policy_b: str,
    max_states: int,
    runs: int,
    seed: int,
    seconds: float = ANALYSIS_SECONDS,
    given: list[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """The analysis of ``table`` as participant ``by`` may see it (see the module text):
    the view's characters, the picks, the variants, the curves and the conflict, each
    chart as SVG ready for a page. Raises a rules error (a refusal) for a pick the
    viewer cannot see or a request over its budget."""
    from referee.analysis.page import page_data
    from referee.analysis.scenario import model_params, model_policies, policy_words

    view = service.view(table, by)
    rules = view.ruleset
    viewer = view.viewer(by)
    visible = {  # a fight is its fighters' sheets: only those the viewer may read
        cid: seat.sheet.name or cid
        for cid, seat in view.state.characters.items()
        if view.settings.true_odds or view.sees_sheet(viewer, cid)
    }
    counts = Counter(visible.values())
    visible = {c: n if counts[n] == 1 else f"{n} ({c})" for c, n in visible.items()}
    side_a = _side(a, visible, "a")
    side_b = _side(b, visible, "b")
    ids = list(visible)
    mine = [c for c in ids if view.owners.get(c) == by]
    if not side_a and ids:
        side_a = ((mine or ids)[0],)
    if not side_b:
        side_b = tuple(c for c in ids if c not in side_a)[:1]
    policies = model_policies(rules.name)
    chosen = _policies(policies, side_a, side_b, policy_a, policy_b)
    params = parse_params(rules.name, given or [])
    options = rules.dump_options(view.options)
    key = (
        view.id,
        view.seq,
        view.hash,
        by,
        view.participants.get(by, "observer"),
        side_a,
        side_b,
        tuple(sorted(chosen.items())),
        tuple(sorted(params.items())),
        max_states,
        runs,
        seed,
    )
    hit = _cached(key)
    if hit is not None:
        return hit
    data: dict[str, Any] = {"game": rules.name, "errors": {}}
    if side_a and side_b:
        # the fight's own dice odds spend from an estimate as long as its CPU budget
        with limited_work(seconds * 1_000_000), missing_extra(data):
            data = page_data(
                rules.name,
                view.state,
                view.options,
                a=side_a,
                b=side_b,
                policies=chosen,
                params=params,
                max_states=max_states,
                runs=runs,
                seed=seed,
                seconds=seconds,
                confidence=CONFIDENCE,
                variants=False,
            )
    else:
        data["errors"]["conflict"] = "a fight needs two characters you can see"
    try:
        with limited_work(REQUEST_MICROSECONDS):  # the variants: an odds preview's budget
            data.update(_variants(rules.name, view.options, rules.title))
    except RulesError as e:
        data["errors"]["compare"] = str(e)
    title = rules.title
    taken = dict(data.get("conflict", {}).get("model", {}).get("policies", {}))
    if "conflict" in data:
        conflict = data["conflict"]
        who = f"{' + '.join(side_a)} against {' + '.join(side_b)}"
        conflict["svg"] = inline_svg(conflict["svg"], f"Who wins: {who}", "conflict")
    data.update(
        {
            "table": view.id,
            "title": title,
            "options": options,
            "characters": [{"id": c, "name": visible[c], "owner": view.owners.get(c)} for c in ids],
            "a": list(side_a),
            "b": list(side_b),
            "names": visible,
            "sides": {
                "a": " + ".join(visible[c] for c in side_a),
                "b": " + ".join(visible[c] for c in side_b),
            },
            "policies": list(policies),
            "policy_words": policy_words(rules.name),
            "policy": {  # as chosen, else the model's own (the rules' default for a side)
                side: chosen_policy or taken.get(fighters[0] if fighters else "", policies[0])
                for side, chosen_policy, fighters in (
                    ("a", policy_a, side_a),
                    ("b", policy_b, side_b),
                )
            },
            "params": [
                {**p, "value": params.get(str(p["name"]), p["default"])}
                for p in model_params(rules.name)
            ],
            "limits": {
                "max_states": max_states,
                "runs": runs,
                "seed": seed,
                "seconds": seconds,
                "most_states": MAX_STATES,
                "most_runs": MAX_RUNS,
            },
        }
    )
    plain: dict[str, Any] = json.loads(json.dumps(data, default=float))  # numpy numbers too
    _keep(key, plain)
    return plain


def _variants(game: str, options: Any, title: str) -> dict[str, Any]:
    """The variants and curves of ``game`` under ``options``, their charts ready for a
    page (kept: they depend on nothing else)."""
    from referee.analysis.page import variants_data

    key = ("variants", game, repr(options))
    hit = _cached(key)
    if hit is not None:
        return hit
    data = variants_data(game, options)
    for part in ("compare", "curve"):
        data[part]["svg"] = inline_svg(data[part]["svg"], f"{title}: {data[part]['title']}", part)
    _keep(key, data)
    return data


MISSING: Final = (
    "this fight is simulated, and simulating needs the server's analysis extra: "
    "pip install 'referee[analysis]'"
)
"""What a server without numpy answers for an analysis that would simulate."""


@contextmanager
def missing_extra(data: dict[str, Any]) -> Iterator[None]:
    """A fight that would be simulated on a server without numpy: its part of the page
    says what to install (:data:`MISSING`), and the rest of the page still shows."""
    try:
        yield
    except ImportError as e:
        data["errors"]["conflict"] = f"{MISSING} ({e.name or e} is missing)"


def as_data(what: str, work: Callable[[], Any]) -> tuple[str, Any]:
    """``work()`` (the ``what``: an analysis, a gauge) with its refusal as data, to come
    back from a worker process: ``("ok", answer)``, ``("forbidden", text)``,
    ``("missing", text)`` (a part of the analysis extra is not installed: 501) or
    ``("rules", text)``."""
    try:
        return "ok", work()
    except ImportError as e:  # numpy or Dask: the analysis extra is not installed
        return "missing", f"{MISSING} ({e.name or e} is missing)"
    except Forbidden as e:
        return "forbidden", str(e)
    except RulesError as e:
        return "rules", str(e)
    except ODD_INPUT as e:
        return "rules", f"the {what} cannot handle this input: {type(e).__name__}: {e}"


def compute(service: TableService, *args: Any) -> tuple[str, Any]:
    """:func:`analyse` with its refusal as data (:func:`as_data`)."""
    return as_data("analysis", lambda: analyse(service, *args))


def in_worker(*args: Any) -> tuple[str, Any]:
    """:func:`compute` in an odds worker process, on its own service."""
    from referee.web import worker

    return compute(worker.started(), *args)


async def analysis_off_loop(
    request: Request,
    caller: Caller,
    a: list[str],
    b: list[str],
    policy_a: str,
    policy_b: str,
    max_states: int,
    runs: int,
    seed: int,
) -> dict[str, Any]:
    """The caller's analysis, computed in the odds pool when its table's turn comes,
    under one of the caller's odds slots (as :func:`referee.web.deps.odds_off_loop`)."""
    web = web_of(request)
    given = [(k[2:], v) for k, v in request.query_params.multi_items() if k.startswith("m.")]
    args = (
        caller.table_id,
        caller.name,
        a,
        b,
        policy_a,
        policy_b,
        max_states,
        runs,
        seed,
        ANALYSIS_SECONDS,
        given,
    )
    table, name = caller.table_id, caller.name
    with web.quotas.odds.slot(web.quotas.participant(table, name)):

        async def work() -> tuple[str, Any]:
            return await in_pool(web, compute, in_worker, args)

        kind, value = await web.shares.run(table, name, work)
    if kind == "ok":
        found: dict[str, Any] = value
        return found
    raise WebError(501 if kind == "missing" else 422, str(value))


# ---------------------------------------------------------------------------
# routes


@router.get("/api/tables/{tid}/analysis", tags=["table"])
async def analysis_api(
    caller: Reader,
    request: Request,
    a: Ids = [],  # noqa: B006 - FastAPI copies a query default
    b: Ids = [],  # noqa: B006
    policy_a: Policy = "",
    policy_b: Policy = "",
    max_states: States = DEFAULT_STATES,
    runs: Runs = DEFAULT_RUNS,
    seed: Seed = 0,
) -> dict[str, Any]:
    """The game's check variants under the table's house rules, their P(success) curves,
    and a fight between side ``a`` and side ``b`` (characters you can see; repeat ``a=``
    for more than one): exact when its chain stays within ``max_states`` and a third of
    the work budget, else simulated (``runs`` at most; the answer says how many were
    done, and the interval). The fight model's plain parameters go as ``m.NAME=VALUE``
    (``m.until=Dying``; the answer's ``params`` lists them). Each chart is SVG. Computed
    off the event loop, a few at once per link (429 past that); past a bound or the
    budget: 422, the limit named."""
    return await analysis_off_loop(
        request, caller, a, b, policy_a, policy_b, max_states, runs, seed
    )


@router.get("/t/{tid}/analysis", response_class=HTMLResponse, include_in_schema=False)
async def analysis_page(
    request: Request,
    tid: TableId,
    a: Ids = [],  # noqa: B006
    b: Ids = [],  # noqa: B006
    policy_a: Policy = "",
    policy_b: Policy = "",
    max_states: States = DEFAULT_STATES,
    runs: Runs = DEFAULT_RUNS,
    seed: Seed = 0,
) -> HTMLResponse:
    """The analysis page: the picks as a form, the numbers and the charts."""
    web = web_of(request)
    caller = authenticate(request, tid, write=False)
    ts = web.service.current(tid)
    error = None
    status = 200
    data: dict[str, Any] | None = None
    try:
        data = await analysis_off_loop(
            request, caller, a, b, policy_a, policy_b, max_states, runs, seed
        )
    except WebError as e:
        if e.status not in (422, 501):
            raise
        error, status = e.detail, e.status
    if data is None:  # a refused pick: the form again, with the viewer's own characters
        from referee.analysis.scenario import model_params, model_policies, policy_words

        view = web.service.view(tid, caller.name)
        data = {
            "characters": [
                {"id": c, "name": c, "owner": view.owners.get(c)} for c in view.state.characters
            ],
            "a": [],
            "b": [],
            "policies": list(model_policies(view.ruleset.name)),
            "policy_words": policy_words(view.ruleset.name),
            "policy": {"a": policy_a, "b": policy_b},
            "params": [{**p, "value": p["default"]} for p in model_params(view.ruleset.name)],
            "errors": {},
            "limits": {"max_states": max_states, "runs": runs, "seed": seed},
        }
    html = web.renderer.page(
        "analysis.html",
        title=f"{ts.name}: analysis",
        ts=ts,
        me=caller,
        rules=ts.ruleset,
        data=data,
        error=error,
        most_states=MAX_STATES,
        most_runs=MAX_RUNS,
        seconds=ANALYSIS_SECONDS,
    )
    return HTMLResponse(html, status_code=status)
