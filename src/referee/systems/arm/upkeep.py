"""The referee's actions (the round, levels of damage, named wounds) and the look-ups that
change nothing (ARM 1.2, Rounds, Damage, Scale, Task Resolution), one planner each."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from referee.systems.arm import actions as a
from referee.systems.arm.catalog import RangedWeapon, Weapon
from referee.systems.arm.checks import (
    difficulty_named,
    modifier_named,
)
from referee.systems.arm.combat import (
    max_range,
    melee_difficulty,
    ranged_difficulty,
)
from referee.systems.arm.damage import (
    accumulate,
    record_wound,
)
from referee.systems.arm.fight import missile_named
from referee.systems.arm.magic import soul_difficulty, spell_named
from referee.systems.arm.options import Options
from referee.systems.arm.play import fixed
from referee.systems.arm.scale import (
    convert,
    group_log,
    log_of,
    measure_of,
    number,
    round_log,
)
from referee.systems.arm.state import Seat, State
from referee.systems.arm.tables import (
    LEVEL_CAP,
)
from referee.systems.base import (
    TABLE,
    Change,
    IllegalAction,
    Outcome,
    Plan,
    jsonable,
)
from referee.systems.outcome import JSONValue

# ---------------------------------------------------------------------------
# the referee's (ARM 1.2, Rounds; Damage)


def _reset(seat: Seat, cid: str, fields: dict[str, JSONValue]) -> list[Change]:
    """Changes setting each of ``fields`` on ``cid`` where it differs (lists compare as tuples)."""
    return [
        Change(cid, key, value=value, reason="the round turns")
        for key, value in fields.items()
        if jsonable(getattr(seat, key)) != value
    ]


def _turn(state: State, *, carry: bool, **more: JSONValue) -> list[Change]:
    """Every seat's round cleared (its action, its prepared defence); ``carry``: the
    weakness found by circling and a berserk attack's penalty move to the new round,
    else they end; ``more``: other fields set too."""
    changes: list[Change] = []
    for cid, seat in state.characters.items():
        fields: dict[str, JSONValue] = {
            "acted": [],
            "prepared": False,
            "weakness": seat.found if carry else "",
            "found": "",
            "penalty": seat.next_penalty if carry else 0,
            "next_penalty": 0,
            **more,
        }
        changes += _reset(seat, cid, fields)
    return changes


def plan_next_round(action: a.NextRound, state: State, options: Options) -> Plan:
    """The next round: everyone's action and prepared defence reset; a weakness found by
    circling and a berserk attack's penalty now apply (for this round only)."""
    changes = [Change(TABLE, "round", delta=1, reason="next round")]
    if action.length is not None:
        round_log(action.length, options.log_method)
        changes.append(Change(TABLE, "round_length", value=action.length))
    changes += _turn(state, carry=True)
    return fixed("next-round", f"round {state.round + 1}", changes)


def plan_end_combat(action: a.EndCombat, state: State, options: Options) -> Plan:
    """The action sequence ends: no round, no waiting attacks, no round effects."""
    changes = []
    if state.round:
        changes.append(Change(TABLE, "round", value=0, reason="combat over"))
    if state.attacks:
        changes.append(Change(TABLE, "attacks", value=[]))
    if state.held is not None:
        changes.append(Change(TABLE, "held", value=None))
    changes += [
        Change(cid, "held", value=None, reason="combat over")
        for cid, seat in state.characters.items()
        if seat.held is not None
    ]
    changes += _turn(state, carry=False, readied="")
    return fixed("end-combat", "the action sequence ends", changes)


def plan_lose_action(action: a.LoseAction, state: State, options: Options) -> Plan:
    """The GM takes a character's action this round away (Brad, fooled by the demon)."""
    seat = state.character(action.target)
    if "lost" in seat.acted:
        raise IllegalAction(
            f"{seat.sheet.name or action.target} has already lost this round's action"
        )
    change = Change(action.target, "acted", value=[*seat.acted, "lost"], reason="action lost")
    return fixed("lose-action", f"{action.target} loses this round's action", [change])


def plan_impose_penalty(action: a.ImposePenalty, state: State, options: Options) -> Plan:
    """The GM's modifier to every action of a character, this round or the next."""
    state.character(action.target)
    key = "penalty" if action.when == "now" else "next_penalty"
    change = Change(action.target, key, delta=action.value, reason="the GM's ruling")
    when = "this round" if action.when == "now" else "next round"
    return fixed(
        "impose-penalty", f"{action.target}: {action.value:+d} to all actions {when}", [change]
    )


def _levels(state: State, cid: str, wound: int, shock: int, reason: str) -> list[Change]:
    seat = state.character(cid)
    changes = []
    for key, now, delta in (("wound", seat.wound, wound), ("shock", seat.shock, shock)):
        after = max(0, min(LEVEL_CAP, now + delta))
        if after != now:
            changes.append(Change(cid, key, delta=after - now, reason=reason))
    return changes


def plan_take_damage(action: a.TakeDamage, state: State, options: Options) -> Plan:
    """Levels of damage by the GM's ruling: they add to the present ones, stopping at 5
    (a moderately wounded character who takes a severe wound is dead: 2 + 3 = 5)."""
    changes = _levels(state, action.target, action.wound, action.shock, "damage")
    if action.destroyed and not state.character(action.target).destroyed:
        changes.append(Change(action.target, "destroyed", value=True, reason="destroyed"))
    after = accumulate(
        state.character(action.target).condition, action.wound, action.shock, action.destroyed
    )
    return fixed("take-damage", f"{action.target}: {after.label}", changes)


def plan_recover(action: a.Recover, state: State, options: Options) -> Plan:
    """Recovery by the GM's ruling: levels go down, never below Unharmed."""
    changes = _levels(state, action.target, -action.wound, -action.shock, "recovery")
    return fixed("recover", f"{action.target} recovers", changes)


def plan_record_wound(action: a.RecordWound, state: State, options: Options) -> Plan:
    """Record a named wound: a character carries at most five (the option max_wounds)."""
    seat = state.character(action.target)
    after = record_wound(seat.condition, action.description, action.level, options)
    change = Change(action.target, "wounds", value=jsonable(after.wounds), reason="a named wound")
    return fixed("record-wound", f"{action.target}: {action.description.strip()}", [change])


def plan_remove_wound(action: a.RemoveWound, state: State, options: Options) -> Plan:
    """A named wound struck off the record."""
    seat = state.character(action.target)
    if action.index >= len(seat.wounds):
        raise IllegalAction(
            f"{seat.sheet.name or action.target} has {len(seat.wounds)} named wound(s)"
        )
    gone = seat.wounds[action.index]
    rest = [w for i, w in enumerate(seat.wounds) if i != action.index]
    change = Change(action.target, "wounds", value=jsonable(rest), reason="healed")
    return fixed("remove-wound", f"{action.target}: {gone.description} healed", [change])


def plan_add_weapon(action: a.AddWeapon, state: State, options: Options) -> Plan:
    """A weapon added to the table's setting (the referee's lists, ARM 1.2, Character
    Creation), used by ``attack``, ``shoot``, ``strike`` and ``damage`` from then on.

    A thrown weapon is rolled with Fitness and an aimed one with Dexterity (Combat
    (Ranged)); by default a thrown weapon is a slow missile that may be dodged
    ("stones, spears") and an aimed one is not ("bullets, arrows"), and a strength
    mod adds to a melee or thrown weapon's damage but not to an aimed one's.
    """
    setting = state.setting
    name = " ".join(action.name.split())
    if not name:
        raise IllegalAction("a weapon needs a name")
    ranged = action.kind != "melee"
    wrong = (
        [f for f in ("attack", "parry", "stun") if getattr(action, f)]
        if ranged
        else [
            f
            for f, v in (
                ("accuracy", action.accuracy),
                ("max_range", action.max_range),
                ("range_stat", action.range_stat),
                ("dodgeable", action.dodgeable),
            )
            if v not in (None, 0)
        ]
    )
    if wrong:
        other = "melee" if ranged else "thrown or aimed"
        raise IllegalAction(
            f"{', '.join(wrong)}: for a {other} weapon, not a {action.kind} one ({name})"
        )
    if action.range_stat is not None and action.range_stat not in setting.stats:
        known = ", ".join(setting.stats)
        raise IllegalAction(
            f"range_stat {action.range_stat!r} is not a stat of the setting: {known}"
        )
    listed = setting.ranged_weapon(name) if ranged else setting.weapon(name)
    if listed is not None and not action.replace:
        raise IllegalAction(f"the setting already has {listed.name!r} (replace=true to change it)")
    if ranged and setting.spell(name) is not None:
        raise IllegalAction(f"{name!r} is a spell of the setting; name the weapon otherwise")
    key = "ranged" if ranged else "weapons"
    kept = [w for w in getattr(setting, key) if w.name.lower() != name.lower()]
    weapon: RangedWeapon | Weapon
    if ranged:
        thrown = action.kind == "thrown"
        weapon = RangedWeapon(
            name,
            action.damage,
            action.accuracy,
            action.max_range,
            range_stat=action.range_stat,
            aimed=not thrown,
            dodgeable=thrown if action.dodgeable is None else action.dodgeable,
            strength=thrown if action.strength is None else action.strength,
        )
    else:
        strong = True if action.strength is None else action.strength
        weapon = Weapon(
            name, action.damage, action.attack, action.parry, stun=action.stun, strength=strong
        )
    change = Change(
        TABLE, f"setting.{key}", value=jsonable([*kept, weapon]), reason="the referee's weapon"
    )
    label = f"{name} added to the setting: {weapon_text(weapon)}"
    return fixed("add-weapon", label, [change], weapon=jsonable(weapon), list=key)


def weapon_text(w: RangedWeapon | Weapon) -> str:
    """A weapon's values in a line (the tracker and the add-weapon label)."""
    if isinstance(w, Weapon):
        stun = ", stun" if w.stun else ""
        return f"melee, damage {w.damage}, attack {w.attack:+d}, parry {w.parry:+d}{stun}"
    reach = "unlimited" if w.max_range is None else str(w.max_range)
    if w.range_stat and w.max_range is not None:
        reach = f"{w.range_stat} + {w.max_range}"
    how = "aimed (Dexterity)" if w.aimed else "thrown (Fitness)"
    dodge = ", may be dodged" if w.dodgeable else ""
    strong = ", + strength" if w.strength else ""
    return f"{how}, damage {w.damage}{strong}, accuracy {w.accuracy:+d}, range {reach}{dodge}"


# ---------------------------------------------------------------------------
# reference look-ups (ARM 1.2, Scale, Rounds, Task Resolution, combat tables)


def plan_log_of(action: a.LogOf, state: State, options: Options) -> Plan:
    """The log of a measure by the chart (or the exact formula): 1342 -> 16."""
    try:
        value = Decimal(action.measure.strip())
    except InvalidOperation:
        raise IllegalAction(f"measure {action.measure!r} is not a number") from None
    found = log_of(value, options.log_method)
    out = Outcome("arm", "log-of", result=found, label=f"log {found}", details={"log": found})
    return Plan.fixed(out, found)


def plan_measure_of(action: a.MeasureOf, state: State, options: Options) -> Plan:
    """The measure of a log: -3 -> 0.25."""
    found = measure_of(action.log, options.log_method)
    out = Outcome(
        "arm", "measure-of", label=f"measure {found:f}", details={"measure": number(found)}
    )
    return Plan.fixed(out, str(found))


def plan_convert(action: a.Convert, state: State, options: Options) -> Plan:
    """A log converted between units (Corven: 5 m/s is 10 in ft per 3-second round)."""
    method = options.log_method
    rounds = None if action.round_length is None else round_log(action.round_length, method)
    found = convert(action.log, action.source, action.target, round_log=rounds, method=method)
    measure = measure_of(found, method)
    out = Outcome(
        "arm",
        "convert",
        result=found,
        label=f"log {found} {action.target} (about {measure:f})",
        details={
            "log": found,
            "measure": number(measure),
            "from": action.source,
            "to": action.target,
        },
    )
    return Plan.fixed(out, found)


def plan_difficulty(action: a.Difficulty, state: State, options: Options) -> Plan:
    """A difficulty (or the guide's modifier) from the text's tables."""
    key = "modifier" if action.kind == "modifier" else "difficulty"
    if action.kind == "ranged":
        if action.weapon is not None:
            missile = missile_named(state.setting, action.weapon)
            stats = None if action.fitness is None else {"Fitness": action.fitness}
            limit = max_range(missile, stats)
            if limit is not None and action.distance > limit:
                raise IllegalAction(
                    f"{missile.name} reaches log distance {limit}; "
                    f"the target is at {action.distance}"
                )
        found = ranged_difficulty(
            action.distance,
            moving=action.moving,
            size=action.size,
            cover=action.cover,
            weather=action.weather,
            options=options,
        )
    elif action.name is None:
        raise IllegalAction(f"'{action.kind}' needs a name (e.g. difficulty melee attack)")
    elif action.kind == "preset":
        found = difficulty_named(action.name)
    elif action.kind == "modifier":
        found = modifier_named(action.name)
    elif action.kind == "melee":
        found = melee_difficulty(action.name, size=action.size, attack_result=action.attack_result)
    elif action.kind == "soul":
        found = soul_difficulty(action.name)
    else:
        found = spell_named(state.setting, action.name).difficulty
    label = f"modifier {found:+d}" if key == "modifier" else f"difficulty {found}"
    out = Outcome("arm", "difficulty", result=found, label=label, details={key: found})
    return Plan.fixed(out, found)


def plan_group_log(action: a.GroupLog, state: State, options: Options) -> Plan:
    """The combined log of a group (see :func:`~referee.systems.arm.scale.group_log`)."""
    found, how = group_log(
        action.logs, method=options.log_method, count=options.group_count, way=options.group_method
    )
    out = Outcome(
        "arm",
        "group-log",
        result=found,
        label=f"group log {found} ({how})",
        details={"log": found, "method": how},
    )
    return Plan.fixed(out, found)
