"""Mnemonic (Alpha-Zulu Games): characters, the Success Check with its six
randomizers, fussing and fighting, and injuries.

Implements the Referee's Guide p. 1 with the Player's Guide facts and the
product's rulings (COMPANION.md, RULINGS.md).
"""

from referee.systems.mnemonic.ruleset import RULESET

__all__ = ["RULESET"]
