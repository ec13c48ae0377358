"""Old exports keep importing (issue 24): the export format is a public interface, so
``tests/data/exports`` keeps a file of every schema version and form a release wrote,
and each must import and replay into the very table it was, however the code moves on.

* ``schema-1-unsigned.json``: schema 1 as written before signed heads (issue 20) and the
  version field: no ``head``, no ``referee_version``.
* ``schema-1-signed-0.2.0.json``: schema 1 as release 0.2.0 writes it, its head signed by
  a key this test does not trust (reported "untrusted" with its id).

Both hold one seeded Mongrel exchange: the texts' Vooruk attacks Giazza with Rend, Bea
decides that Giazza defends, and the hit deals 5 damage.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import version
from referee.table.audit import SCHEMA, export, import_table, read_export
from referee.table.events import LogError
from referee.table.service import TableService
from referee.table.store import Store

EXPORTS = Path(__file__).resolve().parents[1] / "data" / "exports"
FILES = sorted(EXPORTS.glob("schema-*.json"))
HEAD_KEY = "96cad03c6b22083e"
LAST_HASH = "984a53ed7c95a5b32d1ee1517c72217012cd17e86943aba8ba62aab78ea7920a"


def test_every_schema_up_to_the_current_one_has_a_kept_file() -> None:
    kept = {int(json.loads(p.read_text())["schema"]) for p in FILES}
    assert kept == set(range(1, SCHEMA + 1))
    assert {p.name for p in FILES} >= {"schema-1-unsigned.json", "schema-1-signed-0.2.0.json"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_an_old_export_imports_and_replays_to_the_same_table(path: Path, tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'new.db'}"))
    try:
        report = import_table(service, json.loads(path.read_text()), trusted={})
        assert report.ok and report.events == 8
        signed = "head" in json.loads(path.read_text())
        assert report.signature == ("untrusted" if signed else "unsigned")
        assert report.key == (HEAD_KEY if signed else "")
        ts = service.load("Friday")
        assert (ts.id, ts.game, ts.seq, ts.hash) == ("t175c5c2e96", "mongrel", 8, LAST_HASH)
        assert ts.participants == {"Ron": "referee", "Ann": "player", "Bea": "player"}
        giazza = ts.state.characters["giazza"]
        assert (giazza.damage, giazza.physique_loss) == (5, 1)
        # exported again by this release: the same events, and the version that wrote it
        again = export(service, "Friday")
        assert again["referee_version"] == version()
        assert again["events"] == json.loads(path.read_text())["events"]
    finally:
        service.store.close()


def test_an_export_names_the_release_that_wrote_it_and_it_is_informative_only() -> None:
    data = json.loads((EXPORTS / "schema-1-signed-0.2.0.json").read_text())
    assert data["referee_version"] == "0.2.0"
    future = {**data, "referee_version": "9.9.9"}
    row, events = read_export(future)  # a later release of the same schema reads the same
    assert (row.id, len(events)) == ("t175c5c2e96", 8)
    with pytest.raises(LogError, match="unsupported export schema 2; this reads 1"):
        read_export({**data, "schema": 2})
