"""The ``referee`` command: dice, odds, and one sub-command group per game.

A group beside the core commands (a game, ``table``, ``serve``, ``analyze``) is
imported only when the command line names it, so ``referee odds 2d6`` loads no
game and no web framework and starts fast; a group's own help screen
(``referee mneme --help``) is printed from :mod:`referee.cli.helps` without importing it.
"""

from __future__ import annotations

import os
import sys
from contextlib import suppress
from typing import Final

import click

from referee.cli import common, dice
from referee.cli.common import JSON_OPTION, console, handle_errors
from referee.cli.text import help_width
from referee.systems import SYSTEMS, about

__all__ = ["GROUPS", "app", "load_group", "main", "run"]

GROUPS: dict[str, str] = {
    **{name: str(about(name).get("summary") or f"{name}: its actions.") for name in SYSTEMS},
    "table": "Live tables: an event log per table on SQLite or PostgreSQL, shared by many.",
    "serve": "Serve the web table: pages, the JSON API (/docs), live WebSockets and /healthz.",
    "analyze": "Designer analysis: compare check variants, exact conflicts, simulation, sweeps.",
}
"""The groups beside the core commands, with their help: ``referee --help`` lists them
from here, importing none (a test checks each group says the same). A game's group and
its help line are the game's own (its ``summary``, :func:`referee.systems.about`)."""


class Later(click.Command):
    """One of :data:`GROUPS` not imported yet: its name and help line, for the lists."""


class Referee(click.Group):
    """The top-level group: each of :data:`GROUPS` is a :class:`Later` until named."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The core commands, then the groups."""
        return sorted(self.commands, key=lambda n: n in GROUPS)  # loaded or not

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command named first; a group (or a game registered beside them) is imported now."""
        name = args[0]
        later = isinstance(self.commands.get(name), Later)
        if name not in self.commands and name.isidentifier():
            from referee.systems.base import names  # a plug-in wing? only for an unknown name

            later = name in names()
        if later and args[1:] in ([], ["-h"], ["--help"]):  # its help screen: from the file
            from referee.cli.helps import light_group

            light = light_group(name)
            if light is not None:
                return name, light, args[1:]
        if later:
            self.add_command(load_group(name), name)
        return super().resolve_command(ctx, args)


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: the release (read when asked, so other commands never pay for it)."""
    if value and not ctx.resilient_parsing:
        from referee import version

        click.echo(f"referee {version()}")
        ctx.exit()


app = Referee(
    name="referee",
    help="Rules engine, exact odds and live table for Mnemonic, Mongrel, Mneme CE and ARM.",
    no_args_is_help=True,
    context_settings={
        "show_default": True,
        "terminal_width": help_width(),
        "help_option_names": ["-h", "--help"],
    },
    commands=[Later(name, help=help) for name, help in GROUPS.items()],
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


DEPTH_HELP = "Extra rolls one exploding die may make (! and !!); the last counts at its face."
DEPTH = click.option("--depth", type=click.IntRange(0, 100), default=dice.DEPTH, help=DEPTH_HELP)
ROLL = click.argument("expression", help="Dice notation, e.g. 3d6kh2+1, 4d6>=3, 4d6ro1kh3 or 3d6!.")
ODDS = click.argument("expression", help="Dice notation, e.g. 2d6, 3d12med, 4d6dl1 or 10d6!>=5.")
ROLLING = common.stacked(ROLL, common.SEED_OPTION, common.FACES_OPTION, DEPTH, JSON_OPTION)
app.command("roll")(ROLLING(handle_errors(dice.roll)))
app.command("odds")(common.stacked(ODDS, DEPTH, JSON_OPTION)(handle_errors(dice.odds)))
"""``roll`` and ``odds``: the functions :func:`referee.cli.dice.main` runs for their plain
forms, with their help."""


@app.command()
@JSON_OPTION
def games(as_json: bool) -> None:
    """List the games this installation knows."""
    from referee.cli.presets import show
    from referee.systems.base import get, names

    rows = [{"name": n, "title": get(n).title} for n in names()]
    show(as_json, rows, [f"{r['name']:10} {r['title']}" for r in rows])


@app.command()
@click.argument("game", help="Game name (see `referee games`).")
@JSON_OPTION
@handle_errors
def options(game: str, as_json: bool) -> None:
    """Show a game's house-rule options with their defaults (the product's rulings)."""
    from referee.cli.presets import show
    from referee.systems.base import describe_options, get

    described = describe_options(get(game).options_type)
    rows = [(o["name"], o["default"], o["doc"]) for o in described]
    columns = ["option", "default", "meaning"]
    show(as_json, described, [{"title": f"{game} options", "columns": columns, "rows": rows}])


@app.command()
@click.argument("game", help="Game name.")
@click.argument("path", help="A character sheet as JSON (or an example's name).")
@JSON_OPTION
@handle_errors
def validate(game: str, path: str, as_json: bool) -> None:
    """Validate a character sheet file against a game's rules (every problem is listed):
    ``referee GAME validate PATH`` with the game's defaults."""
    from referee.cli.presets import validate_sheet
    from referee.systems.base import get

    validate_sheet(get(game).name, path, None, as_json)


DEMO_ROLLS: Final = ("2d6+1", "3d6kh2", "3d12med", "4d6>=3")
DEMO_SEED: Final = 2026


@app.command()
@JSON_OPTION
def demo(as_json: bool) -> None:
    """A short tour: roll dice, show exact odds, then each installed game (``--json``: the
    rolls, the odds and each game's lines as one JSON object)."""
    from referee.cli.tour import tour
    from referee.dice import evaluate
    from referee.dice.render import distribution_data, to_data, to_text
    from referee.dice.roller import SeededRoller
    from referee.systems.base import get

    roller = SeededRoller(DEMO_SEED)
    rolls = [evaluate.roll(text, roller) for text in DEMO_ROLLS]
    said = {name: list(tour(get(name).name)) for name in SYSTEMS}  # as each log says them
    if as_json:
        odds = distribution_data("2d6", evaluate.odds("2d6"), None)
        shown = [to_data(r) | {"seed": DEMO_SEED} for r in rolls]
        common.emit_json({"rolls": shown, "odds": odds, "games": said})
        return
    console.rule("referee: dice and exact odds")
    for rolled in rolls:
        console.print(to_text(rolled))
    dice.show_distribution("2d6", evaluate.odds("2d6"))
    for name, lines in said.items():
        console.rule(name)
        for line in lines:
            console.print(line)


def load_group(name: str) -> click.Command:
    """One of :data:`GROUPS`, imported now: its module's ``app`` (``serve``: the command),
    or, for a game with no module of presets, ``actions``, ``act`` and ``odds-of``."""
    import importlib
    from importlib.util import find_spec

    if name in GROUPS and find_spec(f"referee.cli.{name}") is not None:
        module = importlib.import_module(f"referee.cli.{name}")
        found: click.Command = getattr(module, "serve" if name == "serve" else "app")
        return found
    from referee.cli.presets import game_group

    return game_group(name)


EXIT_PIPE = 128 + 13
"""The status of a command whose reader went away (``referee odds 20d6 | head -1``): what a
shell reports for a Unix tool ended by SIGPIPE, and no message."""


def quiet_pipe() -> int:
    """Standard output's reader is gone: point it at /dev/null, so the interpreter's own
    flush at exit cannot complain either, and end with :data:`EXIT_PIPE`."""
    with suppress(OSError, ValueError):  # no real descriptor (a test's captured stream)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return EXIT_PIPE


EXIT_INTERRUPTED: Final = 130
"""Ctrl-C: 128 + SIGINT, as shells report a command the interrupt ended."""

EXTRAS: Final = {
    "numpy": "analysis",
    "matplotlib": "analysis",
    "dask": "analysis",
    "distributed": "analysis",
    "psycopg": "postgres",
    "gmpy2": "fast",
}
"""The optional parts and the extra that installs each: a command needing one that is
missing says what to install (exit 1), never an internal error."""


def run(argv: list[str] | None = None) -> int:
    """Entry point: usage errors and unexpected failures become one line on stderr; a
    closed pipe on standard output ends the command quietly (:data:`EXIT_PIPE`).

    The group is run here, not by click's ``main``, which would turn a closed pipe into
    status 1 and an interrupt into an abort before this could see them."""
    args = sys.argv[1:] if argv is None else list(argv)
    app._main_shell_completion({}, "referee", None)  # _REFEREE_COMPLETE set: click completes
    try:
        try:
            with app.make_context("referee", args) as top:
                result = app.invoke(top)
        except click.exceptions.Exit as e:  # --help, --version, a command's own status
            result = e.exit_code
        sys.stdout.flush()  # what is still buffered meets a closed pipe here, not at exit
    except BrokenPipeError:
        return quiet_pipe()
    except click.exceptions.NoArgsIsHelpError as e:  # a bare group: its help, and exit 2
        click.echo(e.format_message())
        print(f"error: missing command ({e.ctx.command_path} --help for usage)", file=sys.stderr)
        return 2
    except (click.Abort, KeyboardInterrupt):  # Ctrl-C: quiet, as a shell expects
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
    except EOFError:
        print("error: aborted (the input ended)", file=sys.stderr)
        return 1
    except click.ClickException as e:  # usage errors
        ctx = getattr(e, "ctx", None)
        where = f" ({ctx.command_path} --help for usage)" if ctx is not None else ""
        print(f"error: {e.format_message()}{where}", file=sys.stderr)
        return e.exit_code
    except ImportError as e:
        extra = EXTRAS.get((e.name or "").split(".")[0])
        if extra is None:
            raise
        print(
            f"error: this needs the {extra} extra ({e.name} is missing): "
            f"pip install 'referee[{extra}]'",
            file=sys.stderr,
        )
        return 1
    except Exception as e:
        if os.environ.get("REFEREE_DEBUG"):  # a bug: one line unless debugging
            raise
        print(f"error: internal error {type(e).__name__}: {e}", file=sys.stderr)
        return 70
    return result if isinstance(result, int) else 0


def main() -> None:
    """Console-script wrapper around :func:`run`."""
    sys.exit(run())
