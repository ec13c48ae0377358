"""How Mnemonic reads at a table (Checks: a randomizer against the Aptitude, Successes
and Failures; Conflict and Injury: the status ladder): the shape every game's
``words.py`` has (:mod:`referee.systems.words`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from referee.systems.outcome import JSONValue
from referee.systems.words import FieldWords, Words


class MnemonicWords(Words):
    """Mnemonic's voice."""

    glossary: ClassVar[Mapping[str, str]] = {
        "randomizer": "the d12 (or a card drawn) read against the Aptitude",
        "Aptitude": "what a check is made against, from the talents and roles",
        "Successes": "how far the randomizer came under the Aptitude",
        "Failures": "how far it went over",
        "status": "Fine, Hurt, or inactive, after injury checks",
    }
    fields: ClassVar[Mapping[str, FieldWords]] = {
        "status.condition": FieldWords("condition", to="{who} is {value}"),
        "status.injuries": FieldWords(
            "injury",
            many="injuries",
            up="{who} takes {count}",
            down="{who} recovers from {count}",
            cleared="{who} has no injury",
        ),
        "status.inactive_as": FieldWords(
            "inactive", to="{who} is out of action ({value})", cleared="{who} is back in action"
        ),
        "table.deck": FieldWords("deck", to="the deck is now {value}"),
        "table.order": FieldWords(
            "order", to="the order of action: {value}", cleared="the order of action is cleared"
        ),
    }
    actions: ClassVar[Mapping[str, str]] = {
        "check": "A check",
        "sheet-check": "{actor} makes a {talent} check",
        "attack": "{actor} attacks {target}",
        "injury": "{victim}'s injury check",
        "agile-order": "Agile checks for the order of action",
        "order": "The order of action",
        "reshuffle": "The deck is reshuffled",
        "set-status": "The referee sets {target}'s status",
        "roll": "Rolled {dice}",
    }

    def roles(
        self, outcome: Mapping[str, JSONValue], sizes: Sequence[int]
    ) -> list[str | tuple[str, ...]]:
        """A check's die is its randomizer (Checks)."""
        details = outcome.get("details")
        d = details if isinstance(details, Mapping) else {}
        if "randomizer" in d:
            return ["randomizer"] * len(sizes)
        return super().roles(outcome, sizes)

    def numbers(self, outcome: Mapping[str, JSONValue]) -> tuple[str, ...]:
        """ "randomizer 4 against Aptitude 7"."""
        details = outcome.get("details")
        d = details if isinstance(details, Mapping) else {}
        if "aptitude" not in d:
            return super().numbers(outcome)
        chances = d.get("chances")
        extra = f", chances {chances:+d}" if isinstance(chances, int) and chances else ""
        return (f"randomizer {d.get('value')} against Aptitude {d['aptitude']}{extra}",)


WORDS: Final = MnemonicWords()
"""Mnemonic's words (:meth:`~referee.systems.base.Ruleset.words`)."""
