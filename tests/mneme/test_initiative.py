"""Turn order: Initiative and the per-round action budget (companion facts, Mneme CE
turn economy)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import permutations

import pytest

from referee.dice.brute import brute_force
from referee.dice.odds import Distribution, keep_highest, keep_lowest, sum_of_dice
from referee.dice.roller import ManualRoller, ScriptedRoller
from referee.errors import DiceError, IllegalAction, OddsTooComplex, RulesError
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import (
    EndEncounter,
    InitiativePC,
    PassRounds,
    RollInitiative,
    SpendAction,
)
from referee.systems.mneme.budget import ActionBudget
from referee.systems.mneme.initiative import (
    MAX_REROLLS,
    Steps,
    entrant,
    partition,
    settle,
)
from referee.systems.mneme.options import Options
from referee.systems.mneme.state import State, seated

OPT = Options()
ADA = RULESET.examples()["ada"]  # Dex 9 (ChM +1), Recon 1, no Tactics
RAIDER = RULESET.examples()["raider"]  # an adversary: Dex 8 (ChM 0), Tactics 0
MERC = replace(RAIDER, name="Raider", adversary=False)  # a PC with the raider's numbers
EMPTY = State()


def with_ada(sheet: object = ADA) -> State:
    return seated({"ada": sheet})  # type: ignore[dict-item]


def initiative_odds(
    pc: InitiativePC, state: State = EMPTY, options: Options = OPT
) -> Distribution[int]:
    return entrant(pc, state, options).procedure.odds()


@dataclass(frozen=True)
class Precedence:
    first: Fraction
    second: Fraction
    tie: Fraction


def precedence(a: InitiativePC, b: InitiativePC, options: Options) -> Precedence:
    """P(A before B), P(B before A), P(same step), from the turn order's odds."""
    d = RULESET.odds(RollInitiative((a, b)), EMPTY, options)
    return Precedence(
        d.probability(((a.who,), (b.who,))),
        d.probability(((b.who,), (a.who,))),
        d.probability(((a.who, b.who),)),
    )


# ---------------------------------------------------------------------------
# the action budget


def test_three_minor_actions_a_round_and_no_fourth() -> None:
    b = ActionBudget().spend_minor().spend_minor().spend_minor()
    assert b.minor_left == 0 and b.significant_left == 0
    with pytest.raises(IllegalAction, match="1 Minor action needs 1 Minor, only 0 left"):
        b.spend_minor()


def test_a_significant_action_costs_two_minor() -> None:
    b = ActionBudget().spend_significant()
    assert b.minor_left == 1 and b.significant_left == 0
    assert b.spend_minor().minor_left == 0
    with pytest.raises(IllegalAction, match="Significant"):
        b.spend_significant()
    with pytest.raises(IllegalAction):
        ActionBudget().spend_significant(2)


def test_free_actions_are_counted_never_refused() -> None:
    b = ActionBudget().spend_minor(3).spend_free(5)
    assert b.free_taken == 5 and b.minor_left == 0


def test_bad_budget_input_is_a_clear_error() -> None:
    with pytest.raises(RulesError, match=r"Minor actions left must be 0\.\.3"):
        ActionBudget(minor_left=4)
    with pytest.raises(RulesError, match="one of free, minor, significant"):
        ActionBudget().spend("major")
    with pytest.raises(RulesError, match="number of actions"):
        ActionBudget().spend_minor(0)


def test_spending_at_the_table_and_a_new_round_restores_it() -> None:
    table = with_ada()
    out = RULESET.resolve(SpendAction("ada", "significant"), table, ScriptedRoller([]), OPT)
    assert out.result == 1 and out.details["budget"]["minor_left"] == 1
    assert RULESET.odds(SpendAction("ada", "minor", 2), table, OPT) == Distribution.constant(1)
    table = RULESET.apply(table, out)
    assert table.characters["ada"].minor_left == 1
    with pytest.raises(IllegalAction, match="Ada Vance, round 1: 1 Significant action needs 2"):
        RULESET.resolve(SpendAction("ada", "significant"), table, ScriptedRoller([]), OPT)
    table = RULESET.apply(
        table, RULESET.resolve(SpendAction("ada", "free", 2), table, ScriptedRoller([]), OPT)
    )
    assert table.characters["ada"].free_taken == 2
    table = RULESET.apply(table, RULESET.resolve(PassRounds(), table, ScriptedRoller([]), OPT))
    seat = table.characters["ada"]
    assert (seat.minor_left, seat.free_taken, table.clock) == (3, 0, 1)
    with pytest.raises(IllegalAction):
        RULESET.resolve(SpendAction("ada", "minor", 4), table, ScriptedRoller([]), OPT)


# ---------------------------------------------------------------------------
# one PC's Initiative


def test_initiative_is_2d6_plus_the_modifier() -> None:
    assert initiative_odds(InitiativePC("A", 2)) == sum_of_dice(2, 6) + 2


@pytest.mark.parametrize("adv,dis", [(1, 0), (0, 1), (2, 1), (1, 1)])
def test_advantage_and_disadvantage_apply_to_initiative(adv: int, dis: int) -> None:
    pc = InitiativePC("A", 1, advantage=adv, disadvantage=dis)
    die = Distribution.die(6)
    expected = {1: keep_highest(die, 3, 2), -1: keep_lowest(die, 3, 2), 0: sum_of_dice(2, 6)}
    assert initiative_odds(pc) == expected[adv - dis] + 1
    proc = entrant(pc, EMPTY, OPT).procedure
    assert brute_force(proc.groups, proc.read).map(proc.rule) == proc.odds()


def test_from_a_sheet_the_best_relevant_skill_and_the_characteristic_modifier() -> None:
    e = entrant(InitiativePC("ada"), with_ada(), OPT)
    assert e.name == "Ada Vance" and e.modifier == 1 + 1  # Dex 9 -> +1, Recon 1
    assert e.characteristic_modifier == 1 and e.id == "ada"
    tactics = replace(ADA, skills={**ADA.skills, "Tactics": 2})
    assert entrant(InitiativePC("ada"), with_ada(tactics), OPT).modifier == 1 + 2
    unskilled = replace(ADA, skills={})
    assert entrant(InitiativePC("ada"), with_ada(unskilled), OPT).modifier == 1 - 3
    by_int = entrant(InitiativePC("ada", characteristic="Int", skill="Medic"), with_ada(), OPT)
    assert by_int.modifier == 1 + 1  # Int 10 -> +1, Medic 1
    other = Options(initiative_characteristic="Int", initiative_skills=("Athletics",))
    assert entrant(InitiativePC("ada"), with_ada(), other).modifier == 1 + 0


def test_wound_penalties_apply_to_initiative() -> None:
    """-1 to all rolls per full 3 damage."""
    hurt = replace(ADA, damage=7)
    assert entrant(InitiativePC("ada"), with_ada(hurt), OPT).modifier == 2 - 2


# ---------------------------------------------------------------------------
# A before B


def _read_pair(a: InitiativePC, b: InitiativePC, options: Options) -> Distribution[str]:
    """Independent reader: 2d6 (3d6 keep the two highest / lowest for a net step) +
    modifier each; the higher acts first; ties as the option says (reroll: the order
    given no tie; characteristic: the higher ChM first)."""

    def total(faces: tuple[int, ...], pc: InitiativePC) -> int:
        steps = max(-1, min(1, pc.advantage - pc.disadvantage))
        kept = sorted(faces)[-2:] if steps > 0 else sorted(faces)[:2] if steps < 0 else faces
        assert pc.modifier is not None
        return sum(kept) + pc.modifier

    n = 2 + abs(max(-1, min(1, a.advantage - a.disadvantage)))
    m = 2 + abs(max(-1, min(1, b.advantage - b.disadvantage)))

    def read(f: tuple[int, ...]) -> str:
        ta, tb = total(f[:n], a), total(f[n:], b)
        if ta == tb and options.initiative_ties == "characteristic":
            ta, tb = a.characteristic_modifier or 0, b.characteristic_modifier or 0
        return "first" if ta > tb else "second" if ta < tb else "tie"

    d = brute_force(((n + m, 6),), read)
    return d.condition(lambda o: o != "tie") if options.initiative_ties == "reroll" else d


PAIRS = [
    (InitiativePC("A", 2, 0), InitiativePC("B", 1, 1, advantage=1)),
    (InitiativePC("A", 0, 1, disadvantage=1), InitiativePC("B", 0, 0)),
    (InitiativePC("A", 3, 1), InitiativePC("B", 3, 1)),
]


@pytest.mark.parametrize("ties", ["simultaneous", "characteristic", "reroll"])
@pytest.mark.parametrize("pair", PAIRS)
def test_precedence_matches_brute_force(ties: str, pair: tuple[InitiativePC, InitiativePC]) -> None:
    options = Options(initiative_ties=ties)
    p = precedence(*pair, options)
    brute = _read_pair(*pair, options)
    assert p.first == brute.probability("first") and p.second == brute.probability("second")
    assert p.tie == brute.probability("tie") and p.first + p.second + p.tie == 1


def test_equal_pcs_known_numbers() -> None:
    """Two PCs with equal modifiers tie on equal 2d6: sum of (ways/36)^2 = 146/1296."""
    a, b = InitiativePC("A", 1), InitiativePC("B", 1)
    p = precedence(a, b, OPT)
    assert p.tie == Fraction(146, 1296) and p.first == p.second == (1 - p.tie) / 2
    rerolled = precedence(a, b, Options(initiative_ties="reroll"))
    assert rerolled == type(p)(Fraction(1, 2), Fraction(1, 2), Fraction(0))


# ---------------------------------------------------------------------------
# the turn order


def test_turns_go_in_descending_initiative() -> None:
    pcs = (InitiativePC("Ada", 1), InitiativePC("Bo", 0), InitiativePC("Cy", 3))
    out = RULESET.resolve(RollInitiative(pcs), EMPTY, ScriptedRoller([3, 4, 6, 6, 1, 2]), OPT)
    assert [p["initiative"] for p in out.details["pcs"]] == [8, 12, 6]
    assert [p["faces"] for p in out.details["pcs"]] == [[3, 4], [6, 6], [1, 2]]
    assert out.details["order"] == ["Bo", "Ada", "Cy"]
    assert out.label == "Bo 12 > Ada 8 > Cy 6"
    assert [d.face for d in out.faces] == [3, 4, 6, 6, 1, 2] and not out.manual


def _tied() -> RollInitiative:
    return RollInitiative(
        (
            InitiativePC("Ada", 1, characteristic_modifier=0),
            InitiativePC("Bo", 0, characteristic_modifier=2),
            InitiativePC("Cy", 2, characteristic_modifier=2),
        )
    )


TIED_FACES = [3, 4, 4, 4, 1, 5]  # 8, 8, 8


def test_ties_are_simultaneous_by_default() -> None:
    out = RULESET.resolve(_tied(), EMPTY, ScriptedRoller(TIED_FACES), OPT)
    assert out.details["steps"] == [["Ada", "Bo", "Cy"]] and out.label == "Ada 8 = Bo 8 = Cy 8"


def test_ties_by_characteristic_modifier() -> None:
    options = Options(initiative_ties="characteristic")
    out = RULESET.resolve(_tied(), EMPTY, ScriptedRoller(TIED_FACES), options)
    assert out.details["steps"] == [["Bo", "Cy"], ["Ada"]]
    with pytest.raises(RulesError, match="characteristic modifier"):
        RULESET.resolve(
            RollInitiative((InitiativePC("A", 0), InitiativePC("B", 0))),
            EMPTY,
            ScriptedRoller([]),
            options,
        )


def test_ties_rerolled_until_none_is_left() -> None:
    options = Options(initiative_ties="reroll")
    # reroll: Ada 5, Bo 6, Cy 5 -> Bo first, Ada and Cy tie again; reroll: Ada 13, Cy 4
    roller = ScriptedRoller([*TIED_FACES, 2, 2, 3, 3, 1, 2, 6, 6, 1, 1])
    out = RULESET.resolve(_tied(), EMPTY, roller, options)
    roller.assert_exhausted()
    assert out.details["order"] == ["Bo", "Ada", "Cy"]
    assert [[r["initiative"] for r in g] for g in out.details["rerolls"]] == [[5, 6, 5], [13, 4]]
    assert [p["initiative"] for p in out.details["pcs"]] == [8, 8, 8]  # Initiative is kept


def test_a_tie_that_never_breaks_is_left_simultaneous_and_reported() -> None:
    """Rerolls are bounded: after 20 the group stays tied, and the outcome says so."""
    options = Options(initiative_ties="reroll")
    pcs = RollInitiative((InitiativePC("A", 0), InitiativePC("B", 0)))
    roller = ScriptedRoller([1] * 4 * (1 + MAX_REROLLS))
    out = RULESET.resolve(pcs, EMPTY, roller, options)
    roller.assert_exhausted()
    assert out.details["steps"] == [["A", "B"]] == out.details["unbroken_ties"]
    assert len(out.details["rerolls"]) == MAX_REROLLS


def test_hand_entered_faces_are_checked() -> None:
    pcs = RollInitiative((InitiativePC("A", 0, advantage=1), InitiativePC("B", 0)))
    out = RULESET.resolve(pcs, EMPTY, ManualRoller([6, 1, 5, 2, 2]), OPT)
    assert out.manual and out.details["pcs"][0]["kept"] == [True, False, True]
    with pytest.raises(DiceError):
        RULESET.resolve(pcs, EMPTY, ManualRoller([6, 1, 5, 2]), OPT)
    with pytest.raises(DiceError):
        RULESET.resolve(pcs, EMPTY, ManualRoller([6, 1, 9, 2, 2]), OPT)


def test_bad_rosters_are_clear_errors() -> None:
    roll = ScriptedRoller([])
    with pytest.raises(RulesError, match="distinct names"):
        pair = RollInitiative((InitiativePC("A", 0), InitiativePC("a", 0)))
        RULESET.resolve(pair, EMPTY, roll, OPT)
    with pytest.raises(RulesError, match=r"1\.\.20 PCs"):
        RULESET.resolve(RollInitiative(()), EMPTY, roll, OPT)
    with pytest.raises(RulesError, match="needs a name"):
        RULESET.resolve(RollInitiative((InitiativePC(" ", 0),)), EMPTY, roll, OPT)
    with pytest.raises(RulesError, match="a sheet or a modifier"):
        both = InitiativePC("ada", characteristic_modifier=2)
        RULESET.resolve(RollInitiative((both,)), with_ada(), roll, OPT)
    with pytest.raises(IllegalAction, match="modifier: must be"):
        RollInitiative((InitiativePC("A", 5000),))
    with pytest.raises(IllegalAction, match="no character 'bo'"):
        RULESET.resolve(RollInitiative((InitiativePC("bo"),)), with_ada(), roll, OPT)
    assert "initiative" in RULESET.actions() and "spend-action" in RULESET.actions()


def test_initiative_starts_the_encounter_and_the_table_keeps_the_order() -> None:
    """The order and each seated PC's Initiative are kept for the encounter; rounds then
    count up; ending the encounter clears them."""
    table = seated({"ada": ADA, "raider": MERC})
    out = RULESET.resolve(RollInitiative(), table, ScriptedRoller([6, 6, 1, 1]), OPT)
    table = RULESET.apply(table, out)
    assert table.order == (("ada",), ("raider",)) and table.round == 1
    # Ada: 12 + Dex 9 (+1) + Recon 1; the Raider: 2 + Dex 8 (0) + Tactics 0
    assert table.characters["ada"].initiative == 14 and table.characters["raider"].initiative == 2
    table = RULESET.apply(table, RULESET.resolve(PassRounds(2), table, ScriptedRoller([]), OPT))
    assert table.round == 3
    rows = dict(RULESET.tracker(table, OPT)["table"])
    assert rows["Turn order"] == "Ada Vance > Raider" and rows["Round"] == 3
    table = RULESET.apply(table, RULESET.resolve(EndEncounter(), table, ScriptedRoller([]), OPT))
    assert (table.order, table.round, table.characters["ada"].initiative) == ((), 0, None)


def _brute_order(action: RollInitiative, options: Options) -> Distribution[Steps]:
    es = [entrant(pc, EMPTY, options) for pc in action.pcs]
    procs = [e.procedure for e in es]
    sizes = [sum(c for c, _ in p.groups) for p in procs]
    chm = {e.name: e.characteristic_modifier for e in es}

    def read(f: tuple[int, ...]) -> Steps:
        totals, at = [], 0
        for e, p, n in zip(es, procs, sizes, strict=True):
            totals.append((e.name, p.apply(f[at : at + n])))
            at += n
        return settle(partition(totals), chm, options.initiative_ties)

    return brute_force(tuple(g for p in procs for g in p.groups), read)


@pytest.mark.parametrize("ties", ["simultaneous", "characteristic"])
def test_turn_order_odds_match_brute_force(ties: str) -> None:
    action = RollInitiative(
        (
            InitiativePC("Ada", 1, 0),
            InitiativePC("Bo", 0, 1),
            InitiativePC("Cy", 2, 1),
        )
    )
    options = Options(initiative_ties=ties)
    assert RULESET.odds(action, EMPTY, options) == _brute_order(action, options)


def test_rerolled_order_odds() -> None:
    """Rerolls leave no tie: three equal PCs end in each of the 6 orders with 1/6; for
    two PCs the order odds are the pairwise precedence."""
    options = Options(initiative_ties="reroll")
    three = RollInitiative(tuple(InitiativePC(n, 1) for n in "ABC"))
    d = RULESET.odds(three, EMPTY, options)
    expected = {tuple((n,) for n in p): Fraction(1, 6) for p in permutations("ABC")}
    assert d.probabilities() == expected
    a, b = InitiativePC("A", 2), InitiativePC("B", 0, advantage=1)
    two = RULESET.odds(RollInitiative((a, b)), EMPTY, options)
    assert two.probability((("A",), ("B",))) == precedence(a, b, options).first


def test_whole_order_odds_are_bounded() -> None:
    five = RollInitiative(tuple(InitiativePC(n, 0) for n in "ABCDE"))
    with pytest.raises(OddsTooComplex):
        RULESET.odds(five, EMPTY, OPT)


def test_a_character_who_leaves_the_table_leaves_the_turn_order() -> None:
    table = seated({"ada": ADA, "raider": MERC})
    table = RULESET.apply(
        table, RULESET.resolve(RollInitiative(), table, ScriptedRoller([3, 3, 3, 3]), OPT)
    )
    assert table.order == (("ada",), ("raider",))  # 6 + 2 against 6 + 0
    assert RULESET.unseat(table, "raider").order == (("ada",),)


def test_adversaries_roll_no_initiative() -> None:
    """The referee doesn't roll (ch. 2): with no PCs named every seated character but the
    adversaries rolls, and naming an adversary is refused, unless the table's option
    ``adversary_attacks`` lets the referee roll for them."""
    table = seated({"ada": ADA, "raider": RAIDER})
    out = RULESET.resolve(RollInitiative(), table, ScriptedRoller([3, 3]), OPT)
    assert RULESET.apply(table, out).order == (("ada",),)  # 6 + 2: only Ada rolls
    with pytest.raises(IllegalAction, match="Raider is an adversary"):
        RULESET.odds(RollInitiative((InitiativePC("raider"),)), table, OPT)
    rolls = Options(adversary_attacks="referee_rolls")
    both = RULESET.resolve(RollInitiative(), table, ScriptedRoller([3, 3, 3, 3]), rolls)
    assert RULESET.apply(table, both).order == (("ada",), ("raider",))
