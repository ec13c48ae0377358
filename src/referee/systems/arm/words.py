"""How ARM reads at a table (ARM 1.2: Task Resolution, Pushing, Combat (Melee), Damage):
a check is a plus die less a minus die added to the total, a push adds dice, damage
moves the wound and shock levels. The shape every game's ``words.py`` has
(:mod:`referee.systems.words`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from referee.systems.outcome import JSONValue
from referee.systems.words import FieldWords, Words


class ArmWords(Words):
    """ARM's voice."""

    glossary: ClassVar[Mapping[str, str]] = {
        "plus die": "the d6 added to the total",
        "minus die": "the d6 taken from the total",
        "result": "the total less the difficulty: 0 and up is a success, by the ladder",
        "push": "extra dice taken for a better result, at the cost of a level of shock",
        "wound": "the wound level, Unharmed to Dead",
        "shock": "the shock level, Unharmed to Unconscious",
        "round": "one action for every character, in the order the referee calls",
    }
    fields: ClassVar[Mapping[str, FieldWords]] = {
        "wound": FieldWords(
            "wound level",
            up="{who}'s wound level rises by {n}",
            down="{who}'s wound level falls by {n}",
            to="{who}'s wound level is now {value}",
        ),
        "shock": FieldWords(
            "shock level",
            up="{who}'s shock level rises by {n}",
            down="{who}'s shock level falls by {n}",
            to="{who}'s shock level is now {value}",
        ),
        "destroyed": FieldWords(
            "destroyed", to="{who} is destroyed", cleared="{who} is no longer destroyed"
        ),
        "wounds": FieldWords(
            "named wounds", to="{who}'s named wounds: {value}", cleared="{who} has no named wound"
        ),
        "acted": FieldWords(
            "actions", to="{who} has acted this round ({value})", cleared="{who} may act again"
        ),
        "prepared": FieldWords(
            "prepared defence",
            to="{who} is prepared to defend",
            cleared="{who} is no longer prepared",
        ),
        "weakness": FieldWords(
            "weakness",
            to="{who} knows {value}'s weakness (+1 to attack them)",
            cleared="{who}'s found weakness is spent",
        ),
        "found": FieldWords(
            "weakness found",
            to="{who} finds {value}'s weakness (for next round)",
            cleared="{who} has no weakness found this round",
        ),
        "penalty": FieldWords(
            "modifier this round",
            up="{who} gains +{n} to every action this round",
            down="{who} takes -{n} to every action this round",
            cleared="{who}'s modifier this round is gone",
        ),
        "next_penalty": FieldWords(
            "modifier next round",
            up="{who} gains +{n} to every action next round",
            down="{who} takes -{n} to every action next round",
            cleared="{who}'s modifier next round is gone",
        ),
        "readied": FieldWords(
            "readied spell", to="{who} holds {value} ready", cleared="{who} holds nothing ready"
        ),
        "held": FieldWords(
            "held roll",
            to="{who}'s roll ({value}) waits for the push decision",
            cleared="{who}'s held roll is settled",
        ),
        "table.held": FieldWords(
            "held roll",
            to="a roll ({value}) waits for its push decision",
            cleared="the held roll is settled",
        ),
        "table.attacks": FieldWords(
            "attacks", to="waiting: {value}", cleared="no attack waits any more"
        ),
        "table.round": FieldWords(
            "round",
            up="the next round begins",
            to="the round is now {value}",
            cleared="the action sequence ends",
        ),
        "table.round_length": FieldWords("length of a round", to="a round now lasts {value}"),
        "table.ranged": FieldWords("ranged weapons", to="the setting's ranged weapons: {value}"),
        "table.melee": FieldWords("melee weapons", to="the setting's melee weapons: {value}"),
        "chp": FieldWords("character points", many="character points"),
    }
    actions: ClassVar[Mapping[str, str]] = {
        "task": "{actor} attempts a task",
        "contest": "{actor} contests with {opponent}",
        "subtasks": "{actor} works through subtasks",
        "group-task": "{actor} leads a group task with {helpers}",
        "prepare": "{actor} prepares to defend",
        "circle": "{actor} circles {target}",
        "attack": "{actor} attacks {target}",
        "defend": "{actor} defends against {against}",
        "take-blow": "{actor} takes the blow from {against}",
        "strike": "{actor}'s blow lands on {target}",
        "shoot": "{actor} shoots at {target}",
        "damage": "{actor} deals damage to {target}",
        "move": "{actor} moves",
        "cast": "{actor} casts a spell",
        "soul-magic": "{actor} works soul magic",
        "push": "{actor} pushes the roll",
        "accept": "{actor} accepts the roll",
        "next-round": "A new round",
        "end-combat": "The action sequence ends",
        "lose-action": "{target} loses this round's action",
        "impose-penalty": "The referee rules a modifier for {target}",
        "take-damage": "{target} takes damage",
        "recover": "{target} recovers",
        "record-wound": "{target} is wounded",
        "remove-wound": "One of {target}'s wounds heals",
        "add-weapon": "The referee adds a weapon to the setting",
        "log-of": "The log of a measure",
        "measure-of": "The measure of a log",
        "convert": "A conversion",
        "difficulty": "A difficulty",
        "group-log": "A group's log",
        "roll": "Rolled {dice}",
    }
    choices: ClassVar[Mapping[str, str]] = {
        "take-blow": "take the blow",
        "defend": "defend",
        "push": "push",
        "accept": "accept the roll",
    }

    def roles(
        self, outcome: Mapping[str, JSONValue], sizes: Sequence[int]
    ) -> list[str | tuple[str, ...]]:
        """A check's first roll is the plus die then the minus die (ARM 1.2, Task
        Resolution); any later roll is a push's dice."""
        details = outcome.get("details")
        d = details if isinstance(details, Mapping) else {}
        if "plus" not in d and "push" in d and sizes:  # a pushed move: the push die alone
            return ["push"] * len(sizes)
        if "plus" not in d or not sizes:
            return super().roles(outcome, sizes)
        first: str | tuple[str, ...] = ("plus", "minus", *(("push",) * max(0, sizes[0] - 2)))
        return [first, *(["push"] * (len(sizes) - 1))]

    def numbers(self, outcome: Mapping[str, JSONValue]) -> tuple[str, ...]:
        """ "8 + 3 - 5 = 6 against difficulty 4: result +2": the stat and mods, the plus die
        less the minus die (and a push), against the difficulty (ARM 1.2, Task Resolution)."""
        details = outcome.get("details")
        d = details if isinstance(details, Mapping) else {}
        result, target = outcome.get("result"), outcome.get("target")
        label = f" {outcome.get('label')}"
        if "plus" not in d and "pushed_rate" in d:  # a pushed move (ARM 1.2, Pushing)
            cost = d.get("shock_cost")
            paid = f"the push costs {cost} shock" if cost else "the push costs no shock"
            rate, moved = d.get("rate"), d["pushed_rate"]
            gain = f"pushed to {moved}" if moved != rate else "not raised by the push"
            return (f"rate {rate} {gain}; {paid}",)
        if "plus" not in d and isinstance(result, int) and f"{result:+d}" in label:
            return ()  # a look-up whose label says its result ("modifier +2")
        if "plus" not in d and f" {result}" in label:
            return ()  # a look-up whose label says its result ("log 16")
        if "plus" not in d or not isinstance(result, int):
            return super().numbers(outcome)
        push = f" + {d['push_bonus']} (push)" if d.get("push_bonus") else ""
        base = d.get("base", d.get("attack"))
        start = f"{base} " if isinstance(base, int) else ""
        sum_ = f"{start}+ {d['plus']} - {d['minus']}{push} = {d.get('total')}"
        if "wound_margin" in d:  # a blow: against Toughness, then each armour (ARM 1.2, Damage)
            blow = (
                f"{sum_} against Toughness {target}: margin {d.get('margin')}; after armour, "
                f"wound side {d['wound_margin']}, shock side {d['shock_margin']}"
            )
            hurt = d.get("target_id")
            now = f"{self.names(hurt)} is now {d['condition']}" if d.get("condition") else ""
            return (blow, now[:1].upper() + now[1:]) if now else (blow,)
        against = "" if target is None else f" against difficulty {target}"
        return (f"{sum_}{against}: result {result:+d}",)


WORDS: Final = ArmWords()
"""ARM's words (:meth:`~referee.systems.base.Ruleset.words`)."""
