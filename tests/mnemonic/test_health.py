"""Injuries: the check to stay active and the new Status."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Outcome
from referee.systems.mnemonic import RULESET
from referee.systems.mnemonic.actions import Injury, SetStatus
from referee.systems.mnemonic.health import parse_status, resisting_aptitude
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.sheet import Sheet, Status
from referee.systems.mnemonic.state import State
from referee.systems.mnemonic.tables import DEFAULT_TALENTS

BOXER = Sheet(
    "Mick",
    "human",
    dict.fromkeys(DEFAULT_TALENTS, 2) | {"Tough": 5},
    {"Professional Boxer": 4},
)


def table(status: Status = Status(), options: Options = Options()) -> State:  # noqa: B008
    state = RULESET.seat(RULESET.initial_state(options), "mick", BOXER, options)
    return RULESET.apply(state, RULESET.resolve(_set(status), state, ScriptedRoller([]), options))


def _set(status: Status) -> SetStatus:
    return SetStatus("mick", status.condition, status.inactive_as, status.injuries)


def injure(
    action: Injury,
    faces: list[int],
    state: State,
    options: Options = Options(),  # noqa: B008
) -> tuple[Outcome, Status]:
    """Resolve an injury at the table; the victim's Status after it."""
    out = RULESET.resolve(action, state, ScriptedRoller(faces), options)
    after = RULESET.apply(state, out)
    return out, after.characters["mick"].status if "mick" in after.characters else Status()


def test_resisting_aptitude_primary_at_moderately_plus_best_talent() -> None:
    apt = resisting_aptitude(BOXER, options=Options())
    assert apt.value == 5 + 3 and "Tough" in apt.parts[0].source
    assert resisting_aptitude(BOXER, life_role="Professional Boxer", options=Options()).value == 9
    with pytest.raises(IllegalAction):
        resisting_aptitude(BOXER, life_role="Pilot", options=Options())


def test_success_keeps_the_victim_active_and_hurt() -> None:
    out, now = injure(Injury("unconscious", victim="mick"), [8], table())
    # Tough 5 + Primary at Moderately 3 - 8 = 0: 1 Success
    assert out.success and out.details["status"] == "Hurt"
    assert {c.target for c in out.changes} == {"mick"}
    assert now == Status("Hurt", None, 1)


def test_failure_makes_the_victim_inactive_as_the_worst_outcome() -> None:
    out, now = injure(Injury("dead", victim="mick"), [9], table())
    assert not out.success and now == Status("inactive", "dead", 1)
    assert "inactive (dead)" in out.label


def test_each_earlier_injury_is_one_chances_step_worse() -> None:
    hurt = Status("Hurt", None, 2)
    action = Injury("immobilized", victim="mick", chances="Good")
    out, now = injure(action, [3], table(hurt))
    # 8 - 3 + 6 - 2*3 = 5
    assert out.result == 5 and now == Status("Hurt", None, 3)
    assert RULESET.odds(Injury("dead", victim="mick", chances="Good"), table(hurt), Options()) == (
        RULESET.odds(Injury("dead", aptitude=8, chances="Good", status=hurt), State(), Options())
    )
    dist = RULESET.odds(action, table(hurt), Options())
    assert dist.probability("Hurt") == Fraction(8, 12)


def test_injury_options_label_and_step() -> None:
    opts = Options(injured_label="Wounded", injury_step=2)
    out, now = injure(
        Injury("unconscious", victim="mick", aptitude=6),
        [4],
        table(Status("Wounded", None, 1)),
        opts,
    )
    assert out.result == 0 and now == Status("Wounded", None, 2)


def test_an_inactive_victim_stays_inactive_at_the_worse_outcome() -> None:
    down = Status("inactive", "unconscious", 1)
    _, now = injure(Injury("dead", victim="mick"), [12], table(down))
    assert now == Status("inactive", "dead", 2)
    _, now = injure(Injury("immobilized", victim="mick"), [1], table(Status("inactive", "dead", 1)))
    assert now == Status("inactive", "dead", 2)


def test_injury_odds_sum_to_the_check() -> None:
    dist = RULESET.odds(Injury("unconscious", aptitude=7, chances="Fair"), State(), Options())
    assert dist.probability("Hurt") == Fraction(10, 12)
    assert dist.probability("inactive (unconscious)") == Fraction(2, 12)


def test_unknown_worst_outcome() -> None:
    with pytest.raises(IllegalAction, match="unconscious, immobilized, dead"):
        Injury("maimed", aptitude=7)


def test_injury_takes_the_victims_current_status() -> None:
    """Issue 10: an injury check reads the victim's Status, whether the table tracks it
    (a seated victim) or the referee gives it (anyone else)."""
    down = Status("inactive", "unconscious", 1)
    # a victim not seated: 8 - 12 fails; already unconscious, now dead at worst
    out = RULESET.resolve(
        Injury("dead", aptitude=8, status=down), State(), ScriptedRoller([12]), Options()
    )
    assert out.details["status"] == "inactive (dead)" and out.details["status_before"] == str(down)
    assert out.changes == ()  # nobody at the table to change
    # 8 - 1 - 3 (one earlier injury) = 4: stays inactive though the check succeeds
    out = RULESET.resolve(
        Injury("dead", aptitude=8, status=down), State(), ScriptedRoller([1]), Options()
    )
    assert out.result == 4 and out.details["status"] == "inactive (unconscious)"
    with pytest.raises(IllegalAction, match="tracks mick's Status"):
        RULESET.odds(Injury("dead", victim="mick", status=down), table(), Options())
    with pytest.raises(IllegalAction, match="inactive_as"):
        Injury("dead", aptitude=8, status=Status("inactive", None, 1))


def test_status_as_a_referee_writes_it() -> None:
    assert parse_status("Fine") == Status()
    assert parse_status("hurt") == Status("Hurt", None, 1)
    assert parse_status("inactive (Dead)", 2) == Status("inactive", "dead", 2)
    assert parse_status("unconscious") == Status("inactive", "unconscious", 1)
    assert parse_status("Wounded", options=Options(injured_label="Wounded")).condition == "Wounded"
    with pytest.raises(RulesError, match="unknown Status 'bruised'"):
        parse_status("bruised")


def test_set_status_is_the_referees_and_changes_by_delta() -> None:
    state = table(Status("Hurt", None, 2))
    assert SetStatus.referee_only and SetStatus("mick").actors() == ()
    out = RULESET.resolve(SetStatus("mick", "Fine", None, 0), state, ScriptedRoller([]), Options())
    assert [c.delta for c in out.changes if c.field == "status.injuries"] == [-2]
    assert RULESET.apply(state, out).characters["mick"].status == Status()


# ---------------------------------------------------------------------------
# An independent reader of the injury check (COMPANION facts and ruling), from
# the text alone: Aptitude - d12 + Chances, one Chances step (3) worse per
# earlier injury; failure -> inactive as the worst outcome, success -> Hurt.


@pytest.mark.parametrize(("aptitude", "chances", "injuries"), [(8, 6, 0), (8, 6, 2), (5, -3, 1)])
@pytest.mark.parametrize("randomizer", ["d12", "3d12"])
def test_injury_against_the_rulings_reading(
    aptitude: int, chances: int, injuries: int, randomizer: str
) -> None:
    values = (
        list(range(1, 13))
        if randomizer == "d12"
        else [sorted(r)[1] for r in product(range(1, 13), repeat=3)]
    )
    counted = Counter(
        "Hurt" if aptitude - v + chances - 3 * injuries >= 0 else "inactive (dead)" for v in values
    )
    reader = {s: Fraction(k, len(values)) for s, k in counted.items()}
    status = Status("Hurt" if injuries else "Fine", None, injuries)
    action = Injury("dead", aptitude=aptitude, chances=chances, status=status)
    dist = RULESET.odds(action, State(), Options(randomizer=randomizer))
    assert dist.probabilities() == reader
