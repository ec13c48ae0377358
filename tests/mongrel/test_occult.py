"""Occult as a conflict action, Resist as its defence, and their exact odds against an
independent reading of the text."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import product
from typing import Any

import pytest

from referee.dice.odds import Distribution
from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Action, Outcome, Procedure
from referee.systems.mongrel import RULESET
from referee.systems.mongrel import RULESET as MONGREL
from referee.systems.mongrel.actions import (
    Attack,
    Occult,
    OccultRoll,
    Recover,
    Rest,
    StartConflict,
    Task,
)
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.sorcery import (
    OccultResult,
    attack_parts,
    net_effect,
    occult_attack_procedure,
    occult_hours,
    occult_modifier,
)
from referee.systems.mongrel.state import State

OPTS = Options()


def occult_attack(
    *numbers: int, resist_mode: str = "subtract", **named: int | None
) -> Procedure[Any, OccultResult]:
    """An Occult attack from plain numbers (:func:`attack_parts`'s), resisted in
    ``resist_mode``."""
    return occult_attack_procedure(*attack_parts(*numbers, **named), resist_mode)  # type: ignore[arg-type]


# -- an independent reader, straight from the text ------------------------------------
#
# Task Resolution (the pool, the scoped special cases, zero Expertise) and Sorcery
# Expertise: at least 1 Infernal Resolve is spent before the roll and each point
# beyond the first adds +1 Effect; the working rolls under the sorcerer's Spirit made
# harder by the Modifiers; Resist (the product's ruling) rolls under the target's own
# Spirit with its Demon, and its Effect is subtracted from the working's (floor 0) or,
# under "cancel", any success negates it. No package rule function is used.


def text_pool(faces: tuple[int, ...], tn: int, identity: int) -> tuple[bool, int]:
    """A roll-under check of any size (0 dice: one die twice), read from the text."""
    n = len(faces)
    if tn >= 6 and 2 * faces.count(6) >= n:
        return False, 0
    hits = len([f for f in faces if f <= tn])
    return (True, hits + identity) if hits else (False, 0)


def text_check(faces: tuple[int, ...], dice: int, tn: int, identity: int) -> tuple[bool, int]:
    if dice == 0:
        return (True, 1) if all(text_pool((f,), tn, 0)[0] for f in faces) else (False, 0)
    return text_pool(faces, tn, identity)


def text_occult(
    faces: tuple[int, ...],
    dice: int,
    spirit: int,
    demon: int,
    resolve: int,
    scope: int,
    resist: tuple[int, int, int] | None,
    mode: str,
) -> tuple[bool, int]:
    """(the working succeeded, Infernal Resolve lost)."""
    n = dice or 2
    ok, effect = text_check(faces[:n], dice, spirit - scope, demon)
    if not ok:
        return False, 0
    effect += resolve - 1
    if resist is None:
        return True, effect
    rdice, rspirit, rdemon = resist
    rok, reffect = text_check(faces[n:], rdice, rspirit, rdemon)
    if not rok:
        return True, effect
    return True, 0 if mode == "cancel" else max(0, effect - reffect)


def text_occult_odds(
    dice: int,
    spirit: int,
    demon: int,
    resolve: int,
    scope: int,
    resist: tuple[int, int, int] | None,
    mode: str,
) -> Distribution[tuple[bool, int]]:
    rolled = (dice or 2) + (0 if resist is None else resist[0] or 2)
    return Distribution(
        Counter(
            text_occult(f, dice, spirit, demon, resolve, scope, resist, mode)
            for f in product(range(1, 7), repeat=rolled)
        )
    )


CASES = [
    (1, 6, 4, 3, 0, (1, 3, 1)),
    (2, 4, 3, 2, 1, (2, 5, 1)),
    (3, 6, 3, 1, 2, (0, 4, 2)),
    (0, 5, 2, 2, 0, (1, 6, 1)),
    (2, 7, 3, 2, 3, None),
    (2, 5, 4, 1, 0, (2, 4, 1)),
]


@pytest.mark.parametrize("mode", ["subtract", "cancel"])
@pytest.mark.parametrize(("dice", "spirit", "demon", "resolve", "scope", "resist"), CASES)
def test_occult_odds_agree_with_the_text(
    dice: int,
    spirit: int,
    demon: int,
    resolve: int,
    scope: int,
    resist: tuple[int, int, int] | None,
    mode: str,
) -> None:
    expected = text_occult_odds(dice, spirit, demon, resolve, scope, resist, mode)
    rdice, rspirit, rdemon = resist if resist is not None else (None, None, 0)
    proc = occult_attack(
        dice, spirit, demon, resolve, scope_modifier=scope, resist_dice=rdice,
        resist_spirit=rspirit, resist_identity=rdemon, resist_mode=mode,
    )  # fmt: skip
    assert proc.odds().map(lambda r: (r.success, r.effect)) == expected
    action = OccultRoll(
        dice, spirit, resolve, demon, scope, 0, 0, rdice, rspirit, rdemon, mode,  # type: ignore[arg-type]
    )  # fmt: skip
    odds = RULESET.odds(action, RULESET.initial_state(OPTS), OPTS)
    assert odds.map(lambda r: (r.success, r.effect)) == expected


def test_occult_in_a_conflict_agrees_with_the_text() -> None:
    """Alwia (Occult 1, Demon 4, Spirit 6) on Vooruk (Resist 1 under Spirit 3, Demon 1)."""
    action = Occult("alwia", resolve=3, target="vooruk", resist=True, range_modifier=1)
    for mode in ("subtract", "cancel"):
        opts = Options(resist_mode=mode)  # type: ignore[arg-type]
        odds = RULESET.odds(action, _duel(), opts).map(lambda r: (r.success, r.effect))
        assert odds == text_occult_odds(1, 6, 4, 3, 1, (1, 3, 1), mode)


# -- the rule function ---------------------------------------------------------------


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


# -- in a conflict ---------------------------------------------------------------------


def _duel(first: str = "alwia", second: str = "vooruk") -> State:
    """Alwia (Occult 1, Demon 4, Spirit 6, IR 6) against Vooruk (Resist 1, Demon 1, Spirit 3)."""
    state = RULESET.initial_state(OPTS)
    for cid in (first, second):
        state = RULESET.seat(state, cid, MONGREL.example(cid), OPTS)
    return replace(state, order=(first, second))


def _put(state: State, cid: str, **values: Any) -> State:
    f = replace(state.characters[cid], **values)
    return replace(state, characters={**state.characters, cid: f})


def _do(
    state: State, action: Action, faces: tuple[int, ...] = (), options: Options = OPTS
) -> tuple[Outcome, State]:
    roller = ScriptedRoller(list(faces))
    out = RULESET.resolve(action, state, roller, options)
    roller.assert_exhausted()
    return out, RULESET.apply(state, out)


def test_occult_attack_resisted_drains_resolve_and_collapses() -> None:
    a = Occult("alwia", resolve=3, target="vooruk", resist=True)
    out, after = _do(_duel(), a, (2, 3))
    al, vo = after.characters["alwia"], after.characters["vooruk"]
    assert al.ir == 6 - 3 and al.ap == 6 - 1  # Resolve spent first; resisting forced 1 AP
    # Effect 1 + Demon 4 + 2 extra Resolve = 7, Resist 1 + Demon 1 = 2: net 5 of Vooruk's 3
    assert vo.ir == 0 and vo.collapsed and vo.ap == 0 and vo.exhausted
    assert after.hours == 1 and out.details["hours"] == 1
    assert after.order == ("vooruk", "alwia")
    # an AP maximum of 1 until Resolve refreshes
    _, rec = _do(after, Recover("vooruk"))
    _, rec = _do(rec, Recover("alwia"))
    assert rec.characters["vooruk"].ap == 1
    _, rested = _do(rec, Rest("vooruk"))
    assert not rested.characters["vooruk"].exhausted and rested.hours == 2


def test_unresisted_occult_and_misses() -> None:
    _, hit = _do(_duel(), Occult("alwia", resolve=1, target="vooruk"), (4,))
    assert hit.characters["vooruk"].ir == 0  # Effect 5 drains all 3 (floor 0)
    assert hit.characters["alwia"].ap == 6  # a hit costs no AP
    out, miss = _do(_duel(), Occult("alwia", resolve=2, target="vooruk"), (6,))
    assert miss.characters["alwia"].ap == 5 and miss.characters["alwia"].ir == 4
    assert miss.characters["vooruk"].ir == 3
    assert "miss" in out.label


def test_resist_without_ap_cost_and_cancel_mode() -> None:
    o = Options(resist_costs_ap=False, resist_mode="cancel")
    _, after = _do(_duel(), Occult("alwia", target="vooruk", resist=True), (2, 3), o)
    assert after.characters["alwia"].ap == 6 and after.characters["vooruk"].ap == 3
    assert after.characters["vooruk"].ir == 3  # cancelled


def test_occult_working_without_target_and_with_power_dice() -> None:
    action = Occult("alwia", resolve=2, tn=3, mode="over", range_modifier=1)
    out, _ = _do(_duel(), action, (5,))
    assert out.details["working"]["effect"] == 1 + 4 + 1  # type: ignore[index]
    assert [m.value for m in out.modifiers] == [1, 1]  # roll-over TN 3 + 1; +1 Effect
    # a failed working that attacks nobody is a failed task: no AP lost (only misses cost)
    failed, after = _do(_duel(), Occult("alwia", tn=3, mode="over"), (2,))
    assert failed.label.endswith("failure")
    assert after.characters["alwia"].ap == 6 and after.characters["alwia"].ir == 5
    # a Power augmenting Occult adds dice - and hours
    p, after = _do(_duel(), Occult("alwia", power="Wings"), (1, 2, 3))
    assert after.hours == 3 and [d.face for d in p.faces] == [1, 2, 3]


def test_occult_refusals() -> None:
    c = _duel()
    for action, message in (
        (Occult("alwia", resolve=7, target="vooruk"), "Infernal Resolve"),
        (Occult("alwia", resist=True), "only the target"),
        (Occult("vooruk", target="alwia"), "not next"),
        (Attack("alwia", "vooruk", "Occult"), "occult action"),
        (Task("alwia", "Occult"), "occult action"),
        (Occult("alwia", target="vooruk", tn=3, mode="over"), "own attribute"),
    ):
        with pytest.raises(IllegalAction, match=message):
            RULESET.odds(action, c, OPTS)
    with pytest.raises(IllegalAction, match="at least 1 Infernal Resolve"):
        Occult("alwia", resolve=0, target="vooruk")
    down = _put(c, "vooruk", collapsed=True, ap=0)
    with pytest.raises(IllegalAction, match="Vooruk is collapsed and cannot defend"):
        RULESET.odds(Occult("alwia", target="vooruk", resist=True), down, OPTS)


def test_terminal_sorcerer_spending_the_last_resolve_dies() -> None:
    c = _put(_duel(), "alwia", terminal=True)
    out, after = _do(c, Occult("alwia", resolve=6, target="vooruk"))
    assert after.characters["alwia"].dead and after.order == ("vooruk",)
    assert after.characters["vooruk"].ir == 3  # the working was never rolled
    assert out.faces == () and "dies" in out.label


def test_terminal_target_drained_to_zero_dies() -> None:
    c = _put(_duel(), "vooruk", terminal=True)
    out, after = _do(c, Occult("alwia", target="vooruk"), (1,))
    assert after.characters["vooruk"].dead and "dies" in out.label


def test_ruleset_outcome_details() -> None:
    a = Occult("alwia", resolve=2, target="vooruk", resist=True, scale_modifier=2)
    out = RULESET.resolve(a, _duel(), ScriptedRoller([4, 2]), OPTS)
    assert out.details["hours"] == 1 and out.details["elapsed_hours"] == 1
    assert out.record("working")["effect"] == 1 + 4 + 1
    assert out.record("resist")["effect"] == 2 and out.result == 4
    assert out.modifiers[0].source.startswith("Occult over a large area")


def test_chill_is_defended_like_any_attack() -> None:
    c = _duel("giazza", "vooruk")  # Giazza: Chill 1, Man 5, Demon 0
    _, after = _do(c, Attack("giazza", "vooruk", "Chill", defend=True), (3,))
    g, v = after.characters["giazza"], after.characters["vooruk"]
    assert g.ap == 4 - 1 and v.ap == 3 - 1  # both pay for the defence
    assert v.ir == 3 - 1  # over Vooruk's Spirit 3: Effect 1 + Demon 0
    with pytest.raises(IllegalAction, match="physical attacks"):
        RULESET.odds(Attack("giazza", "vooruk", "Chill", weapon=1), c, OPTS)


def test_fatigue_counts_refreshes_per_hour() -> None:
    c = _put(_duel("vooruk", "giazza"), "giazza", refreshes=6, refresh_hour=0, ap=2)
    _, c = _do(c, Rest("vooruk", 1))  # an hour passes for everyone
    assert c.hours == 1
    _, c = _do(c, Recover("vooruk"))  # Vooruk at full AP: refresh does nothing new
    _, after = _do(c, Recover("giazza"))
    assert after.characters["giazza"].ap == 3  # fatigued: a new hour does not help
    fresh = _put(c, "giazza", refreshes=5)
    _, after = _do(fresh, Recover("giazza"))
    f = after.characters["giazza"]
    assert f.ap == 4 and f.refreshes == 1 and f.refresh_hour == 1  # a new hour's count


def test_no_resolve_no_working() -> None:
    c = _put(_duel(), "alwia", ir=0)
    with pytest.raises(IllegalAction, match="no Infernal Resolve left"):
        RULESET.odds(Occult("alwia", target="vooruk"), c, OPTS)


def test_a_working_outside_a_conflict_needs_no_turn() -> None:
    state = replace(_duel(), order=())
    out, after = _do(state, Occult("vooruk"), (2, 2))  # Vooruk has no Occult: 1 die twice
    assert out.success and out.result == 1 and after.hours == 2
    started = _do(state, StartConflict())[1]
    assert started.order == ("vooruk", "alwia")


def test_the_net_effect_alone_equals_the_attacks_net_effect() -> None:
    """net_effect_odds combines each check's results; occult_attack combines their
    statistics: the net Effect must be the same distribution, resisted or not."""
    from referee.systems.mongrel.sorcery import net_effect_odds

    for dice, spirit, identity, spent in ((6, 6, 4, 3), (3, 4, 2, 1), (2, 5, 0, 2)):
        for resist in (None, (4, 4, 2), (1, 6, 1)):
            for mode in ("subtract", "cancel"):
                more = (
                    {}
                    if resist is None
                    else dict(
                        resist_dice=resist[0], resist_spirit=resist[1], resist_identity=resist[2]
                    )
                )
                whole = occult_attack(dice, spirit, identity, spent, resist_mode=mode, **more)
                parts = attack_parts(dice, spirit, identity, spent, **more)
                alone = net_effect_odds(*parts, mode)
                assert alone == whole.odds().map(lambda r: r.effect), (dice, resist, mode)
