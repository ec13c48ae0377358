"""The errors analysis raises, all :class:`~referee.errors.RulesError` so the CLI shows
one line: a request refused *before* the work starts, never a hang."""

from __future__ import annotations

from referee.errors import OddsTooComplex, RulesError


class AnalysisError(RulesError):
    """Bad input to an analysis: an unknown character, policy, grid or precision."""


class ChainTooLarge(OddsTooComplex):
    """An exact chain whose state space (or one step's dice) passes the bound; the
    message says how to simulate instead."""


class MissingExtra(RulesError):
    """numpy, matplotlib or dask is not installed (the optional ``analysis`` extra)."""


def need(module: str) -> None:
    """Import ``module`` or raise :class:`MissingExtra` with the install line."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        raise MissingExtra(
            f"{module} is needed for this analysis: pip install 'referee[analysis]'"
        ) from None
