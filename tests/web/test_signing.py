"""Signed exports over HTTP (issue 20) and the import bound (finding 6).

The web table signs every export's head with its key (kept beside its SQLite database);
``POST /api/import`` answers ``signature``: trusted (its own key or one in
``REFEREE_TRUSTED_KEYS``), untrusted (another key, named) or unsigned - as the command
line does - and refuses a signed file whose tail was cut or whose chain was recomputed.
An import is bounded by bytes and events: a 2,000-event export imports.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from referee.table import signing

if TYPE_CHECKING:
    from tests.web.conftest import Site, Table

Doc = dict[str, Any]


@pytest.fixture(autouse=True)
def _no_key_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(signing.ENV_KEY, raising=False)
    monkeypatch.delenv(signing.ENV_TRUSTED, raising=False)


FORGERIES = ("cut tail", "edited note", "swapped events")  # tests/conftest.py: forgeries

CHECK = {"action": "check", "fields": {"aptitude": 6}}


def _play(site: Site, table: Table) -> Doc:
    """A note, three checks rolled by hand (an unseeded table), another note; the
    referee's export."""
    with site.client(table.tokens["Ron"]) as ron:
        base = f"/api/tables/{table.id}"
        assert ron.post(f"{base}/notes", json={"text": "I open the door"}).status_code == 201
        for face in (2, 9, 5):
            r = ron.post(f"{base}/actions", json={**CHECK, "faces": [face]})
            assert r.status_code == 201, r.text
        assert ron.post(f"{base}/notes", json={"text": "it creaks"}).status_code == 201
        got = ron.get(f"{base}/export")
        assert got.status_code == 200
        doc: Doc = got.json()
    return doc


def _elsewhere(tmp_path: Path, name: str) -> str:
    folder = tmp_path / name
    folder.mkdir()
    return f"sqlite:///{folder / 'web.db'}"


def test_the_export_is_signed_by_the_servers_key(site: Site, table: Table) -> None:
    doc = _play(site, table)
    head = doc["head"]
    last = doc["events"][-1]
    assert (head["table"], head["seq"], head["hash"]) == (table.id, last["seq"], last["hash"])
    kept = signing.server_signer(site.url)
    assert kept.path == Path(site.url.removeprefix("sqlite:///")).parent / signing.KEY_FILE
    assert head["key"] == kept.id and head["public_key"] == signing.public_text(kept.public)
    with site.client(table.tokens["Ann"]) as ann:  # a player's view carries the same head
        mine = ann.get(f"/api/tables/{table.id}/export").json()
    assert mine["redacted"] and (mine["head"]["seq"], mine["head"]["hash"]) == (
        head["seq"],
        head["hash"],
    )


@pytest.mark.slow
@pytest.mark.parametrize("attack", FORGERIES)
def test_signed_forgeries_are_refused_and_unsigned_ones_reported(
    site: Site,
    table: Table,
    tmp_path: Path,
    new_site: Any,
    attack: str,
    forgeries: dict[str, Callable[[Doc], Doc]],
) -> None:
    doc = _play(site, table)
    forged = forgeries[attack](doc)
    other = new_site(_elsewhere(tmp_path, "other"))
    with other.client() as http:
        refused = http.post("/api/import", json=forged)
        assert refused.status_code == 422, refused.text
        detail = refused.json()["detail"]
        if attack == "cut tail":
            n = len(doc["events"])
            assert f"the signed head is event {n} but the file ends at event {n - 2}" in detail
            assert refused.json()["seq"] == n - 2
        else:
            assert "the signed head's hash is not this event's" in detail
        bare = {k: v for k, v in forged.items() if k != "head"}
        taken = http.post("/api/import", json=bare)
        assert taken.status_code == 201, taken.text
        body = taken.json()
        assert (body["signature"], body["key"], body["events"]) == (
            "unsigned",
            None,
            len(forged["events"]),
        )
    assert other.service.store.count(table.id) == len(forged["events"])


@pytest.mark.slow
def test_who_trusts_a_signed_export(
    site: Site, table: Table, tmp_path: Path, new_site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = _play(site, table)
    kid = doc["head"]["key"]
    # a second server on the same data folder has the same key: its own, trusted
    sibling = new_site(site.url.replace("web.db", "sibling.db"))
    with sibling.client() as http:
        r = http.post("/api/import", json=doc)
        assert r.status_code == 201 and (r.json()["signature"], r.json()["key"]) == (
            "trusted",
            kid,
        )
    # a server elsewhere has its own key: the file imports, signed by an untrusted key
    far = new_site(_elsewhere(tmp_path, "far"))
    with far.client() as http:
        r = http.post("/api/import", json=doc)
        assert r.status_code == 201 and (r.json()["signature"], r.json()["key"]) == (
            "untrusted",
            kid,
        )
    # ...unless it is told to trust that key
    monkeypatch.setenv(signing.ENV_TRUSTED, doc["head"]["public_key"])
    trusting = new_site(_elsewhere(tmp_path, "trusting"))
    with trusting.client() as http:
        r = http.post("/api/import", json=doc)
        assert r.status_code == 201 and r.json()["signature"] == "trusted"
    with far.client() as http:  # a changed head does not verify anywhere
        bad = http.post("/api/import", json={**doc, "head": {**doc["head"], "seq": 3}})
        assert bad.status_code == 422 and "does not hold" in bad.json()["detail"]


@pytest.mark.slow
def test_a_2000_event_export_imports_over_http(
    site: Site, table: Table, tmp_path: Path, new_site: Any
) -> None:
    """Finding 6: the import was bounded by a count of JSON values (5,000), so a
    150-event export was refused; it is bounded by bytes and events now."""
    service = site.service
    start = service.store.count(table.id)
    for i in range(start, 2000):
        if i % 2:
            service.act(table.id, "Ron", "check", {"aptitude": i % 13}, faces=(i % 12 + 1,))
        else:
            service.note(table.id, "Ann", f"line {i}")
    with site.client(table.tokens["Ron"]) as ron:
        got = ron.get(f"/api/tables/{table.id}/export")
    doc = got.json()
    assert len(doc["events"]) == 2000 and len(got.content) > 1_000_000
    other = new_site(_elsewhere(tmp_path, "other"))
    with other.client() as http:
        done = http.post("/api/import", json=doc)
        assert done.status_code == 201, done.text[:300]
        assert (done.json()["events"], done.json()["signature"]) == (2000, "untrusted")
    assert other.service.load(table.id).hash == service.load(table.id).hash
    deep: Any = 1
    for _ in range(70):
        deep = [deep]
    nested = {**doc, "events": [*doc["events"][:-1], {**doc["events"][-1], "payload": deep}]}
    with other.client() as http:
        r = http.post("/api/import", json=nested)
        assert r.status_code == 422 and "nested more than 64 levels" in r.json()["detail"]
