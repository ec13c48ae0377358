"""Names people read (issue 33, item 5): normalised, visible, and not confusable with a
participant's already at the table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.errors import RulesError
from referee.table.names import check_name, look_alike
from referee.table.service import TableService
from referee.table.store import Store


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    made = TableService(Store(f"sqlite:///{tmp_path / 'names.db'}"))
    yield made
    made.store.close()


def test_a_name_is_read_as_people_see_it() -> None:
    decomposed = "Zoe\u0301"  # e + a combining acute
    assert check_name(decomposed, "the name") == "Zo\u00e9"  # one spelling: NFC
    assert check_name("Ann\u00a0 Lee ", "the name") == "Ann Lee"  # any space reads as one


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("\u3164", r"invisible or control character \(U\+3164\)"),  # the Hangul filler
        ("Ann\u200b", r"U\+200B"),  # a zero-width space
        ("Ann\u202e", r"U\+202E"),  # a right-to-left override
        ("A\x07nn", r"U\+0007"),
        ("   ", "is empty"),
        ("a" * 65, "longer than 64"),
        ("\u0301\u0301", "no letter, digit or sign"),
        ("A" + "\u0301" * 60 + "nn", "more than 2 accents"),
    ],
)
def test_a_name_nobody_could_read_is_refused_saying_why(name: str, says: str) -> None:
    with pytest.raises(RulesError, match=rf"the participant's name .*{says}"):
        check_name(name, "the participant's name")


def test_look_alike_names_are_found_by_the_unicode_confusables() -> None:
    assert look_alike("\u0410nn", ["Ben", "Ann"]) == "Ann"  # a Cyrillic A
    assert look_alike("R\u03bfn", ["Ron"]) == "Ron"  # a Greek omicron
    assert look_alike("ANN", ["Ann"]) == "Ann"
    assert look_alike("Anne", ["Ann", "Ben"]) is None
    assert look_alike("Bea", ["Ann", "Ben"]) is None


def test_a_participant_who_looks_like_another_is_refused(service: TableService) -> None:
    tid = service.create("mnemonic", "Names", "Ron").table.id
    service.join(tid, "Ann", "player")
    for alike in ("\u0410nn", "ann", "Ann\u00a0", "R\u03bfn"):
        with pytest.raises(RulesError, match=r"looks like|already at table"):
            service.join(tid, alike, "player")
    with pytest.raises(RulesError, match=r"U\+3164"):
        service.join(tid, "\u3164", "player")
    service.join(tid, "Anne", "player")  # a different name is welcome
    assert set(service.load(tid).participants) == {"Ron", "Ann", "Anne"}
