"""The :class:`~referee.systems.base.Ruleset` for ARM 1.2: actions, state, plans, tracker.

Every action is declared once in :meth:`ArmRuleset.table` with the function of
:mod:`.play`, :mod:`.fight`, :mod:`.upkeep` or :mod:`.rolls` that plans it; the
base derives the plan dispatch, ``resolve`` and ``odds`` from it (principle 1) and
``apply`` folds the outcome's changes into the :class:`~.state.State`.
What the rules wait for (a push decision, a defence, a damage roll) is kept
in ``pending``, derived here from the state after each outcome (:meth:`ArmRuleset.after_plan`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

from referee.systems.arm import upkeep
from referee.systems.arm.catalog import (
    DEFAULT_SETTING,
    RangedWeapon,
    Setting,
    Weapon,
    setting_problems,
)
from referee.systems.arm.discrepancies import DISCREPANCIES, Discrepancy, example_info
from referee.systems.arm.options import Options
from referee.systems.arm.sheet import Sheet, point_cost, template_problems, validate
from referee.systems.arm.state import State, decisions
from referee.systems.base import (
    TABLE,
    Action,
    ActionTable,
    Change,
    JSONObject,
    JSONValue,
    Outcome,
    Plan,
    Problem,
    Ruleset,
    Verdict,
    apply_changes,
    declare,
    jsonable,
)
from referee.systems.building import ExampleInfo
from referee.systems.state import replaced
from referee.systems.turns import Turns

ALWAYS_ALLOWED = ("end-combat",)
"""Actions the referee may take even while the rules wait for a decision."""


class ArmRuleset(Ruleset[Sheet, State, Options]):
    """ARM: Advanced Role-Playing Mechanics 1.2 (R. E. Bridson, 1993)."""

    name: ClassVar[str] = "arm"
    title: ClassVar[str] = "ARM: Advanced Role-Playing Mechanics 1.2"

    def table(self) -> ActionTable[State, Options]:
        """Every action, declared once: name (lower case, words joined by ``-``) -> its type
        (:mod:`.actions`) and the rule that plans it, in the game's rule modules, which
        import the action types: they are imported here, when the table is first read,
        and nothing in the wing imports this table (no import loop)."""
        from referee.systems.arm import fight, play, rolls, upkeep
        from referee.systems.arm.actions import (
            Accept,
            AddWeapon,
            Attack,
            Cast,
            Circle,
            Contest,
            Convert,
            Damage,
            Defend,
            Difficulty,
            EndCombat,
            GroupLog,
            GroupTask,
            ImposePenalty,
            LogOf,
            LoseAction,
            MeasureOf,
            Move,
            NextRound,
            Prepare,
            Push,
            RecordWound,
            Recover,
            RemoveWound,
            Shoot,
            SoulMagic,
            Strike,
            Subtasks,
            TakeBlow,
            TakeDamage,
            Task,
        )
        from referee.systems.arm.rolls import Pushable, Settles

        return {
            "task": declare(Task, Pushable(play.plan_task)),
            "contest": declare(Contest, Pushable(play.plan_contest)),
            "subtasks": declare(Subtasks, play.plan_subtasks),
            "group-task": declare(GroupTask, Pushable(play.plan_group_task)),
            "prepare": declare(Prepare, fight.plan_prepare),
            "circle": declare(Circle, Pushable(fight.plan_circle)),
            "attack": declare(Attack, Pushable(fight.plan_attack)),
            "defend": declare(Defend, Pushable(fight.plan_defend)),
            "take-blow": declare(TakeBlow, fight.plan_take_blow),
            "strike": declare(Strike, Pushable(fight.plan_strike)),
            "shoot": declare(Shoot, Pushable(fight.plan_shoot)),
            "damage": declare(Damage, Pushable(fight.plan_damage)),
            "move": declare(Move, play.plan_move),
            "cast": declare(Cast, Pushable(play.plan_cast)),
            "soul-magic": declare(SoulMagic, Pushable(play.plan_soul_magic)),
            "push": declare(Push, Settles(rolls.plan_push, self.declared)),
            "accept": declare(Accept, Settles(rolls.plan_accept, self.declared)),
            "next-round": declare(NextRound, upkeep.plan_next_round),
            "end-combat": declare(EndCombat, upkeep.plan_end_combat),
            "lose-action": declare(LoseAction, upkeep.plan_lose_action),
            "impose-penalty": declare(ImposePenalty, upkeep.plan_impose_penalty),
            "take-damage": declare(TakeDamage, upkeep.plan_take_damage),
            "recover": declare(Recover, upkeep.plan_recover),
            "record-wound": declare(RecordWound, upkeep.plan_record_wound),
            "remove-wound": declare(RemoveWound, upkeep.plan_remove_wound),
            "add-weapon": declare(AddWeapon, upkeep.plan_add_weapon),
            "log-of": declare(LogOf, upkeep.plan_log_of),
            "measure-of": declare(MeasureOf, upkeep.plan_measure_of),
            "convert": declare(Convert, upkeep.plan_convert),
            "difficulty": declare(Difficulty, upkeep.plan_difficulty),
            "group-log": declare(GroupLog, upkeep.plan_group_log),
        }

    setting: Setting = DEFAULT_SETTING
    """The lists the rules consult (the text's examples); sheets may carry their own values."""

    def verdict(
        self,
        sheet: Sheet,
        options: Options,
        setting: Setting | None = None,
        template: Sheet | None = None,
    ) -> Verdict:
        """Every problem of a sheet against a setting (default: the shipped one) and the
        template it was built from, with its cost in character points (ARM 1.2,
        Character Creation)."""
        chosen = setting or self.setting
        problems = setting_problems(chosen) + validate(sheet, options, chosen)
        if template is not None:
            problems += template_problems(template, sheet)
        cost = point_cost(sheet, chosen)
        return Verdict(problems, f"{cost['total']} chp", data={"chp": dict(cost)})

    def validate(
        self, sheet: Sheet, options: Options, state: State | None = None
    ) -> tuple[Problem, ...]:
        """Every rule the sheet breaks against the table's setting (the shipped one with
        the referee's added weapons, ``add-weapon``) or, with no table, the shipped one
        (ARM 1.2, Character Creation)."""
        return validate(sheet, options, self.setting if state is None else state.setting)

    def notes(self) -> tuple[Discrepancy, ...]:
        """Where the text disagrees with itself, and what the package does."""
        return DISCREPANCIES

    def example_info(self) -> Mapping[str, ExampleInfo]:
        """The melee example's fighters and the text's discrepancies that touch them."""
        return example_info()

    def check_pending(self, action: Action, state: State) -> None:
        """As the base, but the referee may always end the combat."""
        if self.action_name(action) in ALWAYS_ALLOWED:
            return
        super().check_pending(action, state)

    # -- plans -----------------------------------------------------------------

    def planned(self, action: Action, state: State, options: Options) -> Plan:
        """As the base; with ``accept_on_next``, a roller's d6 - d6 roll while their own
        roll is held accepts the held roll first (its outcome's changes come first, and
        the new roll is planned on the table after them; ``details.accepted`` says so)."""
        held = self._held_by_roller(action, state, options)
        if held is None:
            return super().planned(action, state, options)
        from referee.dice.roller import ScriptedRoller
        from referee.systems.arm.actions import Accept

        accepted = super().planned(Accept(held), state, options).resolve(ScriptedRoller([]))
        after = self.apply(state, accepted)
        summary = {"action": accepted.action, "result": accepted.result, "label": accepted.label}

        def first(outcome: Outcome) -> Outcome:
            return replace(
                outcome,
                changes=(*accepted.changes, *outcome.changes),
                details={**outcome.details, "accepted": jsonable(summary)},
            )

        return super().planned(action, after, options).then(first)

    def _held_by_roller(self, action: Action, state: State, options: Options) -> str | None:
        """The roller whose held roll ``action`` (their next d6 - d6 roll) accepts first,
        under ``accept_on_next``; else None."""
        if not options.accept_on_next or action.free:
            return None
        from referee.systems.arm.rolls import Pushable

        entry = self.declared().get(self.action_name(action))
        actors = action.actors()
        if entry is None or not isinstance(entry.planner, Pushable) or len(actors) != 1:
            return None
        seat = state.characters.get(actors[0])
        return actors[0] if seat is not None and seat.held is not None else None

    def waits_for_roller(self, action: Action, state: State, options: Options) -> bool:
        """A d6 - d6 roll in the ``ask`` push mode at a table that pushes: it may be held
        for its roller's push decision after the roll (ARM 1.2, Pushing)."""
        from referee.systems.arm.rolls import Pushable, push_mode

        entry = self.declared().get(self.action_name(action))
        if entry is None or not isinstance(entry.planner, Pushable):
            return False
        return push_mode(entry.planner.rule(action, state, options), options) == "ask"

    def after_plan(self, action: Action, state: State, options: Options, plan: Plan) -> Plan:
        """Each outcome also brings ``pending`` (what the rules wait for) up to date."""
        return _with_pending(plan, state)

    # -- what a table shows ------------------------------------------------------

    def turns(self, state: State, options: Options) -> Turns:
        """Whose turn it is (:mod:`.turns`)."""
        from referee.systems.arm import turns

        return turns.turns(state, options)

    def tracker(self, state: State, options: Options) -> JSONObject:
        """What a table shows of the state, in words: the round, what the rules wait for
        (by name), the referee's added weapons; each character's wound and shock levels
        ("Wound: Light (1)"), named wounds and this round's state (ARM 1.2, Damage;
        Combat (Melee))."""
        names = {cid: seat.sheet.name for cid, seat in state.characters.items()}
        table: list[JSONValue] = [
            ["Round", state.round if state.round else "no round running"],
            ["Round length", state.round_length],
        ]
        table += self.waiting(state, names)
        shipped: tuple[Weapon | RangedWeapon, ...] = (
            *DEFAULT_SETTING.weapons,
            *DEFAULT_SETTING.ranged,
        )
        added: tuple[Weapon | RangedWeapon, ...] = (*state.setting.weapons, *state.setting.ranged)
        for weapon in added:
            if weapon not in shipped:  # the referee's additions to the text's examples
                table.append([f"Weapon {weapon.name}", upkeep.weapon_text(weapon)])
        characters: dict[str, JSONValue] = {}
        for cid, seat in state.characters.items():
            rows: list[JSONValue] = [["Name", seat.sheet.name]]
            rows += [[label, value] for label, value in seat.condition.rows()]
            if seat.acted:
                done = ", ".join(a.replace("-", " ") for a in seat.acted)
                rows.append(["Acted this round", done])
            if seat.prepared:
                rows.append(["Prepared defence", "yes"])
            if seat.weakness:
                target = names.get(seat.weakness, seat.weakness)
                rows.append(["Attack bonus", f"+{options.circling_bonus} against {target}"])
            if seat.found:
                found = names.get(seat.found, seat.found)
                rows.append(["Weakness found", f"{found} (next round)"])
            if seat.penalty:
                rows.append(["Penalty this round", f"{seat.penalty:+d}"])
            if seat.next_penalty:
                rows.append(["Penalty next round", f"{seat.next_penalty:+d}"])
            if seat.readied:
                rows.append(["Spell ready", seat.readied])
            characters[cid] = rows
        return {"table": table, "characters": characters}


def _with_pending(inner: Plan, state: State) -> Plan:
    """``inner`` whose outcomes also set ``pending`` to what the state after them waits for."""

    def settle(outcome: Outcome) -> Outcome:
        after = apply_changes(state, outcome.changes)
        wanted = decisions(after)
        if wanted == after.pending:
            return outcome
        change = Change(TABLE, "pending", value=jsonable(wanted), reason="what the rules wait for")
        return replace(outcome, changes=(*outcome.changes, change))

    def waiting(after: State) -> State:
        wanted = decisions(after)
        return after if wanted == after.pending else replaced(after, pending=wanted)

    return inner.then(settle, waiting)


RULESET = ArmRuleset()
