"""Commands every game gets from its action types, with no game-specific code.

``referee GAME actions`` lists the actions and their fields; ``referee GAME act
ACTION key=value...`` resolves one against a state (``--state`` / ``--seat``)
and can ``--save`` the state after it; ``referee GAME odds-of ACTION
key=value...`` gives the exact distribution of what it would report. A new
action in a game's ``actions()`` is usable here with no new CLI code.
"""

from __future__ import annotations

from typing import Any

import click

from referee.cli.common import (
    FACES_OPTION,
    JSON_OPTION,
    OPTIONS_OPTION,
    SAVE_OPTION,
    SEAT_OPTION,
    SEED_OPTION,
    STATE_OPTION,
    console,
    emit_json,
    handle_errors,
    listed,
    load_options,
    load_state,
    outcome_text,
    print_odds,
    resolve_action,
    write_json_file,
)

FIELDS_ARG = click.argument(
    "pairs", nargs=-1, callback=listed, help="The action's fields as key=value words."
)


def add_generic_commands(app: click.Group, game: str) -> None:
    """Add ``actions``, ``act`` and ``odds-of`` for ``game`` to its command group."""

    @app.command("actions")
    @JSON_OPTION
    @handle_errors
    def actions(
        as_json: bool,
    ) -> None:
        """Every action of this game with its fields (type, default, bounds, meaning)."""
        from referee.systems.base import describe_fields, get

        ruleset = get(game)
        described = {n: describe_fields(t) for n, t in ruleset.every_action().items()}
        if as_json:
            emit_json(described)
            return
        for name, fields in described.items():
            console.print(name, markup=False)
            for f in fields:
                bits = [str(f["type"])]
                if "default" in f:
                    bits.append(f"default {f['default']!r}")
                if "ge" in f or "le" in f:
                    bits.append(f"{f.get('ge', '')}..{f.get('le', '')}")
                if "choices" in f:
                    bits.append("one of " + ", ".join(str(c) for c in f["choices"]))  # type: ignore[union-attr]
                doc = f" - {f['doc']}" if f.get("doc") else ""
                console.print(f"  {f['name']}: {'; '.join(bits)}{doc}", markup=False)

    @app.command("act")
    @click.argument("action", help="The action's name (see `actions`).")
    @FIELDS_ARG
    @STATE_OPTION
    @SEAT_OPTION
    @OPTIONS_OPTION
    @SAVE_OPTION
    @SEED_OPTION
    @FACES_OPTION
    @JSON_OPTION
    @handle_errors
    def act(
        action: str,
        pairs: list[str] | None,
        state_file: str | None,
        seat: list[str] | None,
        options_file: str | None,
        save: str | None,
        seed: int | None,
        faces: str | None,
        as_json: bool,
    ) -> None:
        """Resolve one action against a state; print its outcome (and --save the new state)."""
        from referee.systems.base import outcome_data

        ruleset, options, state, chosen = _prepare(
            game, action, pairs, state_file, seat, options_file
        )
        outcome = resolve_action(ruleset, chosen, state, options, faces=faces, seed=seed)
        after = ruleset.apply(state, outcome)
        if save is not None:
            write_json_file(save, ruleset.dump_state(after))
        if as_json:
            emit_json(outcome_data(outcome))
            return
        console.print(outcome_text(outcome), markup=False)

    @app.command("odds-of")
    @click.argument("action", help="The action's name (see `actions`).")
    @FIELDS_ARG
    @STATE_OPTION
    @SEAT_OPTION
    @OPTIONS_OPTION
    @JSON_OPTION
    @handle_errors
    def odds_of(
        action: str,
        pairs: list[str] | None,
        state_file: str | None,
        seat: list[str] | None,
        options_file: str | None,
        as_json: bool,
    ) -> None:
        """The exact distribution of what an action would report, before anything is rolled."""
        ruleset, options, state, chosen = _prepare(
            game, action, pairs, state_file, seat, options_file
        )
        print_odds(ruleset.odds(chosen, state, options), as_json=as_json)


def _prepare(
    game: str,
    action: str,
    pairs: list[str] | None,
    state_file: str | None,
    seat: list[str] | None,
    options_file: str | None,
) -> tuple[Any, Any, Any, Any]:
    """The ruleset, the options, the state and the action a command line names."""
    from referee.systems.base import data_from_pairs, get

    ruleset = get(game)
    options = load_options(ruleset, options_file)
    state = load_state(ruleset, state_file, options, seat)
    chosen = ruleset.load_action(action, data_from_pairs(ruleset.action_type(action), pairs or []))
    return ruleset, options, state, chosen
