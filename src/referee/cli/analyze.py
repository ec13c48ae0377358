"""``referee analyze``: variants of a check side by side, whole conflicts exactly or by
simulation, and sweeps on Dask (see docs/analysis.md). numpy, matplotlib and dask are
imported inside the commands that use them."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import click

from referee.analysis import charts, report, scenario
from referee.analysis import compare as variants
from referee.analysis import sweep as sweeps
from referee.analysis.chain import MAX_STATES, explore
from referee.analysis.solve import HORIZON, solve
from referee.cli.common import (
    JSON_OPTION,
    STDIO,
    fail,
    handle_errors,
    load_json_file,
    stacked,
)
from referee.cli.main import GROUPS
from referee.cli.presets import show as print_shown

F = TypeVar("F", bound=Callable[..., Any])
app = click.Group(name="analyze", help=GROUPS["analyze"], no_args_is_help=True)


def _command(func: Callable[..., None]) -> click.Command:
    """A command of the group on a GAME; a refused input is one line on stderr."""
    game = click.argument("game", help="mnemonic, mneme, arm or mongrel")
    return app.command()(game(handle_errors(func)))


def _value(text: str) -> Any:
    """A value typed in: JSON when it is JSON, else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _listed(text: str, read: Callable[[str], Any] = str) -> list[Any]:
    """``V1,V2,...``, each value ``read``."""
    return [read(x.strip()) for x in text.split(",") if x.strip()]


def _pairs(
    *names: str, help: str, form: str = "NAME=VALUE", read: Callable[[str], Any] = _value
) -> Callable[[F], F]:
    """A repeatable option of words shaped as ``form`` (``=``, and a dot in the name if it
    has one), given to the command as a mapping by name, each value ``read``."""

    def parse(_ctx: click.Context, _param: click.Parameter, words: tuple[str, ...]) -> Any:
        out: dict[str, Any] = {}
        for word in words:
            key, sep, value = word.partition("=")
            if not (sep and value.strip()) or key.count(".") < form.count("."):
                fail(f"{names[0]} {word!r}: write {form}")
            out[key.strip()] = read(value.strip())
        return out

    return click.option(*names, multiple=True, callback=parse, help=help)


PARAM_HELP = "A parameter NAME=VALUE (repeatable); see docs/analysis.md for each game's."
PARAM = _pairs("--param", "-p", help=PARAM_HELP)
PNG = click.option("--png", help="Write the chart as PNG to this file.")
SVG = click.option("--svg", help="Write the chart as SVG to this file.")
CSV = click.option("--csv", "csv_path", help="Write the numbers as CSV to this file.")
FILES = stacked(CSV, PNG, SVG, JSON_OPTION)
CONFLICT = stacked(
    _pairs("--seat", help="ID=example:NAME or ID=sheet.json", read=str),
    click.option("--a", "side_a", help="side a: ids, comma-separated"),
    click.option("--b", "side_b", help="side b: ids, comma-separated"),
    _pairs("--policy", help="ID=POLICY (repeatable)", read=str),
    PARAM,
    click.option("--options", help="house rules (JSON) over the default table's"),
)
"""Who fights whom, how, and under which house rules."""
GRID = "AXIS=V1,V2,... (policy.ID, param.NAME, option.NAME, ID.PATH)"


def _emit(v: dict[str, Any], data: Any, shown: Any, csv: Any = None, draw: Any = None) -> None:
    """Write what ``--csv``, ``--png`` and ``--svg`` ask for, then print ``data`` as
    ``--json`` asks, else ``shown`` (text, or a table as data)."""
    if v.get("csv_path") == STDIO:
        sys.stdout.write(csv())
        return
    if v.get("csv_path"):
        Path(v["csv_path"]).write_text(csv())
    for fmt in ("png", "svg"):
        if v.get(fmt) == STDIO:
            sys.stdout.buffer.write(draw(fmt))
            return
        if v.get(fmt):
            Path(v[fmt]).write_bytes(draw(fmt))
            print(f"wrote {v[fmt]}", file=sys.stderr)
    print_shown(v["as_json"], data, [shown])


@_command
@PARAM
@click.option("--show", default="at-least", help="exact, at-least or at-most")
@FILES
def compare(game: str, param: dict[str, Any], show: str, **v: Any) -> None:
    """Variants of one check side by side: exact, at-least and at-most per value.

    Mnemonic: -p aptitude=6 -p chances=3 [-p randomizers=d12,3d12]; Mneme CE:
    -p difficulty=8 -p bonus=1; ARM: -p total=8 -p difficulty=6; Mongrel: -p tn=4
    -p identity=2 [-p dice=1,2,3] [-p modes=under]."""
    comp = variants.compare(game, param)
    table = comp.table_data(show)  # a bad --show fails before anything is written
    _emit(v, comp.data(), table, comp.csv, partial(charts.comparison_chart, comp, show=show))


@_command
@PARAM
@FILES
def curve(game: str, param: dict[str, Any], **v: Any) -> None:
    """P(success) of each variant over the check's main number (Aptitude, Difficulty,
    total - difficulty, target number)."""
    cur = variants.curve(game, param)
    _emit(v, cur.data(), cur.table_data(), cur.csv, partial(charts.curve_chart, cur))


def _scenario(game: str, v: dict[str, Any]) -> Any:
    """The conflict the flags describe, on the game's default table; ``--policy``, ``-p``
    and ``--override`` set it as a sweep's cell would (axes ``policy.ID``, ``param.NAME``,
    ``ID.PATH``)."""
    sc = scenario.Scenario.default(game)
    if seats := v["seat"]:
        sc.seats = {
            k: x if x.startswith("example:") else load_json_file(x) for k, x in seats.items()
        }
        sc.a, sc.b = tuple(seats)[:1], tuple(seats)[1:2]
    for side in ("a", "b"):
        if ids := v["side_" + side]:
            setattr(sc, side, tuple(_listed(ids)))
    if v["options"]:  # over the default table's rules (Mneme CE's: the referee rolls)
        given = load_json_file(v["options"])
        if not isinstance(given, dict):
            fail("--options must hold a JSON object")
        sc.options |= given
    cell = {f"policy.{k}": x for k, x in v["policy"].items()} | v.get("override", {})
    return sweeps.cell_scenario(sc, cell | {f"param.{k}": x for k, x in v["param"].items()})


@_command
@CONFLICT
@_pairs("--override", help="ID.PATH=VALUE on a sheet, or option.NAME=VALUE", form="ID.PATH=VALUE")
@click.option("--simulate", is_flag=True, help="Monte Carlo instead of exact")
@click.option("--runs", default=100000, help="simulated conflicts (at most)")
@click.option("--precision", type=float, help="stop once every win probability is this close")
@click.option("--confidence", default=0.999, help="of every interval")
@click.option("--seed", default=0, help="the simulation's seed")
@click.option("--max-states", default=MAX_STATES, help="the exact chain's bound")
@click.option("--horizon", default=HORIZON, help="rounds listed one by one")
@stacked(PNG, SVG, JSON_OPTION)
def conflict(game: str, simulate: bool, runs: int, seed: int, **v: Any) -> None:
    """A whole conflict: P(each side wins), P(draw), its length and the damage taken -
    exact fractions by a Markov chain, or simulated with --simulate."""
    model = _scenario(game, v).model()
    if simulate:
        from referee.analysis.simulate import simulate as sim  # numpy: only here

        progress = sys.stderr.isatty() and not v["as_json"]
        how = {k: v[k] for k in ("precision", "confidence")}  # named as simulate() names them
        result = sim(model, runs=runs, seed=seed, progress=progress, **how).data()
    else:
        from referee.analysis.errors import ChainTooLarge

        try:
            chain = explore(model, max_states=v["max_states"])
        except ChainTooLarge as e:  # the command line's own ways out, by their flags
            raise ChainTooLarge(f"{e} (--simulate, or --max-states)") from None
        result = solve(chain, horizon=v["horizon"]).data()
    _emit(v, result, report.conflict_text(result), draw=partial(charts.conflict_chart, result))


@_command
@_pairs("--grid", help=GRID, form="AXIS=V1,V2", read=partial(_listed, read=_value))
@CONFLICT
@click.option("--runs", default=20000, help="simulated conflicts per cell")
@click.option("--seed", default=0, help="the sweep's seed (each cell derives its own)")
@click.option("--exact", is_flag=True, help="exact chains instead of simulation")
@click.option("--scheduler", help="a Dask scheduler address (default: a LocalCluster here)")
@click.option("--workers", default=1, help="LocalCluster workers (0: no Dask)")
@click.option("--processes", is_flag=True, help="LocalCluster worker processes")
@stacked(CSV, JSON_OPTION)
def sweep(game: str, grid: dict[str, Any], runs: int, seed: int, **v: Any) -> None:
    """A grid of conflicts on Dask; each cell's seed comes from --seed and the cell, so
    the numbers are the same on one machine and on a cluster."""
    base = _scenario(game, v)
    todo = sweeps.jobs(base, grid, seed=seed, runs=runs, exact=v["exact"])
    results = sweeps.run(todo, **{k: v[k] for k in ("scheduler", "workers", "processes")})
    whole = {"scenario": base.data(), "seed": seed, "runs": runs, "cells": results}
    _emit(v, whole, report.sweep_text(results), lambda: report.sweep_csv(results))
