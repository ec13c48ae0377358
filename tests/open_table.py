"""Table settings shared by the tests written before issue 32 made taking back rolls and
typing physical dice the referee's to allow."""

from __future__ import annotations

from typing import Final

OPEN: Final = {"typed_dice": "everyone", "take_back": "always"}
"""Players type their physical dice and take back their rolls at once (the table
settings these tests were written for)."""
