"""Mneme CE's guided character builder (:mod:`referee.systems.building`).

The seeds are chapters 2 and 7 of the rulebook; its creation chapter is not
among them. The form asks what those chapters (and the companion facts the
product keeps) use: the characteristics Str, Dex, End (physical), Int, Edu,
Soc and the optional Psi, each usually 2 to 15 (ch. 2, Characteristic
Modifier); skills at levels 0 to 3 (ch. 2, Skills); and the weapons, armour
and protection of ch. 7 (Damage, Armor and Scale; Fail Effect and Damage to
Protection). The text sets no point budget, so the form has none: its limits
are these ranges, and HP (Str + Dex + End, ch. 7) is shown as it follows.
"""

from __future__ import annotations

from typing import Any

from referee.systems import building
from referee.systems.building import Field, Section, choices, listing, named
from referee.systems.mneme.sheet import RULE_CHAR, RULE_COVER, RULE_EQUIP, RULE_SKILL
from referee.systems.mneme.tables import CHARACTERISTICS, OPTIONAL_CHARACTERISTICS, PHYSICAL, SCALES
from referee.systems.outcome import JSONObject, JSONValue

LOW: int = 2
HIGH: int = 15
"""A characteristic's usual range (companion facts, ch. 2)."""
SKILL_HIGH: int = 3
"""The highest skill level the form offers (ch. 2, Skills: levels 0-3)."""
MAX_ITEMS: int = 12
"""Most skills, weapons or armour rows the form takes."""

_SCALES = choices(
    tuple(SCALES), {"": "personal", "D": "D (x10)", "H": "H (x100)", "K": "K (x1000)"}
)
_SCALE = Field(
    "scale", "Scale", "choice", choices=_SCALES, default="", required=False, rule=RULE_EQUIP
)
"""A weapon's or armour's scale (ch. 7, Armor Scale)."""


def _char(c: str, *, optional: bool = False) -> Field:
    return Field(
        f"char.{c}",
        c,
        "number",
        low=LOW,
        high=HIGH,
        default=None if optional else 7,
        required=not optional,
        help="optional: leave empty for no Psi" if optional else "",
        sheet=f"characteristics.{c}",
        rule=RULE_CHAR,
    )


class MnemeForm(building.GameBuilder):
    """Characteristics, skills, and gear."""

    def spec(self, options: Any) -> building.BuilderSpec:
        """The form (the same under every house rule)."""
        name = named("name", "Name", sheet="name", rule=RULE_CHAR)
        chars = Section(
            "characteristics",
            "Characteristics",
            (
                name,
                *(_char(c) for c in CHARACTERISTICS),
                *(_char(c, optional=True) for c in OPTIONAL_CHARACTERISTICS),
            ),
            help=f"Each usually {LOW} to {HIGH}; the modifier (ChM) is value / 3 - 2, "
            "rounded down. HP = Str + Dex + End.",
            rule=RULE_CHAR,
        )
        skills = Section(
            "skills",
            "Skills",
            (
                listing(
                    "skills",
                    "Skills",
                    MAX_ITEMS,
                    (
                        named("skill", "Skill", rule=RULE_SKILL),
                        Field(
                            "level",
                            "Level",
                            "number",
                            low=0,
                            high=SKILL_HIGH,
                            default=0,
                            rule=RULE_SKILL,
                        ),
                    ),
                    rule=RULE_SKILL,
                    help="a skill adds its level to Competence; without it a roll is unskilled",
                ),
            ),
            rule=RULE_SKILL,
        )
        gear = Section(
            "gear",
            "Weapons and armour",
            (
                listing(
                    "weapons",
                    "Weapons",
                    MAX_ITEMS,
                    (
                        named("name", "Weapon", rule=RULE_EQUIP),
                        Field(
                            "damage",
                            "Damage (dice, e.g. 3d6-2)",
                            "text",
                            low=1,
                            high=40,
                            rule=RULE_EQUIP,
                        ),
                        Field(
                            "rate_of_attack",
                            "Rate of Attack",
                            "number",
                            low=1,
                            high=50,
                            default=1,
                            rule=RULE_EQUIP,
                        ),
                        Field("skill", "Skill", "text", high=64, required=False),
                        _SCALE,
                    ),
                    rule=RULE_EQUIP,
                ),
                listing(
                    "armour",
                    "Armour",
                    MAX_ITEMS,
                    (
                        named("name", "Armour", rule=RULE_EQUIP),
                        Field("rating", "AR", "number", low=0, high=99, default=0),
                        _SCALE,
                    ),
                    rule=RULE_EQUIP,
                ),
                listing(
                    "protection",
                    "Protection (shield, cover carried)",
                    MAX_ITEMS,
                    (
                        named("name", "Object", rule=RULE_COVER),
                        Field("protection", "Protection", "number", low=0, high=99, default=1),
                        Field("hp", "Hits", "number", low=0, high=9999, default=0),
                        Field("armour", "AR", "number", low=0, high=99, default=0),
                    ),
                    rule=RULE_COVER,
                ),
            ),
            rule=RULE_EQUIP,
        )
        return building.BuilderSpec(
            "mneme",
            "Mneme CE",
            (chars, skills, gear),
            rule="Mneme CE: ch. 2 and ch. 7",
            help="The text sets no point budget: the limits are the usual ranges.",
        )

    def assemble(self, answers: building.Answers, options: Any) -> building.Draft:
        """The sheet. HP follows the physical characteristics (shown as a total, not a
        budget to spend)."""
        values = {
            c: building.number(answers, f"char.{c}", -1)
            for c in (*CHARACTERISTICS, *OPTIONAL_CHARACTERISTICS)
        }
        hp = sum(max(values[c], 0) for c in PHYSICAL)
        shown = (building.Budget("hp", "HP (Str + Dex + End)", hp, hp, (), RULE_CHAR, tally=True),)
        if any(values[c] < 0 for c in CHARACTERISTICS):
            return building.Draft(None, shown)
        weapons: list[JSONValue] = []
        for r in building.rows(answers, "weapons"):
            w: JSONObject = {
                "name": r.get("name") or "",
                "damage": r.get("damage") or "",
                "rate_of_attack": r.get("rate_of_attack") or 1,
            }
            if r.get("skill"):
                w["skill"] = r.get("skill")
            if r.get("scale"):
                w["scale"] = r.get("scale")
            weapons.append(w)
        armour: list[JSONValue] = []
        for r in building.rows(answers, "armour"):
            a: JSONObject = {"name": r.get("name") or "", "rating": r.get("rating") or 0}
            if r.get("scale"):
                a["scale"] = r.get("scale")
            armour.append(a)
        protection: list[JSONValue] = [
            {
                "name": r.get("name") or "",
                "protection": r.get("protection") or 0,
                "hp": r.get("hp") or 0,
                "armour": r.get("armour") or 0,
            }
            for r in building.rows(answers, "protection")
        ]
        sheet: JSONObject = {
            "name": building.text(answers, "name"),
            "characteristics": {c: v for c, v in values.items() if v >= 0},
            "skills": {
                str(r.get("skill") or ""): r.get("level")
                for r in building.rows(answers, "skills")
                if isinstance(r.get("level"), int)
            },
            "weapons": weapons,
            "armour": armour,
            "protection": protection,
        }
        return building.Draft(sheet, shown)

    def answers_of(self, sheet: JSONObject, options: Any) -> dict[str, JSONValue]:
        """A Mneme CE sheet as answers."""
        out: dict[str, JSONValue] = {"name": sheet.get("name")}
        chars = sheet.get("characteristics")
        if isinstance(chars, dict):
            for c, v in chars.items():
                out[f"char.{c}"] = v
        skills = sheet.get("skills")
        if isinstance(skills, dict):
            out["skills"] = [{"skill": k, "level": v} for k, v in skills.items()]
        for part, keys in (
            ("weapons", ("name", "damage", "rate_of_attack", "skill", "scale")),
            ("armour", ("name", "rating", "scale")),
            ("protection", ("name", "protection", "hp", "armour")),
        ):
            items = sheet.get(part)
            if isinstance(items, list):
                out[part] = [
                    {k: item.get(k) for k in keys if item.get(k) not in (None, "")}
                    for item in items
                    if isinstance(item, dict)
                ]
        return out


BUILDER = MnemeForm()
"""Mneme CE's page builder."""
