"""The numbers ARM's odds read from a sheet another participant may not see.

A contest's difficulty is the opponent's stat with the mods they use; circling is Wit
against Wit (ARM 1.2, Task Resolution; Combat (Melee)). A player whose preview reads a
sheet they may not see is shown the chance for each value the rules allow instead:
"humans almost always fit in the range 4-8, with 3 and 9 being possible" (ARM 1.2,
Stats), so every value from 3 to 9. A roll that names the hidden opponent's mods is not
tried per value (the mods a sheet lacks are its own secret).
"""

from __future__ import annotations

from referee.systems.arm import actions as a
from referee.systems.arm.fight import plan_circle
from referee.systems.arm.options import Options
from referee.systems.arm.play import plan_contest
from referee.systems.arm.rolls import Pushable
from referee.systems.arm.state import State
from referee.systems.base import Action, Plan, Unknown

HUMAN_STATS = tuple(range(3, 10))
"""The stats a human may have: 4 to 8, with 3 and 9 possible (ARM 1.2, Stats)."""

ALLOWED = "a human's stat, 3 to 9 (ARM 1.2, Stats)"


def unknown(action: Action, state: State, options: Options) -> Unknown | None:
    """The opponent's resisting total of a contest or a circling, per value (see the
    module text); ``None`` for any other action, or one naming the opponent's mods."""
    if isinstance(action, a.Contest) and not action.opponent_mods:
        contest = action

        def tried(value: int) -> Plan:
            return Pushable(lambda x, s, o: plan_contest(x, s, o, resist=value))(
                contest, state, options
            )

        return Unknown(contest.opponent, contest.opponent_stat, HUMAN_STATS, tried, ALLOWED)
    if isinstance(action, a.Circle) and not action.target_mods:
        circle = action

        def circled(value: int) -> Plan:
            return Pushable(lambda x, s, o: plan_circle(x, s, o, wit=value))(circle, state, options)

        return Unknown(circle.target, "Wit", HUMAN_STATS, circled, ALLOWED)
    return None
