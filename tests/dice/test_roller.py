"""Rollers: reproducible, scripted, hand-entered and system faces, all recorded."""

from __future__ import annotations

import pytest

from referee.dice.evaluate import check_faces
from referee.dice.roller import (
    ManualRoller,
    RollRecord,
    ScriptedRoller,
    SeededRoller,
    SystemRoller,
    is_manual,
    parse_faces,
    roller_for,
)
from referee.errors import DiceError


def test_seeded_roller_is_reproducible_and_records_its_seed() -> None:
    a, b = SeededRoller(42), SeededRoller(42)
    assert [a.roll(3, 6) for _ in range(5)] == [b.roll(3, 6) for _ in range(5)]
    assert all(r.seed == 42 and r.kind == "seeded" and r.sides == 6 for r in a.records)
    assert len(a.records) == 5


def test_seeded_rollers_do_not_share_state() -> None:
    a = SeededRoller(1)
    first = a.roll(10, 20)
    SeededRoller(1).roll(50, 20)  # another table rolling must not disturb this one
    b = SeededRoller(1)
    assert b.roll(10, 20) == first


def test_scripted_roller_hands_out_faces_in_order() -> None:
    r = ScriptedRoller([6, 3, 1, 1, 5])
    assert r.roll(4, 6) == (6, 3, 1, 1)
    assert r.remaining == (5,)
    assert r.roll(1, 6) == (5,)
    r.assert_exhausted()
    assert r.records == (
        RollRecord((6, 3, 1, 1), 6, "scripted", None),
        RollRecord((5,), 6, "scripted", None),
    )


def test_scripted_roller_fails_loudly_when_the_script_runs_out() -> None:
    r = ScriptedRoller([4])
    with pytest.raises(DiceError, match="ran out: 2 dice of d6 needed, 1 left"):
        r.roll(2, 6)


def test_scripted_roller_rejects_an_impossible_face() -> None:
    r = ScriptedRoller([3, 7])
    with pytest.raises(DiceError, match=r"face 7 .entry 2. is impossible on a d6"):
        r.roll(2, 6)


def test_unused_script_is_reported() -> None:
    r = ScriptedRoller([1, 2])
    r.roll(1, 6)
    with pytest.raises(DiceError, match="1 scripted face"):
        r.assert_exhausted()


def test_manual_roller_is_marked_as_entered_by_hand() -> None:
    r = ManualRoller([2, 5])
    assert r.roll(2, 6) == (2, 5)
    assert is_manual(r) and r.records[0].kind == "manual"
    assert not is_manual(ScriptedRoller([1]))


def test_system_roller_faces_lie_on_the_die() -> None:
    r = SystemRoller()
    faces = r.roll(500, 12)
    assert len(faces) == 500 and set(faces) <= set(range(1, 13))
    assert r.records[0].kind == "system" and r.records[0].seed is None


@pytest.mark.parametrize(("n", "sides"), [(-1, 6), (2, 0), (1, 10_001)])
def test_bad_requests_are_clear_errors(n: int, sides: int) -> None:
    with pytest.raises(DiceError):
        SeededRoller(0).roll(n, sides)


def test_parse_faces() -> None:
    assert parse_faces("6,3,1,1") == (6, 3, 1, 1)
    assert parse_faces(" 6 3, 1 ") == (6, 3, 1)
    with pytest.raises(DiceError, match=r"face 2 .'x'. is not a whole number"):
        parse_faces("1,x")
    with pytest.raises(DiceError, match="no faces"):
        parse_faces(" , ")


def test_roller_for_prefers_hand_entered_faces_then_a_seed() -> None:
    assert roller_for([1], seed=3).kind == "manual"
    assert roller_for(None, seed=3).kind == "seeded"
    assert roller_for().kind == "system"


@pytest.mark.parametrize("bad", [2.0, 2.5, True, "3"])
def test_scripted_and_hand_faces_must_be_whole_numbers(bad: object) -> None:
    # 1 <= 2.5 <= 6 held, so a fractional or boolean face passed as a d6
    with pytest.raises(DiceError, match="impossible on a d6"):
        ScriptedRoller([bad]).roll(1, 6)  # type: ignore[list-item]
    with pytest.raises(DiceError, match="impossible on a d6"):
        check_faces("d6", [bad])  # type: ignore[list-item]


def test_one_call_cannot_ask_for_unbounded_dice() -> None:
    with pytest.raises(DiceError, match="at most 100000"):
        SeededRoller(0).roll(10**9, 6)
