"""ARM (Advanced Role-Playing Mechanics 1.2): a data-driven generic toolkit.

``RULESET`` (:mod:`.ruleset`) carries the game behind the shared contract:
:mod:`.actions` (every action, naming characters by id), :mod:`.state` (what a
table tracks: wounds, shock, the round, waiting attacks, a held roll), and the
rules of play in :mod:`.play`, :mod:`.fight` and :mod:`.upkeep`, on the dice
programs of :mod:`.rolls` and :mod:`.checks`. The game's own concerns:
:mod:`.scale` (logs, measures, units, rounds, group efforts), :mod:`.damage`
(the damage table, armour, stun, accumulation), :mod:`.combat` (melee and
ranged difficulties, the one-action rule), :mod:`.magic`, :mod:`.sheet`
(characters, point costs, validation), :mod:`.catalog` (a setting's lists),
:mod:`.examples` (the shipped premades), :mod:`.options` and
:mod:`.discrepancies`.
"""

from referee.systems.arm.ruleset import RULESET

__all__ = ["RULESET"]
