"""``referee analyze``: variants of a check side by side, whole conflicts exactly or by
simulation, and sweeps on Dask (see docs/analysis.md). numpy, matplotlib and dask are
imported inside the commands that use them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from referee.cli.common import (
    JSON_OPTION,
    console,
    emit_json,
    fail,
    handle_errors,
    listed,
    load_json_file,
    stacked,
)
from referee.cli.main import GROUPS

app = click.Group(
    name="analyze",
    help=GROUPS["analyze"],
    no_args_is_help=True,
)

PARAM_HELP = "A parameter NAME=VALUE (repeatable); see docs/analysis.md for each game's."
PNG_OPTION = click.option("--png", help="Write the chart as PNG to this file.")
SVG_OPTION = click.option("--svg", help="Write the chart as SVG to this file.")
CSV_OPTION = click.option("--csv", "csv_path", help="Write the numbers as CSV to this file.")
PARAM_OPTION = click.option("--param", "-p", multiple=True, callback=listed, help=PARAM_HELP)
GRID_OPTION = click.option(
    "--grid",
    multiple=True,
    callback=listed,
    help="AXIS=V1,V2,... (policy.ID, param.NAME, option.NAME, ID.PATH)",
)


def _pairs(items: list[str] | None, what: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items or []:
        if "=" not in item:
            fail(f"{what} {item!r}: write NAME=VALUE")
        key, value = item.split("=", 1)
        out[key.strip()] = _value(value.strip())
    return out


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _written(v: dict[str, Any], csv: Any, draw: Any, data: Any) -> bool:
    """Write what ``--csv``, ``--png`` and ``--svg`` ask for; with ``--json`` print the
    data and say so (True: nothing more to print)."""
    if v.get("csv_path") and csv is not None:
        Path(v["csv_path"]).write_text(csv())
    for fmt in ("png", "svg"):
        if v.get(fmt):
            Path(v[fmt]).write_bytes(draw(fmt))
            print(f"wrote {v[fmt]}", file=sys.stderr)
    if v.get("as_json"):
        emit_json(data())
    return bool(v.get("as_json"))


@app.command()
@click.argument("game", help="mnemonic, mneme, arm or mongrel")
@PARAM_OPTION
@click.option("--show", default="at-least", help="exact, at-least or at-most")
@CSV_OPTION
@PNG_OPTION
@SVG_OPTION
@JSON_OPTION
@handle_errors
def compare(game: str, param: list[str], show: str, **v: Any) -> None:
    """Variants of one check side by side: exact, at-least and at-most per value.

    Mnemonic: -p aptitude=6 -p chances=3 [-p randomizers=d12,3d12]; Mneme CE:
    -p difficulty=8 -p bonus=1; ARM: -p total=8 -p difficulty=6; Mongrel: -p tn=4
    -p identity=2 [-p dice=1,2,3] [-p modes=under]."""
    from referee.analysis.compare import compare as run

    comp = run(game, _pairs(param, "--param"))
    comp.table(show)  # a bad --show fails before anything is written
    from referee.analysis.charts import comparison_chart

    if _written(v, comp.csv, lambda fmt: comparison_chart(comp, fmt, show), comp.data):
        return
    from referee.cli.text import Table

    table = Table(title=f"{comp.title}: P({show.replace('-', ' ')})", title_justify="left")
    table.add_column(comp.stat, justify="right")
    for label in comp.series:
        table.add_column(label, justify="right")
    for value, row in zip(comp.values(), comp.table(show), strict=True):
        table.add_row(str(value), *(f"{float(p) * 100:.2f}%" if p else "-" for p in row))
    success = comp.p_success()
    table.add_row("success", *(f"{float(success[k]) * 100:.2f}%" for k in comp.series))
    console.print(table)


@app.command()
@click.argument("game", help="mnemonic, mneme, arm or mongrel")
@PARAM_OPTION
@CSV_OPTION
@PNG_OPTION
@SVG_OPTION
@JSON_OPTION
@handle_errors
def curve(game: str, param: list[str], **v: Any) -> None:
    """P(success) of each variant over the check's main number (Aptitude, Difficulty,
    total - difficulty, target number)."""
    from referee.analysis.compare import curve as run

    cur = run(game, _pairs(param, "--param"))
    from referee.analysis.charts import curve_chart

    if _written(v, cur.csv, lambda fmt: curve_chart(cur, fmt), cur.data):
        return
    from referee.cli.text import Table

    table = Table(title=cur.title, title_justify="left")
    table.add_column(cur.x, justify="right")
    for label in cur.series:
        table.add_column(label, justify="right")
    for i, x in enumerate(cur.xs):
        table.add_row(str(x), *(f"{float(ps[i]) * 100:.1f}%" for ps in cur.series.values()))
    console.print(table)


def _scenario(game: str, v: dict[str, Any]) -> Any:
    """The conflict the flags describe, on the game's default table."""
    from referee.analysis.scenario import Scenario

    seat, side_a, side_b, options = v["seat"], v["side_a"], v["side_b"], v["options"]

    sc = Scenario.default(game)
    seats = _pairs(seat, "--seat")
    if seats:
        sc.seats = {
            k: (x if isinstance(x, str) and x.startswith("example:") else load_json_file(str(x)))
            for k, x in seats.items()
        }
        ids = tuple(sc.seats)
        sc.a, sc.b = ids[:1], ids[1:2]
    if side_a:
        sc.a = tuple(x.strip() for x in side_a.split(",") if x.strip())
    if side_b:
        sc.b = tuple(x.strip() for x in side_b.split(",") if x.strip())
    sc.policies = {k: str(x) for k, x in _pairs(v["policy"], "--policy").items()}
    sc.params.update(_pairs(v["param"], "--param"))
    if options:
        data = load_json_file(options)
        if not isinstance(data, dict):
            fail("--options must hold a JSON object")
        sc.options = data
    for item in v.get("override") or []:
        key, _, value = item.partition("=")
        cid, _, path = key.partition(".")
        if not path or not _:
            fail(f"--override {item!r}: write ID.PATH=VALUE")
        sc.overrides.setdefault(cid, {})[path] = _value(value)
    return sc


SEAT_OPTION = click.option(
    "--seat", multiple=True, callback=listed, help="ID=example:NAME or ID=sheet.json"
)
A_OPTION = click.option("--a", "side_a", help="side a: ids, comma-separated")
B_OPTION = click.option("--b", "side_b", help="side b: ids, comma-separated")
POLICY_OPTION = click.option(
    "--policy", multiple=True, callback=listed, help="ID=POLICY (repeatable)"
)
OPTIONS_OPTION = click.option("--options", help="the table's house rules (JSON)")
OVERRIDE_OPTION = click.option(
    "--override", multiple=True, callback=listed, help="ID.PATH=VALUE on a sheet"
)


CONFLICT = stacked(SEAT_OPTION, A_OPTION, B_OPTION, POLICY_OPTION, PARAM_OPTION, OPTIONS_OPTION)
"""Who fights whom, how, and under which house rules."""


@app.command()
@click.argument("game", help="mnemonic, mneme, arm or mongrel")
@CONFLICT
@OVERRIDE_OPTION
@click.option("--simulate", is_flag=True, help="Monte Carlo instead of exact")
@click.option("--runs", default=100000, help="simulated conflicts (at most)")
@click.option("--precision", type=float, help="stop once every win probability is this close")
@click.option("--confidence", default=0.999, help="of every interval")
@click.option("--seed", default=0, help="the simulation's seed")
@click.option("--max-states", default=20000, help="the exact chain's bound")
@click.option("--horizon", default=40, help="rounds listed one by one")
@PNG_OPTION
@SVG_OPTION
@JSON_OPTION
@handle_errors
def conflict(game: str, simulate: bool, runs: int, seed: int, **v: Any) -> None:
    """A whole conflict: P(each side wins), P(draw), its length and the damage taken -
    exact fractions by a Markov chain, or simulated with --simulate."""
    model = _scenario(game, v).model()
    if simulate:
        from referee.analysis.simulate import simulate as sim

        result = sim(
            model,
            runs=runs,
            seed=seed,
            precision=v["precision"],
            confidence=v["confidence"],
            progress=sys.stderr.isatty() and not v["as_json"],
        ).data()
    else:
        from referee.analysis.chain import explore
        from referee.analysis.solve import solve

        result = solve(explore(model, max_states=v["max_states"]), horizon=v["horizon"]).data()
    from referee.analysis.charts import conflict_chart

    if _written(v, None, lambda fmt: conflict_chart(result, fmt), lambda: result):
        return
    from referee.analysis.report import conflict_text

    console.print(conflict_text(result), markup=False)


@app.command()
@click.argument("game", help="mnemonic, mneme, arm or mongrel")
@GRID_OPTION
@CONFLICT
@click.option("--runs", default=20000, help="simulated conflicts per cell")
@click.option("--seed", default=0, help="the sweep's seed (each cell derives its own)")
@click.option("--exact", is_flag=True, help="exact chains instead of simulation")
@click.option("--scheduler", help="a Dask scheduler address (default: a LocalCluster here)")
@click.option("--workers", default=1, help="LocalCluster workers (0: no Dask)")
@click.option("--processes", is_flag=True, help="LocalCluster worker processes")
@CSV_OPTION
@JSON_OPTION
@handle_errors
def sweep(game: str, grid: list[str], runs: int, seed: int, **v: Any) -> None:
    """A grid of conflicts on Dask; each cell's seed comes from --seed and the cell, so
    the numbers are the same on one machine and on a cluster."""
    from referee.analysis.sweep import jobs, run

    base = _scenario(game, v)
    axes: dict[str, list[Any]] = {}
    for item in grid or []:
        name, _, values = item.partition("=")
        if not values:
            fail(f"--grid {item!r}: write AXIS=V1,V2")
        axes[name.strip()] = [_value(v.strip()) for v in values.split(",") if v.strip()]
    todo = jobs(base, axes, seed=seed, runs=runs, exact=v["exact"])
    results = run(todo, scheduler=v["scheduler"], workers=v["workers"], processes=v["processes"])
    from referee.analysis.report import sweep_csv, sweep_text

    whole = {"scenario": base.data(), "seed": seed, "runs": runs, "cells": results}
    if _written(v, lambda: sweep_csv(results), None, lambda: whole):
        return
    console.print(sweep_text(results), markup=False)
