"""Who is winning the fight at a live table: the referee's gauge (issue 39 item 2).

The gauge is the analysis's conflict chain (:mod:`.chain`, :mod:`.solve`) run from the
table's state *as it is now*: the characters' damage, conditions, Action Points, the
turn order, whatever the game tracks. Nothing is re-seated from sheets; the game's own
conflict model (:func:`.scenario.model_type`) reads the live state, as it reads the
fresh one ``referee analyze conflict`` builds.

**The conflict in progress.** The characters in it are those of the game's turn order
while a conflict, encounter or round runs (:meth:`Ruleset.turns`); otherwise every
seated character (the fight that would start now).

**The sides.** A referee thinks of the players' characters against their own: side *a*
holds the characters owned by a player, side *b* those owned by a referee or by nobody.
A table where everyone is a player's and the characters belong to exactly two players
(a duel between players) has one side per owner. Anything else names no two sides, and
the gauge says so; the caller may also name the sides itself.

**The figures.** Each side's chance to win (and a draw's): the exact chain where it fits
``max_states`` and most of the work budget (:mod:`.budget`), else a simulation in what is
left, with its interval, labelled which. **What if**: for the character acting now
(the first of the turn order's ``now``, else the model's next actor), its side's chance
if it fights each way the game's model knows (:attr:`ConflictModel.POLICIES`: attack,
defend, dodge...) from now on.

Nothing here knows who is looking: the table's service decides which state a
participant's gauge is computed from and whether it is shown at all
(:func:`shown_to`). Results are cached by the state's content, so an undo back to a
state seen before, or two viewers who see the same state, cost one computation.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from referee.errors import OddsTooComplex, RulesError

from . import budget
from .errors import AnalysisError

if TYPE_CHECKING:
    from referee.table.state import TableState, Viewer

    from .model import ConflictModel

GAUGE_SECONDS: Final = 4.0
"""CPU seconds one figure (one chain, or its simulation) may take: the exact chain gets
three quarters, a simulation what is left. Off the request path, in an odds worker, so
it may take longer than a preview; the default fights of the four games fit."""

EXACT_SHARE: Final = 0.75

GAUGE_STATES: Final = 20_000
"""The largest exact chain the gauge explores (states)."""

GAUGE_RUNS: Final = 4_000
"""Simulated fights at most, where the chain is too large."""

CONFIDENCE: Final = 0.95
"""The simulations' intervals."""

SEED: Final = 0
"""The simulations' seed: the same state, the same figures."""

HIDDEN_SHEETS: Final = "not shown: depends on hidden sheets"
"""What a player is told when a sheet of the fight is kept from them."""

MISSING: Final = (
    "this fight is simulated, and simulating needs the analysis extra: "
    "pip install 'referee[analysis]'"
)

OFF: Final = "not shown: the referee keeps the gauge to themselves"
"""What a player is told while the table's setting keeps the gauge for the referees."""


def sides_of(
    ts: TableState, fighters: tuple[str, ...] | None = None
) -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """The two sides of the conflict in progress (see the module text) and how they were
    chosen, in words; :class:`AnalysisError` when the table names no two sides."""
    ids = fighters if fighters is not None else in_conflict(ts)
    role = ts.participants
    players = tuple(c for c in ids if role.get(ts.owners.get(c, ""), "") == "player")
    others = tuple(c for c in ids if c not in players)
    if players and others:
        return players, others, "the players' characters against the referee's"
    owners = list(dict.fromkeys(ts.owners.get(c, "") for c in ids))
    if not others and len(owners) == 2:
        a = tuple(c for c in ids if ts.owners.get(c) == owners[0])
        b = tuple(c for c in ids if ts.owners.get(c) == owners[1])
        return a, b, f"{owners[0]}'s characters against {owners[1]}'s"
    if not ids:
        raise AnalysisError("nobody is seated: the gauge needs a fight")
    raise AnalysisError(
        "no two sides: the gauge needs characters of the players against the referee's, "
        "or of exactly two players"
    )


def in_conflict(ts: TableState) -> tuple[str, ...]:
    """The characters of the conflict in progress: the running turn order's, else every
    seated one."""
    turns = ts.ruleset.turns(ts.state, ts.options)
    seated = tuple(ts.state.characters)
    if turns.running and turns.seats:
        listed = tuple(s.cid for s in turns.seats if s.cid in ts.state.characters)
        if listed:
            return listed
    return seated


def acting_now(ts: TableState, model: ConflictModel) -> str | None:
    """The character whose turn it is: the turn order's first acting now, else the one
    the model's next step names (``None``: a step of nobody's, such as a new round)."""
    turns = ts.ruleset.turns(ts.state, ts.options)
    for seat in turns.now:
        if seat.cid in model.fighters:
            return seat.cid
    state, memo = model.start()
    if model.verdict(state, memo) is not None:
        return None
    actor = getattr(model.next(state, memo).action, "actor", None)
    return actor if isinstance(actor, str) and actor in model.fighters else None


def shown_to(full: TableState, viewer: Viewer, fighters: tuple[str, ...]) -> str | None:
    """Why ``viewer``'s gauge is not shown (``None``: it is). A referee always sees it; a
    player or an observer only when the table's setting shows it to players and no sheet
    of the fight is kept from them (``fighters``: its characters in their view). Both tests
    read only what the viewer may see (the settings, who owns what, which sheets are
    shown), so the answer is the same for two tables that differ only in what they may
    not see."""
    if viewer.sees_all:
        return None
    if not full.settings.players_gauge:
        return OFF
    if any(not full.sees_sheet(viewer, cid) for cid in fighters):
        return HIDDEN_SHEETS
    return None


# ---------------------------------------------------------------------------
# the figures


_CACHE: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
_LOCK = threading.Lock()
CACHE_SIZE: Final = 256
"""Figures kept (per process), by the state's content and the fight's inputs."""


def state_key(ts: TableState) -> str:
    """The game state's content as a short key: the same characters, damage and turn give
    the same key, whatever the log that led there."""
    text = f"{ts.game}|{ts.options!r}|{ts.state!r}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _frac(x: Fraction) -> dict[str, Any]:
    return {"exact": f"{x.numerator}/{x.denominator}", "value": float(x)}


def chances(
    ts: TableState,
    a: tuple[str, ...],
    b: tuple[str, ...],
    policies: Mapping[str, str] | None = None,
    *,
    seconds: float = GAUGE_SECONDS,
    max_states: int = GAUGE_STATES,
    runs: int = GAUGE_RUNS,
) -> dict[str, Any]:
    """Each side's chance to win the fight from ``ts``'s game state: ``{"method": "exact"
    | "simulated", "p": {"a", "b", "draw"}, "states", ...}``; an exact figure carries its
    fraction, a simulated one its interval (``low``, ``high``) and ``runs``. Cached by
    :func:`state_key` and the inputs."""
    chosen = dict(sorted((policies or {}).items()))
    key = (state_key(ts), a, b, tuple(chosen.items()), seconds, max_states, runs)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    found = _solve(fight_model(ts, a, b, chosen), seconds, max_states, runs)
    with _LOCK:
        _CACHE[key] = found
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return found


def fight_model(
    ts: TableState, a: tuple[str, ...], b: tuple[str, ...], policies: Mapping[str, str]
) -> ConflictModel:
    """The game's conflict model of the fight at ``ts`` between ``a`` and ``b``, starting
    with whoever the turn order says acts now (:attr:`ConflictModel.first`)."""
    from .scenario import model_type

    kind = model_type(ts.ruleset.name)
    turns = ts.ruleset.turns(ts.state, ts.options)
    first = next((s.cid for s in turns.now if s.cid in (*a, *b)), None)
    return kind(ts.ruleset, ts.options, ts.state, a, b, dict(policies), first=first)


def _solve(model: ConflictModel, seconds: float, max_states: int, runs: int) -> dict[str, Any]:
    from .chain import explore
    from .solve import solve

    with budget.within(seconds):
        why = ""
        try:
            with budget.within(seconds * EXACT_SHARE):
                exact = solve(explore(model, max_states=max_states))
            return {
                "method": "exact",
                "p": {k: _frac(exact.p[k]) for k in ("a", "b", "draw")},
                "states": exact.states,
                "why": "",
            }
        except OddsTooComplex as e:  # past max_states, or a step past its budget
            why = str(e)
        except budget.WorkLimit:
            why = f"the exact chain needs more than {seconds * EXACT_SHARE:,.1f} s of work"
        return _simulated(model, runs, why)


def _simulated(model: ConflictModel, runs: int, why: str) -> dict[str, Any]:
    from .simulate import simulate

    found = simulate(
        model,
        runs=runs,
        seed=SEED,
        confidence=CONFIDENCE,
        batch=min(runs, 100),
        fit_budget=True,
        budget=0,
    )
    return {
        "method": "simulated",
        "p": {k: found.p[k].data() for k in ("a", "b", "draw")},
        "states": found.states,
        "runs": found.runs,
        "confidence": CONFIDENCE,
        "why": why,
    }


def viewed(
    full: TableState,
    view: TableState,
    by: str,
    *,
    a: tuple[str, ...] | None = None,
    b: tuple[str, ...] | None = None,
    seconds: float = GAUGE_SECONDS,
    what_ifs: bool = True,
) -> dict[str, Any]:
    """The gauge participant ``by`` is shown (``what_ifs``: as :func:`gauge`): ``full``
    is the table, ``view`` the table as they may know it (:meth:`TableService.view`).
    Not shown to them (:func:`shown_to`): why, and nothing else. Shown: computed from
    ``view`` alone, with what-ifs only for a character of theirs (a referee's: for
    whoever acts now). A side naming a character not in ``view`` is refused
    (:class:`AnalysisError`), naming those who are."""
    viewer = full.viewer(by)
    seated(view, a, b)
    fighters = (*a, *b) if a and b else in_conflict(view)
    reason = shown_to(full, viewer, fighters)
    if reason is not None:
        return hidden(reason)
    mine = None if viewer.sees_all else frozenset(c for c, o in view.owners.items() if o == by)
    return gauge(view, a=a, b=b, mine=mine, seconds=seconds, what_ifs=what_ifs)


def seated(view: TableState, a: tuple[str, ...] | None, b: tuple[str, ...] | None) -> None:
    """Refuse a side naming a character not in ``view`` (:class:`AnalysisError`), naming
    those who are."""
    for side, ids in (("a", a), ("b", b)):
        for cid in ids or ():
            if cid not in view.state.characters:
                known = ", ".join(view.state.characters) or "nobody"
                raise AnalysisError(f"side {side}: no character {cid!r} here (seated: {known})")


def gauge(
    ts: TableState,
    *,
    a: tuple[str, ...] | None = None,
    b: tuple[str, ...] | None = None,
    mine: frozenset[str] | None = None,
    seconds: float = GAUGE_SECONDS,
    what_ifs: bool = True,
) -> dict[str, Any]:
    """The gauge of the fight at ``ts`` (see the module text) as JSON: the characters in
    the fight in progress (``fighters``: ids and names, whom a side may name), the sides
    (ids and names), each side's chance, how it was found, who acts now and the what-ifs for
    them. ``a`` / ``b`` name the sides (default: :func:`sides_of`); ``mine`` limits the
    what-ifs to these characters (``None``: whoever acts now may be asked about).
    ``what_ifs`` false: the figures without the what-ifs, which cost a chain each, with
    ``what_if_pending`` true where there would be some (the push sends these figures
    first, then the whole gauge). A fight the rules cannot study says why under
    ``error`` instead of failing."""
    names = {c: seat.sheet.name or c for c, seat in ts.state.characters.items()}
    out: dict[str, Any] = {"shown": True, "game": ts.game}
    try:
        # who may be put on a side (the page's side picker): the fight in progress
        fighters = in_conflict(ts)
        out["fighters"] = [{"id": c, "name": names.get(c, c)} for c in fighters]
        if a is None or b is None:
            side_a, side_b, how = sides_of(ts, fighters)
            a, b = a or side_a, b or side_b
        else:
            how = "as asked"
        out["sides"] = {
            "how": how,
            "a": {"ids": list(a), "names": " + ".join(names.get(c, c) for c in a)},
            "b": {"ids": list(b), "names": " + ".join(names.get(c, c) for c in b)},
        }
        model = fight_model(ts, a, b, {})
        found = chances(ts, a, b, seconds=seconds)
        out.update(found)
        state, memo = model.start()
        out["decided"] = model.verdict(state, memo)
        now = acting_now(ts, model)
        out["now"] = None if now is None else {"id": now, "name": names.get(now, now)}
        asked = () if now is None or (mine is not None and now not in mine) else (now,)
        if not what_ifs:
            out["what_if"] = []
            if asked:
                out["what_if_pending"] = True
            return out
        out["what_if"] = [w for cid in asked for w in _what_ifs(ts, model, cid, seconds, found)]
    except RulesError as e:  # an analysis error, a refused model, a step too costly
        out["error"] = str(e)
    except ImportError as e:  # a fight to simulate, on a server without numpy
        out["error"] = f"{MISSING} ({e.name or e} is missing)"
    return out


def _what_ifs(
    ts: TableState, model: ConflictModel, cid: str, seconds: float, usual_found: dict[str, Any]
) -> list[dict[str, Any]]:
    """``cid``'s side's chance for each way the model knows to fight, from now on. The way
    the analysis plays them already is the fight just solved (``usual_found``): the same
    model, so the same answer, not solved again."""
    side = model.side_of(cid)
    a, b = model.side_a, model.side_b
    usual = model.policy(cid)
    out: list[dict[str, Any]] = []
    for policy in model.POLICIES:
        row: dict[str, Any] = {"id": cid, "side": side, "policy": policy, "usual": policy == usual}
        row["words"] = model.POLICY_WORDS.get(policy, policy)
        try:
            found = (
                usual_found
                if policy == usual
                else chances(ts, a, b, {cid: policy}, seconds=seconds)
            )
            row.update(method=found["method"], p=found["p"][side])
        except RulesError as e:
            row["error"] = str(e)
        out.append(row)
    return out


def hidden(reason: str) -> dict[str, Any]:
    """A gauge not shown, and why (:func:`shown_to`)."""
    return {"shown": False, "why": reason}


def _percent(p: Mapping[str, Any], method: str) -> str:
    """A side's chance in words: exact, or simulated with its interval."""
    shown = f"{float(p['value']):.1%}"
    if method == "exact":
        return f"{shown} (exactly {p['exact']})"
    return f"{shown} ({float(p['low']):.1%} to {float(p['high']):.1%})"


def text(g: Mapping[str, Any]) -> str:
    """The gauge as lines for people (the command line's ``referee table gauge``)."""
    if not g.get("shown", True):
        why = str(g["why"])
        return f"{why[:1].upper()}{why[1:]}"
    if g.get("error"):
        return str(g["error"])
    sides, method = g["sides"], g["method"]
    lines = [f"{sides[s]['names']}: {_percent(g['p'][s], method)}" for s in ("a", "b")]
    how = (
        f"exact, the whole fight's chain from now ({g['states']:,} states)"
        if method == "exact"
        else f"simulated, {g['runs']:,} fights from now ({g['why']})"
    )
    lines.append(f"{how}; {sides['how']}")
    if g.get("decided"):
        lines.append(f"The fight is over: {sides[g['decided']]['names']} won.")
    now = g.get("now")
    for w in g.get("what_if") or ():
        chance = w.get("error") or _percent(w["p"], w["method"])
        usual = " (as the analysis plays them)" if w["usual"] else ""
        lines.append(f"  if {now['name'] if now else w['id']} {w['words']}{usual}: {chance}")
    return "\n".join(lines)
