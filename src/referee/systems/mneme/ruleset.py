"""The Mneme CE :class:`~referee.systems.base.Ruleset`: every action, its plan, and
what a table shows of the state (chapters 2 and 7 of the combat rules)."""

from __future__ import annotations

from dataclasses import replace

from referee.systems.base import (
    Action,
    ActionTable,
    JSONObject,
    JSONValue,
    Plan,
    Ruleset,
    declare,
)
from referee.systems.mneme.checks import wound_penalty
from referee.systems.mneme.health import condition, movement, thresholds
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.state import Seat, State
from referee.systems.mneme.tables import ROUNDS_PER_MINUTE
from referee.systems.turns import Turns

_EMPTY = State()


def span_text(rounds: int) -> str:
    """Rounds of 6 seconds as days, hours, minutes and seconds ('2 d 3 h 10 min')."""
    seconds = rounds * 60 // ROUNDS_PER_MINUTE
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{v} {u}" for v, u in ((days, "d"), (hours, "h"), (minutes, "min"), (secs, "s"))]
    shown = [p for p in parts if not p.startswith("0 ")]
    return " ".join(shown) or "0 s"


class MnemeRuleset(Ruleset[Sheet, State, Options]):
    """Mneme CE (chapters 2 and 7 of the combat rules)."""

    name = "mneme"
    title = "Mneme CE"

    def table(self) -> ActionTable[State, Options]:
        """Every action, declared once: name (lower case, words joined by ``-``) -> its type
        (:mod:`.actions`) and the rule that plans it, in the game's rule modules, which
        import the action types: they are imported here, when the table is first read,
        and nothing in the wing imports this table (no import loop)."""
        from referee.systems.mneme import (
            aim,
            budget,
            clock,
            initiative,
            psionics,
            resolve,
            treatment,
        )
        from referee.systems.mneme.actions import (
            Aim,
            Attack,
            CareWard,
            Check,
            DamageRolls,
            EndEncounter,
            FirstAid,
            PassRounds,
            PassTime,
            RollInitiative,
            SetCare,
            SpendAction,
            Stimulant,
            Surgery,
            SurvivalRoll,
            TakeDamage,
            UsePsionics,
        )

        return {
            "check": declare(Check, resolve.plan_check),
            "attack": declare(Attack, resolve.plan_attack),
            "take-damage": declare(TakeDamage, resolve.plan_take_damage),
            "damage-rolls": declare(DamageRolls, resolve.plan_damage_rolls),
            "survival": declare(SurvivalRoll, treatment.plan_survival),
            "first-aid": declare(FirstAid, treatment.plan_first_aid),
            "surgery": declare(Surgery, treatment.plan_surgery),
            "stimulant": declare(Stimulant, treatment.plan_stimulant),
            "care": declare(CareWard, treatment.plan_care),
            "set-care": declare(SetCare, clock.plan_set_care),
            "pass-time": declare(PassTime, clock.plan_pass_time),
            "pass-rounds": declare(PassRounds, clock.plan_pass_rounds),
            "initiative": declare(RollInitiative, initiative.plan_initiative),
            "end-encounter": declare(EndEncounter, initiative.plan_end_encounter),
            "spend-action": declare(SpendAction, budget.plan_spend_action),
            "aim": declare(Aim, aim.plan_aim),
            "psionics": declare(UsePsionics, psionics.plan_psionics),
        }

    def unseat(self, state: State, cid: str) -> State:
        """As the base, and the character leaves the encounter's turn order."""
        left = super().unseat(state, cid)
        order = tuple(kept for step in left.order if (kept := tuple(n for n in step if n != cid)))
        return replace(left, order=order)

    def check_pending(self, action: Action, state: State | None) -> None:
        """As the base; no state at all (``None``) is a table with nothing pending."""
        if state is not None:
            super().check_pending(action, state)

    def planned(self, action: Action, state: State | None, options: Options) -> Plan:
        """As the base; no state at all (``None``) is an empty table (a bare check)."""
        return super().planned(action, _EMPTY if state is None else state, options)

    def after_plan(self, action: Action, state: State, options: Options, plan: Plan) -> Plan:
        """Every plan at a table where someone aims: an aim can be lost (:mod:`.aim`)."""
        if state.characters and any(seat.aim for seat in state.characters.values()):
            from referee.systems.mneme.aim import lose_aim  # an aim can be lost

            return plan.then(lambda outcome: lose_aim(action, state, outcome, options))
        return plan

    def referees(self, sheet: Sheet) -> bool:
        """An adversary is the referee's (ch. 2, Referee Doesn't Roll)."""
        return sheet.adversary

    def sheet_summary(self, sheet: Sheet, options: Options) -> str:
        """A legal sheet's HP, damage and condition (ch. 7)."""
        cond = "Dead" if sheet.dead else condition(sheet, options)
        return f"HP {sheet.hp}, damage {sheet.damage} ({cond})"

    def turns(self, state: State, options: Options) -> Turns:
        """Whose turn it is (:mod:`.turns`)."""
        from referee.systems.mneme import turns

        return turns.turns(state, options)

    def tracker(self, state: State, options: Options) -> JSONObject:
        """The clock, the encounter's round and turn order, and for each character what a
        referee watches: HP and thresholds, damage, condition, wound penalty, movement,
        conditions, stabilisation, activity and care, actions left and Initiative."""
        names = {cid: seat.sheet.name for cid, seat in state.characters.items()}
        order = " > ".join(" = ".join(names.get(n, n) for n in step) for step in state.order)
        table: list[JSONValue] = [
            ["Clock", span_text(state.clock)],
            ["Round", state.round if state.round else "no encounter"],
            ["Turn order", order or "none"],
        ]
        table += self.waiting(state, names)  # a roll (massive damage's End roll)
        rows: dict[str, JSONValue] = {}
        for cid, seat in state.characters.items():
            rows[cid] = self._seat_rows(seat, options)
        return {"table": table, "characters": rows}

    @staticmethod
    def _seat_rows(seat: Seat, options: Options) -> list[JSONValue]:
        s = seat.sheet
        t = thresholds(s, options)
        cond = "Dead" if s.dead else condition(s, options)
        speed, dash = movement(cond if cond != "Dead" else "Dying")
        moves = "normal" if dash else ("immobile" if not speed else f"{speed} speed, no Dash")
        rows: list[JSONValue] = [
            ["Name", s.name],
            ["HP", s.hp],
            ["Damage", s.damage],
            ["Condition", cond],
            ["Wound penalty", wound_penalty(s.damage, options)],
            ["Seriously Wounded at", t.seriously],
            ["Critically Wounded at", t.critically],
            ["Movement", moves],
            ["Conditions", ", ".join(s.conditions) or "none"],
        ]
        if "Psi" in s.characteristics:
            rows.append(
                ["Psionic Strength", f"{s.characteristic('Psi')} of {s.characteristics['Psi']}"]
            )
        if s.exhaustion:
            rows.append(["Exhaustion", s.exhaustion])
        if "Stabilised" in s.conditions:
            rows.append(["Stabilised for", span_text(s.stabilised_minutes * ROUNDS_PER_MINUTE)])
        from referee.systems.mneme.medical import care_level

        needs = care_level(cond) if cond != "Dead" else "none"
        rows += [
            ["Activity", seat.activity.replace("_", " ")],
            ["Care", f"{seat.care} (needs {needs})"],
            ["Minor actions left", seat.minor_left],
            ["Initiative", seat.initiative if seat.initiative is not None else "none"],
            ["Aim", f"+{seat.aim}" if seat.aim else "none"],
        ]
        if seat.care == "intensive" and not seat.supervised:
            rows.append(["Supervision", "none: End rolls at 8 are due"])
        if seat.therapy:
            rows.append(["Therapy", seat.therapy])
        return rows


RULESET = MnemeRuleset()
