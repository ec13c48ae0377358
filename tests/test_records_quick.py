"""The quick reader and writer of records (``referee.systems.records``) against the full
path they stand in for: for every record type of every game (actions, the records they
hold, sheets, options), any JSON-like data gives the same record, or the same error with
the same words, and every record is written as pydantic writes it."""

from __future__ import annotations

import dataclasses
import json
import math
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.systems import records
from referee.systems.base import get, names
from referee.systems.records import _hints, dump_record, load_record


def _types() -> list[type]:
    found: list[type] = []

    def add(cls: Any) -> None:
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)) or cls in found:
            return
        found.append(cls)
        try:
            hints = _hints(cls)
        except Exception:
            return
        for f in dataclasses.fields(cls):
            for sub in _inner(hints.get(f.name)):
                add(sub)

    for game in names():
        rules = get(game)
        for kind in rules.every_action().values():
            add(kind)
        add(rules.options_type)
        add(rules.sheet_type)
    return found


def _inner(hint: Any) -> Iterator[Any]:
    yield hint
    for arg in typing.get_args(hint):
        yield from _inner(arg)


TYPES = _types()

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(st.characters(codec=None, exclude_categories=()), max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def _value(hint: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    """Data shaped like ``hint``, often right, sometimes wrong in one place."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    odd = JSON if depth < 3 else st.none()
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and depth < 3:
        return _data(hint, depth + 1) | odd
    if origin is typing.Literal:
        return st.sampled_from(args) | odd
    if origin in (typing.Union, __import__("types").UnionType):
        return st.one_of([_value(a, depth) for a in args])
    if origin is tuple and depth < 3:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(_value(args[0], depth + 1), max_size=3) | odd
        return st.tuples(*[_value(a, depth + 1) for a in args]).map(list) | odd
    if hint is int:
        return st.integers(-20, 70) | st.integers() | odd
    if hint is str:
        return st.text(max_size=6) | st.sampled_from(["Good", "a", "Ron", ""]) | odd
    if hint is bool:
        return st.booleans() | odd
    if hint is float:
        return st.floats() | st.integers(-5, 5) | odd
    return odd


def _data(cls: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    hints = _hints(cls)
    shape = {f.name: _value(hints[f.name], depth) for f in dataclasses.fields(cls)}
    return st.fixed_dictionaries(
        {}, optional={**shape, "schema": st.integers(0, 3), "extra": JSON}
    ) | st.fixed_dictionaries(shape)


def _full(cls: type, data: Any) -> tuple[str, Any]:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(records, "_quick_reader", lambda _cls: None)
        return _outcome(cls, data)


def _outcome(cls: type, data: Any) -> tuple[str, Any]:
    try:
        return "record", load_record(cls, data, rule="test")
    except Exception as e:
        return type(e).__name__, str(e)


def _written(record: Any) -> Any:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(records, "_quick_dumper", lambda _cls: None)
        return dump_record(record)


def test_the_quick_path_reads_most_records() -> None:
    """Every action of every game is read by the quick path (else it saves nothing)."""
    for game in names():
        for name, kind in get(game).every_action().items():
            assert records._quick_reader(kind) is not None, (game, name)


@pytest.mark.parametrize("cls", TYPES, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
@given(data=st.data())
def test_quick_and_full_paths_agree(cls: type, data: st.DataObject) -> None:
    given_data = data.draw(_data(cls) | JSON)
    full = _full(cls, given_data)
    quick = _outcome(cls, given_data)
    assert quick == full
    if full[0] == "record":
        written = dump_record(full[1])
        pydantic_written = _written(full[1])
        assert written == pydantic_written
        assert json.dumps(written) == json.dumps(pydantic_written)


def test_examples_quick_and_full() -> None:
    """A few hand-picked edges: a bool for a number, a float for a number, a lone
    surrogate, a number out of bounds, an unknown key, a big number, NaN."""
    kind = get("mnemonic").action_type("check")
    for data in (
        {"aptitude": 5},
        {"aptitude": 5, "chances": "Good"},
        {"aptitude": True},
        {"aptitude": 5.0},
        {"aptitude": 5, "chances": "\ud800"},
        {"aptitude": 13},
        {"aptitude": 5, "bogus": 1},
        {"aptitude": 2**80},
        {"aptitude": 5, "chances": math.nan},
        {},
        [],
    ):
        full = _full(kind, data)
        assert _outcome(kind, data) == full, data
