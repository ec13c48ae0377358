"""Occult as a conflict action, Resist as its defence, and their exact odds."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import pytest

from referee.dice.brute import brute_force
from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction, RulesError
from referee.systems.mongrel import RULESET
from referee.systems.mongrel.conflict import (
    Attack,
    Conflict,
    Fighter,
    Occult,
    Recover,
    Rest,
    Task,
)
from referee.systems.mongrel.examples import example
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.sorcery import (
    net_effect,
    occult_attack,
    occult_hours,
    occult_modifier,
)

NO_DICE = ScriptedRoller([])


def _duel(first: str = "alwia", second: str = "vooruk") -> Conflict:
    """Alwia (Occult 1, Demon 4, Spirit 6, IR 6) against Vooruk (Resist 1, Demon 1, Spirit 3)."""
    fs = (Fighter.from_sheet(example(first)), Fighter.from_sheet(example(second)))
    return Conflict(fs, (first, second))


def _pool(faces: tuple[int, ...], tn: int, identity: int) -> tuple[bool, int]:
    """A roll-under check below TN 6 from first principles: dice at most the TN + Identity."""
    assert tn < 6  # no special case applies
    hits = sum(1 for f in faces if f <= tn)
    return hits > 0, hits + identity if hits else 0


# -- the rule function ---------------------------------------------------------


@pytest.mark.parametrize("mode", ["subtract", "cancel"])
@pytest.mark.parametrize(
    ("dice", "spirit", "resist", "rspirit", "scope"),
    [(1, 6, 1, 3, 0), (2, 4, 2, 5, 1), (3, 6, 0, 4, 2), (0, 5, 1, 6, 0), (2, 7, None, None, 3)],
)
def test_net_effect_odds_equal_brute_force(
    dice: int, spirit: int, resist: int | None, rspirit: int | None, scope: int, mode: str
) -> None:
    proc = occult_attack(
        dice, spirit, 3, resolve_spent=2, scope_modifier=scope, resist_dice=resist,
        resist_spirit=rspirit, resist_identity=1, resist_mode=mode,  # type: ignore[arg-type]
    )  # fmt: skip
    exact = proc.odds().map(lambda r: (r.success, r.effect))
    assert exact == brute_force(
        proc.groups, lambda f: (lambda r: (r.success, r.effect))(proc.apply(f))
    )


def test_net_effect_from_first_principles() -> None:
    """2 Occult dice under Spirit 5 (Demon 3, 3 Resolve) against 2 Resist under Spirit 4
    (Demon 1), enumerated by hand: subtract the Resist Effect, floor 0."""
    proc = occult_attack(2, 5, 3, 3, resist_dice=2, resist_spirit=4, resist_identity=1)
    counts: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=4):
        ok, eff = _pool(faces[:2], 5, 3)
        rok, reff = _pool(faces[2:], 4, 1)
        net = 0 if not ok else max(0, eff + 2 - (reff if rok else 0))
        counts[net] = counts.get(net, 0) + 1
        assert proc.apply(faces).effect == net
    assert proc.odds().map(lambda r: r.effect).weights() == counts


def test_resist_modes() -> None:
    faces = (2, 3)  # working 1 success, Resist 1 success
    sub = occult_attack(1, 6, 4, 3, resist_dice=1, resist_spirit=3, resist_identity=1)
    assert sub.apply(faces).effect == (1 + 4 + 2) - (1 + 1)
    cancel = occult_attack(
        1, 6, 4, 3, resist_dice=1, resist_spirit=3, resist_identity=1, resist_mode="cancel"
    )
    assert cancel.apply(faces).effect == 0 and cancel.apply(faces).success
    assert sub.apply((2, 5)).effect == 7  # a failed Resist takes nothing off
    with pytest.raises(RulesError, match="resist_mode"):
        net_effect(sub.apply(faces).working, None, "halve")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="resist_mode"):
        Options(resist_mode="halve")  # type: ignore[arg-type]


def test_zero_resist_is_the_zero_expertise_roll() -> None:
    proc = occult_attack(1, 6, 4, 1, resist_dice=0, resist_spirit=3, resist_identity=2)
    assert proc.groups == ((1, 6), (2, 6))
    r = proc.apply((1, 2, 3))
    assert r.resist is not None and r.resist.effect == 1  # no Identity on a zero-Expertise roll
    assert r.effect == 5 - 1


def test_hours_and_modifiers() -> None:
    assert occult_hours(3) == 3 and occult_hours(0) == 2  # one die rolled twice
    assert occult_modifier(2, 3, 1) == 6
    with pytest.raises(RulesError, match="range Modifier"):
        occult_modifier(5)
    proc = occult_attack(2, 6, 0, 1, scope_modifier=4)  # under 6 - 4 = 2
    assert proc.apply((2, 3)).working.successes == 1


# -- in a conflict -------------------------------------------------------------


def test_occult_attack_resisted_drains_resolve_and_collapses() -> None:
    c = _duel()
    a = Occult("alwia", resolve=3, target="vooruk", resist=True)
    after = c.apply(a, ScriptedRoller([2, 3]))
    al, vo = after.fighter("alwia").body, after.fighter("vooruk").body
    assert al.ir == 6 - 3 and al.ap == 6 - 1  # Resolve spent first; resisting forced 1 AP
    # Effect 1 + Demon 4 + 2 extra Resolve = 7, Resist 1 + Demon 1 = 2: net 5 of Vooruk's 3
    assert vo.ir == 0 and vo.collapsed and vo.ap == 0 and vo.ap_cap == 1
    assert after.hours == 1 and after.log[-1].hours == 1
    assert after.order == ("vooruk", "alwia")
    assert after.undo() is c
    # an AP maximum of 1 until Resolve refreshes
    rec = after.apply(Recover("vooruk"), NO_DICE).apply(Recover("alwia"), NO_DICE)
    assert rec.fighter("vooruk").body.ap == 1
    rested = rec.apply(Rest("vooruk"), NO_DICE)
    assert rested.fighter("vooruk").body.ap_cap is None and rested.hours == 2


def test_unresisted_occult_and_misses() -> None:
    c = _duel()
    hit = c.apply(Occult("alwia", resolve=1, target="vooruk"), ScriptedRoller([4]))
    assert hit.fighter("vooruk").body.ir == 0  # Effect 5 drains all 3 (floor 0)
    assert hit.fighter("alwia").body.ap == 6  # a hit costs no AP
    miss = c.apply(Occult("alwia", resolve=2, target="vooruk"), ScriptedRoller([6]))
    assert miss.fighter("alwia").body.ap == 5 and miss.fighter("alwia").body.ir == 4
    assert miss.fighter("vooruk").body.ir == 3
    assert "miss" in miss.log[-1].summary


def test_resist_without_ap_cost_and_cancel_mode() -> None:
    c = _duel()
    o = Options(resist_costs_ap=False, resist_mode="cancel")
    after = c.apply(Occult("alwia", target="vooruk", resist=True), ScriptedRoller([2, 3]), o)
    assert after.fighter("alwia").body.ap == 6 and after.fighter("vooruk").body.ap == 3
    assert after.fighter("vooruk").body.ir == 3  # cancelled


def test_occult_working_without_target_and_with_power_dice() -> None:
    c = _duel()
    w = c.apply(
        Occult("alwia", resolve=2, tn=3, mode="over", range_modifier=1), ScriptedRoller([5])
    )
    entry = w.log[-1]
    assert entry.result is not None and entry.result.effect == 1 + 4 + 1
    assert [m.value for m in entry.modifiers] == [1, 1]  # roll-over TN 3 + 1; +1 Effect
    # a failed working that attacks nobody is a failed task: no AP lost (only misses cost)
    failed = c.apply(Occult("alwia", tn=3, mode="over"), ScriptedRoller([2]))
    assert failed.log[-1].summary.endswith("failure")
    assert failed.fighter("alwia").body.ap == 6 and failed.fighter("alwia").body.ir == 5
    # a Power augmenting Occult adds dice - and hours
    p = c.apply(Occult("alwia", power="Wings"), ScriptedRoller([1, 2, 3]))
    assert p.hours == 3 and p.log[-1].faces == (1, 2, 3)


def test_occult_refusals() -> None:
    c = _duel()
    with pytest.raises(IllegalAction, match="Infernal Resolve"):
        c.apply(Occult("alwia", resolve=0, target="vooruk"), NO_DICE)
    with pytest.raises(IllegalAction, match="Infernal Resolve"):
        c.apply(Occult("alwia", resolve=7, target="vooruk"), NO_DICE)
    with pytest.raises(IllegalAction, match="only the target"):
        c.apply(Occult("alwia", resist=True), NO_DICE)
    with pytest.raises(IllegalAction, match="not next"):
        c.apply(Occult("vooruk", target="alwia"), NO_DICE)
    with pytest.raises(IllegalAction, match="occult action"):
        c.apply(Attack("alwia", "vooruk", "Occult"), NO_DICE)
    with pytest.raises(IllegalAction, match="occult action"):
        c.apply(Task("alwia", "Occult"), NO_DICE)
    with pytest.raises(IllegalAction, match="own attribute"):
        c.apply(Occult("alwia", target="vooruk", tn=3, mode="over"), NO_DICE)
    v = c.fighter("vooruk")
    down = c._put(replace(v, body=replace(v.body, collapsed=True, ap=0)))
    with pytest.raises(IllegalAction, match="cannot resist"):
        down.apply(Occult("alwia", target="vooruk", resist=True), NO_DICE)


def test_terminal_sorcerer_spending_the_last_resolve_dies() -> None:
    c = _duel()
    a = c.fighter("alwia")
    c = c._put(replace(a, body=replace(a.body, terminal=True)))
    after = c.apply(Occult("alwia", resolve=6, target="vooruk"), NO_DICE)
    assert after.fighter("alwia").body.dead and after.order == ("vooruk",)
    assert after.fighter("vooruk").body.ir == 3  # the working was never rolled


def test_terminal_target_drained_to_zero_dies() -> None:
    c = _duel()
    v = c.fighter("vooruk")
    c = c._put(replace(v, body=replace(v.body, terminal=True)))
    after = c.apply(Occult("alwia", target="vooruk"), ScriptedRoller([1]))
    assert after.fighter("vooruk").body.dead and "dies" in after.log[-1].summary


def test_ruleset_odds_and_outcome_agree_with_the_roll() -> None:
    c = _duel()
    a = Occult("alwia", resolve=2, target="vooruk", resist=True, scale_modifier=2)
    dist = RULESET.odds(a, c, Options())
    plan_groups = ((1, 6), (1, 6))
    assert dist == brute_force(
        plan_groups, lambda f: c.apply(a, ScriptedRoller(list(f))).log[-1].result
    )
    out = RULESET.resolve(a, c, ScriptedRoller([4, 2]), Options())
    assert out.details["hours"] == 1 and out.details["elapsed_hours"] == 1
    assert out.details["working"]["effect"] == 1 + 4 + 1
    assert out.details["resist"]["effect"] == 2 and out.result == 4
    assert out.modifiers[0].source.startswith("Occult over a large area")


def test_chill_is_defended_like_any_attack() -> None:
    c = _duel("giazza", "vooruk")  # Giazza: Chill 1, Man 5, Demon 0
    after = c.apply(Attack("giazza", "vooruk", "Chill", defend=True), ScriptedRoller([3]))
    g, v = after.fighter("giazza").body, after.fighter("vooruk").body
    assert g.ap == 4 - 1 and v.ap == 3 - 1  # both pay for the defence
    assert v.ir == 3 - 1  # over Vooruk's Spirit 3: Effect 1 + Demon 0
    with pytest.raises(IllegalAction, match="physical attacks"):
        c.apply(Attack("giazza", "vooruk", "Chill", weapon=1), NO_DICE)


def test_fatigue_counts_refreshes_per_hour() -> None:
    c = _duel("vooruk", "giazza")  # Vooruk: Physique 7, Giazza: Physique 6
    g = c.fighter("giazza")
    c = c._put(replace(g, refreshes=6, refresh_hour=0, body=replace(g.body, ap=2)))
    c = c.apply(Rest("vooruk", 1), NO_DICE)  # an hour passes for everyone
    assert c.hours == 1
    c = c.apply(Recover("vooruk"), NO_DICE)  # Vooruk at full AP: refresh does nothing new
    after = c.apply(Recover("giazza"), NO_DICE)
    assert after.fighter("giazza").body.ap == 3  # fatigued: a new hour does not help
    g2 = c.fighter("giazza")
    fresh = c._put(replace(g2, refreshes=5))
    after = fresh.apply(Recover("giazza"), NO_DICE)
    f = after.fighter("giazza")
    assert f.body.ap == 4 and f.refreshes == 1 and f.refresh_hour == 1  # a new hour's count


def test_no_resolve_no_working() -> None:
    c = _duel()
    a = c.fighter("alwia")
    c = c._put(replace(a, body=replace(a.body, ir=0)))
    with pytest.raises(IllegalAction, match="no Infernal Resolve left"):
        c.apply(Occult("alwia", target="vooruk"), NO_DICE)
