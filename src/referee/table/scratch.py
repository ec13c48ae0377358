"""A throwaway place to play: a scratch table for a scripted session.

:class:`Scratch` is a live table (:class:`~referee.table.service.TableService`) on a
temporary SQLite file, removed when closed: a script's characters are seated on it,
its actions resolved and logged as at any table, and ``undo`` is the table's own (the
log keeps what was undone). :class:`Words` says how a game's session commands are
spelled (``attack vooruk giazza Rend defend faces=6,1``), so a command line can offer
them without knowing the rules.
"""

from __future__ import annotations

import shlex
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.errors import RulesError

if TYPE_CHECKING:
    from referee.systems.base import JSONObject, JSONValue
    from referee.table.events import Event
    from referee.table.service import TableService
    from referee.table.state import TableState

MAX_ACTIONS = 10_000
"""The most actions a script may hold."""

Step = tuple[str | None, dict[str, Any], list[int] | None]
"""An action's name (``None``: undo), its fields and the faces rolled at the table."""


@dataclass(frozen=True)
class Words:
    """How a game's session commands and script items are spelled: other names for
    actions (``spend`` -> ``spend-resolve``) and fields (``who`` -> ``actor``), the
    fields bare words fill in turn (else the action's own order; a bare word naming a
    yes/no field sets it), and readers of a field's text (an Expertise's spelling)."""

    names: Mapping[str, str] = field(default_factory=dict)
    keys: Mapping[str, str] = field(default_factory=dict)
    order: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    read: Mapping[str, Callable[[str], Any]] = field(default_factory=dict)
    opening: tuple[str, str] = ("", "")
    """The action a script's table starts with (a conflict's start), unless the script
    sets the state's field it would set (the order, naming each character once)."""


class Scratch:
    """A throwaway table for one game, played by the system (no participant's limits):
    :meth:`seat` a script's characters, :meth:`begin` where undo stops, then
    :meth:`play` its steps; :meth:`script` gives them back with every face rolled."""

    @classmethod
    def of_script(
        cls, game: str, data: Any, seed: int | None, options: Any = None, live: bool = False
    ) -> Scratch:
        """A table for the script ``data``: its options (or ``options``) and ``seed`` (else
        the script's; else 0, so a replay is the same every time, or for a ``live``
        session the secure generator)."""
        if not isinstance(data, Mapping):
            raise RulesError("a script is a JSON object")
        seed = data.get("seed", None if live else 0) if seed is None else seed
        table = cls(game, options or data.get("options"), seed)
        table.data = data
        return table

    def __enter__(self) -> Scratch:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def __init__(self, game: str, options: JSONValue = None, seed: int | None = None) -> None:
        from referee.table.service import TableService
        from referee.table.store import Store

        self.root = Path(tempfile.mkdtemp(prefix="referee-scratch-"))
        self.service: TableService = TableService(Store(f"sqlite:///{self.root / 't.db'}"))
        made = self.service.create(game, "scratch", "referee", options=options, seed=seed)
        self.ref_id, self.start = made.table.id, made.table.seq
        self.begun: JSONObject = {}
        self.data: Any = {}

    @property
    def table(self) -> TableState:
        """The table now (the whole truth)."""
        return self.service.load(self.ref_id)

    def dump(self) -> JSONObject:
        """The game's state now, as JSON."""
        table = self.table
        data: JSONObject = table.ruleset.dump_state(table.state)
        return data

    def close(self) -> None:
        """Remove the table and its file."""
        self.service.store.close()
        shutil.rmtree(self.root, ignore_errors=True)

    def seat(self, data: Any) -> None:
        """Seat ``{"fighters": [{"example": NAME} | {"id", "sheet"}]}`` (or
        ``{"characters": [...]}``), or a whole table state as a saved script holds it
        (``{"state": ...}``: each character seated, then every value that differs)."""
        if "state" in data:
            wanted = data["state"]
            if not isinstance(wanted, Mapping) or not isinstance(wanted.get("characters"), dict):
                raise RulesError("'state' must be a table state (with its 'characters')")
            for cid, seated in wanted["characters"].items():
                self._add(seated.get("sheet") if isinstance(seated, Mapping) else None, cid, cid)
            have = self.dump()
            self.edit({k: v for k, v in wanted.items() if k != "characters"}, have)
            for cid, seated in wanted["characters"].items():
                self.edit({k: v for k, v in seated.items() if k != "sheet"}, have, cid)
            return
        listed = data.get("fighters", data.get("characters"))
        if not isinstance(listed, list) or not listed:
            raise RulesError("'fighters' must be a non-empty list")
        for i, item in enumerate(listed):
            if not isinstance(item, Mapping) or not ({"example", "sheet"} & set(item)):
                raise RulesError(f"fighters[{i}] must be an object with 'example' or 'sheet'")
            self._add(item.get("sheet", item.get("example")), item.get("id"), f"fighters[{i}]")
        have = self.dump()  # the script's own values of the table (a conflict's order, hours)
        self.edit({k: v for k, v in data.items() if k in have and k != "characters"}, have)

    def _add(self, sheet: Any, cid: Any, where: str) -> None:
        if sheet is None:
            raise RulesError(f"{where}: no sheet")
        if cid is not None and str(cid) in self.table.state.characters:
            raise RulesError(f"{where}: the id {cid!r} is taken; give each an 'id'")
        try:
            self.service.add_character(
                self.ref_id, sheet, cid=None if cid is None else str(cid), force=True
            )
        except RulesError as e:
            raise RulesError(f"{where}: {e}") from None

    def edit(self, values: Mapping[str, Any], have: Mapping[str, Any], cid: str = "") -> None:
        """Set the table's (or character ``cid``'s) values that differ from ``have``."""
        now = have["characters"][cid] if cid else have
        changes: list[JSONValue] = [
            {"target": cid or "table", "field": k, "value": v}
            for k, v in values.items()
            if now.get(k) != v
        ]
        if changes:
            self.service.edit(self.ref_id, changes, "the script's starting table")

    def begin(self) -> None:
        """The script's table is set: undo stops here, and :meth:`script` starts here."""
        self.start, self.begun = self.table.seq, self.dump()

    def steps(self) -> list[Event]:
        """The actions played since :meth:`begin` and not undone, in order."""
        undone = self.table.undone
        events = self.service.store.events(self.ref_id, after=self.start)
        return [e for e in events if e.kind == "action-resolved" and e.seq not in undone]

    def play(self, name: str | None, data: Mapping[str, Any], faces: list[int] | None) -> str:
        """Resolve one action (``None``: undo the last one): its outcome's label."""
        if name is None:
            live = self.steps()
            if not live:
                raise RulesError("nothing to undo")
            self.service.undo(self.ref_id, live[-1].seq)
            return "undone"
        done = self.service.act(self.ref_id, None, name, dict(data), faces=faces)
        if done.event.kind != "action-resolved":
            raise RulesError(str(done.event.payload.get("error") or done.event.kind))
        outcome: Any = done.event.payload["outcome"]
        return str(outcome.get("label") or name)

    def run(self, words: Words, lines: Iterable[str], help: str) -> Iterator[str]:
        """Set the script's table (:meth:`seat`, then its opening unless it sets the state
        itself), play its actions, then answer ``lines`` (:meth:`session`)."""
        self.seat(self.data)
        action, sets = words.opening
        if action and "state" not in self.data:
            seated = sorted(self.table.state.characters)
            given = self.data.get(sets)
            if given is not None and sorted(map(str, given or ())) != seated:
                raise RulesError(f"{sets!r} must list every character once: {', '.join(seated)}")
            if not given:
                self.play(action, {}, None)
        self.begin()
        self.replay(self.data.get("actions", []), words)
        yield from self.session(lines, words, help)

    def log(self) -> list[str]:
        """The label of each action played since :meth:`begin` and not undone."""
        return [str(e.payload["outcome"]["label"]) for e in self.steps()]  # type: ignore[index,call-overload]

    def session(self, lines: Iterable[str], words: Words, help: str) -> Iterator[str]:
        """Answer typed commands (:meth:`command`) until ``quit`` or ``exit``: each
        action's label, ``undone``, ``help`` for an empty line or ``help``, or the error."""
        for line in lines:
            if line.strip() in ("quit", "exit"):
                return
            try:
                yield (
                    help if line.strip() in ("", "help") else self.play(*self.command(line, words))
                )
            except RulesError as e:
                yield f"error: {e}"

    def replay(self, actions: Any, words: Words) -> None:
        """Play a script's ``actions``; an error names the failing one (``actions[3]``)."""
        if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
            raise RulesError(f"'actions' must be a list of at most {MAX_ACTIONS}")
        for i, item in enumerate(actions):
            try:
                self.play(*self.item(item, words))
            except RulesError as e:
                raise RulesError(f"actions[{i}]: {e}") from None

    def item(self, item: Any, words: Words) -> Step:
        """A script's action: ``{"type": NAME, field: value..., "faces": [..]}``."""
        if not isinstance(item, Mapping) or "type" not in item:
            raise RulesError("an action is an object with a 'type'")
        data = {words.keys.get(str(k), str(k)): v for k, v in item.items()}
        name, faces = self._name(str(data.pop("type"))), data.pop("faces", None)
        for key, read in words.read.items():
            if isinstance(data.get(key), str):
                data[key] = read(data[key])
        if faces is not None and not (
            isinstance(faces, list) and all(isinstance(f, int) for f in faces)
        ):
            raise RulesError("'faces' must be a list of whole numbers")
        return name, data, faces

    def _name(self, said: str, words: Words | None = None, command: bool = False) -> str | None:
        kind = said.strip().lower().replace("_", "-")
        kind = (words.names if words else {}).get(kind, kind)
        actions = self.table.ruleset.actions()
        if kind == "undo" or kind in actions:
            return None if kind == "undo" else kind
        if command:
            raise RulesError(f"unknown command {said!r}; type help")
        raise RulesError(f"unknown action {kind!r}; known: undo, {', '.join(actions)}")

    def command(self, line: str, words: Words) -> Step:
        """A typed command: ``NAME [WORD...] [key=value...] [faces=6,3,1]`` (bare words
        fill the fields :class:`Words` orders, or name a yes/no field to set)."""
        from referee.dice.roller import parse_faces
        from referee.systems.base import data_from_pairs

        said = shlex.split(line)
        if not said:
            raise RulesError("empty command")
        name = self._name(said[0], words, command=True)
        if name is None:
            return None, {}, None
        kind = self.table.ruleset.action_type(name)
        known = [f.name for f in fields(kind)]
        flags = {f.name for f in fields(kind) if f.type in ("bool", bool)}
        order = [k for k in words.order.get(name, known) if k not in flags]
        pairs, faces = [], None
        for word in said[1:]:
            key, eq, value = word.partition("=")
            key = words.keys.get(key, key)
            if not eq and word in flags:
                key, value = word, "true"
            elif not eq and order:
                key, value = order.pop(0), word
            elif not eq or key not in (*known, "faces"):
                shown = ", ".join(f"{k}=" for k in (*words.keys, *known) if k not in flags)
                raise RulesError(f"{said[0]}: unexpected {word!r} (known: {shown})")
            if key == "faces":
                faces = list(parse_faces(value))
            else:
                pairs.append(f"{key}={words.read[key](value) if key in words.read else value}")
        data = data_from_pairs(kind, pairs)
        return self.item({"type": name, **data, **({"faces": faces} if faces else {})}, words)

    def script(self) -> JSONObject:
        """The session as a script that replays it exactly: the starting table, the
        options, and each action with every face it rolled."""
        actions: list[JSONValue] = []
        for e in self.steps():
            payload: Any = e.payload
            faces = [f for r in e.rolls for f in r.get("faces", [])]  # type: ignore[union-attr]
            actions.append({"type": payload["action"], **payload["fields"], "faces": faces})
        table = self.table
        options = table.ruleset.dump_options(table.options)
        return {"state": self.begun, "options": options, "actions": actions}
