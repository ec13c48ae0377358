"""The Mnemonic :class:`~referee.systems.base.Ruleset`: one plan per action.

Every action reads the table's state (the deck, the characters' sheets and
Status) and the table's options (the randomizer above all) and becomes a
:class:`~referee.systems.base.Plan`: the dice program it rolls and how the
result becomes an outcome. Resolving and exact odds both come from that plan
(in the base), and the outcome's changes are the only way the state changes.
"""

from __future__ import annotations

from referee.systems.base import (
    Action,
    ActionTable,
    JSONObject,
    JSONValue,
    Ruleset,
    declare,
)
from referee.systems.mnemonic.conflict import order_label
from referee.systems.mnemonic.deck import Deck, card_name
from referee.systems.mnemonic.live import Said, hand_faces
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.randomizers import uses_cards
from referee.systems.mnemonic.sheet import Sheet, Status
from referee.systems.mnemonic.state import State
from referee.systems.turns import Turns


class MnemonicRuleset(Ruleset[Sheet, State, Options]):
    """Mnemonic (Alpha-Zulu Games): Referee's Guide p. 1 and the Player's Guide facts."""

    name = "mnemonic"
    title = "Mnemonic (Alpha-Zulu Games)"

    def table(self) -> ActionTable[State, Options]:
        """Every action, declared once: name (lower case, words joined by ``-``) -> its type
        (:mod:`.actions`) and the rule that plans it, in the game's rule modules, which
        import the action types: they are imported here, when the table is first read,
        and nothing in the wing imports this table (no import loop)."""
        from referee.systems.mnemonic import checks, conflict, health
        from referee.systems.mnemonic.actions import (
            AgileOrder,
            Attack,
            Check,
            Injury,
            NextTurn,
            RefereeOrder,
            Reshuffle,
            SetStatus,
            SheetCheck,
        )

        return {
            "check": declare(Check, checks.plan_check),
            "sheet-check": declare(SheetCheck, checks.plan_sheet_check),
            "attack": declare(Attack, conflict.plan_attack),
            "injury": declare(Injury, health.plan_injury),
            "agile-order": declare(AgileOrder, conflict.plan_agile_order),
            "order": declare(RefereeOrder, conflict.plan_order),
            "next-turn": declare(NextTurn, conflict.plan_next_turn),
            "reshuffle": declare(Reshuffle, checks.plan_reshuffle),
            "set-status": declare(SetStatus, health.plan_set_status),
        }

    def sheets_read(self, action: Action, options: Options) -> tuple[str, ...]:
        """An attack reads the defender's sheet only under opposed rolls without a given
        defender's Aptitude (the defender's Talent and Life Role); else only the
        attacker's (Mnemonic, attacking and dodging: only the attacker rolls)."""
        from referee.systems.mnemonic.actions import Attack

        if isinstance(action, Attack) and (
            not options.opposed_rolls or action.defender_aptitude is not None
        ):
            return action.actors()
        return super().sheets_read(action, options)

    def hand_faces(
        self,
        action: Action,
        state: State,
        options: Options,
        *,
        cards: tuple[int, ...] | None = None,
        said: Said | None = None,
    ) -> tuple[int, ...]:
        """The faces (for a :class:`~referee.dice.roller.ManualRoller`) that make
        ``action`` draw the card values ``cards`` or use the verbal numbers ``said``
        (see :mod:`.live`)."""
        return hand_faces(action, state, options, cards=cards, said=said)

    # -- what a table shows ------------------------------------------------

    def turns(self, state: State, options: Options) -> Turns:
        """Whose turn it is (:mod:`.turns`)."""
        from referee.systems.mnemonic import turns

        return turns.turns(state, options)

    def tracker(self, state: State, options: Options) -> JSONObject:
        """What a table shows of the state, in words: the randomizer, the deck (when cards
        are in use or drawn), the order of action; each character's name, Primary Role,
        Status and injuries. The Talents and Life Roles with their ratings are on the sheet
        (:mod:`.present`), which the table's sheets setting may keep to its player."""
        table: list[JSONValue] = [["Randomizer", options.randomizer]]
        if uses_cards(options.randomizer) or len(state.deck) < len(Deck()):
            out = ", ".join(card_name(c) for c in state.deck.drawn()) or "none"
            table.append(["Deck", f"{len(state.deck)} cards left; drawn: {out}"])
        if state.order:
            names = {cid: seat.sheet.name for cid, seat in state.characters.items()}
            named = tuple(tuple(names.get(c, c) for c in group) for group in state.order)
            table.append(["Order of action", order_label(named)])
        characters: dict[str, JSONValue] = {}
        for cid, seat in state.characters.items():
            sheet = seat.sheet
            characters[cid] = [
                ["Name", sheet.name],
                ["Primary Role", sheet.primary_role],
                ["Status", str(seat.status)],
                ["Injuries", seat.status.injuries],
            ]
        return {"table": table, "characters": characters}


RULESET = MnemonicRuleset()

__all__ = ["RULESET", "MnemonicRuleset", "State", "Status"]
