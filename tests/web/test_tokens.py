"""Capability tokens: stored hashed, checked, revoked; the migration on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from referee.table import tokens as tokens_module
from referee.table.service import TableService
from referee.table.store import Store
from referee.table.tokens import Grant, Tokens, digest, tokens_t


def test_a_token_opens_its_participant_until_revoked(store_url: str) -> None:
    store = Store(store_url)
    tid = TableService(store).create("mnemonic", "Friday", "Ron").event.table
    tokens = Tokens(store)
    secret, grant = tokens.issue(tid, "Ron", "referee")
    assert len(secret) >= 40 and grant.name == "Ron" and grant.table_id == tid
    assert tokens.check(secret) == grant
    with store.reader.begin() as conn:
        stored = conn.execute(select(tokens_t.c.hash)).scalars().all()
    assert stored == [digest(secret)] and secret not in stored  # only the hash is kept
    assert tokens.check(secret + "x") is None and tokens.check("") is None
    assert tokens.check("a" * 10_000) is None
    other, _ = tokens.issue(tid, "Ann")
    assert tokens.revoke(tid, grant.id) is True
    assert tokens.revoke(tid, grant.id) is False  # already revoked
    assert tokens.revoke("tnope", grant.id) is False
    assert tokens.check(secret) is None
    assert tokens.check(other) is not None
    listed = tokens.list(tid)
    assert [g.name for g in listed] == ["Ron", "Ann"] and listed[0].revoked is not None
    assert tokens.revoke_kind(tid, "invite") == 1 and tokens.check(other) is None
    third, _ = tokens.issue(tid, "Ann")
    assert tokens.revoke_name(tid, "Ann") == 1 and tokens.check(third) is None
    store.close()


def test_reopening_a_database_keeps_the_tokens(tmp_path: object) -> None:
    url = f"sqlite:///{tmp_path}/r.db"
    store = Store(url)
    tid = TableService(store).create("mnemonic", "Friday", "Ron").event.table
    secret, grant = Tokens(store).issue(tid, "Ron", "referee")
    store.close()
    again = Store(url)
    assert Tokens(again).check(secret) == grant
    again.close()


def test_a_check_that_read_a_link_live_as_it_was_revoked_does_not_remember_it(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check reads the token live; before it finishes, the referee revokes the link. The
    check may answer with what it read, but the next check must see the revocation, not
    a remembered live grant (a reload right after "revoke" once still opened the table)."""
    store = Store(store_url)
    tid = TableService(store).create("mnemonic", "Friday", "Ron").event.table
    tokens = Tokens(store)
    secret, grant = tokens.issue(tid, "Ann")
    revoked: list[bool] = []
    read = tokens_module._grant

    def revoke_after_the_read(row: Any) -> Grant:
        if not revoked:
            revoked.append(tokens.revoke(tid, grant.id))
        return read(row)

    monkeypatch.setattr(tokens_module, "_grant", revoke_after_the_read)
    assert tokens.check(secret) == grant  # it read the row before the revocation
    assert revoked == [True]
    assert tokens.check(secret) is None
    store.close()
