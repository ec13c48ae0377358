"""Fighting at the table: melee, ranged shots and damage (ARM 1.2, Combat (Melee),
Combat (Ranged), Damage), one planner per action (see :mod:`.play`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace

from referee.systems.arm import actions as a
from referee.systems.arm.catalog import RangedWeapon, Setting, Spell, Weapon
from referee.systems.arm.combat import (
    dodge_missile_difficulty,
    in_range,
    max_range,
    melee_blow,
    melee_difficulty,
    ranged_blow,
    ranged_difficulty,
    ranged_stat,
)
from referee.systems.arm.damage import (
    Blow,
    NamedWound,
    accumulate,
    damage_rule,
)
from referee.systems.arm.options import Options
from referee.systems.arm.play import (
    Levels,
    add,
    can_defend,
    in_round,
    stat_value,
    take_turn,
    task_check,
    total_of,
)
from referee.systems.arm.rolls import Check, Rolled
from referee.systems.arm.sheet import resolve_weapon
from referee.systems.arm.state import Attack, State
from referee.systems.arm.tables import (
    MELEE_DIFFICULTIES,
    SHOCK_LEVELS,
    WOUND_LEVELS,
)
from referee.systems.base import (
    TABLE,
    Action,
    Change,
    IllegalAction,
    JSONValue,
    Modifier,
    Outcome,
    Plan,
    jsonable,
)


def attacks_change(state: State, attacks: tuple[Attack, ...]) -> Change:
    """The change setting the attacks that wait."""
    return Change(TABLE, "attacks", value=jsonable(attacks), reason="attacks waiting")


def _incoming(state: State, target: str, attacker: str | None) -> Attack:
    """The one attack waiting for ``target``'s defence (by ``attacker`` if named)."""
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
    """The one landed blow of ``attacker``'s waiting for its damage roll."""
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
    """The waiting attacks without ``attack``."""
    return tuple(x for x in state.attacks if x != attack)


def _hit(state: State, attack: Attack, options: Options) -> tuple[Attack, ...]:
    """The attacks after a successful attack roll: the target may defend, or it lands."""
    defend = attack.dodgeable and can_defend(state, attack.target, options)
    return (*state.attacks, replace(attack, stage="incoming" if defend else "landed"))


# ---------------------------------------------------------------------------
# melee (ARM 1.2, Combat (Melee))


def plan_prepare(action: a.Prepare, state: State, options: Options) -> Plan:
    """Waiting for the attack: the round's action, and a prepared defence (base 2)."""
    turn = take_turn(state, action.actor, "prepare", options)
    prepared = Change(action.actor, "prepared", value=True, reason="prepared defence")
    out = Outcome(
        "arm", "prepare", label=f"{action.actor} waits, prepared", changes=(turn, prepared)
    )
    return Plan.fixed(out)


def plan_circle(action: a.Circle, state: State, options: Options, wit: int | None = None) -> Check:
    """Circling: Wit (+ combat mods) against the opponent's Wit (+ combat mods). It
    prepares a defence automatically; a success gives +1 to attack them next round.
    ``wit`` in place of the opponent's Wit and mods: what a preview tries for a sheet its
    asker may not see."""
    if action.target == action.actor:
        raise IllegalAction("circle an opponent, not yourself")
    parts = total_of(state.character(action.actor), "Wit", action.mods)[1]
    add(parts, action.modifier, "GM's modifier", "other")
    if wit is None:
        wit = total_of(state.character(action.target), "Wit", action.target_mods, penalty=False)[0]
    turn = take_turn(state, action.actor, "circle", options)
    prepared = Change(action.actor, "prepared", value=True, reason="circling prepares a defence")

    def then(_result: int, ok: bool) -> tuple[Change, ...]:
        found = (Change(action.actor, "found", value=action.target, reason="a weakness found"),)
        return (turn, prepared, *(found if ok else ()))

    return task_check(
        "circle",
        action,
        action.actor,
        parts,
        wit,
        options,
        action.push,
        details={"opponent": action.target},
        then=then,
        more=lambda _r, ok: {"weakness": ok, "next_attack_bonus": options.circling_bonus * ok},
    )


ATTACK_KEYS = {
    "normal": "attack",
    "berserk": "berserk attack",
    "counter-blow": "counter-blow attack",
}


def plan_attack(action: a.Attack, state: State, options: Options) -> Check:
    """Trying to hit: Fitness + mods + the weapon's attack modifier (+1 against an opponent
    whose weakness was found by circling) against 4 (moving target 6, berserk 3), large
    size subtracted. A hit waits for the target's defence, or lands if it has none."""
    if action.target == action.actor:
        raise IllegalAction("attack someone else")
    seat = state.character(action.actor)
    state.character(action.target)
    if any(t.attacker == action.actor and t.target == action.target for t in state.attacks):
        raise IllegalAction(
            f"{_named(state, action.actor)}'s attack on {_named(state, action.target)} "
            "is still waiting"
        )
    kind = "counter-blow" if action.style == "counter-blow" else "attack"
    countered = bool(seat.acted) and seat.acted[-1] == "counter-defence"
    if kind == "counter-blow" and in_round(state, options) and not countered:
        raise IllegalAction("a counter-blow follows a counter-blow defence (defend counter)")
    turn = take_turn(state, action.actor, kind, options)
    weapon = seat.sheet.weapon(action.weapon, state.setting)
    parts = total_of(seat, "Fitness", action.mods)[1]
    add(parts, weapon.attack, f"{weapon.name} attack", "weapon")
    if seat.weakness and seat.weakness == action.target:
        add(parts, options.circling_bonus, "circling")
    add(parts, action.modifier, "GM's modifier", "other")
    difficulty = melee_difficulty(ATTACK_KEYS[action.style], size=action.size) + (
        2 if action.moving else 0
    )

    berserk = Change(action.actor, "next_penalty", delta=options.berserk_penalty)
    return _attack_check(
        "attack",
        action,
        state,
        options,
        (parts, difficulty),
        (turn, *((berserk,) if action.style == "berserk" else ())),
        lambda result: Attack(action.actor, action.target, result, weapon.name),
        {"target_id": action.target, "weapon": weapon.name, "style": action.style},
    )


def plan_defend(action: a.Defend, state: State, options: Options) -> Check:
    """Dodging or parrying: 4 + the attack's result; a prepared (or circling) defender 2 +;
    a counter-blow 6 +, after which the defender may attack back. A parry adds the
    weapon's parry modifier, a dodge the bare stat. A slow missile can only be dodged."""
    seat = state.character(action.actor)
    attack = _incoming(state, action.actor, action.against)
    if not can_defend(state, action.actor, options):
        raise IllegalAction(
            f"{_named(state, action.actor)} has used this round's action: no defence"
        )
    kind = "counter-defence" if action.counter else "defend"
    turn = take_turn(state, action.actor, kind, options)
    prepared = seat.prepared if action.prepared is None else action.prepared
    parts = total_of(seat, "Fitness", action.mods)[1]
    if attack.kind == "ranged":
        if action.how != "dodge" or action.counter:
            raise IllegalAction("a missile can only be dodged")
        missile = missile_named(state.setting, attack.weapon)
        base = dodge_missile_difficulty(missile, 0, prepared=prepared, options=options)
    else:
        if action.how == "parry":
            weapon = seat.sheet.weapon(action.weapon, state.setting)
            add(parts, weapon.parry, f"{weapon.name} parry", "weapon")
        elif action.weapon is not None:
            raise IllegalAction("a dodge uses no weapon; name a weapon only to parry")
        key = (
            "counter-blow defence"
            if action.counter
            else "prepared defence"
            if prepared
            else "defend"
        )
        base = MELEE_DIFFICULTIES[key][0]
    add(parts, action.modifier, "GM's modifier", "other")
    difficulty = base + attack.result

    def then(_result: int, ok: bool) -> tuple[Change, ...]:
        after = _without(state, attack)
        if not ok:
            after += (replace(attack, stage="landed"),)
        used = (
            Change(action.actor, "prepared", value=False, reason="the prepared defence is used"),
        )
        return (turn, attacks_change(state, after), *(used if seat.prepared else ()))

    return task_check(
        "defend",
        action,
        action.actor,
        parts,
        difficulty,
        options,
        action.push,
        details={"attacker": attack.attacker, "prepared": prepared, "how": action.how},
        then=then,
        more=lambda _r, ok: {"blow": "avoided" if ok else "lands"},
    )


def _named(state: State, cid: str) -> str:
    """A character's name (its id when it has none, or is not seated)."""
    seat = state.characters.get(cid)
    return seat.sheet.name if seat is not None and seat.sheet.name else cid


def plan_take_blow(action: a.TakeBlow, state: State, options: Options) -> Plan:
    """No defence roll: the incoming attack lands."""
    attack = _incoming(state, action.actor, action.against)
    after = (*_without(state, attack), replace(attack, stage="landed"))
    out = Outcome(
        "arm",
        "take-blow",
        label=f"{_named(state, attack.attacker)}'s blow lands on {_named(state, action.actor)}",
        changes=(attacks_change(state, after),),
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


def plan_strike(action: a.Strike, state: State, options: Options) -> Check:
    """The damage of a landed blow: its result + the weapon's damage value (+ strength mod
    when the weapon allows it) + d6 - d6 against Toughness + armour."""
    attack = _landed(state, action.actor, action.target)
    hitter = state.character(action.actor).sheet
    target = state.character(attack.target).sheet
    if attack.kind == "melee":
        blow = melee_blow(
            hitter, target, attack.result, weapon=attack.weapon, setting=state.setting
        )
    else:
        missile = missile_named(state.setting, attack.weapon)
        blow = ranged_blow(hitter, target, missile, attack.result, setting=state.setting)
    if action.damage is not None:
        blow = replace(blow, damage=action.damage)
    done = attacks_change(state, _without(state, attack))
    return _blow_check(
        "strike",
        action,
        action.actor,
        attack.target,
        blow,
        state,
        options,
        action.push,
        action.wound_name,
        (done,),
    )


def _weapon_for(x: a.Damage, state: State) -> Weapon | RangedWeapon | Spell | None:
    """The weapon of a blow by the numbers: carried by the attacker, else the table's
    setting's melee weapon, ranged weapon or spell of that name."""
    setting = state.setting
    if x.weapon is None:
        if x.actor is not None and state.character(x.actor).sheet.weapons:
            return state.character(x.actor).sheet.weapon(None, setting)
        return None
    if x.actor is not None:
        sheet = state.character(x.actor).sheet
        for entry in sheet.weapons:
            if entry.name.lower() == x.weapon.strip().lower():
                return resolve_weapon(entry, setting)
    found = setting.weapon(x.weapon)
    return found if found is not None else missile_named(setting, x.weapon)


def plan_damage(action: a.Damage, state: State, options: Options) -> Check:
    """A blow by the numbers against a character (ARM 1.2, Damage): one roll, two
    subtractions for wound and shock armour, stun moves a level to shock."""
    target = state.character(action.target).sheet
    weapon = _weapon_for(action, state)
    value = action.damage if action.damage is not None else getattr(weapon, "damage", None)
    if value is None:
        raise IllegalAction("give a damage value, or a weapon that does damage")
    if action.strength is not None:
        strength = action.strength
    elif action.actor is not None and getattr(weapon, "strength", False):
        strength = state.character(action.actor).sheet.mod(state.setting.strength_mod)
    else:
        strength = 0
    stun = action.stun if action.stun is not None else bool(getattr(weapon, "stun", False))
    wound_armour, shock_armour = target.armour_values(state.setting)
    blow = Blow(
        result=action.result,
        damage=value,
        toughness=stat_value(state.character(action.target), "Toughness"),
        strength=strength,
        wound_armour=wound_armour,
        shock_armour=shock_armour,
        stun=stun,
        ignore=action.ignore,
    )
    return _blow_check(
        "damage",
        action,
        action.actor,
        action.target,
        blow,
        state,
        options,
        action.push,
        action.wound_name,
    )


# ---------------------------------------------------------------------------
# ranged (ARM 1.2, Combat (Ranged))


def missile_named(setting: Setting, name: str) -> RangedWeapon | Spell:
    """The ranged weapon or set spell called ``name`` in the table's ``setting``; a clear
    error naming the known ones (the referee adds weapons with ``add-weapon``)."""
    found = setting.ranged_weapon(name) or setting.spell(name)
    if found is None:
        known = [w.name for w in setting.ranged] + [s.name for s in setting.spells]
        raise IllegalAction(
            f"unknown ranged weapon {name!r}; known: {', '.join(known) or 'none'} "
            "(the referee adds one with add-weapon)"
        )
    return found


def plan_shoot(action: a.Shoot, state: State, options: Options) -> Check:
    """A shot: Dexterity (aimed) or Fitness (thrown) + mods + accuracy against 4 (6 for a
    moving target) - size + twice the log distance + cover + weather; a target beyond
    the weapon's range cannot be hit. A set spell must be cast before it is flung."""
    seat = state.character(action.actor)
    missile = missile_named(state.setting, action.weapon)
    if action.target is not None:
        if action.target == action.actor:
            raise IllegalAction("shoot at someone else")
        state.character(action.target)
    if isinstance(missile, Spell) and seat.readied != missile.name:
        raise IllegalAction(
            f"{_named(state, action.actor)} has no {missile.name} ready: cast it first"
        )
    if missile.accuracy is None:
        raise IllegalAction(f"{missile.name} is not shot or thrown")
    if not in_range(missile, action.distance, seat.sheet.stats):
        limit = max_range(missile, seat.sheet.stats)
        raise IllegalAction(
            f"{missile.name} reaches log distance {limit}; the target is at {action.distance}"
        )
    turn = take_turn(state, action.actor, "shoot", options)
    parts = total_of(seat, ranged_stat(missile), action.mods)[1]
    add(parts, missile.accuracy, f"{missile.name} accuracy", "weapon")
    add(parts, action.modifier, "GM's modifier", "other")
    difficulty = ranged_difficulty(
        action.distance,
        moving=action.moving,
        size=action.size,
        cover=action.cover,
        weather=action.weather,
        options=options,
    )

    flung = Change(action.actor, "readied", value="", reason="the spell is flung")
    target = action.target
    return _attack_check(
        "shoot",
        action,
        state,
        options,
        (parts, difficulty),
        (turn, *((flung,) if isinstance(missile, Spell) else ())),
        None
        if target is None
        else lambda result: Attack(
            action.actor, target, result, missile.name, "ranged", "incoming", missile.dodgeable
        ),
        {"weapon": missile.name, "distance": action.distance, "target_id": action.target},
    )


def _attack_check(
    name: str,
    x: a.Attack | a.Shoot,
    state: State,
    options: Options,
    check: tuple[list[Modifier], int],
    always: tuple[Change, ...],
    attack: Callable[[int], Attack] | None,
    details: dict[str, JSONValue],
) -> Check:
    """The check of an attack or a shot (``check``: its parts and difficulty): it always
    makes the ``always`` changes (its turn taken...) and, on a success, the ``attack``
    at its result waits for a defence or damage (:func:`_hit`)."""

    def then(result: int, ok: bool) -> tuple[Change, ...]:
        if not ok or attack is None:
            return always
        return (*always, attacks_change(state, _hit(state, attack(result), options)))

    parts, difficulty = check
    return task_check(
        name, x, x.actor, parts, difficulty, options, x.push, details=details, then=then
    )
