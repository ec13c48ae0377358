"""Non-interference (issue 32, principle 10): for every participant P, all that P receives
is the same for two tables that differ only in what P may not see.

Every action of every game is taken hidden - the referee's secret roll, a player's
blind roll, a player's private roll - once with every die showing its lowest face and
once its highest (the faces that fail and the faces that succeed), each at a table of
its own that is otherwise made the same way. Its roller takes it back and the referee
puts it back; then the table goes on in the open (a note, a dice-tray roll). For each
participant who may not see the hidden roll (the other player, an observer, and for a
secret roll the roller's own player), the two
tables must give the same bytes: the log, the table's state as they may know it, the
recap, the export, the page's log entries and live panels (what the live socket
sends), and the odds or refusal of each of their own actions.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from tests.web.test_every_action_fails_logged import OPENING, Constant, _fields_for

from referee.errors import RulesError
from referee.systems.base import get, names
from referee.table.audit import export
from referee.table.recap import recap
from referee.table.service import TableService, table_data
from referee.table.store import Store
from referee.web import create_app
from referee.web.pages import Participant, panels_data
from referee.web.render import Renderer
from referee.writers.recap import to_markdown

pytestmark = pytest.mark.slow  # minutes: `make check` leaves it to `make test`

SEATED = {
    "mnemonic": ("boxer", "frigate"),
    "mongrel": ("vooruk", "giazza"),
    "mneme": ("ada", "tess"),
    "arm": ("alex", "brad"),
}
SETTINGS = {"typed_dice": "everyone", "take_back": "always"}
HIDDEN = ("referee", "blind", "private")
"""Who may not see each: the referee's secret roll - both players and the observer; a
player's blind or private roll - the other player and the observer."""


def _fields(kind: type, ids: list[str]) -> dict[str, Any]:
    """The fields a form gives (the required ones and the actor)."""
    out = _fields_for(kind, ids, [])
    if "push" in out:
        out["push"] = "never"  # a blind roll decides before rolling (issue 32)
    return out


_CLOCK = re.compile(r"\d{4}-\d\d-\d\dT[\d:.+]+|\b\d\d:\d\d(?::\d\d)?\b")


def _normal(value: Any) -> Any:
    """What differs between any two tables, whatever they hold: times, ids, salts, hashes
    and the signature over them."""
    if isinstance(value, dict):
        skip = ("time", "hash", "prev_hash", "salt", "table", "signature", "exported")
        return {k: _normal(v) for k, v in value.items() if k not in skip}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    if isinstance(value, str) and value.startswith("t") and len(value) == 11:
        return "<table>"
    if isinstance(value, str):
        return _CLOCK.sub("<time>", value)
    return value


def _table(tmp: Path, game: str, tag: str) -> tuple[TableService, str, list[str]]:
    service = TableService(Store(f"sqlite:///{tmp / f'{tag}.db'}"))
    tid = service.create(game, "Twin", "Ron", seed=5, settings=SETTINGS).table.id
    for who, role in (("Ann", "player"), ("Bea", "player"), ("Obi", "observer")):
        service.join(tid, who, role)  # type: ignore[arg-type]
    for example, owner in zip(SEATED[game], ("Ann", "Bea"), strict=True):
        service.add_character(tid, example, owner=owner, force=True)
    for action, data in OPENING[game]:
        service.act(tid, "Ron", action, data)
    return service, tid, list(service.load(tid).state.characters)


_HTML = Renderer()
"""The page's log entries, as the page and the live socket send them."""


def _panels(service: TableService, tid: str, who: str) -> Any:
    """The page's live parts (cards, action panels, tracker, decisions, participants) as
    the socket pushes them to ``who`` after each event."""
    web = create_app(service, watch=False).state.web
    role = service.load(tid).participants[who]
    return panels_data(web, Participant(tid, who, role))


def _received(service: TableService, tid: str, who: str, probes: list[tuple[str, Any]]) -> str:
    """Everything ``who`` is given, as one text."""
    seen = service.view(tid, who)
    answers: list[Any] = []
    for name, data in probes:
        try:
            _chosen, dist, chance, _ = service.odds(tid, who, name, data)
            answers.append([name, str(chance), sorted(map(str, dist.items()))])
        except RulesError as e:
            answers.append([name, type(e).__name__, str(e)])
    full = service.load(tid)
    log = service.log(tid, who)
    got = {
        "log": log,
        "html": [_HTML.entry(e, undone=e.get("seq") in seen.undone) for e in log],
        "table": table_data(seen, seen.viewer(who)),
        "recap": to_markdown(recap(service.store.events(tid), full.viewer(who))),
        "export": export(service, tid, who),
        "odds": answers,
        "panels": _panels(service, tid, who),
    }
    return json.dumps(_normal(got), sort_keys=True, default=str)


def _play(
    tmp: Path, game: str, name: str, visibility: str, high: bool
) -> tuple[dict[str, str], str] | None:
    """One twin: the hidden action with every die low or high, then the open play; what
    each participant not entitled to it received (None: the action is refused)."""
    service, tid, ids = _table(tmp, game, f"{name}-{visibility}-{high}")
    rules = get(game)
    kind = rules.every_action()[name]
    data = _fields(kind, ids)
    by = "Ron" if visibility == "referee" or kind.referee_only else "Ann"
    if by == "Ron" and visibility != "referee":
        return None  # a player's blind or private roll: the referee's own is secret
    try:
        action = rules.load_action(name, data)
        ts = service.load(tid)
        roller = Constant(high)
        rules.resolve(action, ts.state, roller, ts.options)
    except RulesError:
        return None
    faces = [f for r in roller.records for f in r.faces]
    try:
        done = service.act(tid, by, name, data, visibility=visibility, faces=faces)  # type: ignore[arg-type]
    except RulesError:
        return None
    if done.event.kind == "action-resolved":  # its roller takes it back (and it comes back)
        service.undo(tid, done.event.seq, by=by)
        service.redo(tid, done.event.seq, by="Ron")
    service.note(tid, "Bea", "and then?")
    service.act(tid, "Ann", "roll", {"dice": "3d6"})
    probes = [
        (n, _fields(k, ids[::-1]))
        for n, k in rules.every_action().items()
        if not k.referee_only and "actor" in {f.name for f in fields(k)}  # type: ignore[arg-type]
    ][:12]
    outsiders = ["Bea", "Obi"] + (["Ann"] if visibility == "referee" else [])
    return {who: _received(service, tid, who, probes) for who in outsiders}, done.event.kind


CASES = [
    (game, name, visibility)
    for game in sorted(names())
    for name in get(game).every_action()
    for visibility in HIDDEN
]


@pytest.mark.parametrize(("game", "name", "visibility"), CASES)
def test_a_hidden_roll_reaches_who_may_not_see_it_as_the_same_bytes(
    tmp_path: Path, game: str, name: str, visibility: str
) -> None:
    low = _play(tmp_path, game, name, visibility, high=False)
    high = _play(tmp_path, game, name, visibility, high=True)
    if low is None or high is None:
        assert (low is None) == (high is None), "refused with one set of faces only"
        pytest.skip("the rules refuse this action here (with either faces)")
    for who in low[0]:
        assert low[0][who] == high[0][who], (who, low[1], high[1])
