"""Fuzz the whole JSON API: schemathesis cases on live tables, mutated with numbers JSON
cannot carry and values of the wrong type; no answer may be a server error.

Run by ``make bench`` (``bench/run.py fuzz`` writes its section of RESULTS.md), or
alone: ``python bench/bench_fuzz.py [--quick]`` (100,000 requests, at most an hour;
``--quick`` 5,000). The tests run a bounded slice of the same driver
(``tests/web/test_fuzz.py``).

Stateful: before fuzzing, a table of every game is made through the API with a
referee, players and an observer, characters seated, a conflict started where the
game has one; every case then runs against one of those tables as one of its
participants (the referee, a player, the observer, or no one), so the calls reach
the service and the games' rules, not only the request validation. Each case is one
of schemathesis's, in its positive (valid by the schema) or negative (breaking it)
mode; three in ten of the bodies are then mutated: a number anywhere in them replaced
by ``NaN``, ``Infinity``, ``-Infinity`` or ``1e400`` (sent as raw text, as Python's
JSON writes them), or a value of the wrong type put in place of one (``"7"`` for 7,
``true`` for 1, a number for a string, a list for an object). One ``referee serve``
process on 127.0.0.1 with its quotas off (one link sends all of it); bounded in count
and time, it stops by itself.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import free_port, start_server

NON_FINITE = ("NaN", "Infinity", "-Infinity", "1e400")
UNLIMITED = (
    "--requests-per-second",
    "0",
    "--tables-per-hour",
    "0",
    "--max-tables",
    "0",
    "--invites-per-table",
    "0",
    "--odds-per-participant",
    "0",
)
SEATS = {
    "mnemonic": (("boxer", "Ann"), ("frigate", "Ben")),
    "mongrel": (("vooruk", "Ann"), ("giazza", "Ben"), ("alwia", None)),
    "mneme": (("ada", "Ann"), ("tess", "Ben"), ("raider", None)),
    "arm": (("alex", "Ann"), ("brad", "Ben")),
}


@dataclass
class Tables:
    """The live tables cases run against: id -> participant -> token."""

    tokens: dict[str, dict[str, str]] = field(default_factory=dict)


def make_tables(base: str) -> Tables:
    """A table of every game, with participants and characters (see the module text)."""
    out = Tables()
    with httpx.Client(base_url=base, timeout=60) as http:
        examples = {g["name"]: g["examples"] for g in http.get("/api/games").json()}
        for game, seats in SEATS.items():
            made = http.post(
                "/api/tables", json={"game": game, "name": f"Fuzz {game}", "referee": "Ron"}
            )
            made.raise_for_status()
            tid, token = made.json()["table"]["id"], made.json()["token"]
            tokens = {"Ron": token}
            ron = {"authorization": f"Bearer {token}"}
            for who, role in (("Ann", "player"), ("Ben", "player"), ("Obi", "observer")):
                r = http.post(
                    f"/api/tables/{tid}/invites", json={"name": who, "role": role}, headers=ron
                )
                r.raise_for_status()
                tokens[who] = r.json()["token"]
            for example, owner in seats:
                if example in examples[game]:
                    body: dict[str, Any] = {"example": example, "force": True}
                    if owner:
                        body["owner"] = owner
                    http.post(f"/api/tables/{tid}/characters", json=body, headers=ron)
            if game == "mongrel":
                http.post(
                    f"/api/tables/{tid}/actions", json={"action": "start-conflict"}, headers=ron
                )
            out.tokens[tid] = tokens
    return out


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _set(value[head], rest, new)}
    copy = list(value)
    copy[head] = _set(copy[head], rest, new)
    return copy


WRONG: dict[type, Callable[[Any], Any]] = {
    bool: lambda v: int(v),
    int: lambda v: str(v),
    float: lambda v: str(v),
    str: lambda v: 7,
    list: lambda v: {"0": v},
    dict: lambda v: [v],
}


def mutate(body: Any, rng: random.Random) -> str:
    """The body as JSON text with one value made non-finite or of the wrong type."""
    places = list(_leaves(body))
    path, old = rng.choice(places)
    if rng.random() < 0.5:
        marker = "__NONFINITE__"
        text = json.dumps(_set(body, path, marker))
        return text.replace(json.dumps(marker), rng.choice(NON_FINITE), 1)
    if isinstance(old, dict) and rng.random() < 0.5:  # a new key holding a bad number
        return json.dumps(_set(body, path, {**old, "x": 1.5})).replace("1.5", "NaN", 1)
    wrong = WRONG.get(type(old), lambda v: [v])
    return json.dumps(_set(body, path, wrong(old)))


@dataclass
class Tally:
    """What the fuzzing sent and got."""

    sent: int = 0
    mutated: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)


def fuzz(base: str, requests: int, seconds: float, seed: int = 7) -> Tally:
    """Send about ``requests`` cases (within ``seconds``); every 5xx is kept."""
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode

    tables = make_tables(base)
    ids = list(tables.tokens)
    rng = random.Random(seed)
    tally = Tally()
    deadline = time.monotonic() + seconds
    schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
    operations = [r.ok() for r in schema.get_all_operations()]
    per = max(1, requests // (2 * len(operations)))
    http = httpx.Client(base_url=base, timeout=60)

    def send(case: Any) -> None:
        if tally.sent >= requests or time.monotonic() > deadline:
            return
        tid = rng.choice(ids)
        if case.path_parameters and "tid" in case.path_parameters:
            case.path_parameters["tid"] = tid
        who = rng.choice(["Ron", "Ron", "Ann", "Ben", "Obi", None])
        headers = {} if who is None else {"authorization": f"Bearer {tables.tokens[tid][who]}"}
        path = case.formatted_path
        body = case.body if case.body is not None and not isinstance(case.body, bytes) else None
        content: str | None = None
        try:
            if body is not None and rng.random() < 0.3:
                content = mutate(body, rng)
                tally.mutated += 1
            elif body is not None:
                content = json.dumps(body)
        except (TypeError, ValueError):
            content = None
        if content is not None:
            headers["content-type"] = "application/json"
        try:
            r = http.request(case.method, path, params=case.query, content=content, headers=headers)
        except httpx.HTTPError as e:
            tally.errors.append(f"{case.method} {path}: {type(e).__name__} {e} ({content})")
            return
        tally.sent += 1
        tally.statuses[r.status_code] += 1
        if r.status_code >= 500:
            tally.errors.append(f"{case.method} {path} -> {r.status_code}: {content!r:.300}")

    try:
        while tally.sent < requests and time.monotonic() < deadline:
            before = tally.sent
            for operation in operations:
                for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

                    @given(case=operation.as_strategy(generation_mode=mode))
                    @settings(
                        max_examples=per,
                        deadline=None,
                        database=None,
                        suppress_health_check=list(HealthCheck),
                        phases=[Phase.generate],
                    )
                    def one(case: Any) -> None:
                        send(case)

                    try:
                        one()
                    except Unsatisfiable:
                        pass  # no negative case exists (an operation without inputs)
                    except Exception as e:  # a strategy that cannot be drawn: noted, go on
                        tally.errors.append(f"{operation.method} {operation.path}: {e!r:.200}")
            if tally.sent == before:
                break
    finally:
        http.close()
    return tally


def section(quick: bool) -> tuple[str, list[dict[str, object]]]:
    """This benchmark's section of RESULTS.md and its target (``bench/run.py fuzz``)."""
    requests, seconds = (5_000, 300.0) if quick else (100_000, 3600.0)
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(
            f"sqlite:///{Path(tmp) / 'fuzz.db'}", port, Path(tmp) / "server.log", extra=UNLIMITED
        )
        try:
            tally = fuzz(f"http://127.0.0.1:{port}", requests, seconds)
        finally:
            server.terminate()
            server.wait(timeout=15)
            log = (Path(tmp) / "server.log").read_text()
    took = time.monotonic() - start
    five = sum(n for s, n in tally.statuses.items() if s >= 500)
    tracebacks = log.count("Traceback")
    codes = ", ".join(f"{s}: {n:,}" for s, n in sorted(tally.statuses.items()))
    lines = [
        f"## Fuzzing the API (measured {time.strftime('%Y-%m-%d')}, `python bench/bench_fuzz.py`)",
        "",
        "schemathesis cases (positive and negative) on live tables of every game, as the",
        "referee, a player, the observer or no one; three in ten bodies mutated with a",
        "non-finite number or a value of the wrong type (see `bench/bench_fuzz.py`).",
        "",
        "| measure | value | target | met |",
        "|---|---|---|---|",
        f"| requests answered | {tally.sent:,} in {took:,.0f} s | ≥ 100,000 | "
        f"{'yes' if tally.sent >= 100_000 else 'no'} |",
        f"| ... of them with a mutated body | {tally.mutated:,} | - | - |",
        f"| answers by status | {codes} | - | - |",
        f"| server errors (5xx) | {five} | 0 | {'yes' if not five else 'no'} |",
        f"| tracebacks in the server's log | {tracebacks} | 0 | "
        f"{'yes' if not tracebacks else 'no'} |",
        "",
    ]
    if tally.errors:
        lines += ["Errors seen:", "", *[f"- `{e}`" for e in tally.errors[:20]], ""]
    targets: list[dict[str, object]] = [
        {
            "label": f"Fuzzing: {tally.sent:,} requests, mutated with non-finite numbers "
            "and wrong types, no 5xx",
            "figure": f"{five} server errors",
            "needed": "0 in ≥ 100,000",
            "met": not five and tally.sent >= 100_000,
        }
    ]
    return "\n".join(lines), targets


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="5,000 requests")
    args = parser.parse_args()
    text, _targets = section(args.quick)
    print(text)


if __name__ == "__main__":
    main()
