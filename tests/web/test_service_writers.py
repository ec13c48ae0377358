"""The service's per-table writer lock (added for the web table): a process's concurrent
commands on one table take turns instead of losing races for the same seq."""

from __future__ import annotations

import threading
from pathlib import Path

from referee.table.service import TableService
from referee.table.store import SeqTaken, Store


def test_concurrent_commands_in_one_process_never_race_for_a_seq(tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'w.db'}"))
    tid = service.create("mnemonic", "busy", "Ron").table.id
    refused = 0
    append = service.store.append

    def counting(event: object) -> None:
        nonlocal refused
        try:
            append(event)  # type: ignore[arg-type]
        except SeqTaken:
            refused += 1
            raise

    service.store.append = counting  # type: ignore[method-assign]
    errors: list[BaseException] = []

    def write(i: int) -> None:
        try:
            for j in range(15):
                service.note(tid, "Ron", f"writer {i} line {j}")
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert refused == 0
    events = service.store.events(tid)
    assert [e.seq for e in events] == list(range(1, 8 * 15 + 2))
    service.store.close()
