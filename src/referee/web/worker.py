"""Odds computed in worker processes: a costly question never holds up the server.

Exact odds are pure CPU work in Python, and big-integer arithmetic holds the
interpreter's lock while it runs: computed in a thread of the server, a few costly
previews slow every other table's commands and pushes (measured: a note took 0.6 s
at the median while four clients asked costly odds). So the server hands each odds
question to a small pool of worker processes (``spawn``: fresh interpreters, never
a fork of a threaded server). Each worker opens the same database read-only and
keeps its own :class:`~referee.table.service.TableService`, so only names and JSON
cross the process boundary on the way in; the answer comes back pickled.

Errors come back as data and are raised again in the server as the same kinds
(a sheet's problems, a refusal, a rules error), so an answer reads the same as if
it had been computed in place.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Final

from referee.dice.odds import limited_work
from referee.errors import ODD_INPUT, InvalidSheet, OverBudget, Problem, RulesError
from referee.systems.base import JSONObject, JSONValue
from referee.systems.words import Names
from referee.table.service import Choice, Forbidden, HiddenOdds, TableService
from referee.table.store import Store
from referee.table.words import table_names
from referee.web.render import Renderer
from referee.web.views import odds_view

Answer = tuple[str, JSONObject, JSONObject, str | None]
"""The action's name and fields as taken, its odds as JSON and (for a preview) as the
page's HTML: all the work of an answer, done in the worker (even the exact fractions'
text), so the server only passes text on."""

_RENDERER: Renderer | None = None


def _renderer() -> Renderer:
    global _RENDERER
    if _RENDERER is None:
        _RENDERER = Renderer()
    return _RENDERER


_SERVICE: TableService | None = None


WORKER_NICE: Final = 10
"""How much lower than the server's the workers' scheduling priority is: a machine busy
with heavy odds still gives the server's own threads (a player's GET, a cheap preview,
the live sockets) the processor first."""


def _start(url: str) -> None:
    """A worker's start: its own service on the server's database (no migration), and a
    watch that ends the worker when the server is gone (however it ended)."""
    global _SERVICE
    with contextlib.suppress(OSError):  # a heavy question yields the processor to the table
        os.nice(WORKER_NICE)
    _SERVICE = TableService(Store(url, migrate=False))
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


def ready() -> bool:
    """Nothing: submitted once at a server's start, so its worker is spawned (and has
    imported the games) before the first preview waits for it."""
    return _SERVICE is not None


def started() -> TableService:
    """The worker process's own service (:func:`start` made it); an error in a process
    that is not a started worker."""
    if _SERVICE is None:
        raise RuntimeError("this process is not a started worker: no service")
    return _SERVICE


def odds_in_worker(
    table: str, by: str, action: str, fields: JSONValue, microseconds: float, html: bool
) -> tuple[str, Any]:
    """:meth:`TableService.odds` within ``microseconds`` of estimated work, the answer or
    the error as data: ``("ok", answer)``, ``("sheet", problems)``, ``("forbidden",
    message)``, ``("rules", message)`` or ``("bad", message)``."""
    return compute(started(), table, by, action, fields, microseconds, html)


def compute(
    service: TableService,
    table: str,
    by: str,
    action: str,
    fields: JSONValue,
    microseconds: float,
    html: bool = False,
) -> tuple[str, Any]:
    """The odds (or the error) as :func:`odds_in_worker` answers them, on ``service``;
    with ``html``, the preview's HTML too."""
    try:
        with limited_work(microseconds):
            chosen, dist, chance, succeeds = service.odds(table, by, action, fields)
            rules = service.load(table).ruleset
            names = Names(table_names(service.view(table, by)))  # as the caller knows them
            view = odds_view(dist, chance, succeeds, names.say)
            data = rules.action_data(chosen)
            about = data.get("report") if isinstance(data, dict) else None  # "what the odds report"
            choices = service.alternatives(table, by, action, fields)
            page = None
            if html:
                page = _renderer().page(
                    "_odds.html",
                    odds=view,
                    about=about,
                    problems=[],
                    error=None,
                    choices=choices,
                )
            found = {**view.data(), "choices": [choice_data(c) for c in choices]}
            return "ok", (rules.action_name(chosen), data, found, page)
    except InvalidSheet as e:
        return "sheet", list(e.problems)
    except Forbidden as e:
        return "forbidden", str(e)
    except HiddenOdds as e:
        return "hidden", e.data()
    except OverBudget as e:  # more work than this try was given: a worker may take it
        return "costly", str(e)
    except RulesError as e:
        return "rules", str(e)
    except ODD_INPUT as e:
        return "bad", f"the rules cannot handle this input: {type(e).__name__}: {e}"


def choice_data(choice: Choice) -> JSONObject:
    """One answer of another's choice as JSON: the field, whose choice, the value, and
    the chance of success with it (exact, as text)."""
    return {
        "field": choice.field,
        "who": choice.who,
        "value": choice.value,
        "chance": None if choice.chance is None else str(choice.chance),
    }


def answer(found: tuple[str, Any]) -> Answer:
    """The answer of :func:`compute`, or its error raised again as its own kind."""
    kind, value = found
    if kind == "ok":
        name, data, json, page = value
        return name, data, json, page
    if kind == "sheet":
        raise InvalidSheet([p for p in value if isinstance(p, Problem)])
    if kind == "forbidden":
        raise Forbidden(str(value))
    if kind == "hidden":
        raise HiddenOdds.from_data(value if isinstance(value, dict) else {"detail": str(value)})
    if kind == "costly":
        raise OverBudget(str(value))
    raise RulesError(str(value))


def import_on(service: TableService, raw: bytes, trusted: dict[str, bytes]) -> tuple[str, Any]:
    """:func:`referee.table.audit.import_table` of the export in ``raw`` (JSON text) on
    ``service``: its report and the table's id, or its refusal as data (``("ok", (report,
    id))``, ``("log", (problem, seq))``, ``("store", message)``, ``("rules", message)`` or
    ``("bad", message)``). An import parses and checks a whole log, seconds of work and
    hundreds of megabytes of objects for a big one, so the server runs it in a process of
    its own (:func:`import_in_worker`) and holds only the bytes."""
    import json

    from referee.table.audit import import_table
    from referee.table.events import LogError
    from referee.table.store import StoreError

    def infinite(word: str) -> None:
        raise ValueError(f"the export holds {word}: numbers must be finite")

    def finite(text: str) -> float:
        number = float(text)
        if number in (float("inf"), float("-inf")):
            infinite(text)
        return number

    try:
        data = json.loads(raw, parse_constant=infinite, parse_float=finite)
    except json.JSONDecodeError as e:
        return "bad", f"the export is not JSON (line {e.lineno}, column {e.colno}: {e.msg})"
    except UnicodeDecodeError:
        return "bad", "the export is not UTF-8 text"
    except RecursionError:
        return "bad", "the export's JSON is nested too deeply"
    except ValueError as e:
        return "bad", str(e)
    if not isinstance(data, dict):
        return "bad", "an export is a JSON object (as GET /api/tables/{id}/export gives)"
    table = data.get("table")
    tid = str(table.get("id")) if isinstance(table, dict) else ""
    try:
        return "ok", (import_table(service, data, trusted), tid)
    except LogError as e:
        return "log", (e.problem, e.seq)
    except StoreError as e:
        return "store", str(e)
    except RulesError as e:
        return "rules", str(e)
    except ODD_INPUT as e:
        return "bad", f"the rules cannot handle this input: {type(e).__name__}: {e}"


def import_in_worker(raw: bytes, trusted: dict[str, bytes]) -> tuple[str, Any]:
    """:func:`import_on` on the worker's own service."""
    return import_on(started(), raw, trusted)


def imported(found: tuple[str, Any]) -> Any:
    """The report of :func:`import_on`, or its refusal raised again as its own kind."""
    from referee.table.events import LogError
    from referee.table.store import StoreError

    kind, value = found
    if kind == "ok":
        return value
    if kind == "log":
        problem, seq = value
        raise LogError(str(problem), int(seq))
    if kind == "store":
        raise StoreError(str(value))
    raise RulesError(str(value))


def pool(service: TableService, workers: int) -> Executor:
    """Worker processes on ``service``'s database; threads for an in-memory database,
    which another process cannot open."""
    url = service.store.url
    if url in ("sqlite://", "sqlite:///:memory:") or ":memory:" in url:
        return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="odds")
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start,
        initargs=(url,),
    )
