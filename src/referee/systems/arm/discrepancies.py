"""Where the ARM 1.2 text disagrees with itself, and what the package does about it.

Each entry is reported by ``referee arm notes`` and on the docs page; the
worked-example tests assert both readings where the numbers differ.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.systems.building import ExampleInfo, ExampleNote


@dataclass(frozen=True)
class Discrepancy:
    """One disagreement inside the text: where, the two readings, the ruling."""

    key: str
    where: str
    text: str
    other: str
    ruling: str

    @property
    def line(self) -> str:
        """The discrepancy in one line: where, the two readings, the ruling."""
        return f"{self.key} ({self.where}): {self.text} / {self.other} -> {self.ruling}"


DISCREPANCIES: tuple[Discrepancy, ...] = (
    Discrepancy(
        "axe-damage",
        "Combat (Melee) example, round 3",
        "weapon table and Brad's sheet: Axe (90cm) damage value 8",
        "narrative: 'the damage value of his axe (7)', total 13",
        "the example test uses 7 as the narrative does; with 8 the blow is 14: wound still "
        "Moderate, but shock Fainting and Alex ends Unconscious (also tested)",
    ),
    Discrepancy(
        "brad-willpower",
        "Combat (Melee) example, round 2",
        "Brad's stats: Willpower 7",
        "narrative: 'Subtracting Brad's Willpower of 6', result 2",
        "the example test uses 6; with 7 Alex's result is 1, still a success (also tested)",
    ),
    Discrepancy(
        "alex-sword",
        "Combat (Melee) example, character table",
        "weapon table: Sword (100cm) 7 damage / -1 attack / -1 parry (150cm: 8 / -2 / -2)",
        "Alex's sheet: Sword (6D/0A/-1P), matching neither",
        "Alex's premade keeps his sheet's own values; the example never uses them",
    ),
    Discrepancy(
        "christine-roll-name",
        "Combat (Melee) example, round 2",
        "Alex rolls against Christine's Willpower",
        "narrative: 'Brad gets a failing result of -1'",
        "the roll is Alex's; the result -1 is reproduced",
    ),
    Discrepancy(
        "prepared-dodge",
        "Combat (Ranged)",
        "melee table: prepared defence 2 + the attack's result; ranged says dodging is the same",
        "ranged text: 'the base difficulty is 4 (6 if the defense is prepared)'",
        "option ranged_prepared_dodge, default 2 (the melee table the text refers to)",
    ),
    Discrepancy(
        "armour-columns",
        "Damage / Combat (Melee) armour table",
        "armour table columns: Normal and Stun",
        "example sheets: 4N/2S used as wound armour and shock armour",
        "Normal = wound armour, Stun = shock armour, as the example uses them",
    ),
    Discrepancy(
        "log-step-one",
        "Scale, measure of a log, step 1",
        "the multiple of five 'closest to, but less than' the log",
        "its example takes 10 for the logs 10 to 15",
        "the multiple of five at or below the log; both readings give the same measure",
    ),
    Discrepancy(
        "group-helpers",
        "Task Resolution, group efforts",
        "the shortcut: 'add the log of the number of other helpers' to one person's stat+mod",
        "the sum of measures it stands for: a pair at 6 is 15 + 15 = 30, log 7 by the chart "
        "(8 by the exact formula); 'other helpers' gives the pair 6 + log 1 = 6",
        "option group_count, default 'total' (6 + log 2 = 8, as RULINGS.md); option "
        "group_method 'sum' always adds the measures; the shortcut raises the lowest log, so "
        "the order people are named in never matters",
    ),
)


NOTED: dict[str, tuple[str, ...]] = {
    "alex": ("alex-sword", "armour-columns"),
    "brad": ("brad-willpower", "axe-damage", "christine-roll-name"),
    "christine": ("armour-columns", "christine-roll-name"),
}
"""The text's discrepancies (above) that touch each premade."""


def example_info() -> dict[str, ExampleInfo]:
    """Where the premades come from and the discrepancies that touch them; the
    validator finds none of these in their sheets (each note explains)."""
    by_key = {d.key: d for d in DISCREPANCIES}
    return {
        name: ExampleInfo(
            True,
            "ARM 1.2: Combat (Melee), the example's character table",
            tuple(
                ExampleNote(
                    f"{by_key[k].where}: {by_key[k].text}; {by_key[k].other}. "
                    f"Ruling: {by_key[k].ruling}."
                )
                for k in keys
            ),
        )
        for name, keys in NOTED.items()
    }
