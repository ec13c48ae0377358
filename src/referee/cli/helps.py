"""Help screens from stored data: a group named only for its help (``referee mneme
--help`` at any width) is listed from ``helps.json`` without importing it, and
``python -m referee.cli.helps`` writes that file from the commands themselves (every
group loaded, each screen printed at :data:`~referee.cli.screens.WIDTH`). A test checks
the stored screens against the loaded commands, so they cannot drift apart.
"""

from __future__ import annotations

import json
import re
import sys

import click

from referee.cli.screens import HELPS_FILE, WIDTH, GroupHelp, Stored, read

__all__ = ["Summed", "derive", "first_sentence", "light_group", "printed", "write"]


def first_sentence(help: str | None, limit: int) -> str:
    """A game command's line in its group's list: the first sentence of its help without
    the citations in parentheses, cut at a word to the ``limit`` there is."""
    text = re.sub(r"\s+\([^()]*\)", "", " ".join((help or "").split())).split(". ")[0]
    return text if len(text) <= limit else text[: limit - 3].rsplit(" ", 1)[0] + "..."


class Summed(click.Command):
    """A command whose line in its group's list is :func:`first_sentence` of its help."""

    def get_short_help_str(self, limit: int = 45) -> str:
        return first_sentence(self.help, limit)


class Listed(click.Command):
    """A command of a group's help screen, named and summed up but not loaded."""

    def __init__(self, name: str, help: str | None, short_help: str | None, summed: bool):
        super().__init__(name, help=help, short_help=short_help)
        self.summed = summed

    def get_short_help_str(self, limit: int = 45) -> str:
        if self.summed:
            return first_sentence(self.help, limit)
        return super().get_short_help_str(limit)


class Listing(click.Group):
    """A group listing its commands in the order they were stored."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


def derive(group: click.Group) -> GroupHelp:
    """The help screen of ``group`` as data, read from the group and its commands."""
    ctx = click.Context(group, info_name=group.name)
    commands: list[tuple[str, str | None, str | None, bool]] = []
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if cmd is not None and not cmd.hidden:
            commands.append((name, cmd.help, cmd.short_help, isinstance(cmd, Summed)))
    return {"help": group.help, "epilog": group.epilog, "commands": commands}


def light_group(name: str) -> click.Group | None:
    """A group that prints ``name``'s stored help screen, or None if none is stored."""
    stored = read()["groups"].get(name)
    if stored is None:
        return None
    commands = [Listed(*command) for command in stored["commands"]]
    return Listing(
        name,
        commands=commands,
        help=stored["help"],
        epilog=stored["epilog"],
        no_args_is_help=True,
    )


def printed(argv: list[str]) -> str:
    """What ``referee ARGV`` prints through click with every group loaded, at the stored
    width (the screens :func:`write` stores)."""
    from click.testing import CliRunner

    from referee.cli.main import GROUPS, app, load_group

    runner = CliRunner()
    kept = dict(app.commands)
    try:
        app.commands.update({name: load_group(name) for name in GROUPS if name in argv[:1]})
        done = runner.invoke(app, argv, terminal_width=WIDTH + 2)
    finally:
        app.commands.clear()
        app.commands.update(kept)
    return done.output


def write() -> None:
    """Derive every group's listing and every help screen (each group loaded) and store
    them."""
    from referee.cli.main import GROUPS, load_group

    groups: dict[str, GroupHelp] = {}
    for name in GROUPS:
        group = load_group(name)
        if isinstance(group, click.Group):
            groups[name] = derive(group)
    screens = {" ".join(argv): printed([*argv, "--help"]) for argv in ([], *([g] for g in GROUPS))}
    stored: Stored = {"screens": screens, "groups": groups}
    with open(HELPS_FILE, "w", encoding="utf-8") as f:
        f.write(json.dumps(stored, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {HELPS_FILE} ({len(screens)} screens)", file=sys.stderr)


if __name__ == "__main__":  # run as a script: the package's own module does the work
    from referee.cli import helps

    helps.write()
