"""Mongrel (Ron Edwards, 2003): sheets, task resolution, damage, sorcery, conflict, wealth."""

from .ruleset import RULESET

__all__ = ["RULESET"]
