"""How Mneme CE reads at a table (ch. 2, Task Resolution: two dice against a difficulty,
the Effect; ch. 7, Threats: an adversary strikes back on the Fail Effect; ch. 6, Damage
and Healing): the shape every game's ``words.py`` has (:mod:`referee.systems.words`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import ClassVar, Final

from referee.systems.outcome import JSONValue
from referee.systems.words import FieldWords, OutcomeWords, Words


class MnemeWords(Words):
    """Mneme CE's voice."""

    glossary: ClassVar[Mapping[str, str]] = {
        "check": "two dice plus modifiers against a difficulty",
        "Effect": "the check's total less the difficulty: 0 and up succeeds",
        "Fail Effect": "how far a failed check fell short; an adversary strikes back with it",
        "strike back": "an adversary's attack made on a character's failed check",
        "round": "six seconds; ten make a minute",
        "initiative": "the order in which characters act in an encounter",
    }
    fields: ClassVar[Mapping[str, FieldWords]] = {
        "sheet.damage": FieldWords(
            "damage",
            up="{who} takes {n} damage",
            down="{who} heals {n} damage",
            to="{who}'s damage is now {value}",
        ),
        "sheet.characteristic_damage": FieldWords(
            "characteristic damage", to="{who}'s characteristic damage: {value}"
        ),
        "sheet.conditions": FieldWords(
            "conditions", to="{who} is now {value}", cleared="{who} has no condition any more"
        ),
        "sheet.healing_progress": FieldWords(
            "healing progress", to="{who}'s healing progress is {value}"
        ),
        "sheet.stabilised_minutes": FieldWords(
            "minute stabilised",
            many="minutes stabilised",
            up="{who} stays stabilised {count} more",
            to="{who} has been stabilised {value} minutes",
            cleared="{who} is no longer stabilised",
        ),
        "sheet.exhaustion": FieldWords("exhaustion", to="{who}'s exhaustion is {value}"),
        "sheet.therapy_days": FieldWords("day of therapy", many="days of therapy"),
        "activity": FieldWords("activity", to="{who}'s activity is now {value}"),
        "care": FieldWords("care", to="{who} is under {value} care", cleared="{who} has no care"),
        "supervised": FieldWords(
            "supervision", to="{who} is supervised", cleared="{who} is not supervised"
        ),
        "therapy": FieldWords(
            "therapy", to="{who} takes therapy for {value}", cleared="{who} takes no therapy"
        ),
        "minute_rounds": FieldWords(
            "round of this minute",
            to="{who} is at round {value} of the minute",
            cleared="{who} starts a new minute",
        ),
        "minor_left": FieldWords(
            "Minor action",
            many="Minor actions",
            down="{who} spends {count}",
            up="{who} gets {count} back",
            to="{who} has {value} Minor actions left",
            cleared="{who} has no Minor action left",
        ),
        "free_taken": FieldWords(
            "free action",
            many="free actions",
            up="{who} takes {count}",
            cleared="{who} has taken no free action this round",
        ),
        "initiative": FieldWords(
            "initiative",
            to="{who} acts at initiative {value}",
            cleared="{who} has no initiative",
        ),
        "aim": FieldWords(
            "Aim",
            up="{who} aims: +{n} Aim",
            down="{who} loses {n} Aim",
            cleared="{who}'s aim is lost",
        ),
        "massive_before": FieldWords(
            "damage before the blow",
            to="{who} had {value} damage before the blow",
            cleared="{who}'s last blow is settled",
        ),
        "table.clock": FieldWords(
            "round",
            many="rounds",
            up="the clock advances {count} ({n} × 6 seconds)",
            to="the clock reads {value} rounds",
            cleared="the clock is reset",
        ),
        "table.round": FieldWords(
            "round",
            up="the next round of the encounter begins",
            to="round {value} of the encounter",
            cleared="the encounter's rounds end",
        ),
        "table.order": FieldWords(
            "order", to="the order of action: {value}", cleared="the order of action is cleared"
        ),
    }
    actions: ClassVar[Mapping[str, str]] = {
        "check": "{actor} makes a check",
        "attack": "{actor} attacks {target} with {weapon}",
        "take-damage": "{actor} takes damage",
        "damage-rolls": "{attacker} rolls damage against {target}",
        "survival": "{actor} rolls to survive",
        "first-aid": "{actor} gives {patient} first aid",
        "surgery": "{actor} operates on {patient}",
        "stimulant": "{actor} gives {patient} a stimulant",
        "care": "The care load",
        "set-care": "{actor}'s care is set",
        "pass-time": "Time passes",
        "pass-rounds": "Rounds pass",
        "initiative": "Initiative for the encounter",
        "end-encounter": "The encounter ends",
        "spend-action": "{actor} spends an action",
        "aim": "{actor} aims",
        "psionics": "{actor} uses a psionic power",
        "roll": "Rolled {dice}",
    }

    def outcome(
        self,
        outcome: Mapping[str, JSONValue],
        action: str = "",
        fields: Mapping[str, JSONValue] | None = None,
    ) -> OutcomeWords:
        """As the base, with a new order of action said as the text says it: "Ada acts
        first (10), then Tess (7)" (ch. 7, Initiative) instead of one line per seat."""
        said = super().outcome(outcome, action, fields)
        raw = outcome.get("changes")
        changes = [c for c in (raw if isinstance(raw, list) else []) if isinstance(c, Mapping)]
        order = next(
            (
                c.get("value")
                for c in changes
                if (c.get("target"), c.get("field")) == ("table", "order")
            ),
            None,
        )
        scores = {
            str(c.get("target")): c.get("value")
            for c in changes
            if c.get("field") == "initiative" and isinstance(c.get("value"), int)
        }
        if not isinstance(order, list) or not order or not scores:
            return said

        def one(cid: JSONValue) -> str:
            score = scores.get(str(cid))
            return f"{self.names(cid)} ({score})" if score is not None else self.names(cid)

        ranked = [
            " and ".join(one(c) for c in group) if isinstance(group, list) else one(group)
            for group in order
        ]
        line = f"{ranked[0]} acts first" + (f", then {', '.join(ranked[1:])}" if ranked[1:] else "")
        dropped = {
            self.change(c)
            for c in changes
            if c.get("field") == "initiative" and c.get("value") is not None
        }
        dropped |= {self.change(c) for c in changes if c.get("field") == "order"}
        kept = tuple(c for c in said.changes if c not in dropped)
        return replace(said, changes=(line, *kept))

    def roles(
        self, outcome: Mapping[str, JSONValue], sizes: Sequence[int]
    ) -> list[str | tuple[str, ...]]:
        """A check's first roll is its two dice (ch. 2); after it, the weapon's damage
        dice on a hit, or the adversary's strike back on a failure (ch. 7)."""
        details = outcome.get("details")
        d = details if isinstance(details, Mapping) else {}
        action = str(outcome.get("action") or "")
        if action == "initiative":
            return ["initiative"] * len(sizes)
        if "difficulty" not in d:
            damage = action in ("take-damage", "damage-rolls")
            return ["damage" if damage else "dice"] * len(sizes)
        later = "strike-back" if "incoming" in d else "damage"
        return ["check", *([later] * (len(sizes) - 1))]

    def numbers(self, outcome: Mapping[str, JSONValue]) -> tuple[str, ...]:
        """ "roll 7, modifier +1 against difficulty 8: Effect -0"."""
        details = outcome.get("details")
        d = details if isinstance(details, Mapping) else {}
        effect = d.get("effect")
        if "roll" not in d or not isinstance(effect, int):
            more = self._more(d)
            return more if more else super().numbers(outcome)
        mod = d.get("modifier", 0)
        dice = f"Dice Roll {d['dice']} {mod:+d} = " if isinstance(mod, int) else ""
        out = [
            f"{dice}Dice Result {d['roll']} against difficulty {d.get('difficulty')}: "
            f"Effect {effect:+d}"
        ]
        if d.get("damage_dealt") is not None:
            out.append(f"{d['damage_dealt']} damage dealt")
        incoming = d.get("incoming")
        if isinstance(incoming, Mapping) and incoming.get("damage") is not None:
            out.append(f"the strike back deals {incoming['damage']} damage")
        return (*out, *self._more(d))

    def _more(self, d: Mapping[str, JSONValue]) -> tuple[str, ...]:
        """What else an outcome's details tell (ch. 2, ch. 7): modifiers not stacked, the
        condition presets, the Mitigating Factors' steps, the time a task took, the damage
        rolls as dealt (those not kept in brackets), Bleeding, massive damage, the
        condition left, each patient's care."""
        out: list[str] = []

        def listed(key: str) -> list[JSONValue]:
            v = d.get(key)
            return v if isinstance(v, list) else []

        if listed("dropped_modifiers"):
            out.append("not stacked: " + ", ".join(map(self.value, listed("dropped_modifiers"))))
        if listed("conditions"):
            out.append("conditions: " + ", ".join(map(self.value, listed("conditions"))))
        if listed("mitigation"):
            out.append("Fail Effect mitigated: " + " -> ".join(map(str, listed("mitigation"))))
        if d.get("time") is not None:
            out.append(f"it takes {d['time']} (median {d.get('median_time')})")
        for key in ("cover_rolls", "damage_rolls"):
            rolls = d.get(key)
            if isinstance(rolls, Mapping) and isinstance(rolls.get("dealt"), list):
                kept = rolls.get("kept")
                flags = kept if isinstance(kept, list) else []
                shown = ", ".join(
                    str(x) if i >= len(flags) or flags[i] else f"({x})"
                    for i, x in enumerate(rolls["dealt"])  # type: ignore[arg-type]
                )
                if key == "damage_rolls":
                    out.append(f"damage rolls after armour {shown}")
                else:
                    gone = " (destroyed)" if d.get("cover_destroyed") else ""
                    out.append(f"the cover takes {shown}: {d.get('cover_damage')} damage{gone}")
        if d.get("bleeding"):
            out.append("Bleeding: one roll reached the Seriously Wounded threshold")
        massive = d.get("massive_roll")
        if isinstance(massive, Mapping):
            out.append(
                f"massive damage: End {massive.get('roll')} against {massive.get('difficulty')}"
                f": {massive.get('result')}"
            )
        elif d.get("massive_damage"):
            out.append("massive damage: an End roll at 8 is due")
        if isinstance(d.get("condition"), str) and "roll" not in d:
            out.append(f"condition now {d['condition']}")
        per = d.get("characters")  # time passing: what it did to each character
        for cid, one in per.items() if isinstance(per, Mapping) else ():
            notes = one.get("notes") if isinstance(one, Mapping) else None
            for note in notes if isinstance(notes, list) else []:
                out.append(f"{self.names(cid)}: {self.names.say(str(note))}")
        for group in listed("rerolls"):  # Initiative ties rolled again (the table's ties)
            rolled = [
                r for r in (group if isinstance(group, list) else []) if isinstance(r, Mapping)
            ]
            if rolled:
                said = ", ".join(
                    f"{self.value(r.get('name'))} {r.get('initiative')}" for r in rolled
                )
                out.append(f"tie reroll: {said}")
        for r in listed("patients"):
            if isinstance(r, Mapping):
                out.append(f"{r.get('condition')}: {r.get('care')} care")
        if isinstance(d.get("supervision"), str):
            out.append(str(d["supervision"]))
        if isinstance(d.get("minutes"), int):
            harm = d.get("harm")
            out.append(
                f"{d['minutes']} minutes" + (f"; {harm} damage to the patient" if harm else "")
            )
        return tuple(out)


WORDS: Final = MnemeWords()
"""Mneme CE's words (:meth:`~referee.systems.base.Ruleset.words`)."""
