"""The Ruleset contract: registry, actions, resolve and odds agree."""

from __future__ import annotations

from fractions import Fraction

import pytest

from referee.dice.roller import ManualRoller, ScriptedRoller
from referee.systems.arm import RULESET
from referee.systems.arm.damage import Blow, Condition
from referee.systems.arm.examples import premade
from referee.systems.arm.options import Options
from referee.systems.arm.ruleset import MovementPush, Strike, Task
from referee.systems.base import IllegalAction, RulesError, Ruleset, describe_options, get


def test_registered_and_protocol() -> None:
    assert get("arm") is RULESET and isinstance(RULESET, Ruleset)
    assert set(RULESET.actions()) == {"task", "strike", "movement push"}
    assert {o["name"] for o in describe_options(RULESET.options_type)} >= {"pushing", "log_method"}
    assert RULESET.validate(premade("alex"), Options()) == ()


def test_pushing_is_off_until_the_referee_allows_it() -> None:
    with pytest.raises(IllegalAction, match="pushing is switched off"):
        RULESET.resolve(Task(8, 6, push=True), None, ManualRoller([6, 1, 4]), Options())


def test_resolve_and_odds_agree() -> None:
    opts = Options(pushing=True)
    task = Task(8, 6, push=True, actor="Brad")
    o = RULESET.resolve(task, None, ManualRoller([6, 1, 4]), opts)
    assert o.result == 8 and o.manual and o.changes[0].target == "Brad"
    assert RULESET.odds(task, None, opts).probability(8) == Fraction(4 + 1, 216)
    strike = Strike(Blow(5, 7, 5, 1, 4, 2), target="Alex")
    hit = RULESET.resolve(strike, {"Alex": Condition(shock=1)}, ScriptedRoller([2, 2]), opts)
    assert hit.details["condition"] == "Moderate, Reeling"
    hit = RULESET.resolve(strike, {"Alex": premade("alex")}, ScriptedRoller([2, 2]), opts)
    assert hit.details["condition"] == "Moderate, Giddy"
    dist = RULESET.odds(strike, None, opts)
    assert sum(dist.probabilities().values()) == 1
    pushed = Strike(Blow(5, 7, 5, 1, 4, 2), target="Alex", push=True, attacker="Brad")
    hit = RULESET.resolve(pushed, None, ScriptedRoller([2, 2, 5]), opts)
    assert hit.details["total"] == 14 and hit.details["shock_label"] == "Fainting"
    assert ("Brad", "shock", 1) in [(c.target, c.field, c.delta) for c in hit.changes]
    pushed_odds = RULESET.odds(pushed, None, opts)
    assert pushed_odds.total == 216 and pushed_odds.map(lambda d: d.push_cost).probability(1) == (
        Fraction(4, 6)
    )
    push = RULESET.odds(MovementPush(5), None, opts)
    assert push.probability((6, 1)) == Fraction(4, 6)
    assert RULESET.resolve(MovementPush(5), None, ScriptedRoller([6]), opts).result == 6


@pytest.mark.parametrize(
    "bad",
    [
        {"log_method": "slide rule"},
        {"group_count": "everyone"},
        {"pushing": "yes"},
        {"stun_shift": -1},
        {"stun_shift": 9},
        {"max_wounds": 10**9},
        {"destroyed_at": -5},
        {"circling_bonus": 2.5},
        {"berserk_penalty": True},
    ],
)
def test_options_refuse_values_the_rules_cannot_use(bad: dict[str, object]) -> None:
    from referee.systems.arm.options import Options

    with pytest.raises(RulesError, match="option"):
        Options(**bad)  # type: ignore[arg-type]


def test_every_option_is_documented_with_its_default() -> None:
    """docs/arm.md's option table names every field of Options with its default."""
    from dataclasses import fields
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "arm.md").read_text(encoding="utf-8")
    rows = {
        line.split("|")[1].strip(" `"): line.split("|")[2].strip(" `")
        for line in docs.splitlines()
        if line.startswith("| `")
    }
    for f in fields(Options):
        assert f.metadata["doc"]
        default = str(f.default).lower() if isinstance(f.default, bool) else str(f.default)
        assert rows.get(f.name, "").replace("−", "-") == default, f.name
