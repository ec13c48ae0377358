"""Chat commands read from the action declarations (issue 34, item 2): each game's lines,
and the errors that name what is wrong and where."""

from __future__ import annotations

from typing import Any

import pytest

from referee.systems.base import get
from referee.table.commands import CommandError, Spec, command_names, complete, parse


def _spec(game: str, actor: str | None = None, referee: bool = False) -> Spec:
    rules = get(game)
    examples = rules.examples()
    characters = {cid: str(sheet.name) for cid, sheet in examples.items()}
    from referee.web.views import action_forms, field_suggestions

    own = rules.dump_sheet(examples[actor]) if actor else None
    others = [rules.dump_sheet(s) for s in examples.values()]
    names = field_suggestions(action_forms(rules), own, others)
    return Spec(characters, actor, referee, names)


def _read(game: str, line: str, actor: str | None = None, referee: bool = False) -> Any:
    return parse(line, get(game), _spec(game, actor, referee))


# ---------------------------------------------------------------------------
# dice


@pytest.mark.parametrize("game", ["mnemonic", "mongrel", "mneme", "arm"])
def test_dice_commands_roll_the_tray_in_each_visibility(game: str) -> None:
    r = _read(game, "/r 4d6kh3 strength score")
    assert (r.action, r.fields, r.visibility) == (
        "roll",
        {"dice": "4d6kh3", "label": "strength score"},
        "public",
    )
    assert _read(game, "/roll 2d6").fields == {"dice": "2d6"}
    # /gr: the referee's eyes (a player's roll goes to them and the referee)
    assert _read(game, "/gr 2d6").visibility == "private"
    assert _read(game, "/gr 2d6", referee=True).visibility == "referee"
    # /br: blind for a player; a referee's is secret (a referee never rolls blind)
    assert _read(game, "/br d20").visibility == "blind"
    assert _read(game, "/BR d20", referee=True).visibility == "referee"


def test_a_dice_command_without_dice_says_what_to_write() -> None:
    with pytest.raises(CommandError, match=r"/r what\? write the dice after it"):
        _read("arm", "/r")


# ---------------------------------------------------------------------------
# each game's actions


def test_arm_task_and_melee() -> None:
    r = _read("arm", "/task Fitness 6", actor="alex")
    assert (r.action, r.fields) == ("task", {"actor": "alex", "stat": "Fitness", "difficulty": 6})
    assert r.visibility is None  # the table's default
    assert [(f, v) for f, v in r.reading] == [("stat", "Fitness"), ("difficulty", "6")]
    # a name from the sheet in any case; a character by id or name
    r = _read("arm", "/attack brad sword", actor="alex")
    assert r.fields == {"actor": "alex", "target": "brad", "weapon": "Sword"}
    assert _read("arm", "/attack Brad", actor="alex").fields["target"] == "brad"
    r = _read("arm", "/defend alex parry counter", actor="brad")
    assert r.fields == {"actor": "brad", "against": "alex", "how": "parry", "counter": True}
    # field=value, a nested list as comma-separated words
    r = _read("arm", "/task Wit difficulty=8 push=never", actor="alex")
    assert r.fields == {"actor": "alex", "stat": "Wit", "difficulty": 8, "push": "never"}


def test_mnemonic_success_check_with_a_talent() -> None:
    r = _read("mnemonic", "/sheet-check Agile", actor="boxer")
    assert (r.action, r.fields) == ("sheet-check", {"actor": "boxer", "talent": "Agile"})
    # a Life Role of two words without quotes; a choice by its word
    r = _read("mnemonic", "/sheet-check Tough Professional Boxer lucky", actor="boxer")
    assert r.fields == {
        "actor": "boxer",
        "talent": "Tough",
        "life_role": "Professional Boxer",
        "fallback": "lucky",
    }


def test_mongrel_task_and_attack() -> None:
    r = _read("mongrel", "/task Rend physique 4", actor="vooruk")
    assert r.fields == {"actor": "vooruk", "expertise": "Rend", "attribute": "physique", "tn": 4}
    r = _read("mongrel", "/attack giazza diabolic power", actor="vooruk")
    assert r.fields == {"actor": "vooruk", "target": "giazza", "expertise": "Diabolic Power"}


def test_mneme_check_and_attack() -> None:
    r = _read("mneme", "/check Dex Gun Combat 10", actor="ada")
    assert r.fields == {
        "actor": "ada",
        "characteristic": "Dex",
        "skill": "Gun Combat",
        "difficulty": 10,
    }
    r = _read("mneme", '/attack raider "Automatic Rifle"', actor="ada")
    assert r.fields == {"actor": "ada", "target": "raider", "weapon": "Automatic Rifle"}
    # a nested record's field by its dotted name
    r = _read("mneme", "/attack raider Broadsword check.skill=Melee", actor="ada")
    assert r.fields["check"] == {"skill": "Melee"}


def test_a_referee_names_the_actor_with_the_first_character() -> None:
    r = _read("arm", "/attack brad alex", referee=True)
    assert r.fields == {"actor": "brad", "target": "alex"}
    r = _read("arm", "/attack actor=christine brad", referee=True)
    assert r.fields == {"actor": "christine", "target": "brad"}


def test_a_player_types_only_a_characters_actions() -> None:
    names = [n for n, _ in command_names(get("mongrel"), referee=False)]
    assert "attack" in names and "start-conflict" not in names
    assert "start-conflict" in [n for n, _ in command_names(get("mongrel"), referee=True)]
    with pytest.raises(CommandError, match=r"/start-conflict: no such command"):
        _read("mongrel", "/start-conflict", actor="vooruk")


# ---------------------------------------------------------------------------
# errors: what is wrong, and where


def test_an_unknown_command_lists_the_ones_there_are() -> None:
    with pytest.raises(CommandError) as e:
        _read("arm", "/atack brad", actor="alex")
    assert "/atack: no such command at this table; did you mean /attack?" in str(e.value)
    assert (e.value.word, e.value.column) == (1, 1)


def test_a_word_no_field_takes_is_named_with_its_place() -> None:
    with pytest.raises(CommandError) as e:
        _read("arm", "/task Fitness zzz", actor="alex")
    assert str(e.value).startswith("word 3 (zzz): no field of /task left takes it")
    assert "stat (one of Fitness" in str(e.value)
    assert e.value.word == 3 and e.value.column == len("/task Fitness ")


def test_a_bad_value_and_an_unknown_field_are_named() -> None:
    with pytest.raises(
        CommandError, match=r"word 2 \(difficulty=hard\): difficulty: 'hard' is not a whole number"
    ):
        _read("arm", "/task difficulty=hard", actor="alex")
    with pytest.raises(CommandError, match=r"word 2 \(speed=3\): speed: unknown field"):
        _read("arm", "/task speed=3", actor="alex")


def test_an_open_quote_and_a_missing_actor_are_said_in_words() -> None:
    with pytest.raises(CommandError, match=r"a quote left open"):
        _read("arm", '/attack "brad', actor="alex")
    with pytest.raises(CommandError, match=r"/task: who acts\? add actor=NAME"):
        _read("arm", "/task Fitness", referee=True)
    with pytest.raises(CommandError, match=r"a command starts with /"):
        _read("arm", "task Fitness")
    with pytest.raises(CommandError, match=r"at most 1000 characters"):
        _read("arm", "/r " + "d6+" * 400)


# ---------------------------------------------------------------------------
# completion


def test_completion_offers_commands_then_what_the_fields_take() -> None:
    rules, spec = get("arm"), _spec("arm", "alex")
    start, options = complete("/at", rules, spec)
    assert start == 0 and [o.value for o in options] == ["/attack"]
    start, options = complete("/attack b", rules, spec)
    assert start == len("/attack ")
    assert [(o.value, o.label) for o in options] == [("Brad", "target"), ("berserk", "style")]
    # a field already given is not offered again
    _, options = complete("/attack brad s", rules, spec)
    assert [(o.value, o.label) for o in options] == [
        ("style=", "set style"),
        ("size=", "set size"),
        ("Sword", "weapon"),
    ]
    assert complete("hello", rules, spec) == (0, [])
    assert complete("/attack brad ", rules, spec) == (len("/attack brad "), [])
