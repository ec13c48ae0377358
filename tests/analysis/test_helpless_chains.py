"""Issue 41: an analysis chain stops a fighter the text makes helpless.

Mneme CE's Critically Wounded character is out ("A character who is Out is helpless",
ch. 7, the option ``critically_wounded_out`` at its default): a fight studied until Dying
therefore ends where the loser can no longer act, at Critically Wounded, exactly as the
same fight studied until Critically Wounded. Every node's step is one the rules allow."""

from __future__ import annotations

import pytest

from referee.analysis.chain import explore
from referee.analysis.scenario import Scenario
from referee.analysis.solve import solve


def _fight(until: str) -> Scenario:
    sc = Scenario.default("mneme")
    sc.options = {"adversary_attacks": "referee_rolls"}  # both sides roll
    sc.params = {**sc.params, "until": until}
    return sc


@pytest.mark.slow
def test_a_fighter_out_at_critically_wounded_stops_a_fight_studied_until_dying() -> None:
    dying = explore(_fight("Dying").model())
    critical = explore(_fight("Critically Wounded").model())
    assert solve(dying).p == solve(critical).p
    model = dying.model
    for i, state in enumerate(dying.states):  # nobody helpless is ever asked to act
        if dying.verdicts[i] is None:
            step = model.next(state, dying.memos[i])
            for cid in step.action.actors():
                assert model.ruleset.can(state, cid, "act", model.options)
