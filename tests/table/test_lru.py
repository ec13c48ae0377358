"""The service keeps a bounded number of tables in memory (issue 20: anyone could create
tables and the server's cache grew without bound)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.table.lru import LRU
from referee.table.service import TableService
from referee.table.store import Store


def test_an_lru_keeps_its_most_recently_used_entries() -> None:
    cache: LRU[str, int] = LRU(2)
    cache["a"], cache["b"] = 1, 2
    assert cache.get("a") == 1  # "a" is now the newest
    cache["c"] = 3
    assert "b" not in cache and cache.get("a") == 1 and cache.get("c") == 3
    assert len(cache) == 2 and cache.pop("a") == 1 and len(cache) == 1
    with pytest.raises(ValueError, match="at least one"):
        LRU(0)


def test_the_service_forgets_the_least_recently_used_tables(tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'c.db'}"), cached_tables=3)
    ids = [service.create("mnemonic", f"T{i}", "Ron").table.id for i in range(6)]
    assert len(service._cache) == 3 and len(service._rows) <= 12
    assert ids[0] not in service._cache and ids[-1] in service._cache
    assert service.load(ids[0]).name == "T0"  # read again from the database when asked
    assert ids[0] in service._cache and len(service._cache) == 3
