"""Mneme CE: core mechanics (ch. 2) and outcomes (ch. 7) as a referee rules package."""

from referee.systems.mneme.ruleset import RULESET

__all__ = ["RULESET"]
