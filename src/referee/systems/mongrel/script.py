"""Scripted conflicts: a JSON description of fighters and actions, replayed on a Conflict.

Format: ``{"fighters": [{"example": "vooruk"} | {"id": "x", "sheet": {...}}],
"seed": 1, "options": {...}, "actions": [{"type": "attack", "attacker": ...,
"faces": [...]}, {"type": "undo"}, ...]}``. An action's ``faces`` are dice
rolled at the table (checked like ``--faces``); otherwise the seeded roller
rolls. Every error names the action's index.

:func:`to_script` stores a conflict in the same format - the fighters as they
started (``{"fighter": {...}}``), the order, the clock and every action with
the faces it rolled - so loading it replays exactly the same conflict, with
its undo history.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

from referee.dice.roller import ManualRoller, Roller, SeededRoller
from referee.errors import InvalidSheet, RulesError
from referee.systems.base import dump_record, load_record

from .conflict import ACTIONS, Action, Conflict, Fighter
from .examples import example
from .options import Options
from .sheet import Sheet

MAX_ACTIONS = 10_000


def fighters_from(data: Any) -> list[Fighter]:
    """Fighters from the script's ``fighters`` list."""
    if not isinstance(data, list) or not data:
        raise RulesError("'fighters' must be a non-empty list")
    out = []
    for i, item in enumerate(data):
        if not isinstance(item, Mapping):
            raise RulesError(f"fighters[{i}] must be an object")
        fid = item.get("id")
        if "fighter" in item:
            out.append(load_record(Fighter, item["fighter"], rule="Mongrel fighter"))
            continue
        if "example" in item:
            sheet = example(str(item["example"]))
        elif "sheet" in item:
            sheet = load_record(Sheet, item["sheet"], rule="Mongrel sheet format")
        else:
            raise RulesError(f"fighters[{i}] needs 'example', 'sheet' or 'fighter'")
        out.append(Fighter.from_sheet(sheet, None if fid is None else str(fid)))
    return out


def action_from(item: Any, where: str = "action") -> tuple[Action | None, tuple[int, ...] | None]:
    """An action (``None`` for undo) and its hand-entered faces, from JSON."""
    if not isinstance(item, Mapping) or "type" not in item:
        raise RulesError(f"{where}: an action is an object with a 'type'")
    data = dict(item)
    kind = str(data.pop("type"))
    faces = data.pop("faces", None)
    if kind == "undo":
        return None, None
    if kind not in ACTIONS:
        raise RulesError(f"{where}: unknown action {kind!r}; known: undo, {', '.join(ACTIONS)}")
    try:
        action: Action = load_record(ACTIONS[kind], data, rule=f"Mongrel {kind}")
    except InvalidSheet as e:
        raise RulesError(f"{where}: {e}") from None
    if faces is not None:
        if not isinstance(faces, list) or not all(isinstance(f, int) for f in faces):
            raise RulesError(f"{where}: 'faces' must be a list of whole numbers")
        return action, tuple(faces)
    return action, None


def step(
    c: Conflict,
    action: Action | None,
    faces: tuple[int, ...] | None,
    roller: Roller,
    options: Options,
) -> Conflict:
    """Apply one action (or undo); hand-entered faces must all be used."""
    if action is None:
        return c.undo()
    if faces is None:
        return c.apply(action, roller, options)
    manual = ManualRoller(faces)
    out = c.apply(action, manual, options)
    manual.assert_exhausted()
    return out


def run_script(data: Any, seed: int | None = None) -> Conflict:
    """Replay a whole script; a :class:`RulesError` names the failing action."""
    if not isinstance(data, Mapping):
        raise RulesError("a conflict script is a JSON object")
    options = load_record(Options, data.get("options", {}), rule="Mongrel options")
    roller = SeededRoller(seed if seed is not None else int(data.get("seed", 0)))
    order = data.get("order")
    c = Conflict.start(fighters_from(data.get("fighters")), roller)
    if order is not None:
        if sorted(order) != sorted(c.order):
            raise RulesError(f"'order' must list every fighter once: {', '.join(c.order)}")
        c = Conflict(c.fighters, tuple(order))
    hours = data.get("hours", 0)
    if not isinstance(hours, int) or hours < 0:
        raise RulesError("'hours' must be a whole number of hours, 0 or more")
    c = Conflict(c.fighters, c.order, hours=hours)
    actions = data.get("actions", [])
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise RulesError(f"'actions' must be a list of at most {MAX_ACTIONS}")
    for i, item in enumerate(actions):
        where = f"actions[{i}]"
        action, faces = action_from(item, where)
        try:
            c = step(c, action, faces, roller, options)
        except RulesError as e:
            raise RulesError(f"{where}: {e}") from None
    return c


def to_script(c: Conflict, options: Options | None = None) -> dict[str, Any]:
    """A conflict as a script that replays it exactly (every action with its faces)."""
    root = c
    while root.previous is not None:
        root = root.previous
    kinds = {cls: name for name, cls in ACTIONS.items()}
    actions = []
    for entry in c.log[len(root.log) :]:
        item = {"type": kinds[type(entry.action)], **dump_record(entry.action)}
        item["faces"] = list(entry.faces)
        actions.append(item)
    out: dict[str, Any] = {
        "fighters": [{"fighter": dump_record(f)} for f in root.fighters],
        "order": list(root.order),
        "hours": root.hours,
        "actions": actions,
    }
    if options is not None:
        out["options"] = dump_record(options)
    return out


def parse_command(line: str) -> tuple[Action | None, tuple[int, ...] | None]:
    """One interactive command: ``attack vooruk giazza Rend [defend] [weapon=N]
    [armor=N] [shunt=N] [attribute=A] [difficulty=N] [power=P] [faces=1,2]``,
    ``task ID EXPERTISE [attribute=A | tn=N] [mode=under|over] [difficulty=N]
    [power=P] [faces=..]``,
    ``occult ID [TARGET] [resolve=N] [resist] [range=M] [scale=M] [faces=..]``,
    ``advance ID``, ``recover ID``, ``wait ID``, ``spend ID N``, ``rest ID H``,
    ``vow ID``, ``undo``."""
    words = shlex.split(line)
    if not words:
        raise RulesError("empty command")
    faces = None
    rest = []
    for w in words[1:]:
        if w.startswith("faces="):
            from referee.dice.roller import parse_faces

            faces = parse_faces(w[6:])
        else:
            rest.append(w)
    kind = words[0].lower()
    try:
        return _command(kind, rest, faces)
    except ValueError:
        raise RulesError(f"{kind}: numbers must be whole numbers") from None


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
    "mode": "mode",
    "difficulty": "difficulty",
    "power": "power",
}
_TEXT_FIELDS = frozenset({"attribute", "power", "mode"})


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
        out[name] = value if name in _TEXT_FIELDS else int(value)
    return out


def _command(
    kind: str, rest: list[str], faces: tuple[int, ...] | None
) -> tuple[Action | None, tuple[int, ...] | None]:
    need = {
        "attack": 3,
        "task": 2,
        "occult": 1,
        "advance": 1,
        "recover": 1,
        "wait": 1,
        "spend": 1,
        "rest": 1,
        "vow": 1,
    }
    if kind == "undo":
        return None, None
    if kind not in need:
        raise RulesError(f"unknown command {kind!r}; known: undo, {', '.join(need)}")
    if len(rest) < need[kind]:
        raise RulesError(f"{kind} needs {need[kind]} argument(s)")
    if kind == "attack":
        item: dict[str, Any] = {
            "type": "attack",
            "attacker": rest[0],
            "target": rest[1],
            "expertise": rest[2],
            "defend": "defend" in rest[3:],
        }
        words = [w for w in rest[3:] if w != "defend"]
        item.update(_keywords(kind, words, _ATTACK_KEYS))
    elif kind == "task":
        item = {"type": "task", "who": rest[0], "expertise": rest[1]}
        item.update(_keywords(kind, rest[2:], _TASK_KEYS))
    elif kind == "occult":
        item = {"type": "occult", "who": rest[0]}
        for w in rest[1:]:
            key, eq, value = w.partition("=")
            if w == "resist":
                item["resist"] = True
            elif eq and key in ("resolve", "range", "scale", "difficulty"):
                field = {"range": "range_modifier", "scale": "scale_modifier"}.get(key, key)
                item[field] = int(value)
            elif not eq and "target" not in item:
                item["target"] = w
            else:
                raise RulesError(
                    f"occult: unexpected {w!r} (TARGET, resolve=N, resist, range=M, scale=M)"
                )
    elif kind == "spend":
        item = {
            "type": "spend_resolve",
            "who": rest[0],
            "points": int(rest[1]) if len(rest) > 1 else 1,
        }
    elif kind == "rest":
        item = {"type": "rest", "who": rest[0], "hours": int(rest[1]) if len(rest) > 1 else 1}
    elif kind == "vow":
        item = {"type": "vow_refresh", "who": rest[0]}
    else:
        item = {"type": kind, "who": rest[0]}
    action, _ = action_from(item, kind)
    return action, faces
