"""Characters: the record, Talent lists, creation policies, validation of every problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.errors import InvalidSheet
from referee.systems.base import dump_record, load_record
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.sheet import Sheet, Status, creation_balance, validate
from referee.systems.mnemonic.tables import DEFAULT_TALENTS

DATA = Path(__file__).resolve().parents[2] / "src/referee/systems/mnemonic/data/examples"


def _person(**talents: int) -> Sheet:
    return Sheet("Pat", "human", dict.fromkeys(DEFAULT_TALENTS, 3) | talents, {"Cook": 4})


@pytest.mark.parametrize("name", ["boxer.json", "frigate.json"])
def test_example_characters_load_validate_and_round_trip(name: str) -> None:
    data = json.loads((DATA / name).read_text())
    sheet = load_record(Sheet, data)
    assert validate(sheet, Options()) == ()
    assert load_record(Sheet, dump_record(sheet)) == sheet


def test_every_problem_is_reported() -> None:
    sheet = Sheet(
        name=" ",
        primary_role="",
        talents={"Agile": 7, "Dangerous": -1, "Smart": 3, "Psychic": 2, "Lucky": 2},
        life_roles={"Pilot": 9, "pilot": 1},
        status=Status("inactive", None, -1),
    )
    problems = validate(sheet, Options())
    fields = [p.field for p in problems]
    assert "name" in fields and "primary_role" in fields
    assert "talents.Agile" in fields and "talents.Dangerous" in fields
    for missing in ("Disciplined", "Handy", "Influential", "Tough"):
        assert f"talents.{missing}" in fields
    assert "talents.Psychic" in fields
    lucky = next(p for p in problems if p.field == "talents.Lucky")
    assert "use_lucky" in lucky.message
    assert "life_roles.Pilot" in fields and "life_roles.pilot" in fields
    assert "status.injuries" in fields and "status.inactive_as" in fields
    assert all(p.rule.startswith("Mnemonic: ") for p in problems)


def test_lucky_must_be_rated_when_used() -> None:
    problems = validate(_person(), Options(use_lucky=True))
    assert [p.field for p in problems] == ["talents.Lucky"]


def test_unknown_talent_list() -> None:
    sheet = Sheet("Red Army", "army", {"Numerous": 5}, talent_list="army")
    (p,) = validate(sheet, Options())
    assert p.field == "talent_list" and "frigate" in p.message
    opts = Options(talent_lists=(("army", ("Numerous", "Equipped", "Fit")),))
    fields = [p.field for p in validate(sheet, opts)]
    assert fields == ["talents.Equipped", "talents.Fit"]


def test_referee_renamed_talent_list() -> None:
    horror = (*DEFAULT_TALENTS, "Sane")
    sheet = _person(Sane=4)
    assert validate(sheet, Options(talents=horror)) == ()
    assert [p.field for p in validate(sheet, Options())] == ["talents.Sane"]


def test_trade_policy_raises_paid_by_drops() -> None:
    opts = Options(creation="trade", starting_level=3)
    balanced = _person(Agile=5, Smart=1)  # +2 raised, -2 dropped
    assert creation_balance(balanced, opts) == 0 and validate(balanced, opts) == ()
    weaker = _person(Smart=1)  # dropping without raising is allowed
    assert validate(weaker, opts) == ()
    greedy = _person(Agile=5, Tough=4, Smart=2)  # +3 raised, -1 dropped
    (p,) = validate(greedy, opts)
    assert p.field == "talents" and p.value == 2 and "2 raise(s)" in p.message


def test_free_raises_policy() -> None:
    opts = Options(creation="free-raises", starting_level=4, free_raises=3)
    base = Sheet("Hero", "human", dict.fromkeys(DEFAULT_TALENTS, 4))
    three = Sheet("Hero", "human", dict(base.talents) | {"Agile": 6, "Tough": 5})
    assert validate(three, opts) == ()
    five = Sheet("Hero", "human", dict(three.talents) | {"Smart": 6})
    (p,) = validate(five, opts)
    assert "beyond 3 free raise" in p.message and p.value == 5
    paid = Sheet("Hero", "human", dict(five.talents) | {"Handy": 2})
    assert validate(paid, opts) == ()


def test_free_policy_allows_any_ladder_ratings() -> None:
    assert validate(_person(Agile=6, Tough=6, Smart=6), Options()) == ()


def test_bad_records_name_every_field() -> None:
    with pytest.raises(InvalidSheet) as err:
        load_record(Sheet, {"name": "X", "talents": {"Agile": "lots"}, "colour": "red"})
    fields = {p.field for p in err.value.problems}
    assert {"colour", "primary_role", "talents.Agile"} <= fields


def test_rating_names_are_data() -> None:
    opts = Options(rating_names=("Nil", "Bit", "Some", "Mid", "Good", "Great", "Top"))
    assert opts.rating_name(3) == "Mid"
    assert Options().rating_name(1) == "Slightly" and Options().rating_name(6) == "Extremely"
    with pytest.raises(ValueError, match="rating_names"):
        Options(rating_names=("a",))


def test_impossible_options_are_rules_errors_listing_every_problem() -> None:
    from referee.errors import RulesError

    with pytest.raises(RulesError) as err:
        Options(
            randomizer="d20",
            primary_relevant=7,
            talents=("Agile", "agile"),
            talent_lists=(("standard", ("Fast",)),),
            injured_label=" ",
        )
    text = str(err.value)
    for part in (
        "randomizer must be one of",
        "primary_relevant must be a rating 0..6",
        "'talents' has a blank or repeated Talent",
        "other than 'standard'",
        "injured_label must not be blank",
    ):
        assert part in text


def test_referee_renames_standard_talents_in_place() -> None:
    """The text's frigate: Sturdy is basically Tough, Well-Armed is Dangerous."""
    from referee.errors import RulesError
    from referee.systems.mnemonic.options import renamed
    from referee.systems.mnemonic.tables import FRIGATE_EQUIVALENTS

    to_ship = {std: new for new, std in FRIGATE_EQUIVALENTS.items()}
    talents = renamed(DEFAULT_TALENTS, to_ship)
    assert talents == (
        "Agile",
        "Well-Armed",
        "Disciplined",
        "Handy",
        "Influential",
        "Smart",
        "Sturdy",
    )
    opts = Options(talents=talents)
    ship = Sheet("Sloop", "sloop", dict.fromkeys(talents, 3))
    assert validate(ship, opts) == ()
    assert [p.field for p in validate(ship, Options())] == [
        "talents.Dangerous",
        "talents.Tough",
        "talents.Well-Armed",
        "talents.Sturdy",
    ]
    with pytest.raises(RulesError, match="cannot rename 'Sneaky'"):
        renamed(DEFAULT_TALENTS, {"Sneaky": "Stealthy"})
    with pytest.raises(RulesError, match="repeat a Talent"):
        renamed(DEFAULT_TALENTS, {"Tough": "Agile"})
