"""The shared rules contract: Procedure, Outcome, Ladder, records and the registry."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

import pytest

from referee.dice.brute import brute_force
from referee.dice.evaluate import DieRoll
from referee.dice.odds import sum_of_dice
from referee.dice.roller import ManualRoller, ScriptedRoller
from referee.errors import DiceError, InvalidSheet, Problem, RulesError
from referee.systems import base
from referee.systems.base import (
    Change,
    Ladder,
    Modifier,
    Outcome,
    Procedure,
    describe_options,
    dump_record,
    load_record,
    outcome_data,
    probability_map,
)


def _two_d6_beats(target: int) -> Procedure[int, bool]:
    return Procedure(
        groups=((2, 6),),
        read=sum,
        exact=lambda: sum_of_dice(2, 6),
        rule=lambda total: total >= target,
    )


def test_procedure_rolls_and_computes_odds_with_one_rule() -> None:
    check = _two_d6_beats(8)
    faces, result = check.roll(ScriptedRoller([5, 3]))
    assert faces == (5, 3) and result is True
    assert check.odds().probability(True) == Fraction(15, 36)
    assert check.exact() == brute_force(check.groups, check.read)


def test_a_bulk_rule_gives_the_odds_its_own_map_would_give() -> None:
    """A rule with ``over`` (Mneme's Effect, Mnemonic's check) maps a whole distribution
    at once; the procedure's odds use it, and they are what mapping it value by value
    gives, for every Advantage step and a spread of modifiers and Difficulties."""
    from referee.systems.mneme.checks import check_procedure
    from referee.systems.mnemonic.checks import check_procedure as mnemonic_procedure

    for steps in (-2, -1, 0, 1, 2):
        for modifier, difficulty in ((3, 8), (-4, 0), (12, -7)):
            procedure = check_procedure(modifier, difficulty, steps)
            assert hasattr(procedure.rule, "over")
            mapped = procedure.exact().map(procedure.rule)
            assert procedure.odds().weights() == mapped.weights()
            assert procedure.odds() == brute_force(procedure.groups, procedure.apply)
    for formula in ("minus", "plus"):
        proc = mnemonic_procedure(7, 3, "3d12", formula=formula)
        assert proc.odds().weights() == proc.exact().map(proc.rule).weights()
        assert proc.odds() == brute_force(proc.groups, proc.apply)


def test_procedure_validates_hand_entered_faces_before_rolling() -> None:
    check = _two_d6_beats(8)
    with pytest.raises(DiceError, match=r"needs 2 faces .2d6.; 1 given"):
        check.roll(ManualRoller([1]))
    shared = ManualRoller([1, 2, 6, 6])  # two checks fed by one set of typed-in faces
    assert check.roll(shared) == ((1, 2), False)
    assert check.roll(shared) == ((6, 6), True)
    with pytest.raises(DiceError, match="impossible on a d6"):
        check.roll(ManualRoller([1, 9]))


def test_outcome_is_immutable_and_renders_to_json_data() -> None:
    from referee.dice.evaluate import DieRoll

    o = Outcome(
        system="demo",
        action="check",
        faces=(DieRoll(5, 6), DieRoll(1, 6, kept=False)),
        modifiers=(Modifier(2, "skill"), Modifier(-1, "wounds", "condition")),
        target=8,
        result=-2,
        success=False,
        label="Failure",
        changes=(Change("pc", "damage", delta=3, reason="hit"),),
        details={"p": Fraction(1, 3)},
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.label = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        o.details["p"] = 1  # type: ignore[index]
    assert o.modifier_total == 1
    data = outcome_data(o)
    assert data["faces"][1] == {"face": 1, "sides": 6, "kept": False}
    assert data["details"] == {"p": "1/3"}
    assert data["changes"][0]["delta"] == 3
    assert str(Modifier(-1, "wounds")) == "-1 wounds"


def test_ladder_labels_and_presets() -> None:
    ladder = Ladder(((-5, "bad"), (0, "draw"), (3, "good")))
    assert [ladder.label(v) for v in (-9, -5, -1, 0, 2, 3, 99)] == [
        "bad",
        "bad",
        "bad",
        "draw",
        "draw",
        "good",
        "good",
    ]
    assert ladder.value("GOOD") == 3
    assert ladder.names() == ("bad", "draw", "good")
    with pytest.raises(RulesError, match="unknown step 'great'; known: bad, draw, good"):
        ladder.value("great")
    with pytest.raises(ValueError):
        Ladder(((1, "a"), (0, "b")))


@dataclass(frozen=True)
class _Gear:
    name: str
    weight: int = 1


@dataclass(frozen=True)
class _Sheet:
    SCHEMA_VERSION: ClassVar[int] = 2
    name: str
    level: int
    gear: tuple[_Gear, ...] = ()

    @staticmethod
    def migrate(data: dict[str, object], version: int) -> dict[str, object]:
        if version == 1:
            data = dict(data)
            data["level"] = data.pop("lvl")
        return data


def test_records_round_trip_with_their_schema_version() -> None:
    sheet = _Sheet("Ahvia", 3, (_Gear("cape", 2),))
    data = dump_record(sheet)
    assert data == {
        "schema": 2,
        "name": "Ahvia",
        "level": 3,
        "gear": [{"name": "cape", "weight": 2}],
    }
    assert load_record(_Sheet, data) == sheet


def test_old_records_are_migrated_on_load() -> None:
    assert load_record(_Sheet, {"schema": 1, "name": "x", "lvl": 4}).level == 4


def test_loading_reports_every_problem_with_its_field_path() -> None:
    with pytest.raises(InvalidSheet) as info:
        load_record(_Sheet, {"name": 5, "gear": [{"weight": "heavy"}], "colour": "red"})
    fields = {p.field for p in info.value.problems}
    assert {"name", "level", "gear.0.name", "gear.0.weight", "colour"} <= fields
    with pytest.raises(InvalidSheet, match="unsupported schema version"):
        load_record(_Sheet, {"schema": 9, "name": "x", "level": 1})


@dataclass(frozen=True)
class _Party:
    leader: _Gear
    gear: tuple[_Gear, ...] = ()
    spare: _Gear | None = None
    stash: dict[str, _Gear] = field(default_factory=dict)


def test_unknown_keys_at_any_depth_are_reported_in_the_data_order() -> None:
    # nested fields were visited in set order, which varies with PYTHONHASHSEED
    data = {
        "stash": {"box": {"name": "rope", "knots": 3}},
        "zz": 1,
        "spare": {"name": "cape", "hue": "red"},
        "leader": {"name": "torch", "lit": True},
        "gear": [{"name": "a"}, {"name": "b", "extra": 2}],
        "aa": 2,
    }
    with pytest.raises(InvalidSheet) as info:
        load_record(_Party, data)
    assert [p.field for p in info.value.problems] == [
        "zz",
        "aa",
        "stash.box.knots",
        "spare.hue",
        "leader.lit",
        "gear.1.extra",
    ]
    clean = {"leader": {"name": "t"}, "gear": [{"name": "a", "weight": 2}], "spare": None}
    assert load_record(_Party, clean) == _Party(_Gear("t"), (_Gear("a", 2),))


@dataclass(frozen=True)
class _Options:
    costly_success: bool = field(default=True, metadata={"doc": "allow it"})
    ladder: tuple[str, ...] = field(default_factory=lambda: ("a", "b"))


def test_options_are_described_with_defaults_and_docs() -> None:
    assert describe_options(_Options) == [
        {"name": "costly_success", "default": True, "doc": "allow it"},
        {"name": "ladder", "default": ["a", "b"], "doc": ""},
    ]


def test_problem_and_invalid_sheet_messages() -> None:
    p = Problem("Game: Attributes", "attributes.size", "must be 1..7", 9)
    assert str(p) == "attributes.size: must be 1..7 (value: 9) [Game: Attributes]"
    err = InvalidSheet([p])
    assert (err.rule, err.field, err.value) == ("Game: Attributes", "attributes.size", 9)


def test_probability_map_uses_reduced_fractions() -> None:
    assert probability_map(sum_of_dice(1, 4).map(lambda x: x > 2)) == {
        "False": "1/2",
        "True": "1/2",
    }


def test_registry_knows_installed_games_and_rejects_others() -> None:
    assert set(base.names()) <= {"mnemonic", "mongrel", "mneme", "arm"}
    for name in base.names():
        ruleset = base.get(name)
        assert isinstance(ruleset, base.Ruleset)
        assert ruleset.name == name
    with pytest.raises(RulesError, match="unknown game 'chess'"):
        base.get("chess")


def test_option_declares_a_documented_field() -> None:
    from referee.systems.base import option

    @dataclass(frozen=True)
    class Opts:
        bonus: int = option(2, "A bonus.")
        names: tuple[str, ...] = option(doc="Names.", factory=lambda: ("a",))

    assert Opts() == Opts(2, ("a",))
    assert describe_options(Opts) == [
        {"name": "bonus", "default": 2, "doc": "A bonus."},
        {"name": "names", "default": ["a"], "doc": "Names."},
    ]


def test_outcome_holds_no_mutable_sequences_even_when_given_lists() -> None:
    faces = [DieRoll(3, 6)]
    mods = [Modifier(1, "skill")]
    o = Outcome("test", "check", faces=faces, modifiers=mods, changes=[])  # type: ignore[arg-type]
    faces.append(DieRoll(6, 6))
    mods.clear()
    assert o.faces == (DieRoll(3, 6),) and o.modifiers == (Modifier(1, "skill"),)
    assert o.changes == () and o.rolls == ()
    assert hash(o.faces) == hash((DieRoll(3, 6),))
