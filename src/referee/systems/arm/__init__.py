"""ARM (Advanced Role-Playing Mechanics 1.2): a data-driven generic toolkit.

Modules: :mod:`.scale` (logs, measures, units, rounds, group efforts),
:mod:`.checks` (task resolution and pushing), :mod:`.damage` (the damage
table, armour, stun, accumulation), :mod:`.combat` (melee and ranged
difficulties), :mod:`.magic` (set spells, the soul world), :mod:`.sheet`
(characters, point costs, validation), :mod:`.catalog` (a setting's lists),
:mod:`.examples` (the shipped premades) and :mod:`.discrepancies`.
"""

from referee.systems.arm.ruleset import RULESET

__all__ = ["RULESET"]
