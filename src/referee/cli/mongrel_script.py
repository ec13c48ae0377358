"""Scripted and interactive Mongrel conflicts at the command line's edge.

A script is JSON: ``{"fighters": [{"example": "vooruk"} | {"id": "x", "sheet": {...}}],
"seed": 1, "options": {...}, "order": [...], "hours": 0, "actions": [{"type":
"attack", "actor": ..., "faces": [...]}, {"type": "undo"}, ...]}`` - or, as
:meth:`Session.to_script` saves it, ``{"state": <a table state>, "options": ...,
"actions": [...]}``. Every action is a Mongrel action by name (``referee mongrel
actions``) resolved through ``RULESET``; the older spellings (``spend_resolve``,
``who``, ``attacker``) are read too. An action's ``faces`` are dice rolled at the
table (checked like ``--faces``); otherwise the seeded roller rolls. Without an
``order`` the conflict starts by the rules (Beast, Man, Demon, coins for ties).

The session keeps the states it passed through, so ``undo`` steps back; the
table's own event log will take this over.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from referee.cli.common import all_faces_used
from referee.dice.roller import ManualRoller, Roller, SeededRoller, parse_faces
from referee.errors import InvalidSheet, RulesError
from referee.systems.base import Action, Outcome, data_from_pairs, slug
from referee.systems.mongrel import RULESET
from referee.systems.mongrel.actions import StartConflict
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.state import State
from referee.systems.mongrel.tables import canonical_expertise

MAX_ACTIONS = 10_000

_RENAMED = {"who": "actor", "attacker": "actor"}


@dataclass
class Session:
    """A conflict being played: the state now, how it started, and every step taken."""

    start: State
    options: Options
    roller: Roller
    steps: list[tuple[State, Action, Outcome]] = field(default_factory=list)

    @property
    def state(self) -> State:
        """The state after the last step."""
        if not self.steps:
            return self.start
        before, _, outcome = self.steps[-1]
        return RULESET.apply(before, outcome)

    @property
    def log(self) -> list[str]:
        """Each step's outcome label."""
        return [o.label for _, _, o in self.steps]

    def act(self, action: Action, faces: tuple[int, ...] | None = None) -> Outcome:
        """Resolve ``action`` (with hand-rolled ``faces``, all of which must be used)."""
        state = self.state
        if faces is None:
            outcome = RULESET.resolve(action, state, self.roller, self.options)
        else:
            manual = ManualRoller(faces)
            outcome = RULESET.resolve(action, state, manual, self.options)
            all_faces_used(manual)
        self.steps.append((state, action, outcome))
        return outcome

    def undo(self) -> None:
        """Step back over the last action."""
        if not self.steps:
            raise RulesError("nothing to undo")
        self.steps.pop()

    def to_script(self) -> dict[str, Any]:
        """The session as a script that replays it exactly (each action with its faces)."""
        actions = []
        for _, action, outcome in self.steps:
            item: dict[str, Any] = {"type": RULESET.action_name(action)}
            item |= RULESET.action_data(action)
            item["faces"] = [f for r in outcome.rolls for f in r.faces]
            actions.append(item)
        return {
            "state": RULESET.dump_state(self.start),
            "options": RULESET.dump_options(self.options),
            "actions": actions,
        }


def action_from(item: Any, where: str = "action") -> tuple[Action | None, tuple[int, ...] | None]:
    """An action (``None`` for undo) and its hand-entered faces, from a script's JSON."""
    if not isinstance(item, Mapping) or "type" not in item:
        raise RulesError(f"{where}: an action is an object with a 'type'")
    data: dict[str, Any] = {_RENAMED.get(str(k), str(k)): v for k, v in item.items()}
    kind = str(data.pop("type")).strip().lower().replace("_", "-")
    faces = data.pop("faces", None)
    if kind == "undo":
        return None, None
    if kind not in RULESET.actions():
        known = ", ".join(RULESET.actions())
        raise RulesError(f"{where}: unknown action {kind!r}; known: undo, {known}")
    if isinstance(data.get("expertise"), str):
        data["expertise"] = canonical_expertise(data["expertise"])
    try:
        action = RULESET.load_action(kind, data)
    except InvalidSheet as e:
        raise RulesError(f"{where}: {e}") from None
    if faces is None:
        return action, None
    if not isinstance(faces, list) or not all(isinstance(f, int) for f in faces):
        raise RulesError(f"{where}: 'faces' must be a list of whole numbers")
    return action, tuple(faces)


def _seated(data: Any, options: Options) -> State:
    """A new table with the script's fighters seated."""
    if not isinstance(data, list) or not data:
        raise RulesError("'fighters' must be a non-empty list")
    state = RULESET.initial_state(options)
    for i, item in enumerate(data):
        if not isinstance(item, Mapping):
            raise RulesError(f"fighters[{i}] must be an object")
        if "example" in item:
            sheet = RULESET.example(str(item["example"]))
        elif "sheet" in item:
            sheet = RULESET.load_sheet(item["sheet"])
        else:
            raise RulesError(f"fighters[{i}] needs 'example' or 'sheet'")
        cid = str(item.get("id") or slug(sheet.name))
        if cid in state.characters:
            raise RulesError(f"fighters[{i}]: the id {cid!r} is taken; give each an 'id'")
        state = RULESET.seat(state, cid, sheet, options)
    return state


def load_session(
    data: Any, seed: int | None = None, options_override: Options | None = None
) -> Session:
    """A session from a script, every action replayed; a :class:`RulesError` names the
    failing action."""
    if not isinstance(data, Mapping):
        raise RulesError("a conflict script is a JSON object")
    options = options_override or RULESET.load_options(data.get("options", {}))
    roller = SeededRoller(seed if seed is not None else int(data.get("seed", 0)))
    if "state" in data:
        start = RULESET.load_state(data["state"])
    else:
        start = _seated(data.get("fighters"), options)
        order = data.get("order")
        if order is None:
            outcome = RULESET.resolve(StartConflict(), start, roller, options)
            start = RULESET.apply(start, outcome)
        elif not isinstance(order, list) or sorted(map(str, order)) != sorted(start.characters):
            raise RulesError(f"'order' must list every fighter once: {', '.join(start.characters)}")
        else:
            start = replace(start, order=tuple(map(str, order)))
        hours = data.get("hours", 0)
        if not isinstance(hours, int) or hours < 0:
            raise RulesError("'hours' must be a whole number of hours, 0 or more")
        start = replace(start, hours=hours)
    session = Session(start, options, roller)
    actions = data.get("actions", [])
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise RulesError(f"'actions' must be a list of at most {MAX_ACTIONS}")
    for i, item in enumerate(actions):
        where = f"actions[{i}]"
        action, faces = action_from(item, where)
        try:
            if action is None:
                session.undo()
            else:
                session.act(action, faces)
        except RulesError as e:
            raise RulesError(f"{where}: {e}") from None
    return session


COMMANDS = """Commands (one per line; faces=6,3,1 gives dice rolled at the table):
  attack ATT TGT EXPERTISE [defend] [weapon=N] [armor=N] [shunt=N] [attribute=A]
         [difficulty=N] [power=P]
  task ID EXPERTISE [attribute=A | tn=N | target=ID] [mode=under|over] [difficulty=N] [power=P]
  occult ID [TARGET] [resolve=N] [resist] [range=M] [scale=M] [difficulty=M]
  advance ID | recover ID | wait ID | spend ID N | rest ID HOURS | vow ID
  survive ID | accept ID   (answer a terminal hit: spend 1 Infernal Resolve, or die)
  ACTION key=value ...     (any action: see `referee mongrel actions`)
  undo | help | quit"""

_ATTACK_KEYS = {
    "weapon": "weapon",
    "armor": "armor",
    "armour": "armor",
    "shunt": "shunt_to_beauty",
    "attribute": "attribute",
    "difficulty": "difficulty",
    "power": "power",
}
_TASK_KEYS = {
    "attribute": "attribute",
    "tn": "tn",
    "target": "target",
    "mode": "mode",
    "difficulty": "difficulty",
    "power": "power",
}
_TEXT = frozenset({"attribute", "power", "mode", "target"})
_NEED = {
    "attack": 3,
    "task": 2,
    "occult": 1,
    "advance": 1,
    "recover": 1,
    "wait": 1,
    "spend": 1,
    "rest": 1,
    "vow": 1,
    "survive": 1,
    "accept": 1,
}


def parse_command(line: str) -> tuple[Action | None, tuple[int, ...] | None]:
    """One interactive command (see :data:`COMMANDS`): ``(action or None for undo, faces)``."""
    words = shlex.split(line)
    if not words:
        raise RulesError("empty command")
    faces = None
    rest = []
    for w in words[1:]:
        if w.startswith("faces="):
            faces = parse_faces(w[6:])
        else:
            rest.append(w)
    kind = words[0].lower()
    if kind == "undo":
        return None, None
    if kind not in _NEED and kind in RULESET.actions():
        data = data_from_pairs(RULESET.action_type(kind), rest)
        action, _ = action_from({"type": kind, **data}, kind)
        return action, faces
    if kind not in _NEED:
        raise RulesError(f"unknown command {kind!r}; type help")
    if len(rest) < _NEED[kind]:
        raise RulesError(f"{kind} needs {_NEED[kind]} argument(s)")
    try:
        item = _item(kind, rest)
    except ValueError:
        raise RulesError(f"{kind}: numbers must be whole numbers") from None
    action, _ = action_from(item, kind)
    return action, faces


def _keywords(kind: str, words: list[str], keys: Mapping[str, str]) -> dict[str, Any]:
    """``key=value`` words as action fields (numbers for all but names)."""
    out: dict[str, Any] = {}
    for w in words:
        key, eq, value = w.partition("=")
        if not eq or key not in keys:
            raise RulesError(
                f"{kind}: unexpected {w!r} (known: {', '.join(f'{k}=' for k in keys)})"
            )
        name = keys[key]
        out[name] = value if name in _TEXT else int(value)
    return out


def _item(kind: str, rest: list[str]) -> dict[str, Any]:
    """A short command as a script item."""
    if kind == "attack":
        item: dict[str, Any] = {
            "type": "attack",
            "actor": rest[0],
            "target": rest[1],
            "expertise": rest[2],
            "defend": "defend" in rest[3:],
        }
        item |= _keywords(kind, [w for w in rest[3:] if w != "defend"], _ATTACK_KEYS)
        return item
    if kind == "task":
        return {"type": "task", "actor": rest[0], "expertise": rest[1]} | _keywords(
            kind, rest[2:], _TASK_KEYS
        )
    if kind == "occult":
        item = {"type": "occult", "actor": rest[0]}
        for w in rest[1:]:
            key, eq, value = w.partition("=")
            if w == "resist":
                item["resist"] = True
            elif eq and key in ("resolve", "range", "scale", "difficulty"):
                name = {"range": "range_modifier", "scale": "scale_modifier"}.get(key, key)
                item[name] = int(value)
            elif not eq and "target" not in item:
                item["target"] = w
            else:
                raise RulesError(
                    f"occult: unexpected {w!r} (TARGET, resolve=N, resist, range=M, scale=M)"
                )
        return item
    if kind == "spend":
        return {
            "type": "spend-resolve",
            "actor": rest[0],
            "points": int(rest[1]) if rest[1:] else 1,
        }
    if kind == "rest":
        return {"type": "rest", "actor": rest[0], "hours": int(rest[1]) if rest[1:] else 1}
    named = {"vow": "vow-refresh", "survive": "spend-resolve-to-survive", "accept": "accept-fate"}
    return {"type": named.get(kind, kind), "actor": rest[0]}


def fighter_rows(state: State) -> list[dict[str, Any]]:
    """Each seated character's numbers, as the ``conflict`` command shows them."""
    return [
        {
            "id": cid,
            "name": f.name,
            "ap": f.ap,
            "infernal_resolve": f.ir,
            "damage": f.damage,
            "physique": f.physique,
            "collapsed": f.collapsed,
            "terminal": f.terminal,
            "dead": f.dead,
            "rushed": f.rushed,
            "discombobulated": f.discombobulated,
            "condition": f.condition,
        }
        for cid, f in state.characters.items()
    ]
