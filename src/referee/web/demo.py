"""Demo tables: one per game, the rule texts' example characters seated, links handed out.

``referee serve --demo`` calls :func:`demo_tables`; a table that exists already
is kept as it is (its log is never rewritten) and gets fresh links, the old
demo links being revoked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.errors import RulesError
from referee.table.service import TableService
from referee.table.store import StoreError
from referee.table.tokens import Tokens

REFEREE = "Referee"
PLAYERS = ("Ann", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal")


@dataclass
class DemoTable:
    """One demo table and the secret tokens of its participants (referee first)."""

    id: str
    name: str
    title: str
    tokens: dict[str, str] = field(default_factory=dict)
    created: bool = False


def demo_name(game: str) -> str:
    """The demo table's name for a game."""
    return f"demo-{game}"


def demo_tables(service: TableService, tokens: Tokens) -> tuple[list[DemoTable], list[str]]:
    """Create (if absent) one demo table per game that speaks the contract; issue links.

    Returns the tables and a note for each game that could not have one."""
    from referee.web.deps import contract_games

    made: list[DemoTable] = []
    skipped: list[str] = []
    for game, rules in contract_games():
        name = demo_name(game)
        try:
            row = service.table(name)
            created = False
        except StoreError:
            try:
                # a demo shows the odds of every roll: players see the true odds against
                # the sheets kept from them (the referee's adversaries, each other's)
                done = service.create(game, name, REFEREE, settings={"true_odds": True})
                examples = rules.examples()
                players = [e for e, sheet in examples.items() if not rules.referees(sheet)]
                for example in examples:  # each to a player in turn; an adversary, no one's
                    player = None
                    if example in players:
                        player = PLAYERS[players.index(example) % len(PLAYERS)]
                        if player not in done.table.participants:
                            done = service.join(name, player, "player")
                    service.add_character(name, example, owner=player, force=True)
            except (RulesError, AttributeError, TypeError, ValueError) as e:
                skipped.append(f"{game}: {e}")
                continue
            row = service.table(name)
            created = True
        ts = service.load(row.id)
        tokens.revoke_kind(row.id, "demo")
        table = DemoTable(row.id, row.name, rules.title, created=created)
        for person in ts.participants:
            table.tokens[person], _ = tokens.issue(row.id, person, "demo")
        made.append(table)
    return made, skipped
