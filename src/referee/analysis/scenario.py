"""A conflict from plain inputs (what the command line, a sweep cell or the web gives):
the game, who sits at the table, the two sides, policies, model parameters, house
rules and overrides of sheet values. Everything is JSON-ready, so a sweep ships a
scenario to a Dask worker and the worker rebuilds the model with the game's rules.
"""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from referee.errors import RulesError
from referee.systems.base import Conflict, Ruleset, get, load_record, names

from .errors import AnalysisError
from .model import ConflictModel


def _conflict(game: str) -> tuple[str, Conflict]:
    """The game called ``game`` and its declared conflict (:attr:`Ruleset.conflict`);
    :class:`AnalysisError` naming the games the analysis knows."""
    key = game.strip().lower()
    studied = {n: c for n in names() if (c := get(n).conflict()) is not None}
    if key not in studied:
        raise AnalysisError(f"unknown game {game!r}; known: {', '.join(studied)}")
    return key, studied[key]


def model_type(game: str) -> type[ConflictModel]:
    """The conflict model the game declares (``"module:Class"``), imported here: the
    rules never import the analysis."""
    _, conflict = _conflict(game)
    module, _, name = conflict.model.partition(":")
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as e:
        raise AnalysisError(f"{game}: no conflict model {conflict.model!r} ({e})") from None
    if not (isinstance(found, type) and issubclass(found, ConflictModel)):
        raise AnalysisError(f"{game}: {conflict.model!r} is not a conflict model")
    return found


@dataclass
class Scenario:
    """A conflict's inputs (see the module text). ``seats`` maps an id to
    ``"example:NAME"`` or a sheet as JSON; ``overrides`` sets sheet values by dotted
    path (``{"vooruk": {"expertise.Rend": 4}}``)."""

    game: str
    seats: dict[str, Any] = field(default_factory=dict)
    a: tuple[str, ...] = ()
    b: tuple[str, ...] = ()
    policies: dict[str, str] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    overrides: dict[str, dict[str, Any]] = field(default_factory=dict)

    @staticmethod
    def default(game: str) -> Scenario:
        """The game's default conflict: its two example characters, one a side, under the
        house rules the game declares for it."""
        key, conflict = _conflict(game)
        seats = dict(conflict.seats)
        ids = tuple(seats)
        params, options = (copy.deepcopy(dict(x)) for x in (conflict.params, conflict.options))
        return Scenario(key, seats, ids[:1], ids[1:2], params=params, options=options)

    def data(self) -> dict[str, Any]:
        """The scenario as JSON."""
        return {
            "game": self.game,
            "seats": self.seats,
            "a": list(self.a),
            "b": list(self.b),
            "policies": self.policies,
            "params": self.params,
            "options": self.options,
            "overrides": self.overrides,
        }

    @staticmethod
    def load(data: Mapping[str, Any]) -> Scenario:
        """A scenario from :meth:`data`'s JSON."""
        known = {f.name for f in fields(Scenario)}
        extra = set(data) - known
        if extra:
            raise AnalysisError(f"unknown scenario keys: {', '.join(sorted(extra))}")
        return Scenario(
            str(data["game"]),
            dict(data.get("seats", {})),
            tuple(data.get("a", ())),
            tuple(data.get("b", ())),
            dict(data.get("policies", {})),
            dict(data.get("params", {})),
            dict(data.get("options", {})),
            {k: dict(v) for k, v in data.get("overrides", {}).items()},
        )

    def model(self) -> ConflictModel:
        """The conflict model, with the characters seated by the game's own rules."""
        ruleset = get(self.game)
        options = ruleset.load_options(self.options) if self.options else ruleset.options_type()
        state = ruleset.initial_state(options)
        for cid, spec in self.seats.items():
            sheet = _sheet(ruleset, cid, spec, self.overrides.get(cid, {}))
            state = ruleset.seat(state, cid, sheet, options)
        unknown = set(self.overrides) - set(self.seats)
        if unknown:
            raise AnalysisError(
                f"overrides for characters not seated: {', '.join(sorted(unknown))}"
            )
        kind = model_type(self.game)
        names = {f.name for f in fields(kind)}
        bad = [k for k in self.params if k not in names or k in BASE]
        if bad:
            extra = sorted(names - BASE)
            raise AnalysisError(
                f"unknown parameter(s) {', '.join(bad)} for {self.game}; known: {', '.join(extra)}"
            )
        return kind(
            ruleset,
            options,
            state,
            tuple(self.a),
            tuple(self.b),
            dict(self.policies),
            **self.params,
        )


BASE = {"ruleset", "options", "state", "side_a", "side_b", "policies", "exchangeable", "unit"}
BASE |= {"first"}
"""A conflict model's fields every game's has: set by the scenario, never a parameter."""


def model_policies(game: str) -> tuple[str, ...]:
    """The policies the game's conflict model knows (the first is its default)."""
    return tuple(model_type(game).POLICIES)


def policy_words(game: str) -> dict[str, str]:
    """Each policy of the game's conflict model in words (``POLICY_WORDS``)."""
    words = model_type(game).POLICY_WORDS
    return {p: words.get(p, p) for p in model_policies(game)}


def model_params(game: str) -> list[dict[str, Any]]:
    """The conflict model's plain parameters (a whole number or a word, each with its
    default: Mneme CE's ``until`` and ``difficulty``, ARM's ``threshold``...), which the
    page sets as ``m.NAME=VALUE``. Per-character maps (weapons, Life Roles) are left to
    their defaults."""
    out = []
    for f in fields(model_type(game)):
        if f.name in BASE or not isinstance(f.default, int | str):
            continue
        kind = "integer" if isinstance(f.default, int) else "text"
        out.append({"name": f.name, "default": f.default, "kind": kind})
    return out


def _sheet(
    ruleset: Ruleset[Any, Any, Any], cid: str, spec: Any, overrides: Mapping[str, Any]
) -> Any:
    if isinstance(spec, str) and spec.startswith("example:"):
        name = spec.split(":", 1)[1]
        examples = ruleset.examples()
        if name not in examples:
            known = ", ".join(examples)
            raise AnalysisError(f"{cid}: no example {name!r} in {ruleset.name}; known: {known}")
        sheet = examples[name]
    elif isinstance(spec, Mapping):
        sheet = ruleset.load_sheet(dict(spec))
    else:
        raise AnalysisError(f"{cid}: a seat is 'example:NAME' or a sheet as JSON, not {spec!r}")
    if not overrides:
        return sheet
    data = json.loads(json.dumps(ruleset.dump_sheet(sheet)))
    for path, value in overrides.items():
        _set(data, path, value, cid)
    try:
        return load_record(ruleset.sheet_type, data, rule=f"{cid}'s sheet")
    except RulesError as e:
        raise AnalysisError(f"{cid}: the override does not give a valid sheet: {e}") from None


def _set(data: dict[str, Any], path: str, value: Any, cid: str) -> None:
    """Set ``value`` at a dotted ``path`` of sheet JSON (a number picks a list item)."""
    keys = [k for k in path.split(".") if k]
    if not keys:
        raise AnalysisError(f"{cid}: an empty override path")
    node: Any = data
    for k in keys[:-1]:
        node = _step(node, k, path, cid)
    last = keys[-1]
    if isinstance(node, list) and last.isdigit() and int(last) < len(node):
        node[int(last)] = value
    elif isinstance(node, dict):
        node[last] = value
    else:
        raise AnalysisError(f"{cid}: the sheet has no {path!r}")


def _step(node: Any, key: str, path: str, cid: str) -> Any:
    if isinstance(node, dict) and key in node:
        return node[key]
    if isinstance(node, list) and key.isdigit() and int(key) < len(node):
        return node[int(key)]
    raise AnalysisError(f"{cid}: the sheet has no {path!r}")
