"""Physical and spiritual damage (Mongrel, Physical damage; Sorcery Expertise and spiritual damage).

The Size/Physique track as RULINGS.md reads it: damage is cumulative; the
first Size points fill the Size row; every hit landing past Size costs one
extra Action Point and, while the damage is within the Wound Threshold
(Size + Physique), lowers Physique by 1; past the Wound Threshold the
character collapses (AP to 0). Damage of 3 × Size + Physique or more, or any
hit on a collapsed character, is terminal: 1 Infernal Resolve avoids death
(full AP recovery), but a terminal character dies when Infernal Resolve
reaches 0. Weapons add to Effect, armour subtracts from it first; damage
may be shunted to Beauty, one point of each shunt being permanent.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.errors import IllegalAction

from .options import Options


@dataclass(frozen=True)
class Body:
    """What damage changes: the track's numbers, AP, Infernal Resolve and the stages."""

    size: int
    physique: int
    beauty: int
    ap: int
    ap_max: int
    ir: int
    ir_max: int
    damage: int = 0
    physique_loss: int = 0
    beauty_loss: int = 0
    beauty_permanent: int = 0
    ap_cap: int | None = None
    collapsed: bool = False
    terminal: bool = False
    dead: bool = False

    @property
    def current_physique(self) -> int:
        """Physique after damage (used for target numbers)."""
        return max(0, self.physique - self.physique_loss)

    @property
    def current_beauty(self) -> int:
        """Beauty after shunted damage."""
        return max(0, self.beauty - self.beauty_loss)

    @property
    def rushed(self) -> bool:
        """AP 1: rushed, slightly off-balance (no game penalty; Complex task resolution)."""
        return self.ap == 1

    @property
    def discombobulated(self) -> bool:
        """AP 0: discombobulated, stressed and fatigued (no game penalty)."""
        return self.ap == 0

    @property
    def condition(self) -> str:
        """The most serious stage the character is in, as a word ('' when none)."""
        for word in ("dead", "terminal", "collapsed", "discombobulated", "rushed"):
            if getattr(self, word):
                return word
        return ""

    @property
    def effective_ap_max(self) -> int:
        """The AP maximum, capped at 1 while Infernal Resolve is exhausted."""
        return self.ap_max if self.ap_cap is None else min(self.ap_max, self.ap_cap)

    def wound_threshold(self, options: Options) -> int:
        """Size + Physique: damage beyond it collapses."""
        phys = self.current_physique if options.physique_shrinks_track else self.physique
        return self.size + phys

    def terminal_at(self, options: Options) -> int:
        """3 × Size + Physique: damage at or beyond it is terminal."""
        phys = self.current_physique if options.physique_shrinks_track else self.physique
        return 3 * self.size + phys


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


def take_damage(body: Body, hit: Hit, options: Options, spend_resolve: bool = True) -> Body:
    """Apply one physical hit to the track; returns the new body (RULINGS, damage track)."""
    if body.dead:
        raise IllegalAction("the character is dead")
    effect = final_effect(hit)
    shunt = hit.shunt_to_beauty
    if shunt > effect:
        raise IllegalAction(f"cannot shunt {shunt} points of a {effect}-point hit")
    if shunt > body.current_beauty:
        raise IllegalAction(f"cannot shunt {shunt} points to Beauty {body.current_beauty}")
    out = body
    if shunt:
        out = replace(
            out,
            beauty_loss=out.beauty_loss + shunt,
            beauty_permanent=out.beauty_permanent + 1,
        )
    points = effect - shunt
    if points <= 0:
        return out
    terminal = out.collapsed
    before = out.damage
    after = before + points
    ap = out.ap
    physique_loss = out.physique_loss
    collapsed = out.collapsed
    if after > out.size and (not options.ap_loss_once or before <= out.size):
        ap = max(0, ap - 1)
    if after > out.size:
        if after <= out.wound_threshold(options):
            physique_loss += 1
        else:
            collapsed = True
            ap = 0
    out = replace(out, damage=after, ap=ap, physique_loss=physique_loss, collapsed=collapsed)
    if after >= out.terminal_at(options):
        terminal = True
    if terminal:
        out = replace(out, terminal=True)
        return survive_terminal(out) if spend_resolve else replace(out, dead=True)
    return out


def survive_terminal(body: Body) -> Body:
    """Spend 1 Infernal Resolve against death: full AP, still terminal; 0 Resolve is death."""
    if body.ir < 1:
        return replace(body, dead=True)
    ir = body.ir - 1
    if ir == 0:
        return replace(body, ir=0, dead=True)
    return replace(body, ir=ir, ap=body.effective_ap_max, collapsed=False)


def lose_resolve(body: Body, points: int) -> Body:
    """A Chill or Occult hit drains Infernal Resolve; at 0 the character collapses, AP max 1."""
    if points < 0:
        raise IllegalAction("a drain cannot be negative")
    ir = max(0, body.ir - points)
    out = replace(body, ir=ir)
    if ir == 0 and points > 0:
        out = replace(out, ap=0, collapsed=True, ap_cap=1, dead=out.terminal)
    return out


def spend_resolve(body: Body, points: int, options: Options, gain_ap: bool) -> Body:
    """Spend Infernal Resolve: for AP 1:1 (``gain_ap``) or to fuel an Occult working.

    Spending the last point collapses the character like a drain to 0 when
    ``zero_ir_collapse_on_spend`` is set; a terminal character whose Resolve
    reaches 0 dies either way (Mongrel, Physical damage; RULINGS).
    """
    if points < 1 or points > body.ir:
        raise IllegalAction(f"can spend 1..{body.ir} Infernal Resolve, not {points}")
    b = replace(body, ir=body.ir - points)
    if gain_ap:
        b = replace(b, ap=b.ap + points, collapsed=False)
    if b.ir == 0 and options.zero_ir_collapse_on_spend:
        return lose_resolve(replace(b, ir=1), 1)
    if b.ir == 0 and b.terminal:
        return replace(b, dead=True)
    return b
