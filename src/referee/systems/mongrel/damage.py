"""Physical and spiritual damage on a seated character (Mongrel, Physical damage;
Sorcery Expertise and spiritual damage).

The Size/Physique track as RULINGS.md reads it: damage is cumulative; the
first Size points fill the Size row; every hit landing past Size costs one
extra Action Point and, while the damage past Size is at most Physique, lowers
Physique by 1 "for purposes of the Size/Physique table and also for
target-numbers" (so by default the lowered Physique also moves the Wound
Threshold and the terminal point: Giazza, Size 4 Physique 6, hit for 5, 3 and
2 collapses). Past the Wound Threshold (Size + Physique) the character
collapses (AP to 0). Damage of 3 × Size + Physique or more, or any hit on a
collapsed character, is terminal: the player *may* expend 1 Infernal Resolve
to avoid dying (:func:`survive`, full AP recovery, still terminal) - a choice
the conflict offers as a pending decision - and a terminal character dies when
Infernal Resolve reaches 0. Weapons add to Effect, armour subtracts from it
first; damage may be shunted to Beauty, one point of each shunt permanent.

Every function is pure: a :class:`~.state.Seat` in, a new one out.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import IllegalAction
from referee.systems.state import replaced as replace  # dataclasses.replace, quicker

from .options import Options
from .state import Seat

RULE_ZERO_RESOLVE = (
    "Mongrel, Sorcery Expertise and spiritual damage: 'If Infernal Resolve hits 0, then "
    "the character collapses, losing all remaining Action Points and with an imposed "
    "Action Point maximum of 1.'"
)
"""The rule that collapses a character whose Infernal Resolve reaches 0, cited in outcomes."""

RULE_TERMINAL = (
    "Mongrel, Physical damage: 'When a character takes terminal damage, he or she may "
    "expend one point of Infernal Resolve to avoid dying ... if Infernal Resolve is "
    "reduced to 0, the character will die.'"
)
"""The terminal-damage rule, cited in outcomes."""


@dataclass(frozen=True)
class Hit:
    """One hit's inputs: the attack's Effect, the weapon's bonus, armour, points shunted."""

    effect: int
    weapon: int = 0
    armor: int = 0
    shunt_to_beauty: int = 0


def final_effect(hit: Hit) -> int:
    """Effect after armour (lowers the initial Effect) and weapon (raises it), never below 0."""
    if min(hit.effect, hit.weapon, hit.armor, hit.shunt_to_beauty) < 0:
        raise IllegalAction("Effect, weapon, armour and shunted points cannot be negative")
    return max(0, hit.effect - hit.armor + hit.weapon)


def track_physique(f: Seat, options: Options) -> int:
    """The Physique the track uses: after damage (the text), or the sheet's (option off)."""
    return f.physique if options.physique_shrinks_track else f.base_physique


def wound_threshold(f: Seat, options: Options) -> int:
    """Size + Physique: damage beyond it collapses."""
    return f.size + track_physique(f, options)


def terminal_at(f: Seat, options: Options) -> int:
    """3 × Size + Physique: damage at or beyond it is terminal (Ahvia: 9)."""
    return 3 * f.size + track_physique(f, options)


def take_damage(f: Seat, hit: Hit, options: Options) -> tuple[Seat, bool]:
    """One physical hit on the track: the fighter after it and whether the hit was terminal.

    A terminal hit marks the fighter terminal and leaves the rest to the
    player's choice (:func:`survive` or :func:`die`); see :func:`can_survive`.
    """
    if f.dead:
        raise IllegalAction(f"{f.name} is dead")
    effect = final_effect(hit)
    shunt = hit.shunt_to_beauty
    if shunt > effect:
        raise IllegalAction(f"cannot shunt {shunt} points of a {effect}-point hit")
    if shunt > f.beauty:
        raise IllegalAction(f"cannot shunt {shunt} points to Beauty {f.beauty}")
    out = f
    if shunt:
        out = replace(
            out,
            beauty_loss=out.beauty_loss + shunt,
            beauty_permanent=out.beauty_permanent + 1,
        )
    points = effect - shunt
    if points <= 0:
        return out, False
    terminal = out.collapsed  # any Effect on a collapsed character is terminal
    before, after = out.damage, out.damage + points
    ap, loss, collapsed = out.ap, out.physique_loss, out.collapsed
    if after > out.size and (not options.ap_loss_once or before <= out.size):
        ap = max(0, ap - 1)
    if after > out.size:
        if after <= wound_threshold(out, options):
            loss += 1
        else:
            collapsed, ap = True, 0
    out = replace(out, damage=after, ap=ap, physique_loss=loss, collapsed=collapsed)
    if after >= terminal_at(out, options):
        terminal = True
    if terminal:
        out = replace(out, terminal=True)
    return out, terminal


def can_survive(f: Seat) -> bool:
    """Whether expending 1 Infernal Resolve can save the character from a terminal hit:
    only with 2 or more, since Resolve reduced to 0 kills a terminal character."""
    return f.ir >= 2 and not f.dead


def survive(f: Seat) -> Seat:
    """Expend 1 Infernal Resolve against death: full AP recovery, still terminal."""
    if not can_survive(f):
        raise IllegalAction(
            f"{f.name} has {f.ir} Infernal Resolve: expending 1 would reach 0, which kills "
            "a terminal character"
        )
    return replace(f, ir=f.ir - 1, ap=max(f.ap, f.effective_ap_max), collapsed=False)


def die(f: Seat) -> Seat:
    """The character dies."""
    return replace(f, dead=True, terminal=True)


def lose_resolve(f: Seat, points: int) -> Seat:
    """A Chill or Occult hit drains Infernal Resolve; at 0 the character collapses with an
    AP maximum of 1, and a terminal character dies."""
    if points < 0:
        raise IllegalAction("a drain cannot be negative")
    ir = max(0, f.ir - points)
    out = replace(f, ir=ir)
    if ir == 0 and points > 0:
        out = replace(out, ap=0, collapsed=True, exhausted=True, dead=out.terminal or out.dead)
    return out


def spend_resolve(f: Seat, points: int, options: Options, gain_ap: bool) -> Seat:
    """Spend Infernal Resolve: for AP 1:1 (``gain_ap``) or to fuel an Occult working.

    Spending the last point collapses the character like a drain to 0 when
    ``zero_ir_collapse_on_spend`` is set (:data:`RULE_ZERO_RESOLVE` names no
    cause); a terminal character whose Resolve reaches 0 dies either way.
    """
    if points < 1 or points > f.ir:
        raise IllegalAction(f"{f.name} can spend 1..{f.ir} Infernal Resolve, not {points}")
    out = replace(f, ir=f.ir - points)
    if gain_ap:
        out = replace(out, ap=out.ap + points, collapsed=False)
    if out.ir == 0 and options.zero_ir_collapse_on_spend:
        return lose_resolve(replace(out, ir=1), 1)
    if out.ir == 0 and out.terminal:
        return replace(out, dead=True)
    return out


def refresh_resolve(f: Seat) -> Seat:
    """Infernal Resolve back to its full value; the AP maximum is lifted."""
    return replace(f, ir=f.ir_max, exhausted=False)
