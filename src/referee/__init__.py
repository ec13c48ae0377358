"""referee: a rules engine, exact-odds core and live table for four tabletop RPGs.

The package import is deliberately light: subpackages (``referee.dice``,
``referee.systems``, ``referee.cli``) are imported on demand.
"""

__version__ = "0.1.0"
