"""The Mongrel :class:`~referee.systems.base.Ruleset`: one contract for the whole game.

Each action is declared once in :meth:`MongrelRuleset.table` with the rule module's
planner that knows it (:mod:`.conflict` for task and complex task resolution,
:mod:`.sorcery`, :mod:`.wealth`, :mod:`.advancement`). The plan dispatch,
resolve, odds and apply are derived from that table in the base class.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from referee.systems.base import (
    Action,
    ActionTable,
    JSONObject,
    JSONValue,
    Problem,
    Ruleset,
    Verdict,
    declare,
)
from referee.systems.turns import Turns

from .damage import terminal_at, wound_threshold
from .options import Options
from .sheet import Sheet
from .state import Seat, State


class MongrelRuleset(Ruleset[Sheet, State, Options]):
    """Mongrel (Ron Edwards, 2003)."""

    name: ClassVar[str] = "mongrel"
    title: ClassVar[str] = "Mongrel"

    def table(self) -> ActionTable[State, Options]:
        """Every action, declared once: name (lower case, words joined by ``-``) -> its type
        (:mod:`.actions`) and the rule that plans it, in the game's rule modules, which
        import the action types: they are imported here, when the table is first read,
        and nothing in the wing imports this table (no import loop)."""
        from referee.systems.mongrel.actions import (
            AcceptFate,
            Advance,
            ApproveSheet,
            Attack,
            AwardPoints,
            Buy,
            BuyRoll,
            Check,
            DeclinePurchase,
            EndConflict,
            Occult,
            OccultRoll,
            RaiseAttribute,
            RaiseExpertise,
            RaiseIdentity,
            Recover,
            Rest,
            SacrificeCredit,
            SpendResolve,
            SpendResolveToSurvive,
            StartConflict,
            TakeDamage,
            Task,
            TransferCredit,
            VowRefresh,
            Wait,
        )

        from . import advancement, conflict, sorcery, wealth

        return {
            "check": declare(Check, conflict.plan_check),
            "task": declare(Task, conflict.plan_task),
            "start-conflict": declare(StartConflict, conflict.plan_start_conflict),
            "end-conflict": declare(EndConflict, conflict.plan_end_conflict),
            "advance": declare(Advance, conflict.plan_advance),
            "attack": declare(Attack, conflict.plan_attack),
            "occult": declare(Occult, conflict.plan_occult),
            "recover": declare(Recover, conflict.plan_recover),
            "wait": declare(Wait, conflict.plan_wait),
            "spend-resolve": declare(SpendResolve, conflict.plan_spend_resolve),
            "take-damage": declare(TakeDamage, conflict.plan_take_damage),
            "spend-resolve-to-survive": declare(
                SpendResolveToSurvive, conflict.plan_spend_resolve_to_survive
            ),
            "accept-fate": declare(AcceptFate, conflict.plan_accept_fate),
            "rest": declare(Rest, conflict.plan_rest),
            "vow-refresh": declare(VowRefresh, conflict.plan_vow_refresh),
            "occult-roll": declare(OccultRoll, sorcery.plan_occult_roll),
            "buy": declare(Buy, wealth.plan_buy),
            "buy-roll": declare(BuyRoll, wealth.plan_buy_roll),
            "sacrifice-credit": declare(SacrificeCredit, wealth.plan_sacrifice_credit),
            "decline-purchase": declare(DeclinePurchase, wealth.plan_decline_purchase),
            "transfer-credit": declare(TransferCredit, wealth.plan_transfer_credit),
            "award-points": declare(AwardPoints, advancement.plan_award_points),
            "raise-expertise": declare(RaiseExpertise, advancement.plan_raise_expertise),
            "raise-identity": declare(RaiseIdentity, advancement.plan_raise_identity),
            "raise-attribute": declare(RaiseAttribute, advancement.plan_raise_attribute),
            "approve-sheet": declare(ApproveSheet, advancement.plan_approve_sheet),
        }

    def sheets_read(self, action: Action, options: Options) -> tuple[str, ...]:
        """An attack the target does not defend rolls under the attacker's own attribute
        (Complex task resolution, step 3): its odds read the target's sheet only to shunt
        damage to Beauty. A defended one rolls over the target's attribute."""
        from .actions import Attack

        if isinstance(action, Attack) and not action.defend and not action.shunt_to_beauty:
            return action.actors()
        return super().sheets_read(action, options)

    def unseat(self, state: State, cid: str) -> State:
        """``state`` without ``cid``: its decisions and its place in the order go too."""
        out = super().unseat(state, cid)
        return replace(out, order=tuple(i for i in out.order if i != cid))

    def validate(
        self, sheet: Sheet, options: Options, state: State | None = None
    ) -> tuple[Problem, ...]:
        """Every rule the sheet breaks that no referee approval on it covers: the rules of
        :mod:`.validation` (:func:`.validation.problems` names each with its reference;
        :func:`.validation.audit` also lists the approved ones)."""
        from .validation import unapproved

        return unapproved(sheet, options)

    def verdict(self, sheet: Sheet, options: Options) -> Verdict:
        """The rules the sheet breaks that no referee approval on it covers, shown after
        its derived scores with every problem and its approval (:mod:`.validation`)."""
        from .validation import audit, validation_data, validation_lines

        found = audit(sheet, options)
        left = tuple(p for p, reason in found if reason is None)
        shown = tuple(validation_lines(sheet, found))
        return Verdict(left, lines=shown, data=validation_data(sheet, found, not left))

    def turns(self, state: State, options: Options) -> Turns:
        """Whose turn it is (:mod:`.turns`)."""
        from referee.systems.mongrel import turns

        return turns.turns(state, options)

    def tracker(self, state: State, options: Options) -> JSONObject:
        """What a table shows of the state, in words: the conflict's order and who acts
        next (by name), the hours gone, the decisions awaited; per character the Action
        Points and Infernal Resolve left of their maximums, the damage track and its
        stage (Mongrel, Physical damage; Fatigue). The Identity scores that order a
        conflict are on the sheet (:mod:`.present`), not here: who may see a sheet is
        the table's choice, the tracker everyone sees."""
        names = {cid: f.name for cid, f in state.characters.items()}
        table: list[JSONValue] = [
            [
                "Conflict order",
                " > ".join(names.get(c, c) for c in state.order) if state.order else "none",
            ],
            ["Next to act", names.get(state.next, state.next) if state.next else "nobody"],
            ["Hours elapsed", state.hours],
        ]
        table += self.waiting(state, names, choices=True)
        characters: dict[str, JSONValue] = {
            cid: _rows(f, state, options) for cid, f in state.characters.items()
        }
        return {"table": table, "characters": characters}


def _rows(f: Seat, state: State, options: Options) -> list[JSONValue]:
    fatigued = f.refreshes >= f.physique
    counted = f.refreshes if fatigued or f.refresh_hour == state.hours else 0
    condition = f.condition or "fine"
    rows: list[JSONValue] = [
        ["Name", f.name],
        ["Action Points", f"{f.ap} / {f.effective_ap_max}"],
        ["Infernal Resolve", f"{f.ir} / {f.ir_max}"],
        [
            "Damage",
            f"{f.damage} (collapses past {wound_threshold(f, options)}; "
            f"terminal at {terminal_at(f, options)})",
        ],
        [
            "Physique",
            f"{f.physique}"
            + (f" ({f.base_physique} less {f.physique_loss} lost)" if f.physique_loss else ""),
        ],
        [
            "Beauty",
            f"{f.beauty}"
            + (f" ({f.beauty_permanent} lost for good)" if f.beauty_permanent else ""),
        ],
        ["Condition", condition[:1].upper() + condition[1:]],
        [
            "Full refreshes this hour",
            f"{counted} / {f.physique}" + (" (fatigued)" if fatigued else ""),
        ],
    ]
    return rows


RULESET = MongrelRuleset()

__all__ = ["RULESET", "MongrelRuleset"]
