"""The one before/after helper (referee.systems.changes), as every wing uses it."""

from __future__ import annotations

from dataclasses import replace

from referee.systems.base import TABLE, Change, Decision, apply_changes, get
from referee.systems.changes import Changes, diff
from referee.systems.mneme.changes import Changes as MnemeChanges
from referee.systems.mnemonic.sheet import Status
from referee.systems.mongrel.scene import Scene
from referee.systems.mongrel.state import State as MongrelState


def _mongrel_table() -> MongrelState:
    mongrel = get("mongrel")
    options = mongrel.options_type()
    state = mongrel.initial_state(options)
    for cid in ("alwia", "vooruk"):
        state = mongrel.seat(state, cid, mongrel.examples()[cid], options)
    assert isinstance(state, MongrelState)
    return state


def test_diff_numbers_are_deltas_other_values_whole_and_nested_fields_last() -> None:
    state = _mongrel_table()
    before = state.character("alwia")
    raised = dict(before.sheet.expertise_raised)
    after = replace(
        before,
        ap=before.ap - 2,
        exhausted=True,
        sheet=replace(
            before.sheet,
            expertise_raised={**raised, "Rend": raised.get("Rend", 0) + 3},
            vow="Revenge",
        ),
    )
    changes = diff("alwia", before, after, "a test", into=("sheet",))
    assert [(c.field, c.delta, c.value) for c in changes] == [
        ("ap", -2, None),
        ("exhausted", None, True),
        ("sheet.vow", None, "Revenge"),
        ("sheet.expertise_raised.Rend", 3, None),
    ]
    assert all(c.target == "alwia" and c.reason == "a test" for c in changes)
    # folded back in, the changes give exactly the new seat
    assert apply_changes(state, changes).character("alwia") == after


def test_diff_of_a_part_at_its_path_and_nothing_for_equal_records() -> None:
    hurt = Status("Hurt", injuries=2)
    assert [str(c) for c in diff("ana", Status(), hurt, "cut", at="status")] == [
        "ana.status.condition = 'Hurt' (cut)",
        "ana.status.injuries +2 (cut)",
    ]
    assert diff("ana", hurt, Status("Hurt", injuries=2)) == []


def test_builder_puts_seats_waits_and_answers_decisions() -> None:
    state = _mongrel_table()
    built: Changes[MongrelState, object] = Changes(state)
    seat = built.get("vooruk")
    assert seat == state.character("vooruk")
    built.put("vooruk", replace(state.character("vooruk"), damage=4))
    ask = Decision("vooruk", "spend?", ("spend", "die"))
    built.wait_for(ask)
    built.table("hours", delta=1)
    out = built.build("hit")
    assert out == (
        Change(TABLE, "hours", delta=1),
        Change("vooruk", "damage", delta=4, reason="hit"),
        Change(
            TABLE,
            "pending",
            value=[
                {
                    "actor": "vooruk",
                    "prompt": "spend?",
                    "choices": ["spend", "die"],
                    "holds": "table",
                }
            ],
            reason="hit",
        ),
    )
    after = apply_changes(state, out)
    assert after.pending == (ask,) and after.hours == 1
    answering: Changes[MongrelState, object] = Changes(after)
    answering.answered("vooruk", "die")
    answering.answered("alwia", "die")  # owes nothing: no change
    assert answering.build("answered") == (Change(TABLE, "pending", value=[], reason="answered"),)


def test_mongrel_scene_adds_the_order_and_the_dead_leave_it() -> None:
    state = replace(_mongrel_table(), order=("alwia", "vooruk"))
    scene = Scene(state)
    scene.put("vooruk", replace(state.character("vooruk"), dead=True))
    scene.to_back("alwia")
    assert scene.changes("killed") == (
        Change("vooruk", "dead", value=True, reason="killed"),
        Change(TABLE, "order", value=["alwia"], reason="killed"),
    )


def test_mneme_builder_keeps_its_damage_clamp_and_one_conditions_change() -> None:
    mneme = get("mneme")
    options = mneme.options_type()
    state = mneme.seat(mneme.initial_state(options), "ada", mneme.examples()["ada"], options)
    built = MnemeChanges(state)
    assert built.damage("ada", -5, "healed") == 0  # never below 0
    assert built.damage("ada", 3, "cut") == 3
    built.add("ada", "Bleeding", "cut")
    built.add("ada", "Stunned", "blow")
    built.wait_for(Decision("ada", "roll to survive", ("survival",)))
    out = built.build()
    assert [str(c) for c in out] == [
        "ada.sheet.damage +3 (cut)",
        "table.pending = [{'actor': 'ada', 'prompt': 'roll to survive', 'choices': "
        "['survival'], 'holds': 'table'}] (decisions)",
        "ada.sheet.conditions = ['Bleeding', 'Stunned'] (+Bleeding: cut; +Stunned: blow)",
    ]
    assert built.sheet("ada").damage == 3
