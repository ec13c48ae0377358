"""Every ARM odds function against an independent reader of the rule text.

The readers below are written from ARM 1.2 itself (Task Resolution, Pushing,
Damage, the melee and ranged tables, Magic) in a few lines each. They import
nothing of the package's rules: they enumerate the faces of the dice, read
each combination the way the text says, and count. The package's odds
(``RULESET.odds`` for every action that rolls, and the fast functions the
benchmarks time) must give exactly the same distribution.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.odds import Distribution
from referee.systems.arm import RULESET
from referee.systems.arm import actions as a
from referee.systems.arm.checks import push_when_needed_odds, task_odds
from referee.systems.arm.damage import Blow, damage_levels_odds, damage_odds
from referee.systems.arm.options import Options
from referee.systems.arm.play import Levels
from referee.systems.arm.rolls import Pushed
from referee.systems.arm.sheet import Mod, Sheet
from referee.systems.arm.state import State
from referee.systems.base import Action, IllegalAction

PUSHING = Options(pushing=True)
D6 = range(1, 7)

# ---------------------------------------------------------------------------
# the readers (ARM 1.2, read afresh)


def result(total: int, difficulty: int, plus: int, minus: int) -> int:
    """Task Resolution: 'roll and add a d6, then roll and subtract another d6. Now, the
    difficulty number is subtracted from this sum'."""
    return total + plus - minus - difficulty


def push(face: int) -> tuple[int, int]:
    """Pushing: 'On a 1, nothing happens. On a 2-5, you add a +1 to the die roll, but your
    Shock damage is also increased by one ... On a 6, you get the +1, but at no cost'."""
    if face == 1:
        return 0, 0
    return (1, 1) if face <= 5 else (1, 0)


WOUNDS = ["Unharmed", "Light", "Moderate", "Severe", "Mortal", "Dead"]
SHOCKS = ["Unharmed", "Dazed", "Giddy", "Reeling", "Fainting", "Unconscious"]
TABLE = {  # Damage: 'Result Wound Shock', copied row by row
    0: ("Unharmed", "Dazed"),
    1: ("Light", "Unharmed"),
    2: ("Light", "Dazed"),
    3: ("Light", "Giddy"),
    4: ("Moderate", "Dazed"),
    5: ("Moderate", "Reeling"),
    6: ("Severe", "Giddy"),
    7: ("Severe", "Fainting"),
    8: ("Mortal", "Reeling"),
    9: ("Mortal", "Unconscious"),
    10: ("Dead", "Fainting"),
    11: ("Dead", "Unconscious"),  # '11+'
}


def blow(
    attack: int,
    toughness: int,
    wound_armour: int,
    shock_armour: int,
    stun: bool,
    roll: int,
    shift: int = 1,
    destroyed_at: int = 16,
) -> tuple[int, int, bool]:
    """Damage: 'roll only once, but make two subtractions'; a result of 0 or more is
    looked up; a stunning attack moves one (``shift``) from Wound to Shock; '16+
    Destroyed'."""
    total = attack + roll
    w, s = total - toughness - wound_armour, total - toughness - shock_armour
    wound = WOUNDS.index(TABLE[min(w, 11)][0]) if w >= 0 else 0
    shock = SHOCKS.index(TABLE[min(s, 11)][1]) if s >= 0 else 0
    if stun and w >= 0:
        wound = max(0, wound - shift)
    if stun and s >= 0:
        shock = min(5, shock + shift)
    return wound, shock, w >= destroyed_at


def count(outcomes: list[Hashable]) -> Distribution[Hashable]:
    return Distribution.from_weights(Counter(outcomes))


def plain(read: Callable[[int], Hashable]) -> Distribution[Hashable]:
    """Every plus and minus face, read through ``read(plus - minus)``."""
    return count([read(p - m) for p, m in product(D6, D6)])


def always(read: Callable[[int], Hashable]) -> Distribution[Hashable]:
    """A push declared before rolling: every plus, minus and push face."""
    return count([Pushed(read(p - m + push(f)[0]), push(f)[1]) for p, m, f in product(D6, D6, D6)])


def when_needed(
    fails: Callable[[int], bool], read: Callable[[int], Hashable]
) -> Distribution[Hashable]:
    """A push decided after the roll: the push die only on a roll that fails. Each
    unpushed roll counts six times, so every branch has the same weight (1/216)."""
    seen: list[Hashable] = []
    for p, m in product(D6, D6):
        if fails(p - m):
            seen += [Pushed(read(p - m + push(f)[0]), push(f)[1]) for f in D6]
        else:
            seen += [Pushed(read(p - m), 0)] * 6
    return count(seen)


# ---------------------------------------------------------------------------
# the fast functions (what the benchmarks time)


@pytest.mark.parametrize(("total", "difficulty"), [(6, 6), (8, 4), (3, 11), (10, 1), (8, 6)])
def test_task_odds(total: int, difficulty: int) -> None:
    odds = task_odds(total, difficulty)
    assert odds.result == plain(lambda r: total + r - difficulty)
    assert odds.p_success == odds.result.at_least(0)
    pushed = task_odds(total, difficulty, True, PUSHING)
    reader = always(lambda r: total + r - difficulty)
    assert pushed.result == reader.map(lambda x: x.result)  # type: ignore[attr-defined]
    assert pushed.shock == reader.map(lambda x: x.shock)  # type: ignore[attr-defined]


def test_fifty_fifty() -> None:
    """Total 6 against 50/50 (6): a draw or better is 21 of 36; a strict success 15."""
    assert task_odds(6, 6).p_success == Fraction(21, 36)
    assert task_odds(6, 6, options=Options(draw_succeeds=False)).p_success == Fraction(15, 36)


@pytest.mark.parametrize("saveable", [False, True])
@pytest.mark.parametrize(("total", "difficulty"), [(8, 6), (6, 6), (4, 9)])
def test_push_when_needed_odds(total: int, difficulty: int, saveable: bool) -> None:
    def fails(r: int) -> bool:
        below = total + r - difficulty < 0
        return below and (not saveable or total + r + 1 - difficulty >= 0)

    opts = Options(pushing=True, push_when_needed="saveable" if saveable else "failure")
    odds = push_when_needed_odds(total, difficulty, opts)
    reader = when_needed(fails, lambda r: total + r - difficulty)
    assert odds.result == reader.map(lambda x: x.result)  # type: ignore[attr-defined]
    assert odds.shock == reader.map(lambda x: x.shock)  # type: ignore[attr-defined]


def test_pushing_when_needed_costs_less_shock_for_the_same_success() -> None:
    """Total 8 against 6: pushing every roll and pushing only a failed roll both succeed
    65/72 of the time; the first costs shock 2/3 of the time, the second 1/9 (only the
    failures that +1 saves: 1/18)."""
    every = task_odds(8, 6, True, PUSHING)
    needed = push_when_needed_odds(8, 6, PUSHING)
    saveable = push_when_needed_odds(8, 6, Options(pushing=True, push_when_needed="saveable"))
    assert every.p_success == needed.p_success == saveable.p_success == Fraction(65, 72)
    assert every.shock.probability(1) == Fraction(2, 3)
    assert needed.shock.probability(1) == Fraction(1, 9)
    assert saveable.shock.probability(1) == Fraction(1, 18)
    with pytest.raises(IllegalAction, match="pushing"):
        push_when_needed_odds(8, 6, Options())


BLOWS = [
    Blow(result=6, damage=4, toughness=5, wound_armour=4, shock_armour=2),
    Blow(result=5, damage=7, strength=1, toughness=5, wound_armour=4, shock_armour=2),
    Blow(result=3, damage=1, toughness=6, stun=True),
    Blow(result=12, damage=10, toughness=3),
    Blow(result=1, damage=0, toughness=0, stun=True),
]


@pytest.mark.parametrize("b", BLOWS)
def test_damage_odds(b: Blow) -> None:
    def read(roll: int) -> tuple[int, int, bool]:
        return blow(b.attack, b.toughness, b.wound_armour, b.shock_armour, b.stun, roll)

    reader = plain(read)
    assert damage_odds(b).map(lambda d: (d.wound, d.shock, d.destroyed)) == reader
    assert damage_levels_odds(b) == reader
    pushed = always(read)
    assert (
        damage_odds(b, PUSHING, push=True).map(
            lambda d: Pushed((d.wound, d.shock, d.destroyed), d.push_cost)
        )
        == pushed
    )
    assert damage_levels_odds(b, PUSHING, push=True) == pushed.map(lambda x: x.result)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "opts",
    [Options(), Options(armour_counts=False), Options(stun_shift=2), Options(destroyed_at=8)],
)
@pytest.mark.parametrize("ignore", [None, "wound", "shock"])
def test_damage_levels_odds_follow_the_table_options_and_ignored_sides(
    opts: Options, ignore: str | None
) -> None:
    """The levels alone against the text's reading with the table's options (armour
    not counted, a stun shift of 2, Destroyed at 8) and a side the blow ignores; the
    full record agrees with them."""
    for b in BLOWS:
        b = replace(b, ignore=ignore)  # type: ignore[arg-type]

        def read(roll: int, b: Blow = b) -> tuple[int, int, bool]:
            wound, shock, destroyed = blow(
                b.attack,
                b.toughness,
                b.wound_armour if opts.armour_counts else 0,
                b.shock_armour if opts.armour_counts else 0,
                b.stun,
                roll,
                opts.stun_shift,
                opts.destroyed_at,
            )
            if b.ignore == "wound":
                return 0, shock, False
            return wound, 0 if b.ignore == "shock" else shock, destroyed

        assert damage_levels_odds(b, opts) == plain(read)
        full = damage_odds(b, opts).map(lambda d: (d.wound, d.shock, d.destroyed))
        assert full == plain(read)


# ---------------------------------------------------------------------------
# RULESET.odds for every action that rolls, at a table of the example's fighters


def _table() -> State:
    state = RULESET.initial_state(PUSHING)
    for cid, sheet in RULESET.examples().items():
        state = RULESET.seat(state, cid, sheet, PUSHING)
    wizard = Sheet(
        name="Wizard",
        stats={"Fitness": 5, "Dexterity": 6, "Toughness": 5, "Wit": 8, "Willpower": 7},
        mods=(Mod("Magically Able", 2, "special"),),
    )
    return RULESET.seat(state, "wizard", wizard, PUSHING)


def _attack_waiting(state: State, ranged: bool = False) -> State:
    """Brad's axe (result 2) waiting for Alex's defence, or (ranged) landed on Alex."""
    from dataclasses import replace

    from referee.systems.arm.state import Attack

    if ranged:
        attack = Attack("wizard", "alex", 3, "Long bow", "ranged", "landed", dodgeable=False)
    else:
        attack = Attack("brad", "alex", 2, "Axe")
    return replace(state, attacks=(attack,))


# (action, state, total, difficulty): totals and difficulties worked out from the text and
# the example sheets (Alex F6 D7 T5 W7 C8 Wp6 chain 4/2, sword 0/-1; Brad F8 T8 Wp7 axe
# 0/-3, Strength +1; Christine F7 W6 Wp5 rapier +1/+1, Rapiers +2).
TASKS: list[tuple[Action, bool, int, int]] = [
    (a.Task("brad", 6, "Fitness"), False, 8, 6),
    (a.Task("christine", 8, "Fitness", ("Rapiers",), melee="attack"), False, 7 + 2 + 1, 8),
    (a.Task("brad", 4, melee="parry", situations=("standstill",)), False, 8 - 3 + 2, 4),
    (a.Task("alex", 6, total=3, helper=4), False, 3 + 4, 6),
    (a.Task("alex", 6, total=3, helper=4, helper_effect="small"), False, 3 + 1, 6),
    (a.Contest("alex", "brad"), False, 8, 7),  # Charisma against Willpower
    (a.Circle("christine", "alex"), False, 6, 7),  # Wit against Wit
    (a.Attack("brad", "alex"), False, 8, 4),  # attacking 4
    (a.Attack("brad", "alex", moving=True, size=1), False, 8, 6 - 1),  # moving 6, large -
    (a.Attack("brad", "alex", style="berserk"), False, 8, 3),  # berserk 3
    (a.Attack("christine", "alex", mods=("Rapiers",)), False, 7 + 2 + 1, 4),
    (a.Defend("alex"), True, 6, 4 + 2),  # defending 4 + the attack's result
    (a.Defend("alex", prepared=True), True, 6, 2 + 2),  # prepared 2 +
    (a.Defend("alex", counter=True), True, 6, 6 + 2),  # counter-blow 6 +
    (a.Defend("alex", how="parry"), True, 6 - 1, 4 + 2),  # the sword's parry -1
    (a.Shoot("alex", "Long bow", 10), False, 7 + 15, 4 + 2 * 10),  # Dex + accuracy; 4 + 2 log
    (a.Shoot("brad", "Handgun", -3, moving=True, cover=2), False, 5 + 17, 6 + 0 + 2),
    (a.Cast("wizard", "Fire-ball"), False, 8, 7),  # Wit against 7
    (a.Cast("wizard", "Fire-ball", "Willpower"), False, 7, 7),
    (a.SoulMagic("wizard", "shape"), False, 7 + 2, 6),  # Willpower + Magically Able
    (a.SoulMagic("wizard", "imbue conditional"), False, 7 + 2, 12),
    (a.GroupTask("brad", ("alex", "christine"), "Fitness", difficulty=12), False, 10, 12),
]
"""The group at Fitness 8, 6, 7 is more than 1 apart, so its measures add: 40 + 15 + 25 = 80,
whose log is 10 (80 lies as near 60 as 100, and ties go up)."""


@pytest.mark.parametrize(("action", "waiting", "total", "difficulty"), TASKS)
def test_every_check_against_the_reader(
    action: Action, waiting: bool, total: int, difficulty: int
) -> None:
    from dataclasses import replace

    state = _attack_waiting(_table()) if waiting else _table()

    def read(roll: int) -> int:
        return total + roll - difficulty

    def fails(roll: int) -> bool:
        return read(roll) < 0

    for mode, reader in (
        ("never", plain(read)),
        ("ask", plain(read)),
        ("always", always(read)),
        ("if-needed", when_needed(fails, read)),
    ):
        assert RULESET.odds(replace(action, push=mode), state, PUSHING) == reader, mode  # type: ignore[type-var]


def test_subtasks_against_the_reader() -> None:
    parts = (a.Subtask("Wit", 4), a.Subtask("Dexterity", 6, ("Swords",)), a.Subtask("Wit", 3))
    reader = count(
        [
            min(7 + p - m - 4, 8 + q - n - 6, 7 + r - s - 3)
            for p, m, q, n, r, s in product(D6, D6, D6, D6, D6, D6)
        ]
    )
    assert RULESET.odds(a.Subtasks("alex", parts), _table(), PUSHING) == reader


def _landed(ranged: bool = False) -> State:
    from dataclasses import replace

    state = _attack_waiting(_table(), ranged)
    return replace(state, attacks=(replace(state.attacks[0], stage="landed"),))


BLOW_CASES: list[tuple[Action, Callable[[], State], int, int, int, int, bool]] = [
    # Brad's axe on Alex: 2 + 8 + Strength 1 against Toughness 5, chain 4/2
    (a.Strike("brad"), _landed, 2 + 8 + 1, 5, 4, 2, False),
    (a.Strike("brad", damage=7), _landed, 2 + 7 + 1, 5, 4, 2, False),
    # a bow's arrow (5, no strength) landed on Alex with result 3
    (a.Strike("wizard"), lambda: _landed(True), 3 + 5, 5, 4, 2, False),
    # Christine's rapier by the numbers on Brad (no armour)
    (a.Damage("brad", 6, "christine"), _table, 6 + 4, 8, 0, 0, False),
    # a fist (1, stun) with Brad's Strength on Christine (leather 2/0)
    (a.Damage("christine", 3, "brad", weapon="Fist"), _table, 3 + 1 + 1, 6, 2, 0, True),
]


@pytest.mark.parametrize("mode", ["never", "always", "if-needed"])
@pytest.mark.parametrize(("action", "at", "attack", "toughness", "wa", "sa", "stun"), BLOW_CASES)
def test_every_blow_against_the_reader(
    mode: str,
    action: Action,
    at: Callable[[], State],
    attack: int,
    toughness: int,
    wa: int,
    sa: int,
    stun: bool,
) -> None:
    from dataclasses import replace

    def read(roll: int) -> Levels:
        return Levels(*blow(attack, toughness, wa, sa, stun, roll))

    def fails(roll: int) -> bool:
        return not any(blow(attack, toughness, wa, sa, stun, roll))

    reader = {"never": plain, "always": always}.get(mode)
    expected = reader(read) if reader else when_needed(fails, read)
    assert RULESET.odds(replace(action, push=mode), at(), PUSHING) == expected  # type: ignore[type-var]


def test_movement_push_against_the_reader() -> None:
    reader = count([Pushed(5 + push(f)[0], push(f)[1]) for f in D6])
    assert RULESET.odds(a.Move(rate=5, push=True), _table(), PUSHING) == reader


@settings(max_examples=40)
@given(st.integers(-15, 15), st.integers(-15, 15), st.booleans())
def test_any_task_against_the_reader(total: int, difficulty: int, draw: bool) -> None:
    opts = Options(pushing=True, draw_succeeds=draw)
    state = RULESET.seat(RULESET.initial_state(opts), "x", Sheet(name="x", stats={}), opts)
    threshold = 0 if draw else 1

    def read(roll: int) -> int:
        return total + roll - difficulty

    needed = when_needed(lambda r: read(r) < threshold, read)
    assert RULESET.odds(a.Task("x", difficulty, total=total, push="if-needed"), state, opts) == (
        needed
    )
    assert RULESET.odds(a.Task("x", difficulty, total=total), state, opts) == plain(read)
