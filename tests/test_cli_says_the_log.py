"""The command line and the table's log say the same outcome in the same words (issue 35).

Each case plays one action at a table (through :class:`TableService`, as the page does)
and the same action with the same faces on the command line (``referee GAME act``, or a
game's preset): the command prints the sentence and every fact - the dice by role, the
modifiers, the numbers, each change - that the log's entry says
(:func:`referee.table.words.outcome_words`, which the page's log and the recap read)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tests.open_table import OPEN

from referee.cli.main import app
from referee.table.service import TableService
from referee.table.store import Store
from referee.table.words import outcome_words

CASES: list[tuple[str, dict[str, str], str, dict[str, Any], list[int], list[str]]] = [
    (
        "arm",
        {"brad": "brad", "alex": "alex"},
        "damage",
        {"actor": "brad", "target": "alex", "result": 5, "damage": 7},
        [2, 2],
        ["act", "damage", "actor=brad", "target=alex", "result=5", "damage=7"],
    ),
    (
        "arm",
        {"brad": "brad"},
        "task",
        {"actor": "brad", "stat": "Fitness", "difficulty": 6},
        [3, 5],
        ["act", "task", "actor=brad", "stat=Fitness", "difficulty=6"],
    ),
    (
        "mnemonic",
        {"mickey-ruane": "boxer"},
        "injury",
        {"victim": "mickey-ruane", "chances": "Good", "worst": "unconscious"},
        [4],
        ["act", "injury", "victim=mickey-ruane", "chances=Good", "worst=unconscious"],
    ),
    (
        "mongrel",
        {},
        "check",
        {"dice": 4, "tn": 3, "mode": "over"},
        [6, 3, 1, 1],
        ["check", "--dice", "4", "--tn", "3", "--mode", "over"],
    ),
    (
        "mneme",
        {},
        "check",
        {"difficulty": 8},
        [5, 4],
        ["check", "-d", "8"],
    ),
]


@pytest.mark.parametrize(
    ("game", "seats", "action", "fields", "faces", "argv"),
    CASES,
    ids=[f"{c[0]}-{c[2]}" for c in CASES],
)
def test_the_command_line_prints_what_the_log_says(
    tmp_path: Path,
    game: str,
    seats: dict[str, str],
    action: str,
    fields: dict[str, Any],
    faces: list[int],
    argv: list[str],
) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'log.db'}"))
    try:
        tid = service.create(game, "Same words", "Ron", settings=OPEN).table.id
        for example in seats.values():
            service.add_character(tid, example, force=True)
        assert list(service.load(tid).state.characters) == list(seats)  # the same ids
        service.act(tid, "Ron", action, fields, faces=faces)
        said = outcome_words(service.log(tid, "Ron")[-1])
    finally:
        service.store.close()
    assert said is not None
    seated = [f"--seat={cid}=example:{example}" for cid, example in seats.items()]
    hand = ["--faces", ",".join(map(str, faces))]
    run = CliRunner().invoke(app, [game, *argv, *seated, *hand])
    assert run.exit_code == 0, run.output
    printed = [line.strip() for line in run.output.splitlines()]
    shown = [said.sentence, *said.facts]
    # the command line marks faces typed in by hand after the first die group
    assert [p.replace(" (entered by hand)", "") for p in printed] == shown
    assert len(shown) >= 3  # a sentence, its dice, its numbers at least
