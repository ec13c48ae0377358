"""An outcome's dice keep what the notation's modifiers did to them (a Fate die's worth,
a rerolled or exploded roll) through JSON and back, and a plain die's record is as it
always was (so older logs replay to the same outcome data)."""

from __future__ import annotations

from referee.dice.rolling import DieRoll
from referee.systems.outcome import Outcome, outcome_data, outcome_from_data


def test_modified_dice_survive_the_log() -> None:
    faces = (
        DieRoll(1, 3, True, -1),  # a Fate die's minus
        DieRoll(6, 6, True, None, False, True),  # a roll an explosion added
        DieRoll(1, 6, False, None, True),  # a 1 set aside by a reroll
        DieRoll(4, 6),  # a plain die
    )
    outcome = Outcome("mneme", "roll", faces=faces)
    data = outcome_data(outcome)
    assert data["faces"] == [
        {"face": 1, "sides": 3, "kept": True, "value": -1},
        {"face": 6, "sides": 6, "kept": True, "exploded": True},
        {"face": 1, "sides": 6, "kept": False, "rerolled": True},
        {"face": 4, "sides": 6, "kept": True},
    ]
    assert outcome_from_data(data) == outcome
    assert outcome_from_data(data, trusted=True) == outcome
