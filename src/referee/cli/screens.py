"""The help screens as printed, read without click: ``referee --help``, ``referee mneme
--help``, ``referee serve --help`` ... at the usual width print the text stored in
``helps.json`` (beside this file), as fast as ``referee odds 2d6``.

:mod:`referee.cli.helps` writes the file from the commands themselves (``python -m
referee.cli.helps``), and a test checks that every stored screen is what click prints
for the loaded command, so the two cannot drift apart.
"""

from __future__ import annotations

import json
import os
from typing import Final, TypedDict

__all__ = ["HELPS_FILE", "HELP_FLAGS", "WIDTH", "GroupHelp", "Stored", "read", "stored_screen"]

HELPS_FILE: Final = os.path.join(os.path.dirname(__file__), "helps.json")
WIDTH: Final = 78
"""The width the screens are stored at: click's on a terminal of 80 columns or more, or
with no terminal (:func:`referee.cli.text.help_width` is at most 78)."""
HELP_FLAGS: Final = ("-h", "--help")


class GroupHelp(TypedDict):
    """What a group's help screen lists: its own help and epilog, then each visible
    command's name, help, short help and whether its line is the first sentence of its
    help (:class:`referee.cli.helps.Summed`)."""

    help: str | None
    epilog: str | None
    commands: list[tuple[str, str | None, str | None, bool]]


class Stored(TypedDict):
    """``helps.json``: each screen as printed at :data:`WIDTH` (by its command line after
    ``referee``, ``""`` for the top), and each group's listing for other widths."""

    screens: dict[str, str]
    groups: dict[str, GroupHelp]


def read() -> Stored:
    """What ``helps.json`` holds (nothing if it is missing)."""
    try:
        with open(HELPS_FILE, encoding="utf-8") as f:
            stored: Stored = json.load(f)
    except FileNotFoundError:
        return {"screens": {}, "groups": {}}
    return stored


def stored_screen(argv: list[str], width: int) -> str | None:
    """The help screen ``referee ARGV`` prints, if ARGV only asks for one (``--help``,
    ``GROUP --help``, ``serve -h`` ...) at the stored width and it is stored; else None."""
    if width != WIDTH or not 1 <= len(argv) <= 2 or argv[-1] not in HELP_FLAGS:
        return None
    return read()["screens"].get(" ".join(argv[:-1]))
