"""The ``referee`` command: dice, odds, and one sub-command group per game.

A group beside the core commands (a game, ``table``, ``serve``, ``analyze``) is
imported only when the command line names it, so ``referee odds 2d6`` loads no
game, no Rich and no web framework and starts fast.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from referee.cli import dice
from referee.cli.common import (
    FACES_OPTION,
    JSON_OPTION,
    SEED_OPTION,
    console,
    emit_json,
    handle_errors,
    load_json_file,
    report_problems,
)
from referee.cli.dice import show_distribution
from referee.systems import SYSTEMS

__all__ = ["GROUPS", "app", "main", "run", "show_distribution"]

GROUPS: dict[str, str] = {
    "mnemonic": "Mnemonic: Success Checks with six randomizers, exact odds, fights and injuries.",
    "mongrel": "Mongrel: pools of d6 against attributes, Action Points, Infernal Resolve.",
    "mneme": "Mneme CE: 2d6 checks with Effects, exact odds, damage rolls, wounds and healing.",
    "arm": "ARM 1.2: d6-d6 checks with pushing, exact odds, damage, logs and units, sheets.",
    "table": "Live tables: an event log per table on SQLite or PostgreSQL, shared by many.",
    "serve": "Serve the web table: pages, the JSON API (/docs), live WebSockets and /healthz.",
    "analyze": "Designer analysis: compare check variants, exact conflicts, simulation, sweeps.",
}
"""The command groups beside the core commands, each with its help: one per game, the
live table, ``serve`` (the web table) and the designer analysis. ``referee --help``
lists them from here, importing none (a test checks each group says the same)."""


class PipeClosed(Exception):
    """Standard output's reader went away (``| head``): handed past click, which would
    otherwise turn the :class:`BrokenPipeError` into status 1."""


class Referee(click.Group):
    """The top-level group: each of :data:`GROUPS` is imported on first use."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise PipeClosed from None

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:  # --help and --version print while the arguments are parsed
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            raise PipeClosed from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The core commands, then the groups from :data:`GROUPS` without importing them."""
        width = formatter.width - 6 - max(len(n) for n in self.list_commands(ctx))
        rows = [(n, c.get_short_help_str(width)) for n, c in self.commands.items() if not c.hidden]
        rows += [
            (n, click.Command(n, help=h).get_short_help_str(width))
            for n, h in GROUPS.items()
            if n not in self.commands
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*self.commands, *(n for n in GROUPS if n not in self.commands)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in GROUPS and cmd_name not in self.commands and _registered(cmd_name):
            self.add_command(_load(cmd_name) or click.Group(cmd_name), cmd_name)
        if cmd_name in GROUPS and cmd_name not in self.commands:
            loaded = _load(cmd_name)
            if loaded is not None:
                self.add_command(loaded, cmd_name)
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as e:  # suggest the groups not loaded too
            raise click.exceptions.NoSuchCommand(
                e.command_name, possibilities=self.list_commands(ctx), ctx=ctx
            ) from None


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: the release (read when asked, so other commands never pay for it)."""
    if not value or ctx.resilient_parsing:
        return
    from referee import version

    click.echo(f"referee {version()}")
    ctx.exit()


def help_width() -> int:
    """The width click gives help text (``COLUMNS``, else the terminal's, else 80; at most
    80, less 2, at least 50), worked out as click does but without ``shutil``, which
    brings the compression modules with it: a tenth of ``referee --help``'s start."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return max(min(columns or 80, 80) - 2, 50)


app = Referee(
    name="referee",
    help="Rules engine, exact odds and live table for Mnemonic, Mongrel, Mneme CE and ARM.",
    no_args_is_help=True,
    context_settings={"show_default": True, "terminal_width": help_width()},
    params=[
        click.Option(
            ["--version"],
            is_flag=True,
            expose_value=False,
            is_eager=True,
            callback=_show_version,
            help="Show the release of referee and exit.",
        )
    ],
)


DEPTH_OPTION = click.option(
    "--depth",
    type=click.IntRange(0, 100),
    default=dice.DEPTH,
    help="Extra rolls one exploding die may make (! and !!); the last counts at its face.",
)


@app.command()
@click.argument("expression", help="Dice notation, e.g. 3d6kh2+1, 4d6>=3, 4d6ro1kh3 or 3d6!.")
@SEED_OPTION
@FACES_OPTION
@DEPTH_OPTION
@JSON_OPTION
@handle_errors
def roll(expression: str, seed: int | None, faces: str | None, depth: int, as_json: bool) -> None:
    """Roll a dice expression: every face (dropped ones in parentheses) and the total."""
    dice.roll(expression, seed, faces, depth, as_json)


@app.command()
@click.argument("expression", help="Dice notation, e.g. 2d6, 3d12med, 4d6dl1 or 10d6!>=5.")
@DEPTH_OPTION
@JSON_OPTION
@handle_errors
def odds(expression: str, depth: int, as_json: bool) -> None:
    """Show the exact distribution of a dice expression, with at-least / at-most columns.

    With exploding dice, also the probability that a die would explode more than
    --depth times (those rolls are counted at the bound).
    """
    dice.odds(expression, depth, as_json)


@app.command()
@JSON_OPTION
def games(as_json: bool) -> None:
    """List the games this installation knows."""
    from referee.systems.base import get, names

    rows = [(n, get(n).title) for n in names()]
    if as_json:
        emit_json([{"name": n, "title": t} for n, t in rows])
        return
    for n, t in rows:
        console.print(f"{n:10} {t}", markup=False)


@app.command()
@click.argument("game", help="Game name (see `referee games`).")
@JSON_OPTION
@handle_errors
def options(game: str, as_json: bool) -> None:
    """Show a game's house-rule options with their defaults (the product's rulings)."""
    from referee.systems.base import describe_options, get

    described = describe_options(get(game).options_type)
    if as_json:
        emit_json(described)
        return
    from referee.cli.text import Table

    table = Table(title=f"{game} options")
    table.add_column("option")
    table.add_column("default")
    table.add_column("meaning")
    for o in described:
        table.add_row(o["name"], str(o["default"]), o["doc"])
    console.print(table)


@app.command()
@click.argument("game", help="Game name.")
@click.argument("path", help="A character sheet as JSON.")
@JSON_OPTION
@handle_errors
def validate(game: str, path: str, as_json: bool) -> None:
    """Validate a character sheet file against a game's rules (every problem is listed)."""
    from referee.systems.base import get, load_record

    ruleset = get(game)
    sheet = load_record(ruleset.sheet_type, load_json_file(path))
    problems = ruleset.validate(sheet, ruleset.options_type())
    report_problems(problems, as_json=as_json, valid_text=f"{path}: valid")


@app.command()
def demo() -> None:
    """A short tour: roll dice, show exact odds, then each installed game."""
    from referee.dice.evaluate import odds as exact
    from referee.dice.evaluate import roll as roll_expr
    from referee.dice.render import to_text
    from referee.dice.roller import SeededRoller

    roller = SeededRoller(2026)
    console.rule("referee: dice and exact odds")
    for text in ("2d6+1", "3d6kh2", "3d12med", "4d6>=3"):
        console.print(to_text(roll_expr(text, roller)), markup=False)
    show_distribution("2d6", exact("2d6"))
    for name in SYSTEMS:
        module = _game_cli(name)
        if module is not None and hasattr(module, "demo"):
            console.rule(name)
            module.demo(console)


def _game_cli(name: str) -> Any:
    import importlib
    from importlib.util import find_spec

    spec_name = f"referee.cli.{name}"
    if find_spec(spec_name) is None:
        return None
    return importlib.import_module(spec_name)


def _load(name: str) -> click.Command | None:
    """One of :data:`GROUPS`, imported now. A game's group is its preset module's (which
    has ``actions``, ``act`` and ``odds-of`` too); a game with none gets those three."""
    if name == "serve":
        from referee.cli.serve import serve

        return serve
    module = _game_cli(name)
    if module is not None:
        group: click.Group = module.app
        if "act" not in group.commands:
            from referee.cli.presets import add_generic_commands

            add_generic_commands(group, name)
        return group
    if name in SYSTEMS or _registered(name):
        from referee.cli.presets import game_group

        return game_group(name)
    return None


def _registered(name: str) -> bool:
    """A game registered beside the installed ones (a plug-in wing): asked only for a
    command name nothing else claims, so the core commands never load the rules."""
    if name.startswith("-") or not name.isidentifier():
        return False
    from referee.systems.base import names

    return name in names()


EXIT_PIPE = 128 + 13
"""The status of a command whose reader went away (``referee odds 20d6 | head -1``): what a
shell reports for a Unix tool ended by SIGPIPE, and no message."""


def quiet_pipe() -> int:
    """Standard output's reader is gone: point it at /dev/null, so the interpreter's own
    flush at exit cannot complain either, and end with :data:`EXIT_PIPE`."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real descriptor (a test's captured stream)
        pass
    return EXIT_PIPE


def run(argv: list[str] | None = None) -> int:
    """Entry point: usage errors and unexpected failures become one line on stderr; a
    closed pipe on standard output ends the command quietly (:data:`EXIT_PIPE`)."""
    args = sys.argv[1:] if argv is None else argv
    try:
        result = app.main(args=args, prog_name="referee", standalone_mode=False)
        sys.stdout.flush()  # what is still buffered meets a closed pipe here, not at exit
    except (BrokenPipeError, PipeClosed):
        return quiet_pipe()
    except click.exceptions.NoArgsIsHelpError as e:  # a bare group: its help, and exit 2
        click.echo(e.format_message())
        print(f"error: missing command ({e.ctx.command_path} --help for usage)", file=sys.stderr)
        return 2
    except click.Abort:
        print("error: aborted", file=sys.stderr)
        return 1
    except click.ClickException as e:  # usage errors
        ctx = getattr(e, "ctx", None)
        where = f" ({ctx.command_path} --help for usage)" if ctx is not None else ""
        print(f"error: {e.format_message()}{where}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        return 130
    except Exception as e:
        if os.environ.get("REFEREE_DEBUG"):  # a bug: one line unless debugging
            raise
        print(f"error: internal error {type(e).__name__}: {e}", file=sys.stderr)
        return 70
    return result if isinstance(result, int) else 0


def main() -> None:
    """Console-script wrapper around :func:`run`."""
    sys.exit(run())
