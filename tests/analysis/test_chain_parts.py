"""The parts issue 38's exact-chain work made cheaper, each against the plain way it
replaced: the collector paused and given back, records replaced by position, a plain
damage expression drawn by its pools, cached damage odds."""

from __future__ import annotations

import gc
from dataclasses import dataclass, field, replace
from functools import cached_property

import pytest

from referee.analysis.collect import paused
from referee.dice.evaluate import roll as roll_expression
from referee.dice.notation import parse
from referee.dice.roller import SeededRoller
from referee.systems.mneme.damage import (
    DAMAGE,
    DamageProgram,
    DamageSpec,
    Target,
    plain_groups,
)
from referee.systems.mneme.options import Options
from referee.systems.state import replaced


def test_the_collector_is_paused_and_given_back_as_it_was() -> None:
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block leaves it as it found it
    assert gc.isenabled()
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()  # off before, off after
    finally:
        gc.enable()


@dataclass(frozen=True)
class _Plain:
    a: int
    b: str = "x"
    c: tuple[int, ...] = ()


@dataclass(frozen=True)
class _KeywordOnly:
    a: int
    b: int = field(default=0, kw_only=True)


@dataclass(frozen=True)
class _Derived:
    a: int
    twice: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "twice", 2 * self.a)


@dataclass(frozen=True)
class _Cached:
    a: int

    @cached_property
    def twice(self) -> int:
        return 2 * self.a


@pytest.mark.parametrize(
    ("record", "changes"),
    [
        (_Plain(1, "y", (2,)), {"b": "z"}),
        (_Plain(1), {"a": 5, "c": (1, 2)}),
        (_KeywordOnly(1, b=2), {"b": 3}),
        (_Derived(3), {"a": 4}),
    ],
)
def test_replaced_makes_what_dataclasses_replace_makes(
    record: object, changes: dict[str, object]
) -> None:
    made = replaced(record, **changes)
    assert made == replace(record, **changes)  # type: ignore[type-var]
    assert type(made) is type(record)


def test_a_record_copied_anew_keeps_no_value_cached_on_the_old_one() -> None:
    """A plain record is made by copying its fields (no ``__init__``); a value cached on
    the old one beside its fields (a ``cached_property``) must not come along stale."""
    fresh = _Cached(1)
    assert replaced(fresh, a=2).twice == 4  # the first seen: nothing cached yet
    old = _Cached(3)
    assert old.twice == 6  # now cached in its attributes
    made = replaced(old, a=5)
    assert made.twice == 10 and made == _Cached(5)
    assert replaced(_Plain(1, "y"), c=(3,)) == _Plain(1, "y", (3,))


def test_replaced_names_an_unknown_field() -> None:
    with pytest.raises(TypeError, match=r"_Plain has no field 'd'"):
        replaced(_Plain(1), d=2)


def test_only_plain_pools_are_drawn_by_their_pools() -> None:
    assert plain_groups(parse("2d6")) == ((2, 6),)
    assert plain_groups(parse("2d6+1d4-1")) == ((2, 6), (1, 4))
    assert plain_groups(parse("3d6kh2")) == ((3, 6),)
    assert plain_groups(parse("1d6!")) is None  # how many faces depends on the faces
    assert plain_groups(parse("4d6rr1")) is None


TEXTS = ["2d6", "1d10+2", "2d6+1d4-1", "3d6kh2", "2*1d8", "1d6!", "4d6rr1"]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("seed", [0, 1, 7, 42])
def test_a_damage_roll_draws_the_faces_and_total_of_rolling_its_expression(
    text: str, seed: int
) -> None:
    spec = DamageSpec(text)
    program = DamageProgram(spec, 3, 2, Target(armour=1), 0, Options(), DAMAGE)
    trace: list[tuple[int, ...]] = []
    result = program.sample(SeededRoller(seed), trace)
    roller = SeededRoller(seed)  # the same draws, made by the dice layer's roll
    rolled = [roll_expression(spec.expr, roller) for _ in range(3)]
    assert trace == [r.faces() for r in rolled]
    values = program.values([r.total for r in rolled])
    assert result == sum(sorted(values)[-2:])
    assert program.odds() == DAMAGE.exact(
        DamageProgram(spec, 1, 1, Target(armour=1), 0, Options(), DAMAGE).odds(), 3, 2
    )
