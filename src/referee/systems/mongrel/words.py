"""How Mongrel reads at a table (Task Resolution: dice under an attribute, Effect;
Conflict: Action Points; Sorcery: Infernal Resolve; Damage): the shape every game's
``words.py`` has (:mod:`referee.systems.words`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from referee.systems.outcome import JSONValue
from referee.systems.words import FieldWords, Words, plural


class MongrelWords(Words):
    """Mongrel's voice."""

    glossary: ClassVar[Mapping[str, str]] = {
        "AP": "Action Points, spent to act in a conflict and refreshed",
        "Effect": "how many dice came under the attribute, past the first",
        "Infernal Resolve": "a sorcerer's reserve, spent on Occult workings",
        "expertise": "how many dice a task rolls",
        "Credit": "what a character can buy with",
    }
    fields: ClassVar[Mapping[str, FieldWords]] = {
        "ap": FieldWords("AP", down="{who} spends {n} AP", up="{who} gains {n} AP"),
        "approvals": FieldWords(
            "approvals",
            to="{who}'s sheet records the referee's approvals",
            cleared="{who}'s sheet records no approval",
        ),
        "ir": FieldWords(
            "Infernal Resolve",
            down="{who} loses {n} Infernal Resolve",
            up="{who} regains {n} Infernal Resolve",
        ),
        "damage": FieldWords(
            "damage", up="{who} takes {n} damage", down="{who} recovers from {n} damage"
        ),
        "physique_loss": FieldWords(
            "Physique", up="{who} loses {n} Physique", down="{who} regains {n} Physique"
        ),
        "beauty_loss": FieldWords(
            "Beauty", up="{who} loses {n} Beauty", down="{who} regains {n} Beauty"
        ),
        "beauty_permanent": FieldWords(
            "Beauty lost for good", up="{who} loses {n} Beauty for good"
        ),
        "exhausted": FieldWords(
            "exhausted", to="{who} is exhausted", cleared="{who} is no longer exhausted"
        ),
        "collapsed": FieldWords(
            "collapsed", to="{who} collapses", cleared="{who} is back on their feet"
        ),
        "terminal": FieldWords("terminal", to="{who} is dying", cleared="{who} is no longer dying"),
        "dead": FieldWords("dead", to="{who} is dead", cleared="{who} lives"),
        "refreshes": FieldWords(
            "refresh",
            many="refreshes",
            up="{who}'s Action Points refresh",
            down="{who}'s count of refreshes starts again",
        ),
        "refresh_hour": FieldWords(
            "hour of the last refresh",
            many="hours",
            up="{who}'s last refresh moves {n} hour(s) on",
            down="{who}'s last refresh moves {n} hour(s) back",
            to="{who} last refreshed at hour {value}",
        ),
        "sheet.character_points": FieldWords(
            "character point",
            many="character points",
            up="{who} gains {count}",
            down="{who} spends {count}",
        ),
        "sheet.credit": FieldWords(
            "Credit", up="{who} gains {n} Credit", down="{who} spends {n} Credit"
        ),
        "table.order": FieldWords(
            "order", to="the order of action: {value}", cleared="the conflict's order is cleared"
        ),
        "table.hours": FieldWords(
            "hour", many="hours", up="time advances {count}", down="time goes back {count}"
        ),
    }
    actions: ClassVar[Mapping[str, str]] = {
        "check": "A check",
        "task": "{actor} attempts a task with {expertise}",
        "start-conflict": "A conflict begins",
        "end-conflict": "The conflict ends",
        "advance": "{actor} advances",
        "attack": "{actor} attacks {target} with {expertise}",
        "occult": "{actor} works the Occult",
        "recover": "{actor} recovers",
        "wait": "{actor} waits",
        "spend-resolve": "{actor} spends Infernal Resolve",
        "take-damage": "{victim} takes damage",
        "spend-resolve-to-survive": "{actor} spends Infernal Resolve to survive",
        "accept-fate": "{actor} accepts their fate",
        "rest": "{actor} rests",
        "vow-refresh": "{actor}'s Vow refreshes",
        "occult-roll": "An Occult working",
        "buy": "{actor} buys",
        "buy-roll": "A purchase roll",
        "sacrifice-credit": "{actor} sacrifices Credit",
        "decline-purchase": "{actor} declines the purchase",
        "transfer-credit": "{actor} transfers Credit",
        "award-points": "{target} is awarded character points",
        "raise-expertise": "{actor} raises an expertise",
        "raise-identity": "{actor} raises their identity",
        "raise-attribute": "{actor} raises an attribute",
        "approve-sheet": "The referee approves {target}'s sheet",
        "roll": "Rolled {dice}",
    }

    def label(self, outcome: Mapping[str, JSONValue]) -> str:
        """The label without the dice it repeats ("Vooruk Rend 6d6 over 6 [6, 1]: hit" reads
        "hit": the dice are listed by role), a change "0->5" as "0 to 5"."""
        text = super().label(outcome)
        text = re.sub(r"^[^:]*\[[\d, ]*\]:\s*", "", text)
        return re.sub(r"\s*->\s*", " to ", text)

    def roles(
        self, outcome: Mapping[str, JSONValue], sizes: Sequence[int]
    ) -> list[str | tuple[str, ...]]:
        """A task's dice are its check (Task Resolution); an Occult working's second roll
        is the resistance against it (Sorcery)."""
        details = outcome.get("details")
        d = details if isinstance(details, Mapping) else {}
        action = str(outcome.get("action") or "")
        if action == "roll":
            return super().roles(outcome, sizes)
        if action == "buy-roll" or "credit" in d:
            return ["purchase"] * len(sizes)
        later = "resistance" if d.get("resist") else "check"
        return ["check", *([later] * (len(sizes) - 1))]

    def numbers(self, outcome: Mapping[str, JSONValue]) -> tuple[str, ...]:
        """ "target 3, rolled under: Effect 1" (Task Resolution)."""
        details = outcome.get("details")
        d = details if isinstance(details, Mapping) else {}
        target, result = outcome.get("target"), outcome.get("result")
        left = d.get("left_open")
        if isinstance(left, int):  # the referee's approval (Character Creation)
            return (f"{plural(left, 'problem')} left open",)
        if target is None or not isinstance(result, int):
            return super().numbers(outcome)
        how = "over" if d.get("mode") == "over" else "under"
        n = d.get("successes")
        count = (
            f", {n} {'die succeeds' if n == 1 else 'dice succeed'}" if isinstance(n, int) else ""
        )
        return (f"target {target}, rolled {how}{count}: Effect {result}",)


WORDS: Final = MongrelWords()
"""Mongrel's words (:meth:`~referee.systems.base.Ruleset.words`)."""


ATTRIBUTE_NAMES = ("size", "spirit", "physique", "beauty", "speed", "social")
STEP_HEADINGS: Final[Mapping[str, str]] = {
    "identity": " (Man, Beast, Demon)",
    "size_spirit": " (Size, Spirit)",
    "physique_beauty": " (Physique, Beauty)",
    "speed_social": " (Speed, Social)",
    **{f"lower_{a}": " (voluntarily lower by; 0 keeps it)" for a in ATTRIBUTE_NAMES},
    "step2": " (+3 each, +1 to the rest of their Areas)",
    "step3": " (+2 each)",
    "step4": " (+1 each)",
}
"""What each step of the character builder (:mod:`.builder`) asks, after its name."""


def step_prompt(step: str, options: Sequence[object]) -> str:
    """A step of the character builder and its choices, numbered from 1."""
    listed = "".join(f"\n  {i}. {o}" for i, o in enumerate(options, 1))
    return f"{step}{STEP_HEADINGS.get(step, '')}:{listed}"
