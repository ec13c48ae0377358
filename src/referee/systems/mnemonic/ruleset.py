"""The Mnemonic :class:`~referee.systems.base.Ruleset`: one plan per action.

Every action reads the table's state (the deck, the characters' sheets and
Status) and the table's options (the randomizer above all) and becomes a
:class:`~referee.systems.base.Plan`: the dice program it rolls and how the
result becomes an outcome. Resolving and exact odds both come from that plan
(in the base), and the outcome's changes are the only way the state changes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.resources import files

from referee.errors import IllegalAction, Problem
from referee.systems.base import (
    TABLE,
    Action,
    Change,
    JSONObject,
    JSONValue,
    Modifier,
    Outcome,
    Plan,
    Ruleset,
    jsonable,
    load_record,
)
from referee.systems.building import ExampleInfo, ExampleNote
from referee.systems.mnemonic.actions import (
    ACTIONS,
    AgileOrder,
    Attack,
    Check,
    Injury,
    RefereeOrder,
    Reshuffle,
    SetStatus,
    SheetCheck,
)
from referee.systems.mnemonic.aptitude import Aptitude, aptitude
from referee.systems.mnemonic.checks import SYSTEM, chances_value, prepare_check
from referee.systems.mnemonic.conflict import (
    Agile,
    agile_plan,
    attack_plan,
    opposed_plan,
    order_label,
    order_plan,
)
from referee.systems.mnemonic.deck import Deck, card_name
from referee.systems.mnemonic.health import injury_plan, resisting_aptitude, status_changes
from referee.systems.mnemonic.live import Said, hand_faces
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.randomizers import uses_cards
from referee.systems.mnemonic.sheet import Character, Status, validate
from referee.systems.mnemonic.state import Seat, State
from referee.systems.sheetview import SheetView

EXAMPLES = ("boxer", "frigate")
"""The example characters in the package's data (``data/<id>.json``)."""


def given_aptitude(value: int, whose: str = "Aptitude") -> Aptitude:
    """An Aptitude the referee gives as a number."""
    return Aptitude(value, (Modifier(value, whose, "aptitude"),))


class MnemonicRuleset(Ruleset[Character, State, Options]):
    """Mnemonic (Alpha-Zulu Games): Referee's Guide p. 1 and the Player's Guide facts."""

    name = "mnemonic"
    title = "Mnemonic (Alpha-Zulu Games)"
    sheet_type = Character
    state_type = State
    options_type = Options

    def actions(self) -> Mapping[str, type[Action]]:
        """Every action a Mnemonic table offers."""
        return ACTIONS

    def validate(self, sheet: Character, options: Options) -> tuple[Problem, ...]:
        """Every rule the character breaks under the table's options."""
        return validate(sheet, options)

    def seat(self, state: State, cid: str, sheet: Character, options: Options) -> State:
        """Seat ``sheet`` as ``cid``: a new character starts at its sheet's Status; a
        seated one keeps the Status the table tracks."""
        chars = dict(state.characters)
        old = chars.get(cid)
        chars[cid] = Seat(sheet, sheet.status if old is None else old.status)
        return State(chars, state.pending, state.deck, state.order)

    def examples(self) -> Mapping[str, Character]:
        """The example characters: the text's frigate and a professional boxer."""
        data = files("referee.systems.mnemonic") / "data"
        return {
            cid: load_record(Character, json.loads((data / f"{cid}.json").read_text("utf-8")))
            for cid in EXAMPLES
        }

    def example_info(self) -> Mapping[str, ExampleInfo]:
        """The frigate is the text's ("unusual primary roles"); the boxer the package's."""
        return {
            "frigate": ExampleInfo(
                True,
                "Mnemonic: unusual primary roles",
                (
                    ExampleNote(
                        "The text names the frigate's Talents (Fast, Maneuverable, Sturdy, "
                        "Well-Armed) and Life Roles but rates none: the ratings are the "
                        "package's."
                    ),
                ),
            ),
            "boxer": ExampleInfo(
                False,
                "an example character of the package (the professional boxer the text's "
                "injury rule mentions)",
            ),
        }

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

    # -- plans -------------------------------------------------------------

    def plan(self, action: Action, state: State, options: Options) -> Plan:
        """What ``action`` rolls in ``state`` and how its result becomes an outcome."""
        if isinstance(action, Check):
            check = prepare_check(
                given_aptitude(action.aptitude), action.chances, options, state.deck
            )
            return check.plan()
        if isinstance(action, SheetCheck):
            who = state.character(action.actor).sheet
            apt = aptitude(
                who, action.talent, action.life_role, fallback=action.fallback, options=options
            )
            name = f"{who.name}: {action.talent} check"
            return prepare_check(apt, action.chances, options, state.deck, action=name).plan()
        if isinstance(action, Attack):
            return self._attack(action, state, options)
        if isinstance(action, Injury):
            return self._injury(action, state, options)
        if isinstance(action, AgileOrder):
            return self._agile(action, state, options)
        if isinstance(action, RefereeOrder):
            if options.initiative == "agile":
                raise IllegalAction(
                    "this table's order of action comes from Agile checks (option "
                    "initiative 'agile'): use agile-order"
                )
            return order_plan(action.groups)
        if isinstance(action, Reshuffle):
            done = Outcome(
                system=SYSTEM,
                action="reshuffle",
                label="the deck is reshuffled (48 cards)",
                changes=(Change(TABLE, "deck", value=jsonable(Deck()), reason="reshuffle"),),
            )
            return Plan.fixed(done)
        if isinstance(action, SetStatus):
            return self._set_status(action, state)
        raise IllegalAction(f"{self.title} has no action {type(action).__name__}")

    def _traits(
        self,
        state: State,
        cid: str | None,
        value: int | None,
        talent: str,
        life_role: str | None,
        fallback: str,
        options: Options,
        role: str,
    ) -> Aptitude:
        """An Aptitude given as a number, or from a seated character's sheet."""
        if value is not None:
            return given_aptitude(value, f"{role}'s Aptitude")
        if cid is None:
            raise IllegalAction(f"give the {role}'s Aptitude or the {role}'s id at the table")
        who = state.character(cid).sheet
        return aptitude(who, talent, life_role, fallback=fallback, options=options)

    def _attack(self, action: Attack, state: State, options: Options) -> Plan:
        for cid in (action.actor, action.target):
            if cid is not None:
                state.character(cid)
        att = self._traits(
            state,
            action.actor,
            action.aptitude,
            action.talent,
            action.life_role,
            action.fallback,
            options,
            "attacker",
        )
        chances = chances_value(action.chances)
        names = {"attacker": action.actor, "target": action.target}
        if not options.opposed_rolls:
            return attack_plan(att, chances, action.defense, state.deck, options, **names)
        if action.defense:
            raise IllegalAction(
                "with opposed rolls the defender rolls instead of worsening the Chances"
            )
        if action.defender_aptitude is None and action.target is None:
            raise IllegalAction("opposed rolls need the defender's Aptitude or the target's id")
        dfd = self._traits(
            state,
            action.target,
            action.defender_aptitude,
            action.defender_talent,
            action.defender_life_role,
            action.defender_fallback,
            options,
            "defender",
        )
        dch = chances_value(action.defender_chances)
        return opposed_plan(att, chances, dfd, dch, state.deck, options, **names)

    def _injury(self, action: Injury, state: State, options: Options) -> Plan:
        chances = chances_value(action.chances)
        if action.victim is None:
            if action.aptitude is None:
                raise IllegalAction("give the victim's id at the table or the resisting Aptitude")
            resist = given_aptitude(action.aptitude, "resisting Aptitude")
            status = action.status or Status()
            return injury_plan(resist, chances, action.worst, status, state.deck, options)
        seat = state.character(action.victim)
        if action.status is not None:
            raise IllegalAction(
                f"the table tracks {action.victim}'s Status ({seat.status}): do not give it"
            )
        if action.aptitude is not None:
            resist = given_aptitude(action.aptitude, "resisting Aptitude")
        else:
            resist = resisting_aptitude(
                seat.sheet, life_role=action.life_role, talent=action.talent, options=options
            )
        return injury_plan(
            resist,
            chances,
            action.worst,
            seat.status,
            state.deck,
            options,
            victim=action.victim,
            name=seat.sheet.name,
        )

    def _agile(self, action: AgileOrder, state: State, options: Options) -> Plan:
        people = []
        for c in action.contenders:
            if c.aptitude is not None:
                apt = given_aptitude(c.aptitude, f"{c.name}'s Agile Aptitude")
            else:
                who = state.character(c.name).sheet
                apt = aptitude(who, c.talent, c.life_role, fallback="relevant", options=options)
            people.append(Agile(c.name, apt, chances_value(c.chances)))
        return agile_plan(people, state.deck, options)

    def _set_status(self, action: SetStatus, state: State) -> Plan:
        before = state.character(action.target).status
        injuries = before.injuries if action.injuries is None else action.injuries
        after = Status(action.condition, action.inactive_as, injuries)
        done = Outcome(
            system=SYSTEM,
            action="set status",
            label=f"{action.target}: {after}",
            changes=status_changes(action.target, before, after, "the referee's ruling"),
            details={"target": action.target, "status": str(after), "injuries": injuries},
        )
        return Plan.fixed(done)

    # -- what a table shows ------------------------------------------------

    def sheet_view(
        self, sheet: Character, seat: object | None, options: Options, state: State | None = None
    ) -> SheetView:
        """The sheet laid out as the game's own (:mod:`.present`)."""
        from referee.systems.mnemonic.present import sheet_view

        return sheet_view(sheet, seat, options)

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
            table.append(["Order of action", order_label(state.order)])
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
