"""The table's clock as plans: what each character does while time passes, time
passing (healing, bleeding, stabilisation, therapy and the dying rolls that fall due),
and combat rounds passing (Mneme CE ch. 7, Healing and Recovery; Bleeding; Dying;
companion facts, turn economy: a round is about 6 seconds).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from referee.dice.evaluate import DieRoll
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Dice, Outcome, Plan, Trace
from referee.systems.mneme.actions import PassRounds, PassTime, SetCare
from referee.systems.mneme.changes import Changes
from referee.systems.mneme.dying import DyingProgram, DyingRolls
from referee.systems.mneme.health import (
    ClockResult,
    Segment,
    care_adequate,
    condition,
    due_segments,
    first_due_round,
    pass_time,
    with_condition,
)
from referee.systems.mneme.medical import UNSUPERVISED_NOTE, care_level
from referee.systems.mneme.options import Options
from referee.systems.mneme.resolve import condition_report
from referee.systems.mneme.sheet import Sheet, canonical_characteristic
from referee.systems.mneme.state import State
from referee.systems.mneme.tables import BLEED_MINUTES, MINOR_ACTIONS, ROUNDS_PER_MINUTE
from referee.systems.mneme.task import SYSTEM

MAX_MINUTES = 10 * 365 * 24 * 60
"""Most time one action may pass (ten years)."""

IMMOBILE = ("Critically Wounded", "Dying")


# ---------------------------------------------------------------------------
# what a character does while time passes


def plan_set_care(action: SetCare, state: State, options: Options) -> Plan:
    """A character's activity and care while time passes (ch. 7, Healing and Recovery).
    The outcome names the care the condition needs; unsupervised intensive care says
    that End rolls are due; Critically Wounded and Dying characters are immobile, so
    only full rest is possible for them."""
    seat = state.character(action.actor)
    sheet = seat.sheet
    if sheet.dead:
        raise IllegalAction(f"{sheet.name} is dead")
    cond = condition(sheet, options)
    if cond in IMMOBILE and action.activity != "full_rest":
        raise IllegalAction(f"a {cond} character is immobile: only full rest is possible")
    therapy = canonical_characteristic(action.therapy) if action.therapy else None
    changes = Changes(state)
    for field, value in (
        ("activity", action.activity),
        ("care", action.care),
        ("supervised", action.supervised),
        ("therapy", therapy),
    ):
        if getattr(seat, field) != value:
            changes.set(action.actor, field, value, "set-care")
    needs = care_level(cond)
    details: dict[str, Any] = {
        "condition": cond,
        "needs_care": needs,
        "cared": cond != "Unhurt" and care_adequate(cond, action.care),
    }
    label = f"{sheet.name}: {action.activity.replace('_', ' ')}, {action.care} care"
    if action.care == "intensive" and not action.supervised:
        details["supervision"] = UNSUPERVISED_NOTE
        label += " (unsupervised: End rolls at 8 are due)"
    return Plan.fixed(
        Outcome(SYSTEM, "set-care", label=label, changes=changes.build(), details=details)
    )


# ---------------------------------------------------------------------------
# shared


def _who(state: State, who: tuple[str, ...]) -> list[str]:
    """The characters time passes for: those named (not dead), else everyone alive."""
    if not who:
        return [cid for cid, seat in state.characters.items() if not seat.sheet.dead]
    for cid in who:
        if state.character(cid).sheet.dead:
            raise IllegalAction(f"{state.character(cid).sheet.name} is dead")
    return list(dict.fromkeys(who))


def _joined(parts: list[tuple[str, str]], empty: str) -> str:
    """One character's text alone; several as 'name: text; ...'."""
    if not parts:
        return empty
    if len(parts) == 1:
        return parts[0][1]
    return "; ".join(f"{name}: {text}" for name, text in parts)


def _dead_at(c: Sheet, rolls: DyingRolls) -> Sheet:
    """The character at the round the dying roll failed (bleeding stops there)."""
    damage = rolls.death_damage if rolls.death_damage is not None else c.damage
    dead = with_condition(replace(c, damage=damage), "Dead", True)
    return replace(with_condition(dead, "Stabilised", False), stabilised_minutes=0)


def sheet_changes(changes: Changes, cid: str, before: Sheet, after: Sheet, reason: str) -> None:
    """The changes that turn one sheet into the other (damage, conditions, clocks)."""
    changes.damage(cid, after.damage - before.damage, reason)
    for gone in before.conditions:
        if gone not in after.conditions:
            changes.remove(cid, gone, reason)
    for new in after.conditions:
        if new not in before.conditions:
            changes.add(cid, new, reason)
    names = ("healing_progress", "therapy_days", "stabilised_minutes")
    for name in (*names, "exhaustion", "exhaustion_progress"):
        if getattr(after, name) != getattr(before, name):
            changes.set(cid, f"sheet.{name}", getattr(after, name), reason)
    if after.characteristic_damage != before.characteristic_damage:
        changes.set(cid, "sheet.characteristic_damage", dict(after.characteristic_damage), reason)


Rolled = list[tuple["_Span", DyingRolls | None]]
"""Each character's span of time and the dying rolls it made (``None``: none due)."""


def _passing(
    state: State,
    spans: list[_Span],
    options: Options,
    finish: Callable[[Rolled, Changes, list[DieRoll]], Outcome],
) -> Plan:
    """The plan of time passing over ``spans``: every due dying roll in turn; ``finish``
    gets each span with the rolls it made (read back from the trace), the changes to
    build on and every die rolled. The odds are each character's fate (:func:`_fates`)."""
    rolling = [s for s in spans if s.dying is not None]

    def done(_alive: tuple[bool, ...], trace: Trace) -> Outcome:
        entries = iter(trace)
        rolled: Rolled = []
        faces: list[DieRoll] = []
        for s in spans:
            rolls = s.dying.replay(entries) if s.dying is not None else None
            faces += rolls.faces if rolls is not None else ()
            rolled.append((s, rolls))
        return finish(rolled, Changes(state), faces)

    programs: list[Dice[bool]] = [s.dying for s in rolling if s.dying is not None]
    return Plan.of(_all_of(programs), done, _fates(spans, rolling, options))


def _all_of(programs: list[Dice[bool]]) -> Dice[tuple[bool, ...]]:
    """Each character's dying rolls in turn; the result says who survived."""
    out: Dice[tuple[bool, ...]] = Dice.pure(())
    for p in programs:
        out = out.pair(p).map(lambda t: (*t[0], t[1]))
    return out


@dataclass(frozen=True)
class _Span:
    """One character's share of a span of time: the sheet before, where it ends if
    every due dying roll succeeds, and those rolls (``None``: none to roll)."""

    cid: str
    before: Sheet
    alive: Sheet
    dying: DyingProgram | None


def _fates(
    spans: list[_Span], rolling: list[_Span], options: Options
) -> Callable[[tuple[bool, ...]], Hashable]:
    """What the odds report: each character's condition at the end, Dead where its dying
    rolls failed (``alive`` holds one flag per character still rolling)."""

    def view(alive: tuple[bool, ...]) -> Hashable:
        fate = dict(zip((s.cid for s in rolling), alive, strict=True))
        return tuple(
            (s.cid, condition(s.alive, options) if fate.get(s.cid, True) else "Dead") for s in spans
        )

    return view


def _segments(
    sheet: Sheet, rounds: int, options: Options, care: str, offset: int
) -> Callable[[], Iterator[Segment]]:
    return lambda: due_segments(sheet, rounds, options, care, offset)


# ---------------------------------------------------------------------------
# time passing


def plan_pass_time(action: PassTime, state: State, options: Options) -> Plan:
    """Time passes at the table (ch. 7, Healing and Recovery; Dying): each character
    heals, bleeds, is stabilised and has therapy at their own activity and care (see
    :func:`~referee.systems.mneme.health.pass_time`); the dying rolls that fall due are
    rolled in order (``dying_rolls=False``: only noted), and a failure is death at that
    round (ruling: the span's healing then never happens). The odds report each
    character's condition at the end, Dead if a due roll fails."""
    minutes = action.minutes + 60 * action.hours + 24 * 60 * action.days
    if minutes > MAX_MINUTES:
        raise RulesError(f"at most {MAX_MINUTES // (24 * 60)} days may pass at once")
    rounds = minutes * ROUNDS_PER_MINUTE
    spans: list[_Span] = []
    results: dict[str, ClockResult] = {}
    for cid in _who(state, action.who):
        seat = state.character(cid)
        sheet = seat.sheet
        try:
            r = pass_time(
                sheet,
                minutes=minutes,
                activity=seat.activity,
                care=seat.care,
                therapy=seat.therapy,
                supervised=seat.supervised,
                offset=seat.minute_rounds,
                options=options,
            )
        except IllegalAction as e:
            raise IllegalAction(f"{sheet.name}: {e} (set-care activity=full_rest)") from None
        results[cid] = r
        due = action.dying_rolls and r.dying_rolls_due
        segs = _segments(sheet, rounds, options, seat.care, seat.minute_rounds)
        spans.append(
            _Span(cid, sheet, r.character, DyingProgram(sheet, segs, options) if due else None)
        )
    rolling = [s for s in spans if s.dying is not None]

    def finish(rolled: Rolled, changes: Changes, faces: list[DieRoll]) -> Outcome:
        per: dict[str, Any] = {}
        parts: list[tuple[str, str]] = []
        for s, rolls in rolled:
            r = results[s.cid]
            after = s.alive if rolls is None or rolls.survived else _dead_at(s.before, rolls)
            notes = list(r.notes)
            if rolls is not None and rolls.survived:
                notes.append(f"survived {rolls.rolled + rolls.certain} dying roll(s)")
            elif rolls is not None and rolls.death_round is not None:
                notes.append(f"died: the dying roll of round {rolls.death_round + 1} failed")
            label = "Dead" if after.dead else condition(after, options)
            data: dict[str, Any] = {
                "healed": r.healed if not after.dead else 0,
                "bled": r.bled,
                "therapy": r.therapy,
                "notes": notes,
                "damage": after.damage,
                **condition_report(after, options),
                "condition": label,
                "healing_progress": after.healing_progress,
                "stabilised_minutes": after.stabilised_minutes,
                "dying_rolls_due": r.dying_rolls_due,
            }
            if rolls is not None:
                data["dying_rolls"] = rolls.data()
            per[s.cid] = data
            parts.append((s.before.name, label))
            sheet_changes(changes, s.cid, s.before, after, "time passed")
        changes.table("clock", delta=rounds)
        single = per[spans[0].cid] if len(spans) == 1 else None
        survived = [s.cid for s in rolling]
        return Outcome(
            SYSTEM,
            "pass-time",
            faces=tuple(faces),
            result=None if single is None else single["damage"],
            success=None if not survived else all(per[c]["condition"] != "Dead" for c in survived),
            label=_joined(parts, f"{minutes} minute(s) pass"),
            changes=changes.build(),
            details={"minutes": minutes, "characters": per},
        )

    return _passing(state, spans, options, finish)


# ---------------------------------------------------------------------------
# rounds passing


def after_rounds(c: Sheet, offset: int, rounds: int) -> tuple[Sheet, int]:
    """A character after ``rounds`` survived rounds, ``offset`` rounds of their current
    minute being gone: Bleeding adds 1 damage at each minute's end, stabilisation counts
    down by the minute. Returns the character and the rounds gone of the new minute."""
    minutes, left = divmod(offset + rounds, ROUNDS_PER_MINUTE)
    if "Bleeding" in c.conditions:
        c = replace(c, damage=c.damage + minutes // BLEED_MINUTES)
    if "Stabilised" in c.conditions:
        stab = c.stabilised_minutes - minutes
        c = replace(c, stabilised_minutes=max(0, stab))
        if stab <= 0:
            c = with_condition(c, "Stabilised", False)
    return c, left


def plan_pass_rounds(action: PassRounds, state: State, options: Options) -> Plan:
    """Combat rounds pass (ch. 7, Dying: every round an End roll at 4 with wound
    penalties, failure is death; Bleeding: 1 damage a minute; companion facts: a round is
    about 6 seconds and each PC's action budget is restored). The odds report each
    character's condition at the end, Dead if a due roll fails."""
    rounds = action.rounds
    spans: list[_Span] = []
    offsets: dict[str, int] = {}
    for cid in _who(state, action.who):
        seat = state.character(cid)
        sheet, o = seat.sheet, seat.minute_rounds
        first = first_due_round(sheet, options, seat.care, o)
        alive, offsets[cid] = after_rounds(sheet, o, rounds)
        segs = _segments(sheet, rounds, options, seat.care, o)
        due = first is not None and first < rounds
        spans.append(_Span(cid, sheet, alive, DyingProgram(sheet, segs, options) if due else None))
    rolling = [s for s in spans if s.dying is not None]

    def finish(rolled: Rolled, changes: Changes, faces: list[DieRoll]) -> Outcome:
        per: dict[str, Any] = {}
        parts: list[tuple[str, str]] = []
        made = 0
        every = True
        for s, rolls in rolled:
            if rolls is None or rolls.survived:
                after = s.alive
                if offsets[s.cid] != state.character(s.cid).minute_rounds:
                    changes.set(s.cid, "minute_rounds", offsets[s.cid], "rounds passed")
            else:
                after = _dead_at(s.before, rolls)
            data: dict[str, Any] = {"damage": after.damage, **condition_report(after, options)}
            if after.dead:
                data["condition"] = "Dead"
            if rolls is not None:
                data["dying_rolls"] = rolls.data()
                made += rolls.rolled
                every = every and rolls.survived
                if rolls.survived:
                    text = f"Alive after {rounds} round(s)"
                else:
                    assert rolls.death_round is not None
                    text = f"Dead in round {rolls.death_round + 1}"
                parts.append((s.before.name, text))
            per[s.cid] = data
            sheet_changes(changes, s.cid, s.before, after, "rounds passed")
        for cid, seat in state.characters.items():
            if seat.minor_left != MINOR_ACTIONS:
                changes.set(cid, "minor_left", MINOR_ACTIONS, "a new round")
            if seat.free_taken:
                changes.set(cid, "free_taken", 0, "a new round")
        changes.table("clock", delta=rounds)
        if state.round:
            changes.table("round", delta=rounds)
        return Outcome(
            SYSTEM,
            "pass-rounds",
            faces=tuple(faces),
            target=options.dying_difficulty if rolling else None,
            result=made if rolling else None,
            success=every if rolling else None,
            label=_joined(parts, f"{rounds} round(s) pass"),
            changes=changes.build(),
            details={"rounds": rounds, "characters": per},
        )

    return _passing(state, spans, options, finish)
