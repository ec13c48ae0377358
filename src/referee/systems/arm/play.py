"""How each action resolves against the table's state: the rules of play, one function each.

Every planner takes the action, the state and the options and returns a
:class:`~referee.systems.arm.rolls.Check` (an action that rolls d6 - d6 and may
be pushed) or a :class:`~referee.systems.base.Plan` (nothing to roll, or dice
of its own). State changes are :class:`~referee.systems.base.Change` values:
deltas for levels and penalties, values for the round's records. Sections
cited are ARM 1.2's.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation

from referee.dice.evaluate import DieRoll
from referee.systems.arm import actions as a
from referee.systems.arm.catalog import DEFAULT_SETTING, RangedWeapon, Spell, Weapon
from referee.systems.arm.checks import (
    Roll,
    difficulty_named,
    helper_bonus,
    modifier_named,
    plain_dice,
    push_die,
    succeeded,
    task_procedure,
)
from referee.systems.arm.combat import (
    dodge_missile_difficulty,
    in_range,
    max_range,
    may_defend,
    may_take,
    melee_blow,
    melee_difficulty,
    melee_modifiers,
    ranged_blow,
    ranged_difficulty,
    ranged_stat,
)
from referee.systems.arm.damage import (
    Blow,
    NamedWound,
    accumulate,
    damage_rule,
    record_wound,
)
from referee.systems.arm.magic import soul_difficulty, soul_move_metres, spell_named
from referee.systems.arm.options import Options
from referee.systems.arm.rolls import Check, Pushed, Rolled
from referee.systems.arm.scale import (
    convert,
    group_log,
    log_of,
    measure_of,
    number,
    round_log,
)
from referee.systems.arm.sheet import resolve_weapon
from referee.systems.arm.state import Attack, Seat, State
from referee.systems.arm.tables import (
    LEVEL_CAP,
    MELEE_DIFFICULTIES,
    RESULT_LADDER,
    SHOCK_LEVELS,
    SOUL_MOD,
    WOUND_LEVELS,
)
from referee.systems.base import (
    TABLE,
    Action,
    Change,
    Dice,
    IllegalAction,
    Modifier,
    Outcome,
    Plan,
    Trace,
    jsonable,
)
from referee.systems.outcome import JSONValue

Planned = Check | Plan
"""What a planner returns: a pushable d6 - d6 check, or a plan of its own."""


@dataclass(frozen=True, order=True)
class Levels:
    """What the odds of a damage roll report: the levels the blow does."""

    wound: int
    shock: int
    destroyed: bool


# ---------------------------------------------------------------------------
# totals (ARM 1.2, Stats, Situational Modifiers, Task Resolution)


def _stat(seat: Seat, name: str) -> int:
    for key, value in seat.sheet.stats.items():
        if key.lower() == name.strip().lower():
            return value
    known = ", ".join(seat.sheet.stats) or "none"
    raise IllegalAction(f"{seat.sheet.name} has no stat {name!r}; stats: {known}")


def _total(
    seat: Seat,
    stat: str,
    mods: tuple[str, ...] = (),
    helps: tuple[str, ...] = (),
    hinders: tuple[str, ...] = (),
    *,
    penalty: bool = True,
) -> tuple[int, list[Modifier]]:
    """Stat + the named mods (absolute mods by how they count) + this round's penalty.

    A mod the character lacks is refused; signed and special mods add their
    value; an absolute mod adds when it helps and subtracts when it hinders.
    """
    parts = [Modifier(_stat(seat, stat), stat, "stat")]
    by_name = {m.name.lower(): m for m in seat.sheet.mods}
    for names, sign in ((mods, 0), (helps, 1), (hinders, -1)):
        for name in names:
            mod = by_name.get(name.strip().lower())
            if mod is None:
                raise IllegalAction(f"{seat.sheet.name} has no mod {name!r}")
            if (mod.kind == "absolute") != (sign != 0):
                why = "an absolute mod helps or hinders" if sign == 0 else "not an absolute mod"
                raise IllegalAction(f"{mod.name}: {why} (use mods for signed and special mods)")
            value = mod.value * (sign or 1)
            parts.append(Modifier(value, mod.name, "mod"))
    if penalty and seat.penalty:
        parts.append(Modifier(seat.penalty, "penalty this round", "situation"))
    return sum(m.value for m in parts), parts


def _extra(parts: list[Modifier], value: int, source: str, kind: str = "situation") -> None:
    if value:
        parts.append(Modifier(value, source, kind))


def _sum(parts: list[Modifier]) -> int:
    return sum(m.value for m in parts)


# ---------------------------------------------------------------------------
# the round (ARM 1.2, Combat (Melee): one action per round)


def _in_round(state: State, options: Options) -> bool:
    return state.round > 0 and options.one_action_per_round


def _turn(state: State, cid: str, kind: str, options: Options) -> Change:
    """The change recording ``kind`` as ``cid``'s action this round, refused if the
    one-action rule forbids it while a round runs."""
    seat = state.character(cid)
    if _in_round(state, options) and not may_take(seat.acted, kind):
        done = ", ".join(seat.acted)
        raise IllegalAction(
            f"{cid} has used this round's action ({done}): one action per round "
            "(circling or a prepared defence may still defend; a counter-blow follows a defence)"
        )
    return Change(cid, "acted", value=[*seat.acted, kind], reason="this round's action")


def _may_defend(state: State, cid: str, options: Options) -> bool:
    """Whether ``cid`` can still dodge or parry: not out of the fight, and (in a round)
    not having used the round's action, unless prepared or circling."""
    seat = state.character(cid)
    if seat.destroyed or seat.wound >= LEVEL_CAP or seat.shock >= LEVEL_CAP:
        return False
    return not _in_round(state, options) or may_defend(seat.acted)


def _attacks(state: State, attacks: tuple[Attack, ...]) -> Change:
    return Change(TABLE, "attacks", value=jsonable(attacks), reason="attacks waiting")


def _incoming(state: State, target: str, attacker: str | None) -> Attack:
    found = [
        x
        for x in state.attacks
        if x.stage == "incoming"
        and x.target == target
        and (attacker is None or x.attacker == attacker)
    ]
    if len(found) != 1:
        what = "no attack" if not found else "more than one attack (name the attacker)"
        raise IllegalAction(f"{what} waiting for {target}'s defence")
    return found[0]


def _landed(state: State, attacker: str, target: str | None) -> Attack:
    found = [
        x
        for x in state.attacks
        if x.stage == "landed" and x.attacker == attacker and (target is None or x.target == target)
    ]
    if len(found) != 1:
        what = "no blow" if not found else "more than one blow (name the target)"
        raise IllegalAction(f"{what} of {attacker}'s has landed")
    return found[0]


def _without(state: State, attack: Attack) -> tuple[Attack, ...]:
    return tuple(x for x in state.attacks if x != attack)


def _hit(state: State, attack: Attack, options: Options) -> tuple[Attack, ...]:
    """The attacks after a successful attack roll: the target may defend, or it lands."""
    defend = attack.dodgeable and _may_defend(state, attack.target, options)
    return (*state.attacks, replace(attack, stage="incoming" if defend else "landed"))


# ---------------------------------------------------------------------------
# task-like checks


def _task_check(
    name: str,
    action: Action,
    actor: str,
    parts: list[Modifier],
    difficulty: int,
    options: Options,
    mode: a.PushMode,
    *,
    details: dict[str, JSONValue] | None = None,
    then: Callable[[int, bool], tuple[Change, ...]] = lambda _result, _ok: (),
    more: Callable[[int, bool], dict[str, JSONValue]] = lambda _result, _ok: {},
) -> Check:
    """A check of total (the sum of ``parts``) + d6 - d6 against ``difficulty``.

    ``then(result, success)`` gives the state changes of a settled roll and
    ``more`` its extra details. ARM 1.2, Task Resolution: result = total +
    d6 - d6 - difficulty, read on the result ladder.
    """
    total = _sum(parts)
    task_procedure(total, difficulty)  # bounds: a clear error for nonsense numbers
    base = total - difficulty

    def failed(roll: int) -> bool:
        return not succeeded(base + roll, options)

    def describe(roll: int) -> tuple[int, str]:
        return base + roll, RESULT_LADDER.label(base + roll)

    def settle(rolled: Rolled) -> Outcome:
        result = base + rolled.value
        ok = succeeded(result, options)
        return Outcome(
            system="arm",
            action=name,
            modifiers=tuple(parts),
            target=difficulty,
            result=result,
            success=ok,
            label=RESULT_LADDER.label(result),
            changes=then(result, ok),
            details={
                "base": total,
                "total": total + rolled.value,
                "difficulty": difficulty,
                **(details or {}),
                **more(result, ok),
            },
        )

    return Check(name, action, actor, mode, failed, describe, settle, lambda roll: base + roll)


def plan_task(x: a.Task, state: State, options: Options) -> Check:
    """ARM 1.2, Task Resolution: stat + mods (or the given total) + d6 - d6 - difficulty;
    a melee roll adds the weapon's attack or parry modifier and the situation's."""
    seat = state.character(x.actor)
    if x.total is not None:
        if x.stat is not None or x.mods or x.helps or x.hinders or x.melee or x.situations:
            raise IllegalAction("give the total, or the stat and mods, not both")
        parts = [Modifier(x.total, "total", "stat")]
        _extra(parts, seat.penalty, "penalty this round")
    else:
        if x.stat is None and x.melee is None:
            raise IllegalAction("give the stat rolled (or the total)")
        parts = _total(seat, x.stat or "Fitness", x.mods, x.helps, x.hinders)[1]
    if x.melee is None and (x.weapon is not None or x.situations):
        raise IllegalAction("weapon and situations go with a melee roll")
    if x.melee is not None:
        parts += melee_modifiers(
            seat.sheet,
            x.melee,
            weapon=x.weapon,
            circled="circled" in x.situations,
            standstill="standstill" in x.situations,
            after_berserk="after-berserk" in x.situations,
            options=options,
        )
    _extra(parts, x.modifier, "GM's modifier", "other")
    if x.helper is not None:
        bonus = helper_bonus(x.helper, x.helper_effect == "large", options)
        _extra(parts, bonus, f"helper task ({x.helper_effect} effect)", "other")
    turn = (_turn(state, x.actor, "other", options),) if x.round_action else ()
    return _task_check(
        "task", x, x.actor, parts, x.difficulty, options, x.push, then=lambda _r, _ok: turn
    )


def plan_contest(x: a.Contest, state: State, options: Options) -> Check:
    """ARM 1.2, Task Resolution: against someone, the difficulty is the stat the other
    uses with its mods (plus the GM's modifiers)."""
    if x.opponent == x.actor:
        raise IllegalAction("a contest is against someone else")
    parts = _total(state.character(x.actor), x.stat, x.mods)[1]
    _extra(parts, x.modifier, "GM's modifier", "other")
    resist = _total(state.character(x.opponent), x.opponent_stat, x.opponent_mods, penalty=False)
    difficulty = resist[0] + x.opponent_modifier
    turn = (_turn(state, x.actor, "other", options),) if x.round_action else ()
    return _task_check(
        "contest",
        x,
        x.actor,
        parts,
        difficulty,
        options,
        x.push,
        details={"opponent": x.opponent, "resist": resist[0]},
        then=lambda _r, _ok: turn,
    )


def plan_subtasks(x: a.Subtasks, state: State, options: Options) -> Plan:
    """ARM 1.2, Task Resolution: the whole activity is only as good as its worst subtask.

    Each subtask is its own d6 - d6 roll (not pushed here: push a subtask by
    rolling it as a task)."""
    if not 1 <= len(x.parts) <= 12:
        raise IllegalAction("between 1 and 12 subtasks, please")
    seat = state.character(x.actor)
    numbers: list[tuple[int, int]] = []
    for part in x.parts:
        total = _total(seat, part.stat, part.mods)[0] + part.modifier
        task_procedure(total, part.difficulty)
        numbers.append((total, part.difficulty))

    def score(i: int, stat: Roll) -> int:
        return numbers[i][0] + stat[0] - numbers[i][1]

    def worse(i: int) -> Callable[[tuple[int, Roll]], int]:
        return lambda pair: min(pair[0], score(i, pair[1]))

    dice: Dice[int] = plain_dice().map(lambda stat: score(0, stat))
    for i in range(1, len(numbers)):
        dice = dice.pair(plain_dice()).map(worse(i))

    def finish(worst: int, trace: Trace) -> Outcome:
        rows: list[JSONValue] = []
        for (total, difficulty), part, faces in zip(numbers, x.parts, trace, strict=True):
            result = total + faces[0] - faces[1] - difficulty
            rows.append(
                {
                    "stat": part.stat,
                    "base": total,
                    "difficulty": difficulty,
                    "plus": faces[0],
                    "minus": faces[1],
                    "result": result,
                    "label": RESULT_LADDER.label(result),
                }
            )
        return Outcome(
            system="arm",
            action="subtasks",
            faces=tuple(DieRoll(f, 6) for faces in trace for f in faces),
            result=worst,
            success=succeeded(worst, options),
            label=RESULT_LADDER.label(worst),
            details={"parts": rows, "worst": worst},
        )

    return Plan.of(dice, finish)


def plan_group_task(x: a.GroupTask, state: State, options: Options) -> Check:
    """ARM 1.2, Task Resolution, group efforts: the members' stat + mods combine on the
    log scale (see :func:`~referee.systems.arm.scale.group_log`); the result depends on
    the values taking part, never on who is named first."""
    members = (x.actor, *x.helpers)
    if len(set(members)) != len(members):
        raise IllegalAction("each member takes part once (the actor is not a helper)")
    values = []
    for cid in members:
        seat = state.character(cid)
        had = tuple(m for m in x.mods if seat.sheet.has_mod(m))
        values.append(_total(seat, x.stat, had, penalty=False)[0])
    combined, how = group_log(
        values, method=options.log_method, count=options.group_count, way=options.group_method
    )
    parts = [Modifier(combined, f"group of {len(members)} ({how})", "stat")]
    _extra(parts, x.modifier, "GM's modifier", "other")
    return _task_check(
        "group-task",
        x,
        x.actor,
        parts,
        x.difficulty,
        options,
        x.push,
        details={"members": list(members), "values": values, "combined": combined, "method": how},
    )


# ---------------------------------------------------------------------------
# melee (ARM 1.2, Combat (Melee))


def plan_prepare(x: a.Prepare, state: State, options: Options) -> Plan:
    """Waiting for the attack: the round's action, and a prepared defence (base 2)."""
    turn = _turn(state, x.actor, "prepare", options)
    prepared = Change(x.actor, "prepared", value=True, reason="prepared defence")
    out = Outcome("arm", "prepare", label=f"{x.actor} waits, prepared", changes=(turn, prepared))
    return Plan.fixed(out)


def plan_circle(x: a.Circle, state: State, options: Options) -> Check:
    """Circling: Wit (+ combat mods) against the opponent's Wit (+ combat mods). It
    prepares a defence automatically; a success gives +1 to attack them next round."""
    if x.target == x.actor:
        raise IllegalAction("circle an opponent, not yourself")
    parts = _total(state.character(x.actor), "Wit", x.mods)[1]
    _extra(parts, x.modifier, "GM's modifier", "other")
    wit = _total(state.character(x.target), "Wit", x.target_mods, penalty=False)[0]
    turn = _turn(state, x.actor, "circle", options)
    prepared = Change(x.actor, "prepared", value=True, reason="circling prepares a defence")

    def then(_result: int, ok: bool) -> tuple[Change, ...]:
        found = (Change(x.actor, "found", value=x.target, reason="a weakness found"),)
        return (turn, prepared, *(found if ok else ()))

    return _task_check(
        "circle",
        x,
        x.actor,
        parts,
        wit,
        options,
        x.push,
        details={"opponent": x.target},
        then=then,
        more=lambda _r, ok: {"weakness": ok, "next_attack_bonus": options.circling_bonus * ok},
    )


ATTACK_KEYS = {
    "normal": "attack",
    "berserk": "berserk attack",
    "counter-blow": "counter-blow attack",
}


def plan_attack(x: a.Attack, state: State, options: Options) -> Check:
    """Trying to hit: Fitness + mods + the weapon's attack modifier (+1 against an opponent
    whose weakness was found by circling) against 4 (moving target 6, berserk 3), large
    size subtracted. A hit waits for the target's defence, or lands if it has none."""
    if x.target == x.actor:
        raise IllegalAction("attack someone else")
    seat = state.character(x.actor)
    state.character(x.target)
    if any(t.attacker == x.actor and t.target == x.target for t in state.attacks):
        raise IllegalAction(f"{x.actor}'s attack on {x.target} is still waiting")
    kind = "counter-blow" if x.style == "counter-blow" else "attack"
    countered = bool(seat.acted) and seat.acted[-1] == "counter-defence"
    if kind == "counter-blow" and _in_round(state, options) and not countered:
        raise IllegalAction("a counter-blow follows a counter-blow defence (defend counter)")
    turn = _turn(state, x.actor, kind, options)
    weapon = seat.sheet.weapon(x.weapon)
    parts = _total(seat, "Fitness", x.mods)[1]
    _extra(parts, weapon.attack, f"{weapon.name} attack", "weapon")
    if seat.weakness and seat.weakness == x.target:
        _extra(parts, options.circling_bonus, "circling")
    _extra(parts, x.modifier, "GM's modifier", "other")
    difficulty = melee_difficulty(ATTACK_KEYS[x.style], size=x.size) + (2 if x.moving else 0)

    def then(result: int, ok: bool) -> tuple[Change, ...]:
        changes = [turn]
        if x.style == "berserk":
            changes.append(Change(x.actor, "next_penalty", delta=options.berserk_penalty))
        if ok:
            attack = Attack(x.actor, x.target, result, weapon.name)
            changes.append(_attacks(state, _hit(state, attack, options)))
        return tuple(changes)

    return _task_check(
        "attack",
        x,
        x.actor,
        parts,
        difficulty,
        options,
        x.push,
        details={"target_id": x.target, "weapon": weapon.name, "style": x.style},
        then=then,
    )


def plan_defend(x: a.Defend, state: State, options: Options) -> Check:
    """Dodging or parrying: 4 + the attack's result; a prepared (or circling) defender 2 +;
    a counter-blow 6 +, after which the defender may attack back. A parry adds the
    weapon's parry modifier, a dodge the bare stat. A slow missile can only be dodged."""
    seat = state.character(x.actor)
    attack = _incoming(state, x.actor, x.against)
    if not _may_defend(state, x.actor, options):
        raise IllegalAction(f"{x.actor} has used this round's action: no defence")
    kind = "counter-defence" if x.counter else "defend"
    turn = _turn(state, x.actor, kind, options)
    prepared = seat.prepared if x.prepared is None else x.prepared
    parts = _total(seat, "Fitness", x.mods)[1]
    if attack.kind == "ranged":
        if x.how != "dodge" or x.counter:
            raise IllegalAction("a missile can only be dodged")
        missile = _missile(attack.weapon)
        base = dodge_missile_difficulty(missile, 0, prepared=prepared, options=options)
    else:
        if x.how == "parry":
            weapon = seat.sheet.weapon(x.weapon)
            _extra(parts, weapon.parry, f"{weapon.name} parry", "weapon")
        elif x.weapon is not None:
            raise IllegalAction("a dodge uses no weapon; name a weapon only to parry")
        key = "counter-blow defence" if x.counter else "prepared defence" if prepared else "defend"
        base = MELEE_DIFFICULTIES[key][0]
    _extra(parts, x.modifier, "GM's modifier", "other")
    difficulty = base + attack.result

    def then(_result: int, ok: bool) -> tuple[Change, ...]:
        after = _without(state, attack)
        if not ok:
            after += (replace(attack, stage="landed"),)
        return (turn, _attacks(state, after))

    return _task_check(
        "defend",
        x,
        x.actor,
        parts,
        difficulty,
        options,
        x.push,
        details={"attacker": attack.attacker, "prepared": prepared, "how": x.how},
        then=then,
        more=lambda _r, ok: {"blow": "avoided" if ok else "lands"},
    )


def plan_take_blow(x: a.TakeBlow, state: State, options: Options) -> Plan:
    """No defence roll: the incoming attack lands."""
    attack = _incoming(state, x.actor, x.against)
    after = (*_without(state, attack), replace(attack, stage="landed"))
    out = Outcome(
        "arm",
        "take-blow",
        label=f"{attack.attacker}'s blow lands on {x.actor}",
        changes=(_attacks(state, after),),
    )
    return Plan.fixed(out)


# ---------------------------------------------------------------------------
# damage (ARM 1.2, Damage)


def _blow_check(
    name: str,
    action: Action,
    attacker: str | None,
    target: str,
    blow: Blow,
    state: State,
    options: Options,
    mode: a.PushMode,
    wound_name: str,
    settled: tuple[Change, ...] = (),
) -> Check:
    """A damage roll: one d6 - d6, two subtractions, the table's levels added to the
    target's present ones (capped at 5); a wound margin of 16+ destroys."""
    seat = state.character(target)
    if wound_name:
        if not options.record_wounds:
            raise IllegalAction("named wounds are not recorded at this table (record_wounds)")
        if len(seat.wounds) >= options.max_wounds:
            raise IllegalAction(f"{target} already carries {options.max_wounds} named wounds")
    rule = damage_rule(blow, options)

    def failed(roll: int) -> bool:
        d = rule((roll, 0))
        return not (d.wound or d.shock or d.destroyed)

    def describe(roll: int) -> tuple[int, str]:
        d = rule((roll, 0))
        return d.wound_margin, d.label

    def settle(rolled: Rolled) -> Outcome:
        d = rule((rolled.value, rolled.cost))
        before = seat.condition
        after = accumulate(before, d.wound, d.shock, d.destroyed)
        changes = [
            Change(target, key, delta=delta, reason="damage")
            for key, delta in (
                ("wound", after.wound - before.wound),
                ("shock", after.shock - before.shock),
            )
            if delta
        ]
        if d.destroyed and not before.destroyed:
            changes.append(Change(target, "destroyed", value=True, reason="damage 16+"))
        if wound_name and d.wound:
            named = [*seat.wounds, NamedWound(wound_name.strip(), d.wound)]
            changes.append(Change(target, "wounds", value=jsonable(named), reason="a named wound"))
        return Outcome(
            system="arm",
            action=name,
            target=blow.toughness,
            result=d.wound_margin,
            success=d.wound_margin >= 0 or d.shock_margin >= 0,
            label=d.label,
            changes=(*changes, *settled),
            details={
                "target_id": target,
                "attack": blow.attack,
                "total": d.total,
                "margin": d.margin,
                "wound_margin": d.wound_margin,
                "shock_margin": d.shock_margin,
                "wound": d.wound,
                "shock": d.shock,
                "wound_label": WOUND_LEVELS[d.wound],
                "shock_label": SHOCK_LEVELS[d.shock],
                "destroyed": d.destroyed,
                "condition": after.label,
                "condition_wound": after.wound,
                "condition_shock": after.shock,
            },
        )

    def view(roll: int) -> Hashable:
        d = rule((roll, 0))
        return Levels(d.wound, d.shock, d.destroyed)

    return Check(name, action, attacker, mode, failed, describe, settle, view)


def plan_strike(x: a.Strike, state: State, options: Options) -> Check:
    """The damage of a landed blow: its result + the weapon's damage value (+ strength mod
    when the weapon allows it) + d6 - d6 against Toughness + armour."""
    attack = _landed(state, x.actor, x.target)
    hitter = state.character(x.actor).sheet
    target = state.character(attack.target).sheet
    if attack.kind == "melee":
        blow = melee_blow(hitter, target, attack.result, weapon=attack.weapon)
    else:
        blow = ranged_blow(hitter, target, _missile(attack.weapon), attack.result)
    if x.damage is not None:
        blow = replace(blow, damage=x.damage)
    done = _attacks(state, _without(state, attack))
    return _blow_check(
        "strike", x, x.actor, attack.target, blow, state, options, x.push, x.wound_name, (done,)
    )


def _weapon_for(x: a.Damage, state: State) -> Weapon | RangedWeapon | Spell | None:
    if x.weapon is None:
        if x.actor is not None and state.character(x.actor).sheet.weapons:
            return state.character(x.actor).sheet.weapon()
        return None
    if x.actor is not None:
        sheet = state.character(x.actor).sheet
        for entry in sheet.weapons:
            if entry.name.lower() == x.weapon.strip().lower():
                return resolve_weapon(entry)
    found = DEFAULT_SETTING.weapon(x.weapon)
    return found if found is not None else _missile(x.weapon)


def plan_damage(x: a.Damage, state: State, options: Options) -> Check:
    """A blow by the numbers against a character (ARM 1.2, Damage): one roll, two
    subtractions for wound and shock armour, stun moves a level to shock."""
    target = state.character(x.target).sheet
    weapon = _weapon_for(x, state)
    value = x.damage if x.damage is not None else getattr(weapon, "damage", None)
    if value is None:
        raise IllegalAction("give a damage value, or a weapon that does damage")
    if x.strength is not None:
        strength = x.strength
    elif x.actor is not None and getattr(weapon, "strength", False):
        strength = state.character(x.actor).sheet.mod(DEFAULT_SETTING.strength_mod)
    else:
        strength = 0
    stun = x.stun if x.stun is not None else bool(getattr(weapon, "stun", False))
    wound_armour, shock_armour = target.armour_values()
    blow = Blow(
        result=x.result,
        damage=value,
        toughness=_stat(state.character(x.target), "Toughness"),
        strength=strength,
        wound_armour=wound_armour,
        shock_armour=shock_armour,
        stun=stun,
        ignore=x.ignore,
    )
    return _blow_check("damage", x, x.actor, x.target, blow, state, options, x.push, x.wound_name)


# ---------------------------------------------------------------------------
# ranged (ARM 1.2, Combat (Ranged))


def _missile(name: str) -> RangedWeapon | Spell:
    found = DEFAULT_SETTING.ranged_weapon(name) or DEFAULT_SETTING.spell(name)
    if found is None:
        known = [w.name for w in DEFAULT_SETTING.ranged] + [s.name for s in DEFAULT_SETTING.spells]
        raise IllegalAction(f"unknown ranged weapon {name!r}; known: {', '.join(known)}")
    return found


def plan_shoot(x: a.Shoot, state: State, options: Options) -> Check:
    """A shot: Dexterity (aimed) or Fitness (thrown) + mods + accuracy against 4 (6 for a
    moving target) - size + twice the log distance + cover + weather; a target beyond
    the weapon's range cannot be hit. A set spell must be cast before it is flung."""
    seat = state.character(x.actor)
    missile = _missile(x.weapon)
    if x.target is not None:
        if x.target == x.actor:
            raise IllegalAction("shoot at someone else")
        state.character(x.target)
    if isinstance(missile, Spell) and seat.readied != missile.name:
        raise IllegalAction(f"{x.actor} has no {missile.name} ready: cast it first")
    if missile.accuracy is None:
        raise IllegalAction(f"{missile.name} is not shot or thrown")
    if not in_range(missile, x.distance, seat.sheet.stats):
        limit = max_range(missile, seat.sheet.stats)
        raise IllegalAction(
            f"{missile.name} reaches log distance {limit}; the target is at {x.distance}"
        )
    turn = _turn(state, x.actor, "shoot", options)
    parts = _total(seat, ranged_stat(missile), x.mods)[1]
    _extra(parts, missile.accuracy, f"{missile.name} accuracy", "weapon")
    _extra(parts, x.modifier, "GM's modifier", "other")
    difficulty = ranged_difficulty(
        x.distance, moving=x.moving, size=x.size, cover=x.cover, weather=x.weather, options=options
    )

    def then(result: int, ok: bool) -> tuple[Change, ...]:
        changes = [turn]
        if isinstance(missile, Spell):
            changes.append(Change(x.actor, "readied", value="", reason="the spell is flung"))
        if ok and x.target is not None:
            attack = Attack(x.actor, x.target, result, missile.name, "ranged", "incoming")
            attack = replace(attack, dodgeable=missile.dodgeable)
            changes.append(_attacks(state, _hit(state, attack, options)))
        return tuple(changes)

    return _task_check(
        "shoot",
        x,
        x.actor,
        parts,
        difficulty,
        options,
        x.push,
        details={"weapon": missile.name, "distance": x.distance, "target_id": x.target},
        then=then,
    )


# ---------------------------------------------------------------------------
# movement (ARM 1.2, Movement Rates, Pushing, Rounds)


def plan_move(x: a.Move, state: State, options: Options) -> Plan:
    """Moving needs no roll: the rate (a log speed) plus the round's log is the distance
    per round. A push (one push die) adds +1 to the rate's log for the round. A
    character whose sheet has no such rate just moves (the round's action), with no
    distance worked out."""
    if x.rate is not None:
        rate = x.rate
    elif x.actor is not None:
        movement = state.character(x.actor).sheet.movement
        if x.mode not in movement:
            if x.push:
                known = ", ".join(movement) or "none"
                raise IllegalAction(f"{x.actor} has no movement rate {x.mode!r}; rates: {known}")
            turn = _turn(state, x.actor, "move", options)
            return _fixed("move", f"{x.actor} moves ({x.mode})", [turn], mode=x.mode)
        rate = movement[x.mode]
    else:
        raise IllegalAction("give the rate, or the character moving")
    length = x.round_length or state.round_length
    method = options.log_method
    rounds = round_log(length, method)
    unit = f"{x.unit}/round"
    convert(rate, x.source, unit, round_log=rounds, method=method)  # refuse bad units now
    changes: tuple[Change, ...] = ()
    if x.actor is not None:
        changes = (_turn(state, x.actor, "move", options),)

    def outcome(pushed: Rolled | None, faces: tuple[int, ...]) -> Outcome:
        moved = rate + (pushed.bonus if pushed else 0)
        found = convert(moved, x.source, unit, round_log=rounds, method=method)
        details: dict[str, JSONValue] = {
            "rate": rate,
            "round": length,
            "distance_log": found,
            "distance": number(measure_of(found, method)),
            "unit": x.unit,
        }
        extra = changes
        if pushed is not None:
            details.update(push=pushed.push, shock_cost=pushed.cost, pushed_rate=moved)
            if pushed.cost and x.actor is not None:
                before = state.character(x.actor).shock
                delta = min(LEVEL_CAP, before + pushed.cost) - before
                if delta:
                    exertion = Change(x.actor, "shock", delta=delta, reason="push exertion")
                    extra = (exertion, *extra)
        return Outcome(
            system="arm",
            action="move",
            faces=tuple(DieRoll(f, 6) for f in faces),
            result=moved,
            success=True if pushed is None else moved > rate,
            label=f"rate {moved}: about {details['distance']} {x.unit} per {length} round",
            changes=extra,
            details=details,
        )

    if not x.push:
        return Plan.fixed(outcome(None, ()), rate)
    if not options.pushing:
        raise IllegalAction("pushing is switched off for this table")

    def finish(_stat: Roll, trace: Trace) -> Outcome:
        return outcome(Rolled(0, 0, trace[0][0]), trace[0])

    return Plan.of(push_die(), finish, lambda r: Pushed(rate + r[0], r[1]))


# ---------------------------------------------------------------------------
# magic (ARM 1.2, Magic)


def plan_cast(x: a.Cast, state: State, options: Options) -> Check:
    """A set spell: Wit or Willpower (as the spell allows) + mods against its difficulty.
    A spell that is flung (the fire-ball) is then ready in the caster's hand."""
    seat = state.character(x.actor)
    spell = spell_named(DEFAULT_SETTING, x.spell)
    if x.stat not in spell.stats:
        raise IllegalAction(f"{spell.name} is cast with {' or '.join(spell.stats)}, not {x.stat}")
    turn = _turn(state, x.actor, "cast", options)
    parts = _total(seat, x.stat, x.mods)[1]
    _extra(parts, x.modifier, "GM's modifier", "other")

    def then(_result: int, ok: bool) -> tuple[Change, ...]:
        if ok and spell.accuracy is not None:
            return (turn, Change(x.actor, "readied", value=spell.name, reason="spell cast"))
        return (turn,)

    return _task_check(
        "cast",
        x,
        x.actor,
        parts,
        spell.difficulty,
        options,
        x.push,
        details={"spell": spell.name, "damage": spell.damage, "accuracy": spell.accuracy},
        then=then,
    )


def plan_soul_magic(x: a.SoulMagic, state: State, options: Options) -> Check:
    """The soul world: Willpower + Magically Able against move 4, shape 6, transmute
    7-9, imbue 8/10/12. A Move's result is the log distance moved in one second."""
    seat = state.character(x.actor)
    if not seat.sheet.has_mod(SOUL_MOD):
        raise IllegalAction(f"soul-world magic needs the special mod {SOUL_MOD!r}")
    mods = (SOUL_MOD, *(m for m in x.mods if m.lower() != SOUL_MOD.lower()))
    parts = _total(seat, "Willpower", mods)[1]
    _extra(parts, x.modifier, "GM's modifier", "other")
    turn = _turn(state, x.actor, "other", options)

    def more(result: int, _ok: bool) -> dict[str, JSONValue]:
        if x.operation != "move":
            return {}
        return {"metres": number(soul_move_metres(result, options.log_method))}

    return _task_check(
        "soul-magic",
        x,
        x.actor,
        parts,
        soul_difficulty(x.operation),
        options,
        x.push,
        details={"operation": x.operation},
        then=lambda _r, _ok: (turn,),
        more=more,
    )


# ---------------------------------------------------------------------------
# the referee's (ARM 1.2, Rounds; Damage)


def _fixed(name: str, label: str, changes: list[Change], **details: JSONValue) -> Plan:
    return Plan.fixed(Outcome("arm", name, label=label, changes=tuple(changes), details=details))


def _reset(seat: Seat, cid: str, fields: dict[str, JSONValue]) -> list[Change]:
    """Changes setting each of ``fields`` on ``cid`` where it differs (lists compare as tuples)."""
    return [
        Change(cid, key, value=value, reason="the round turns")
        for key, value in fields.items()
        if jsonable(getattr(seat, key)) != value
    ]


def plan_next_round(x: a.NextRound, state: State, options: Options) -> Plan:
    """The next round: everyone's action and prepared defence reset; a weakness found by
    circling and a berserk attack's penalty now apply (for this round only)."""
    changes = [Change(TABLE, "round", delta=1, reason="next round")]
    if x.length is not None:
        round_log(x.length, options.log_method)
        changes.append(Change(TABLE, "round_length", value=x.length))
    for cid, seat in state.characters.items():
        changes += _reset(
            seat,
            cid,
            {
                "acted": [],
                "prepared": False,
                "weakness": seat.found,
                "found": "",
                "penalty": seat.next_penalty,
                "next_penalty": 0,
            },
        )
    return _fixed("next-round", f"round {state.round + 1}", changes)


def plan_end_combat(x: a.EndCombat, state: State, options: Options) -> Plan:
    """The action sequence ends: no round, no waiting attacks, no round effects."""
    changes = []
    if state.round:
        changes.append(Change(TABLE, "round", value=0, reason="combat over"))
    if state.attacks:
        changes.append(Change(TABLE, "attacks", value=[]))
    if state.held is not None:
        changes.append(Change(TABLE, "held", value=None))
    for cid, seat in state.characters.items():
        changes += _reset(
            seat,
            cid,
            {
                "acted": [],
                "prepared": False,
                "weakness": "",
                "found": "",
                "penalty": 0,
                "next_penalty": 0,
                "readied": "",
            },
        )
    return _fixed("end-combat", "the action sequence ends", changes)


def plan_lose_action(x: a.LoseAction, state: State, options: Options) -> Plan:
    """The GM takes a character's action this round away (Brad, fooled by the demon)."""
    seat = state.character(x.target)
    if "lost" in seat.acted:
        raise IllegalAction(f"{x.target} has already lost this round's action")
    change = Change(x.target, "acted", value=[*seat.acted, "lost"], reason="action lost")
    return _fixed("lose-action", f"{x.target} loses this round's action", [change])


def plan_impose_penalty(x: a.ImposePenalty, state: State, options: Options) -> Plan:
    """The GM's modifier to every action of a character, this round or the next."""
    state.character(x.target)
    key = "penalty" if x.when == "now" else "next_penalty"
    change = Change(x.target, key, delta=x.value, reason="the GM's ruling")
    when = "this round" if x.when == "now" else "next round"
    return _fixed("impose-penalty", f"{x.target}: {x.value:+d} to all actions {when}", [change])


def _levels(state: State, cid: str, wound: int, shock: int, reason: str) -> list[Change]:
    seat = state.character(cid)
    changes = []
    for key, now, delta in (("wound", seat.wound, wound), ("shock", seat.shock, shock)):
        after = max(0, min(LEVEL_CAP, now + delta))
        if after != now:
            changes.append(Change(cid, key, delta=after - now, reason=reason))
    return changes


def plan_take_damage(x: a.TakeDamage, state: State, options: Options) -> Plan:
    """Levels of damage by the GM's ruling: they add to the present ones, stopping at 5
    (a moderately wounded character who takes a severe wound is dead: 2 + 3 = 5)."""
    changes = _levels(state, x.target, x.wound, x.shock, "damage")
    if x.destroyed and not state.character(x.target).destroyed:
        changes.append(Change(x.target, "destroyed", value=True, reason="destroyed"))
    after = accumulate(state.character(x.target).condition, x.wound, x.shock, x.destroyed)
    return _fixed("take-damage", f"{x.target}: {after.label}", changes)


def plan_recover(x: a.Recover, state: State, options: Options) -> Plan:
    """Recovery by the GM's ruling: levels go down, never below Unharmed."""
    changes = _levels(state, x.target, -x.wound, -x.shock, "recovery")
    return _fixed("recover", f"{x.target} recovers", changes)


def plan_record_wound(x: a.RecordWound, state: State, options: Options) -> Plan:
    """Record a named wound: a character carries at most five (the option max_wounds)."""
    seat = state.character(x.target)
    after = record_wound(seat.condition, x.description, x.level, options)
    change = Change(x.target, "wounds", value=jsonable(after.wounds), reason="a named wound")
    return _fixed("record-wound", f"{x.target}: {x.description.strip()}", [change])


def plan_remove_wound(x: a.RemoveWound, state: State, options: Options) -> Plan:
    """A named wound struck off the record."""
    seat = state.character(x.target)
    if x.index >= len(seat.wounds):
        raise IllegalAction(f"{x.target} has {len(seat.wounds)} named wound(s)")
    gone = seat.wounds[x.index]
    rest = [w for i, w in enumerate(seat.wounds) if i != x.index]
    change = Change(x.target, "wounds", value=jsonable(rest), reason="healed")
    return _fixed("remove-wound", f"{x.target}: {gone.description} healed", [change])


# ---------------------------------------------------------------------------
# reference look-ups (ARM 1.2, Scale, Rounds, Task Resolution, combat tables)


def plan_log_of(x: a.LogOf, state: State, options: Options) -> Plan:
    """The log of a measure by the chart (or the exact formula): 1342 -> 16."""
    try:
        value = Decimal(x.measure.strip())
    except InvalidOperation:
        raise IllegalAction(f"measure {x.measure!r} is not a number") from None
    found = log_of(value, options.log_method)
    out = Outcome("arm", "log-of", result=found, label=f"log {found}", details={"log": found})
    return Plan.fixed(out, found)


def plan_measure_of(x: a.MeasureOf, state: State, options: Options) -> Plan:
    """The measure of a log: -3 -> 0.25."""
    found = measure_of(x.log, options.log_method)
    out = Outcome(
        "arm", "measure-of", label=f"measure {found:f}", details={"measure": number(found)}
    )
    return Plan.fixed(out, str(found))


def plan_convert(x: a.Convert, state: State, options: Options) -> Plan:
    """A log converted between units (Corven: 5 m/s is 10 in ft per 3-second round)."""
    method = options.log_method
    rounds = None if x.round_length is None else round_log(x.round_length, method)
    found = convert(x.log, x.source, x.target, round_log=rounds, method=method)
    measure = measure_of(found, method)
    out = Outcome(
        "arm",
        "convert",
        result=found,
        label=f"log {found} {x.target} (about {measure:f})",
        details={"log": found, "measure": number(measure), "from": x.source, "to": x.target},
    )
    return Plan.fixed(out, found)


def plan_difficulty(x: a.Difficulty, state: State, options: Options) -> Plan:
    """A difficulty (or the guide's modifier) from the text's tables."""
    key = "modifier" if x.kind == "modifier" else "difficulty"
    if x.kind == "ranged":
        if x.weapon is not None:
            missile = _missile(x.weapon)
            stats = None if x.fitness is None else {"Fitness": x.fitness}
            limit = max_range(missile, stats)
            if limit is not None and x.distance > limit:
                raise IllegalAction(
                    f"{missile.name} reaches log distance {limit}; the target is at {x.distance}"
                )
        found = ranged_difficulty(
            x.distance,
            moving=x.moving,
            size=x.size,
            cover=x.cover,
            weather=x.weather,
            options=options,
        )
    elif x.name is None:
        raise IllegalAction(f"'{x.kind}' needs a name (e.g. difficulty melee attack)")
    elif x.kind == "preset":
        found = difficulty_named(x.name)
    elif x.kind == "modifier":
        found = modifier_named(x.name)
    elif x.kind == "melee":
        found = melee_difficulty(x.name, size=x.size, attack_result=x.attack_result)
    elif x.kind == "soul":
        found = soul_difficulty(x.name)
    else:
        found = spell_named(DEFAULT_SETTING, x.name).difficulty
    label = f"modifier {found:+d}" if key == "modifier" else f"difficulty {found}"
    out = Outcome("arm", "difficulty", result=found, label=label, details={key: found})
    return Plan.fixed(out, found)


def plan_group_log(x: a.GroupLog, state: State, options: Options) -> Plan:
    """The combined log of a group (see :func:`~referee.systems.arm.scale.group_log`)."""
    found, how = group_log(
        x.logs, method=options.log_method, count=options.group_count, way=options.group_method
    )
    out = Outcome(
        "arm",
        "group-log",
        result=found,
        label=f"group log {found} ({how})",
        details={"log": found, "method": how},
    )
    return Plan.fixed(out, found)
