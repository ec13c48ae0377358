"""Every action ARM 1.2 allows at a table, as frozen dataclasses naming characters by id.

Rolls (each a d6 - d6 roll the roller may push, ARM 1.2, Pushing): ``task``,
``contest``, ``subtasks``, ``group-task`` (Task Resolution); ``prepare``,
``circle``, ``attack``, ``defend``, ``take-blow``, ``strike`` (Combat (Melee));
``shoot`` (Combat (Ranged)); ``damage`` (Damage); ``move`` (Movement Rates and
Pushing); ``cast`` and ``soul-magic`` (Magic); ``push`` and ``accept`` answer
a roll waiting for its push decision. The referee's: ``next-round``,
``end-combat``, ``lose-action``, ``impose-penalty`` (Rounds), ``take-damage``,
``recover``, ``record-wound``, ``remove-wound`` (Damage), ``add-weapon`` (the
table's setting: Character Creation's lists, Combat (Melee) and (Ranged)'s
weapon tables). Reference look-ups
that change nothing: ``log-of``, ``measure-of``, ``convert``, ``difficulty``,
``group-log`` (Scale, Rounds, Task Resolution).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from referee.systems.base import Action, param

if TYPE_CHECKING:
    pass

PushMode = Literal["ask", "never", "always", "if-needed"]  # written out in fields (RUF009)
"""How a roll is pushed (ARM 1.2, Pushing, an optional rule the table switches on):
``ask`` - decide after seeing the roll (the table's ``push_offer`` says after which
rolls the rules wait for the decision); ``never``; ``always`` - declared before
rolling (three dice at once); ``if-needed`` - push only when the roll needs it."""

PUSH_DOC = (
    "push: ask (decide after seeing the roll), never, always (declared before rolling) "
    "or if-needed (push only a roll that needs it)"
)

_MOD = 50
"""Bounds of a modifier typed in by hand (the GM's extra modifiers)."""


# ---------------------------------------------------------------------------
# task resolution (ARM 1.2, Task Resolution)


@dataclass(frozen=True)
class Task(Action):
    """A check: stat + mods + d6 - d6 against a difficulty.

    Give the stat and the mods that apply (``helps`` / ``hinders`` name absolute
    mods by the way they count), or the whole ``total``. ``melee`` adds a melee
    weapon's attack or parry modifier and ``situations`` the circling,
    standstill and after-berserk modifiers; ``helper`` is the result of an
    optional helper task (its result when positive for a large effect, +1 on
    a success for a small one).
    """

    actor: str = param(doc="who rolls", ref="character")
    difficulty: int = param(
        6,
        "the difficulty number (the guide's: trivial 1, simple 4, 50/50 6, tough 8, very tough 11)",
    )
    stat: str | None = param(None, "the stat rolled (e.g. Fitness); or give total")
    mods: tuple[str, ...] = param(
        (), "signed or special mods of the actor that apply", sheet="mods"
    )
    helps: tuple[str, ...] = param((), "absolute mods that help here (added)")
    hinders: tuple[str, ...] = param((), "absolute mods that hinder here (subtracted)")
    total: int | None = param(None, "stat + mods as one number, instead of stat and mods")
    modifier: int = param(
        0, "the GM's extra modifier to the total", ge=-_MOD, le=_MOD, referee=True
    )
    melee: Literal["attack", "parry", "dodge"] | None = param(
        None, "a melee roll: attack, parry or dodge"
    )
    weapon: str | None = param(
        None, "the melee weapon (default: the first carried)", sheet="weapons"
    )
    situations: tuple[Literal["circled", "standstill", "after-berserk"], ...] = param(
        (), "a melee roll's situation: circled, standstill or after-berserk"
    )
    helper: int | None = param(None, "result of an optional helper task", ge=-100, le=100)
    helper_effect: Literal["large", "small"] = param("large", "the helper task's effect")
    push: Literal["ask", "never", "always", "if-needed"] = param("ask", PUSH_DOC)
    round_action: bool = param(False, "the task is the actor's action this round")


@dataclass(frozen=True)
class Contest(Action):
    """A task against someone: the difficulty is the opponent's stat + mods (+ the GM's)."""

    actor: str = param(doc="who acts", ref="character")
    opponent: str = param(doc="who resists", ref="character", role="defend")
    stat: str = param("Charisma", "the actor's stat")
    opponent_stat: str = param("Willpower", "the opponent's resisting stat")
    mods: tuple[str, ...] = param((), "the actor's mods that apply", sheet="mods")
    opponent_mods: tuple[str, ...] = param((), "the opponent's mods that apply")
    modifier: int = param(
        0, "the GM's modifier to the actor's total", ge=-_MOD, le=_MOD, referee=True
    )
    opponent_modifier: int = param(
        0, "the GM's extra modifier to the difficulty", ge=-_MOD, le=_MOD, referee=True
    )
    push: Literal["ask", "never", "always", "if-needed"] = param("ask", PUSH_DOC)
    round_action: bool = param(False, "the contest is the actor's action this round")


@dataclass(frozen=True)
class Subtask:
    """One part of a task broken down: its stat, mods and (lesser) difficulty."""

    stat: str = param(doc="the stat rolled")
    difficulty: int = param(4, "this subtask's difficulty", ge=-100, le=100)
    mods: tuple[str, ...] = param((), "mods that apply", sheet="mods")
    modifier: int = param(0, "the GM's modifier", ge=-_MOD, le=_MOD, referee=True)


@dataclass(frozen=True)
class Subtasks(Action):
    """A task broken into subtasks: the whole is only as good as its worst subtask."""

    actor: str = param(doc="who works", ref="character")
    parts: tuple[Subtask, ...] = param(doc="the subtasks (1 to 12)")


@dataclass(frozen=True)
class GroupTask(Action):
    """Several people in one attempt: their stat + mods combine on the log scale."""

    actor: str = param(doc="who rolls for the group", ref="character")
    helpers: tuple[str, ...] = param(doc="the others taking part", ref="character", role="help")
    stat: str = param("Fitness", "the stat every member uses")
    mods: tuple[str, ...] = param((), "mods that apply (to whoever has them)")
    difficulty: int = param(6, "the difficulty number", ge=-100, le=100)
    modifier: int = param(0, "the GM's modifier", ge=-_MOD, le=_MOD, referee=True)
    push: Literal["ask", "never", "always", "if-needed"] = param("ask", PUSH_DOC)


# ---------------------------------------------------------------------------
# melee (ARM 1.2, Combat (Melee))


@dataclass(frozen=True)
class Prepare(Action):
    """Wait for an attack, ready to defend (a prepared defence: base 2, not 4)."""

    actor: str = param(doc="who waits", ref="character")


@dataclass(frozen=True)
class Circle(Action):
    """Circle an opponent (automatically preparing a defence) and look for a weakness:
    Wit against Wit; a success gives +1 to attack that opponent next round."""

    actor: str = param(doc="who circles", ref="character")
    target: str = param(
        doc="the opponent (resists, Wit against Wit)", ref="character", role="defend"
    )
    mods: tuple[str, ...] = param((), "the actor's combat experience mods", sheet="mods")
    target_mods: tuple[str, ...] = param((), "the opponent's combat experience mods")
    modifier: int = param(0, "the GM's modifier", ge=-_MOD, le=_MOD, referee=True)
    push: Literal["ask", "never", "always", "if-needed"] = param("ask", PUSH_DOC)


@dataclass(frozen=True)
class Attack(Action):
    """Try to hit: Fitness + mods + the weapon's attack modifier against 4 (6 for a moving
    target, 3 for a berserk attack), large size subtracted."""

    reads: ClassVar[tuple[str, ...] | None] = ("actor",)  # the roll reads no target sheet

    actor: str = param(doc="who attacks", ref="character")
    target: str = param(doc="who is attacked", ref="character")
    style: Literal["normal", "berserk", "counter-blow"] = param(
        "normal", "normal, berserk (+1, -2 to next round's actions) or counter-blow"
    )
    moving: bool = param(False, "the target is moving rather than standing to fight")
    size: int = param(0, "the target's size: large +, small -", ge=-20, le=20)
    weapon: str | None = param(None, "the weapon (default: the first carried)", sheet="weapons")
    mods: tuple[str, ...] = param((), "mods that apply (e.g. Swords)", sheet="mods")
    modifier: int = param(0, "the GM's modifier", ge=-_MOD, le=_MOD, referee=True)
    push: Literal["ask", "never", "always", "if-needed"] = param("ask", PUSH_DOC)


@dataclass(frozen=True)
class Defend(Action):
    """Dodge or parry an incoming attack: 4 + the attack's result (prepared: 2 +,
    counter-blow: 6 +)."""

    actor: str = param(doc="who defends", ref="character", role="defend")
    against: str | None = param(None, "the attacker (default: the one attacking)", ref="character")
    how: Literal["dodge", "parry"] = param("dodge", "dodge (bare stat) or parry (weapon)")
    counter: bool = param(False, "a counter-blow: defend at 6 +, then attack back")
    prepared: bool | None = param(None, "a prepared defence (default: prepared or circling)")
    weapon: str | None = param(
        None, "the parrying weapon (default: the first carried)", sheet="weapons"
    )
    mods: tuple[str, ...] = param((), "mods that apply", sheet="mods")
    modifier: int = param(0, "the GM's modifier", ge=-_MOD, le=_MOD, referee=True)
    push: Literal["ask", "never", "always", "if-needed"] = param("ask", PUSH_DOC)


@dataclass(frozen=True)
class TakeBlow(Action):
    """Let an incoming attack through without a defence roll."""

    actor: str = param(doc="who is attacked", ref="character", role="respond")
    against: str | None = param(None, "the attacker (default: the one attacking)", ref="character")


@dataclass(frozen=True)
class Strike(Action):
    """The damage of a blow that landed: result + damage value (+ strength) + d6 - d6
    against Toughness + armour."""

    actor: str = param(
        doc="whose blow landed (its damage follows, whatever befalls them since)",
        ref="character",
        role="respond",
    )
    target: str | None = param(None, "who was hit (default: the one hit)", ref="character")
    damage: int | None = param(None, "the damage value, if not the weapon's", ge=-100, le=100)
    push: Literal["ask", "never", "always", "if-needed"] = param("ask", PUSH_DOC)
    wound_name: str = param("", "name the wound (kept when the table records wounds)")


# ---------------------------------------------------------------------------
# ranged, damage, movement (ARM 1.2, Combat (Ranged), Damage, Movement Rates)


@dataclass(frozen=True)
class Shoot(Action):
    """A shot or a throw: Dexterity (aimed) or Fitness (thrown) + the weapon's accuracy
    against 4 (6 moving) - size + twice the log distance + cover + weather."""

    actor: str = param(doc="who shoots", ref="character")
    weapon: str = param("Long bow", "a ranged weapon or set spell of the table's setting")
    distance: int = param(0, "the log of the distance in metres", ge=-100, le=100)
    target: str | None = param(None, "who is shot at", ref="character")
    moving: bool = param(False, "the target is moving")
    size: int = param(0, "the target's size: large +, small -", ge=-20, le=20)
    cover: int = param(0, "modifier for cover", ge=-_MOD, le=_MOD)
    weather: int = param(0, "modifier for weather", ge=-_MOD, le=_MOD)
    mods: tuple[str, ...] = param((), "mods that apply", sheet="mods")
    modifier: int = param(0, "the GM's modifier", ge=-_MOD, le=_MOD, referee=True)
    push: Literal["ask", "never", "always", "if-needed"] = param("ask", PUSH_DOC)


@dataclass(frozen=True)
class Damage(Action):
    """A blow's damage by the numbers: result + damage value (+ strength mod) + d6 - d6
    against the target's Toughness and armour (a fall, a trap, a blow off the map)."""

    target: str = param(doc="who is hurt", ref="character")
    result: int = param(0, "the result of the successful attack or hit", ge=-100, le=100)
    actor: str | None = param(None, "the attacker (weapon, strength mod, push)", ref="character")
    weapon: str | None = param(None, "a weapon carried or of the setting")
    damage: int | None = param(None, "the damage value, if not the weapon's", ge=-100, le=100)
    strength: int | None = param(None, "the strength mod (default: the attacker's)", ge=-50, le=50)
    stun: bool | None = param(None, "a stunning attack (default: the weapon's)")
    ignore: Literal["wound", "shock"] | None = param(
        None, "the sort of damage it cannot do: wound or shock"
    )
    push: Literal["ask", "never", "always", "if-needed"] = param("ask", PUSH_DOC)
    wound_name: str = param("", "name the wound (kept when the table records wounds)")


@dataclass(frozen=True)
class Move(Action):
    """Move for a round at a movement rate (no roll), optionally pushed for +1 log."""

    actor: str | None = param(None, "who moves", ref="character")
    mode: str = param("Run", "the movement rate used (Run, Walk, Swim, Climb)")
    rate: int | None = param(None, "the rate's log, if not from the sheet", ge=-100, le=100)
    source: str = param("m/s", "the rate's unit")
    unit: str = param("m", "the distance unit wanted")
    round_length: str | None = param(None, "the round length (default: the table's)")
    push: bool = param(False, "push the rate for this round (a push die)")


# ---------------------------------------------------------------------------
# magic (ARM 1.2, Magic)


@dataclass(frozen=True)
class Cast(Action):
    """Cast a set spell against its difficulty (the fire-ball: 7) with Wit or Willpower."""

    actor: str = param(doc="who casts", ref="character")
    spell: str = param("Fire-ball", "a spell of the setting")
    stat: str = param("Wit", "Wit or Willpower (as the spell allows)")
    mods: tuple[str, ...] = param((), "mods that apply", sheet="mods")
    modifier: int = param(0, "the GM's modifier", ge=-_MOD, le=_MOD, referee=True)
    push: Literal["ask", "never", "always", "if-needed"] = param("ask", PUSH_DOC)


@dataclass(frozen=True)
class SoulMagic(Action):
    """Work the soul world: Willpower + Magically Able against the operation's difficulty
    (move 4, shape 6, transmute 7-9, imbue 8/10/12)."""

    actor: str = param(doc="the wizard", ref="character")
    operation: Literal[
        "move",
        "shape",
        "transmute similar",
        "transmute",
        "transmute dissimilar",
        "imbue simple",
        "imbue complex",
        "imbue conditional",
    ] = param("move", "the operation")
    mods: tuple[str, ...] = param((), "other mods that apply")
    modifier: int = param(0, "the GM's modifier", ge=-_MOD, le=_MOD, referee=True)
    push: Literal["ask", "never", "always", "if-needed"] = param("ask", PUSH_DOC)


# ---------------------------------------------------------------------------
# the push decision (ARM 1.2, Pushing)


@dataclass(frozen=True)
class Push(Action):
    """Push the roll waiting for a decision: a third d6, +1 on 2-6, a level of shock on 2-5."""

    actor: str = param(doc="whose roll", ref="character")


@dataclass(frozen=True)
class Accept(Action):
    """Accept the roll waiting for a decision as it is."""

    actor: str = param(doc="whose roll", ref="character", role="respond")


# ---------------------------------------------------------------------------
# the referee's (ARM 1.2, Rounds; Damage)


@dataclass(frozen=True)
class NextRound(Action):
    """Start the next round: actions and prepared defences reset, circling and berserk
    effects of the last round apply."""

    moves_time: ClassVar[bool] = True

    referee_only: ClassVar[bool] = True
    length: str | None = param(None, "a new round length (e.g. 2s, 10min)")


@dataclass(frozen=True)
class EndCombat(Action):
    """End the action sequence: no round runs; waiting attacks and round effects clear."""

    referee_only: ClassVar[bool] = True


@dataclass(frozen=True)
class LoseAction(Action):
    """A character's action this round is lost (fooled, distracted: the GM's call)."""

    referee_only: ClassVar[bool] = True
    target: str = param(doc="who loses the action", ref="character", role="care")


@dataclass(frozen=True)
class ImposePenalty(Action):
    """The GM's modifier to every action of a character this round or the next
    (Alex, Reeling: -2 on all actions next round)."""

    referee_only: ClassVar[bool] = True
    target: str = param(doc="who", ref="character", role="care")
    value: int = param(-2, "the modifier", ge=-_MOD, le=_MOD)
    when: Literal["now", "next"] = param("next", "this round or the next")


@dataclass(frozen=True)
class TakeDamage(Action):
    """Damage by levels (the GM's ruling): wound and shock levels add and stop at 5."""

    referee_only: ClassVar[bool] = True
    target: str = param(doc="who", ref="character", role="care")
    wound: int = param(0, "wound levels", ge=0, le=5)
    shock: int = param(0, "shock levels", ge=0, le=5)
    destroyed: bool = param(False, "destroyed outright")


@dataclass(frozen=True)
class Recover(Action):
    """Recovery (the GM's call): wound and shock levels go down, not below 0."""

    referee_only: ClassVar[bool] = True
    target: str = param(doc="who", ref="character", role="care")
    wound: int = param(0, "wound levels healed", ge=0, le=5)
    shock: int = param(0, "shock levels recovered", ge=0, le=5)


@dataclass(frozen=True)
class RecordWound(Action):
    """Record a named wound ("a shattered ankle"): at most five per character."""

    referee_only: ClassVar[bool] = True
    target: str = param(doc="who", ref="character", role="care")
    description: str = param(doc="the wound")
    level: int = param(1, "its level (1 Light .. 5 Dead)", ge=1, le=5)


@dataclass(frozen=True)
class RemoveWound(Action):
    """Strike a named wound off the record (healed)."""

    referee_only: ClassVar[bool] = True
    target: str = param(doc="who", ref="character", role="care")
    index: int = param(0, "which wound (0 = the first recorded)", ge=0, le=99)


@dataclass(frozen=True)
class AddWeapon(Action):
    """Add a weapon to the table's setting, for play from then on (ARM 1.2: the referee
    keeps the lists; Combat (Ranged): "If launching the weapon is a throwing task (eg.
    spears, stones), use Fitness ... an aiming task (eg. bows, guns) use Dexterity";
    "Certain slow weapons (eg. stones, spears) may be dodged")."""

    referee_only: ClassVar[bool] = True
    name: str = param(doc="the weapon's name (e.g. Spear)")
    damage: int = param(doc="its damage value", ge=-100, le=100)
    kind: Literal["thrown", "aimed", "melee"] = param(
        "thrown", "thrown (Fitness: spears, stones), aimed (Dexterity: bows, guns) or melee"
    )
    accuracy: int = param(0, "thrown or aimed: its accuracy", ge=-100, le=100)
    max_range: int | None = param(
        None, "thrown or aimed: its maximum log range (empty: unlimited)", ge=-100, le=100
    )
    range_stat: str | None = param(
        None, "thrown or aimed: a stat added to the range (the long bow's FIT+7: Fitness)"
    )
    dodgeable: bool | None = param(
        None, "thrown or aimed: a slow missile that may be dodged (default: thrown yes, aimed no)"
    )
    attack: int = param(0, "melee: its attack modifier", ge=-_MOD, le=_MOD)
    parry: int = param(0, "melee: its parry modifier", ge=-_MOD, le=_MOD)
    stun: bool = param(False, "melee: a stunning attack (a level moves from wound to shock)")
    strength: bool | None = param(
        None, "a strength mod adds to its damage (default: melee and thrown yes, aimed no)"
    )
    replace: bool = param(False, "replace the setting's weapon of that name")


# ---------------------------------------------------------------------------
# reference look-ups (ARM 1.2, Scale, Rounds, Task Resolution, combat tables)


@dataclass(frozen=True)
class LogOf(Action):
    """The log of a measure (1342 -> 16)."""

    measure: str = param(doc="a positive measure, e.g. 1342 or 0.25")


@dataclass(frozen=True)
class MeasureOf(Action):
    """The measure of a log (-3 -> 0.25)."""

    log: int = param(doc="a log value")


@dataclass(frozen=True)
class Convert(Action):
    """A log converted between units by adding logs (per units reverse the sign)."""

    log: int = param(doc="the log value")
    source: str = param("m", "the unit it is in (m, ft/s, m/s/s, h ...)")
    target: str = param("m", "the unit wanted (ft, 1e6km/h/h, ft/round ...)")
    round_length: str | None = param(None, "the round length for round units (e.g. 3s)")


@dataclass(frozen=True)
class Difficulty(Action):
    """A difficulty from the text's guides: presets, the melee table, ranged, magic."""

    kind: Literal["preset", "modifier", "melee", "ranged", "soul", "spell"] = param(
        "preset", "which guide"
    )
    name: str | None = param(None, "preset, melee action, soul operation or spell")
    size: int = param(0, "the target's size: large +, small -", ge=-20, le=20)
    attack_result: int | None = param(None, "the attack's result (defences)", ge=-100, le=100)
    distance: int = param(0, "log distance (ranged)", ge=-100, le=100)
    moving: bool = param(False, "a moving target (ranged)")
    cover: int = param(0, "cover modifier (ranged)", ge=-_MOD, le=_MOD)
    weather: int = param(0, "weather modifier (ranged)", ge=-_MOD, le=_MOD)
    weapon: str | None = param(None, "ranged: a weapon or spell; refuses targets beyond range")
    fitness: int | None = param(None, "ranged: the shooter's Fitness (FIT+7 ranges)")


@dataclass(frozen=True)
class GroupLog(Action):
    """The combined log of people acting together (a function of their values only)."""

    logs: tuple[int, ...] = param(doc="each participant's stat + mods")
