"""The recap of a table's log: a scripted Mnemonic table with dice entered by hand over two
evenings, read back as the referee and as each player sees it.

Every chance is counted here from the rule (a Success Check succeeds when Aptitude - d12
+ Chances is 0 or more: the faces 1..12 that do, out of 12), never read from the program.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from tests.open_table import OPEN

import referee.table.service as service_module
from referee.table.recap import Recap, odds_text, recap
from referee.table.service import TableService
from referee.table.state import Viewer
from referee.table.store import Store
from referee.writers.recap import html_document, to_html, to_markdown

FRIDAY = "2026-11-20"
SATURDAY = "2026-11-21"
PRIMARY = 3  # Mickey Ruane's Primary Role counts Moderately (3) where no Life Role fits


def success_chance(aptitude: int, chances: int = 0) -> Fraction:
    """A Mnemonic Success Check's chance, counted face by face on one d12."""
    good = sum(1 for face in range(1, 13) if aptitude - face + chances >= 0)
    return Fraction(good, 12)


def _clock(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every event's time from a list the test fills: the session's dates are the test's."""
    stamps: list[str] = []
    minute = iter(range(10_000))

    def now() -> str:
        day = stamps[-1] if stamps else FRIDAY
        return f"{day}T20:{next(minute) % 60:02d}:00.000+00:00"

    monkeypatch.setattr(service_module, "now", now)
    return stamps


@pytest.fixture
def night(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TableService, str]]:
    """Friday: Ann's Tough check (face 5), the referee's secret check (face 11), a whisper
    from Ann to Ben, a note to everyone, a free roll, an undone roll. Saturday: Mickey's
    Tough is lowered to 2 and he checks again (face 4); a secret NPC is seated and checks
    in public (face 2)."""
    day = _clock(monkeypatch)
    service = TableService(Store(f"sqlite:///{tmp_path / 'recap.db'}"))
    tid = service.create("mnemonic", "Docks", "Kim", settings=OPEN).table.id
    for who in ("Ann", "Ben", "Cy"):
        service.join(tid, who, "player")
    service.add_character(tid, "boxer", owner="Ann")
    service.act(tid, "Ann", "sheet-check", {"actor": "mickey-ruane", "talent": "Tough"}, faces=[5])
    service.act(
        tid, "Kim", "check", {"aptitude": 7, "chances": "Fair"}, faces=[11], visibility="referee"
    )
    service.note(
        tid, "Ann", "meet me at the <docks> *tonight*", visibility="private", audience="Ben"
    )
    service.note(tid, "Ben", "Evening, all")
    service.act(tid, "Ann", "roll", {"dice": "2d6"}, faces=[6, 3])
    service.act(tid, "Kim", "check", {"aptitude": 4, "chances": -2}, faces=[1])
    service.undo(tid, by="Kim")
    day.append(SATURDAY)
    sheet = service.load(tid).ruleset.dump_sheet(service.load(tid).ruleset.examples()["boxer"])
    sheet["talents"]["Tough"] = 2
    service.update_character(tid, "mickey-ruane", sheet, by="Kim", force=True)
    service.act(tid, "Ann", "sheet-check", {"actor": "mickey-ruane", "talent": "Tough"}, faces=[4])
    secret = service.add_character(tid, "frigate", by="Kim", visibility="referee")
    frigate = str(secret.event.payload["id"])  # a secret seat's id: nobody can guess it
    service.act(tid, "Kim", "sheet-check", {"actor": frigate, "talent": "Sturdy"}, faces=[2])
    yield service, tid
    service.store.close()


def _made(service: TableService, tid: str, who: str | None) -> Recap:
    full = service.load(tid)
    return recap(service.store.events(tid), full.viewer(who))


def _line(made: Recap, seq: int) -> str:
    """The Markdown list item of event ``seq`` (with its continuation line)."""
    text = to_markdown(made)
    found = re.search(rf"^- \*\*\d\d:\d\d\*\* #{seq} .*(?:\n  .*)?", text, re.M)
    assert found, (seq, text)
    return found.group(0)


def test_each_roll_reads_with_its_dice_result_and_its_exact_chance(
    night: tuple[TableService, str],
) -> None:
    service, tid = night
    made = _made(service, tid, "Kim")
    seq = {e.seq: e for e in service.store.events(tid)}
    # created, three joined, Mickey seated; then the script's events in order
    tough, secret, whisper, hello, free, undone, undo, _upd, tough2, _npc, npc_roll = list(seq)[5:]
    assert seq[undo].kind == "undo" and seq[undo].payload["seq"] == undone

    # Friday: Tough 5 + Primary 3 = 8 against a d12 showing 5: success, chance 8/12
    line = _line(made, tough)
    assert "**Ann** rolled: Mickey Ruane makes a Tough check" in line
    assert "randomizer die 5 (entered by hand)" in line
    assert "+5 Tough (Very)" in line and "-5 randomizer d12" in line
    assert "**4 Successes**" in line  # 8 - 5 = 3: 3 + 1 Successes
    assert success_chance(5 + PRIMARY) == Fraction(2, 3)
    assert f"chance of success {odds_text(success_chance(8))}" in line
    assert "chance of success 2/3 (66.67%)" in line

    # the referee's secret check, whole for the referee: 7 + 3 (Fair) - 11 < 0
    line = _line(made, secret)
    assert "\\[secret\\]" in line and "**1 Failure**" in line
    assert f"chance of success {odds_text(success_chance(7, 3))}" in line
    assert odds_text(success_chance(7, 3)) == "5/6 (83.33%)"

    # a roll with no success or failure (the dice tray) gives its dice and no chance
    line = _line(made, free)
    assert "rolled 2d6" in line and "dice 6, 3" in line and "chance" not in line

    # the undone roll is marked, and its chance is still the one it had
    line = _line(made, undone)
    assert "\\[undone\\]" in line
    assert f"chance of success {odds_text(success_chance(4, -2))}" in line
    assert odds_text(success_chance(4, -2)) == "1/6 (16.67%)"

    # Saturday: Tough lowered to 2, so the same check now had 5/12 (the state before it)
    line = _line(made, tough2)
    assert f"chance of success {odds_text(success_chance(2 + PRIMARY))}" in line
    assert "5/12 (41.67%)" in line and "**2 Successes**" in line

    # the secret NPC's public check: the referee knows its sheet (Sturdy 5 + Very 5 = ...)
    line = _line(made, npc_roll)
    assert "rolled: Swiftsure makes a Sturdy check" in line
    assert re.search(r"chance of success \d+/\d+ \(\d+\.\d\d%\)", line)

    # the table's own business
    assert "**(system)** added Ann as player" in _line(made, 2)
    assert "**Kim** created the table for Mnemonic (Alpha-Zulu Games)" in _line(made, 1)

    # table talk
    assert "**Ann** said _\\[whisper to Ben\\]_: “meet me at the \\<docks\\> \\*tonight\\*”" in (
        _line(made, whisper)
    )
    assert "**Ben** said: “Evening, all”" in _line(made, hello)


def test_the_recap_is_grouped_by_session_date(night: tuple[TableService, str]) -> None:
    service, tid = night
    made = _made(service, tid, "Kim")
    assert [d.date for d in made.days] == [FRIDAY, SATURDAY]
    assert [d.title for d in made.days] == ["Friday 20 November 2026", "Saturday 21 November 2026"]
    events = service.store.events(tid)
    by_day = {d.date: [line.seq for line in d.lines] for d in made.days}
    assert by_day[FRIDAY] == [e.seq for e in events if e.time.startswith(FRIDAY)]
    assert by_day[SATURDAY] == [e.seq for e in events if e.time.startswith(SATURDAY)]
    text = to_markdown(made)
    assert text.index("## Friday 20 November 2026") < text.index("## Saturday 21 November 2026")
    assert "2 session dates, 16 events; times are UTC." in text
    page = to_html(made)
    assert page.count('<section class="day">') == 2
    assert f'<time datetime="{SATURDAY}">Saturday 21 November 2026</time>' in page


def test_a_players_recap_holds_nothing_they_may_not_see(night: tuple[TableService, str]) -> None:
    service, tid = night
    events = {e.seq: e for e in service.store.events(tid)}
    secret = next(
        s for s, e in events.items() if e.visibility == "referee" and e.kind == "action-resolved"
    )
    whisper = next(s for s, e in events.items() if e.visibility == "private")
    npc_roll = max(events)
    referee, ann, ben, cy = (_made(service, tid, who) for who in ("Kim", "Ann", "Ben", "Cy"))

    # the secret roll: that the referee rolled, no more
    for player in (ann, ben, cy):
        line = _line(player, secret)
        assert "**Kim** rolled in secret" in line
        assert "dice" not in line and "Failure" not in line and "chance" not in line
        text = to_markdown(player) + to_html(player)
        assert "1 Failure" not in text and "11" not in line

    # the whisper: Ann and Ben read it, the referee too (a whisper reaches the referees);
    # Cy's recap has not even a line for it
    for reader in (ann, ben, referee):
        assert "tonight" in _line(reader, whisper)
    assert f"#{whisper} " not in to_markdown(cy)
    assert "tonight" not in to_markdown(cy) and "tonight" not in to_html(cy)
    assert "tonight" not in html_document(cy)

    # the secret NPC: Cy saw its check in public, but its chance would tell its sheet's
    # hidden numbers from the table the player could not see - it is not given
    cy_line = _line(cy, npc_roll)
    assert "rolled: Swiftsure makes a Sturdy check" in cy_line
    assert "chance of success not known from what you were shown" in cy_line
    assert re.search(r"chance of success \d+/\d+", _line(referee, npc_roll))
    seated = _line(cy, npc_roll - 1)  # its seating was the referee's secret
    assert "only the referees see (seated a character)" in seated and "frigate" not in seated


def test_the_html_is_escaped_and_holds_no_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _clock(monkeypatch)
    service = TableService(Store(f"sqlite:///{tmp_path / 'x.db'}"))
    tid = service.create("mnemonic", "<script>alert(1)</script>", "Kim", settings=OPEN).table.id
    service.note(tid, "Kim", '<img src=x onerror="alert(2)"> & </li></ol><script>alert(3)</script>')
    made = recap(service.store.events(tid), Viewer("Kim", "referee"))
    page = html_document(made)
    assert "<script" not in page.lower() and "<img" not in page.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=&#34;alert(2)&#34;&gt; &amp;" in page  # Jinja's escape
    assert page.count("<li ") == 2 and page.count("</li>") == 2
    text = to_markdown(made)
    assert "\\<script\\>" in text and "<script>" not in text
    service.store.close()


def test_the_recap_from_the_command_line(
    night: tuple[TableService, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from referee.cli.main import run

    service, tid = night
    db = service.store.url
    assert run(["table", "recap", "Docks", "--as", "Cy", "--db", db]) == 0
    out = capsys.readouterr().out
    assert out == to_markdown(_made(service, tid, "Cy"))
    assert out.startswith("# Docks: recap\n") and "as Cy (player) sees it" in out
    assert "tonight" not in out and "**Kim** rolled in secret" in out

    assert run(["table", "recap", tid, "--format", "html", "--db", db]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!doctype html>") and "the whole log" in page
    assert "meet me at the &lt;docks&gt; *tonight*" in page

    target = tmp_path / "recap.html"
    assert (
        run(
            [
                "table",
                "recap",
                "Docks",
                "--format",
                "html",
                "--as",
                "Ann",
                "--out",
                str(target),
                "--db",
                db,
            ]
        )
        == 0
    )
    assert "as Ann (player) sees it" in target.read_text(encoding="utf-8")

    assert run(["table", "recap", "Docks", "--as", "Zed", "--db", db]) != 0
    err = capsys.readouterr().err
    assert "'Zed' has not joined table 'Docks'" in err and "Traceback" not in err
    assert run(["table", "recap", "Docks", "--format", "pdf", "--db", db]) != 0
    assert "pdf" in capsys.readouterr().err


def test_odds_past_the_recaps_bounds_are_left_out_and_said_so(
    night: tuple[TableService, str],
) -> None:
    service, tid = night
    events = service.store.events(tid)
    viewer = service.load(tid).viewer("Kim")
    tough = 6
    none_left = to_markdown(recap(events, viewer, seconds=0))
    assert "chance of success not computed (the recap's time for odds ran out)" in _line(
        recap(events, viewer, seconds=0), tough
    )
    assert "2/3" not in none_left and "7/12" not in none_left
    assert "chance of success 2/3 (66.67%)" in _line(recap(events, viewer), tough)


@pytest.mark.parametrize(
    ("success", "label", "said"),
    [
        (True, "success", "success"),  # Mongrel's check: its label is the verdict
        (False, "Fail Effect 1", "Fail Effect 1"),  # Mneme CE's: it says more
        (None, "Hurt", "Hurt"),  # no verdict: the label alone
    ],
)
def test_a_label_that_repeats_the_verdict_is_said_once(
    success: bool | None, label: str, said: str
) -> None:
    from referee.table.recap import event_line

    outcome = {"action": "check", "success": success, "label": label}
    line = event_line({"kind": "action-resolved", "payload": {"outcome": outcome}})
    assert line is not None and line.verdict == said
