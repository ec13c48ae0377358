"""One broken rule found by a validator (re-exported by :mod:`referee.errors`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken rule found by a validator.

    ``rule`` cites the rule text (e.g. ``"Mongrel: Attributes"``), ``field``
    is the path of the offending value in the sheet (``"attributes.size"``).
    """

    rule: str
    field: str
    message: str
    value: Any = None

    def __str__(self) -> str:
        text = repr(self.value)
        if len(text) > 80:  # a message names the value, never echoes a huge input back
            text = text[:77] + "..."
        shown = "" if self.value is None else f" (value: {text})"
        return f"{self.field}: {self.message}{shown} [{self.rule}]"
