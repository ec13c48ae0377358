"""Exact odds against readers of the rule written straight from the texts (Mneme CE).

Each ``read_*`` below is a few lines from the text - sort, keep, add, compare - that
imports nothing of the package's rules. Every face sequence is enumerated, read by it,
and the resulting distribution must equal what ``RULESET.odds`` reports. (The package's
own brute force, ``Plan.brute``, reads faces through the package's rule functions, so
it checks the odds machinery; these check the rule.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.odds import Distribution
from referee.dice.roller import ScriptedRoller, SeededRoller
from referee.systems.base import Modifier
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import (
    Attack,
    Check,
    CheckInputs,
    DamageRolls,
    InitiativePC,
    Mitigating,
    PassRounds,
    RollInitiative,
    TakeDamage,
    Threat,
)
from referee.systems.mneme.damage import Target
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.state import State, seated

OPT = Options()
EMPTY = State()


def enumerate_faces(dice: Sequence[int], read: Callable[[tuple[int, ...]], object]) -> Distribution:
    """The distribution of ``read`` over every equally likely face sequence of ``dice``
    (sides of each die, in rolling order)."""
    return Distribution(Counter(read(f) for f in product(*(range(1, s + 1) for s in dice))))


# ---------------------------------------------------------------------------
# the readers, from the texts


def read_check(faces: Sequence[int], modifier: int, difficulty: int, steps: int) -> int:
    """Ch. 2: roll 2d6 (Advantage: 3d6 keep the two highest; Disadvantage: the two
    lowest), add the modifiers; Effect = Dice Roll - Difficulty."""
    kept = sorted(faces)[-2:] if steps > 0 else sorted(faces)[:2] if steps < 0 else faces
    return sum(kept) + modifier - difficulty


def rolls_from_text(effect: int, rate: int | None, success: bool) -> tuple[int, int]:
    """Ch. 7: SE N gives N + 1 damage rolls (SE 1 -> two), FE N gives N; Effects exceeding
    a limited Rate of Attack make as many rolls, only the highest RoA counting; otherwise
    no more rolls than the RoA (SE 3, RoA 3 -> three)."""
    n = effect + 1 if success else effect
    if rate is None:
        return n, n
    if effect > rate:
        return n, rate
    return min(n, rate), min(n, rate)


def read_damage(rolls: Sequence[int], armour: int, keep: int, floor: int = 0) -> int:
    """Ch. 7: armour off each roll (never below 0; at Effect 6+ at least 1); the highest
    ``keep`` rolls count."""
    dealt = sorted((max(r - armour, floor) for r in rolls), reverse=True)
    return sum(dealt[:keep])


# ---------------------------------------------------------------------------
# checks


@pytest.mark.parametrize("steps", [-1, 0, 1])
@pytest.mark.parametrize(("modifier", "difficulty"), [(0, 8), (3, 9), (-2, 4), (1, 13)])
def test_check_odds_equal_the_texts_reader(steps: int, modifier: int, difficulty: int) -> None:
    adv, dis = max(steps, 0), max(-steps, 0)
    check = Check(difficulty, (Modifier(modifier, "m"),), adv, dis)
    dice = [6] * (2 + abs(steps))
    text = enumerate_faces(dice, lambda f: read_check(f, modifier, difficulty, steps))
    assert RULESET.odds(check, EMPTY, OPT) == text


def test_advantage_cancels_and_caps_at_one_net_step() -> None:
    """Ch. 2: Advantage and Disadvantage cancel one for one; the ruling: one net step."""
    text = enumerate_faces([6, 6, 6], lambda f: read_check(f, 0, 8, 1))
    assert RULESET.odds(Check(advantage=3, disadvantage=1), EMPTY, OPT) == text
    even = enumerate_faces([6, 6], lambda f: read_check(f, 0, 8, 0))
    assert RULESET.odds(Check(advantage=2, disadvantage=2), EMPTY, OPT) == even
    two = enumerate_faces([6] * 4, lambda f: read_check(f, 0, 8, 1))
    assert RULESET.odds(Check(advantage=2), EMPTY, Options(max_net_advantage=2)) == two


def test_check_with_a_sheet_equals_the_reader() -> None:
    """Competence = ChM (value // 3 - 2) + skill; -1 per full 3 damage (ch. 2, ch. 7)."""
    pc = Sheet(
        "Pat", {"Str": 7, "Dex": 12, "End": 8, "Int": 7, "Edu": 9, "Soc": 7}, {"Melee": 1}, 7
    )
    check = Check(characteristic="Dex", skill="Melee", actor="pat")
    modifier = (12 // 3 - 2) + 1 - 7 // 3
    text = enumerate_faces([6, 6], lambda f: read_check(f, modifier, 8, 0))
    assert RULESET.odds(check, seated({"pat": pc}), OPT) == text


@settings(max_examples=50)
@given(
    modifier=st.integers(-6, 6),
    difficulty=st.integers(2, 16),
    adv=st.integers(0, 2),
    dis=st.integers(0, 2),
    seed=st.integers(0, 10_000),
)
def test_rolled_effect_is_the_readers_on_the_same_faces(
    modifier: int, difficulty: int, adv: int, dis: int, seed: int
) -> None:
    check = Check(difficulty, (Modifier(modifier, "m"),), adv, dis)
    out = RULESET.resolve(check, EMPTY, SeededRoller(seed), OPT)
    steps = max(-1, min(1, adv - dis))
    assert out.result == read_check([d.face for d in out.faces], modifier, difficulty, steps)
    assert out.success == (out.result is not None and out.result >= 0)


# ---------------------------------------------------------------------------
# damage rolls


@pytest.mark.parametrize(
    ("rolls", "rate", "armour"), [(1, None, 0), (2, 1, 3), (3, 2, 4), (3, None, 5), (4, 3, 2)]
)
def test_damage_rolls_equal_the_reader(rolls: int, rate: int | None, armour: int) -> None:
    """A fixed number of 2d3-2 rolls, the highest RoA counting, armour off each."""
    action = DamageRolls(rolls, "2d3-2", rate_of_attack=rate, armour=Target(armour))
    keep = rolls if rate is None else min(rate, rolls)

    def read(f: tuple[int, ...]) -> int:
        raws = [f[2 * i] + f[2 * i + 1] - 2 for i in range(rolls)]
        return read_damage(raws, armour, keep)

    assert RULESET.odds(action, EMPTY, OPT) == enumerate_faces([3] * (2 * rolls), read)


def test_minimum_damage_at_effect_six_equals_the_reader() -> None:
    """Ch. 7, Armor: a hit with Effect 6+ always inflicts at least one point."""
    for effect, floor in ((5, 0), (6, 1)):
        action = DamageRolls(2, "1d6", effect=effect, armour=Target(10))
        text = enumerate_faces([6, 6], lambda f, m=floor: read_damage(f, 10, 2, m))
        assert RULESET.odds(action, EMPTY, OPT) == text


@pytest.mark.parametrize(("difficulty", "rate"), [(11, 2), (10, 1), (10, 2), (9, None)])
def test_attack_odds_equal_the_readers(difficulty: int, rate: int | None) -> None:
    """A 1d3 weapon against AR 1: the check, then the damage rolls its Success Effect
    brings (the unused dice are uniform, so enumerating them all is exact)."""
    action = Attack(
        check=CheckInputs(difficulty=difficulty),
        damage="1d3",
        rate_of_attack=rate,
        armour=Target(1),
    )
    most = max(
        rolls_from_text(a + b - difficulty, rate, True)[0]
        for a in range(1, 7)
        for b in range(1, 7)
        if a + b >= difficulty
    )

    def read(f: tuple[int, ...]) -> int:
        effect = read_check(f[:2], 0, difficulty, 0)
        if effect < 0:
            return 0
        n, keep = rolls_from_text(effect, rate, True)
        return read_damage(f[2 : 2 + n], 1, keep)

    assert RULESET.odds(action, EMPTY, OPT) == enumerate_faces([6, 6] + [3] * most, read)


@pytest.mark.parametrize(
    ("fail_effect", "cover", "rate", "armour"),
    [(3, 0, 2, 0), (3, 2, 3, 1), (4, 1, 2, 0), (2, 0, None, 1)],
)
def test_take_damage_odds_equal_the_readers(
    fail_effect: int, cover: int, rate: int | None, armour: int
) -> None:
    """Ch. 7: the cover takes as many rolls as the points it absorbs; the PC one roll per
    point left, the highest RoA counting, armour off each."""
    threat = Threat(
        damage="1d4", rate_of_attack=rate, armour=Target(armour), mitigating=Mitigating(cover=cover)
    )
    left = max(0, fail_effect - cover)
    n, keep = rolls_from_text(left, rate, False)
    action = TakeDamage(fail_effect=fail_effect, threat=threat)
    text = enumerate_faces([4] * n, lambda f: read_damage(f, armour, keep))
    assert RULESET.odds(action, EMPTY, OPT) == text


def test_bleeding_condition_and_massive_reports_equal_the_readers() -> None:
    """Ch. 7 about a target of HP 15 (Seriously Wounded and Bleeding from one roll of 5,
    ⌊15/3⌋; Critically Wounded from 10; Dying, and massive damage, above 15) hit by three
    1d6+2 rolls: the reader takes the rolls as the text does."""
    frail = Sheet("Frail", {"Str": 2, "Dex": 2, "End": 11, "Int": 7, "Edu": 7, "Soc": 7})
    table = seated({"frail": frail})
    base = DamageRolls(3, "1d6+2", target="frail", armour=Target())

    def condition(total: int) -> str:
        if total > 15:
            return "Dying"
        return (
            "Critically Wounded"
            if total >= 10
            else "Seriously Wounded"
            if total >= 5
            else "Wounded"
        )

    readers: dict[str, Callable[[tuple[int, ...]], object]] = {
        "damage": lambda f: sum(x + 2 for x in f),
        "bleeding": lambda f: any(x + 2 >= 5 for x in f),
        "condition": lambda f: condition(sum(x + 2 for x in f)),
        "massive": lambda f: sum(x + 2 for x in f) > 15,
    }
    for report, read in readers.items():
        action = DamageRolls(3, "1d6+2", target="frail", armour=Target(), report=report)  # type: ignore[arg-type]
        assert RULESET.odds(action, table, OPT) == enumerate_faces([6, 6, 6], read), report
    assert RULESET.odds(base, table, OPT).probability(24) == Fraction(1, 216)


@pytest.mark.parametrize("rate_of_attack", [None, 2, 1])
def test_the_wound_is_the_damage_with_whether_one_roll_made_the_target_bleed(
    rate_of_attack: int | None,
) -> None:
    """Ch. 7 about the same HP 15 target hit by three 1d6+2 rolls, the highest
    ``rate_of_attack`` of them counting: the wound is the kept rolls' total with whether
    one roll reached 5 (Bleeding), labelled in words."""

    def read(f: tuple[int, ...]) -> tuple[int, bool]:
        dealt = sorted((x + 2 for x in f), reverse=True)
        kept = dealt[: rate_of_attack or 3]
        return sum(kept), any(x >= 5 for x in dealt)

    frail = Sheet("Frail", {"Str": 2, "Dex": 2, "End": 11, "Int": 7, "Edu": 7, "Soc": 7})
    action = DamageRolls(
        3, "1d6+2", target="frail", armour=Target(), report="wound", rate_of_attack=rate_of_attack
    )
    got = RULESET.odds(action, seated({"frail": frail}), OPT)
    brute = enumerate_faces([6, 6, 6], read)
    assert {(w.damage, w.bleeding): p for w, p in got.probabilities().items()} == dict(
        brute.probabilities()
    )
    worst = max(got.outcomes())
    assert worst.label == f"{worst.damage} damage, Bleeding"


# ---------------------------------------------------------------------------
# dying and Initiative


def test_dying_rounds_equal_the_reader() -> None:
    """Ch. 7, Dying: every round an End roll against 4, wound penalties applied; one
    failure is death. End 14 (+2) at 19 damage (-6): each round needs 2d6 >= 8."""
    tess = Sheet("Tess", {"Str": 2, "Dex": 2, "End": 14, "Int": 7, "Edu": 7, "Soc": 7}, damage=19)
    table = seated({"tess": tess})

    def read(f: tuple[int, ...]) -> str:
        for i in range(3):
            if f[2 * i] + f[2 * i + 1] + (14 // 3 - 2) - 19 // 3 < 4:
                return "Dead"
        return "Dying"

    dist = RULESET.odds(PassRounds(3), table, OPT).map(lambda fates: dict(fates)["tess"])
    assert dist == enumerate_faces([6] * 6, read)
    assert dist.probability("Dying") == Fraction(125, 1728)


def test_initiative_order_equals_the_reader() -> None:
    """Companion facts: 2d6 + modifier each; turns go from the highest down; ties share
    a step (the default)."""
    pcs = (InitiativePC("A", 2), InitiativePC("B", 0, advantage=1))

    def read(f: tuple[int, ...]) -> object:
        a = f[0] + f[1] + 2
        b = sum(sorted(f[2:])[-2:])
        return (("A", "B"),) if a == b else ((("A",), ("B",)) if a > b else (("B",), ("A",)))

    dist = RULESET.odds(RollInitiative(pcs), EMPTY, OPT)
    assert dist == enumerate_faces([6, 6, 6, 6, 6], read)


def test_rolled_dying_rounds_are_the_readers_on_the_same_faces() -> None:
    tess = Sheet("Tess", {"Str": 2, "Dex": 2, "End": 14, "Int": 7, "Edu": 7, "Soc": 7}, damage=19)
    out = RULESET.resolve(PassRounds(5), seated({"tess": tess}), ScriptedRoller([6, 2, 6, 1]), OPT)
    assert out.label == "Dead in round 2"  # 8 lives, 7 dies
