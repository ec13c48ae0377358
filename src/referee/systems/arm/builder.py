"""ARM's guided character builder (:mod:`referee.systems.building`).

ARM 1.2, Character Creation (the point-based system): the referee gives every
player a number of character points (chp); stats cost a set number of chp per
level (the text's example: Fitness and Wit 10, the others 5), movement rates
likewise, signed mods a cost per level (a negative mod gives chp back),
special mods start at -10 for a cost and never go lower, absolute mods cost
the size of their value. Stats and movement rates stay within the race's
limits (humans: stats 3 to 9; Run 2 to 6, Walk -2 to 4, Climb -3 to 3,
Swim -4 to 3). The costs are the table's setting (:mod:`.catalog`).
"""

from __future__ import annotations

from typing import Any

from referee.systems import building
from referee.systems.arm.catalog import DEFAULT_SETTING, Setting
from referee.systems.arm.sheet import (
    RULE_CREATE,
    RULE_DAMAGE,
    RULE_GEAR,
    RULE_MODS,
    RULE_MOVE,
    RULE_STATS,
    Mod,
    mod_cost,
)
from referee.systems.building import Choice, Field, Section, choices, listing, named
from referee.systems.outcome import JSONObject, JSONValue

AVERAGE_CHP = 240
"""The form's starting chp: an average human (6 in every stat, ARM 1.2 Stats) at the
text's example costs (6 x 10 x 2 + 6 x 5 x 4). The referee sets the real number."""
MAX_ROWS = 20
_WEAPON_KEYS = ("name", "damage", "attack", "parry")
MOD_RANGE = 30
"""Bound on a mod's value in the form (signed mods are usually -3 to +3; special mods
start at -10)."""


def _limits(setting: Setting, part: str, name: str) -> tuple[int | None, int | None]:
    """The bounds every race of the setting shares for a stat or movement rate."""
    ranges = [getattr(r, part).get(name) for r in setting.races]
    known = [r for r in ranges if r is not None]
    if not known:
        return None, None
    return min(r.low for r in known), max(r.high for r in known)


def _ranged(
    setting: Setting,
    part: str,
    name: str,
    rule: str,
    *,
    default: int | None = None,
    help: str = "",
    required: bool = True,
) -> Field:
    """The number field of a stat (``part`` ``"stats"``) or a movement rate
    (``"movement"``) within the setting's races' limits."""
    low, high = _limits(setting, part, name)
    key = "stat" if part == "stats" else "move"
    return Field(
        f"{key}.{name}",
        name,
        "number",
        help=help,
        low=low,
        high=high,
        default=default,
        required=required,
        sheet=f"{part}.{name}",
        rule=rule,
    )


class ArmForm(building.GameBuilder):
    """Race, stats, movement rates, mods, gear, and the chp they cost."""

    setting: Setting = DEFAULT_SETTING

    def spec(self, options: Any) -> building.BuilderSpec:
        """The form under the setting's stats, races and costs."""
        st = self.setting
        costs = ", ".join(f"{s} {st.stat_cost(s)}" for s in st.stats)
        who = Section(
            "who",
            "Character and points",
            (
                named("name", "Name", sheet="name", rule=RULE_CREATE),
                Field(
                    "race",
                    "Race",
                    "choice",
                    choices=choices(tuple(r.name for r in st.races)),
                    default=st.races[0].name if st.races else None,
                    sheet="race",
                    rule=RULE_CREATE,
                ),
                Field(
                    "chp",
                    "Character points given (chp)",
                    "number",
                    low=0,
                    high=10_000,
                    default=AVERAGE_CHP,
                    help="the referee's number; 240 buys an average human (6 in every stat)",
                    sheet="chp",
                    rule=RULE_CREATE,
                ),
            ),
            rule=RULE_CREATE,
        )
        stats = Section(
            "stats",
            "Stats",
            tuple(
                _ranged(
                    st, "stats", s, RULE_STATS, default=6, help=f"{st.stat_cost(s)} chp a level"
                )
                for s in st.stats
            ),
            help=f"chp per level: {costs}. An average human has 6 in each.",
            rule=RULE_CREATE,
        )
        move = Section(
            "movement",
            "Movement rates (optional)",
            tuple(_ranged(st, "movement", m, RULE_MOVE, required=False) for m in st.movement),
            help=f"{st.movement_cost} chp a level in this setting.",
            rule=RULE_MOVE,
            folded=True,
        )
        kinds = choices(("signed", "special", "absolute"))
        known_mods = ", ".join(f"{m.name} ({m.kind})" for m in st.mods)
        mods = Section(
            "mods",
            "Mods",
            (
                listing(
                    "mods",
                    "Mods",
                    MAX_ROWS,
                    (
                        named("name", "Mod", rule=RULE_MODS),
                        Field(
                            "value", "Value", "number", low=-MOD_RANGE, high=MOD_RANGE, default=1
                        ),
                        Field("kind", "Kind", "choice", choices=kinds, default="signed"),
                    ),
                    rule=RULE_MODS,
                    help=f"signed mods cost {st.default_mod_cost} chp a level unless the "
                    f"setting lists them (listed: {known_mods or 'none'}); negative ones "
                    "give chp back",
                ),
            ),
            rule=RULE_CREATE,
        )
        weapon_names = ", ".join(w.name for w in st.weapons)
        gear = Section(
            "gear",
            "Gear",
            (
                listing(
                    "weapons",
                    "Weapons",
                    MAX_ROWS,
                    (
                        named("name", "Weapon", rule=RULE_GEAR),
                        Field("damage", "Damage", "number", low=0, high=99, required=False),
                        Field("attack", "Attack", "number", low=-20, high=20, required=False),
                        Field("parry", "Parry", "number", low=-20, high=20, required=False),
                    ),
                    rule=RULE_GEAR,
                    help=f"the setting's ({weapon_names}) take their values; leave the "
                    "numbers empty for them, or give your own",
                ),
                Field(
                    "armour",
                    "Armour",
                    "choice",
                    choices=(
                        Choice("", "none"),
                        *(Choice(a.name, f"{a.name} ({a.wound}N/{a.shock}S)") for a in st.armour),
                    ),
                    default="",
                    required=False,
                    sheet="armour",
                    rule=RULE_DAMAGE,
                ),
            ),
            rule=RULE_GEAR,
        )
        return building.BuilderSpec(
            "arm",
            "ARM",
            (who, stats, move, mods, gear),
            rule="ARM: Character Creation",
        )

    def assemble(self, answers: building.Answers, options: Any) -> building.Draft:
        """The sheet and its chp: stats, movement rates and mods may not cost more than
        the chp given."""
        st = self.setting
        stats = {s: building.number(answers, f"stat.{s}", -999) for s in st.stats}
        movement = {
            m: v
            for m in st.movement
            if isinstance(v := answers.get(f"move.{m}"), int) and not isinstance(v, bool)
        }
        mods = [
            Mod(str(r.get("name") or ""), v, k)
            for r in building.rows(answers, "mods")
            if isinstance(v := r.get("value"), int)
            and (k := r.get("kind") or "signed") in ("signed", "special", "absolute")
        ]
        given = building.number(answers, "chp", 0)
        spent = (
            sum(max(v, 0) * st.stat_cost(s) for s, v in stats.items())
            + sum(v * st.movement_cost for v in movement.values())
            + sum(mod_cost(m, st) for m in mods)
        )
        budget = building.Budget(
            "chp",
            "Character points (chp)",
            given,
            spent,
            ("chp", *(f"stat.{s}" for s in st.stats)),
            RULE_CREATE,
        )
        if any(v == -999 for v in stats.values()):
            return building.Draft(None, (budget,))
        weapons: list[JSONValue] = []
        for r in building.rows(answers, "weapons"):
            w: JSONObject = {"name": r.get("name") or ""}
            for k in ("damage", "attack", "parry"):
                if isinstance(r.get(k), int):
                    w[k] = r.get(k)
            weapons.append(w)
        armour = building.text(answers, "armour")
        sheet: JSONObject = {
            "name": building.text(answers, "name"),
            "race": building.text(answers, "race", "human"),
            "stats": dict(stats),
            "movement": dict(movement),
            "mods": [{"name": m.name, "value": m.value, "kind": m.kind} for m in mods],
            "weapons": weapons,
            "armour": {"name": armour} if armour else None,
            "chp": given,
        }
        return building.Draft(sheet, (budget,))

    def answers_of(self, sheet: JSONObject, options: Any) -> dict[str, JSONValue]:
        """An ARM sheet as answers (its chp, or what it costs when it records none)."""
        from referee.systems.arm.ruleset import RULESET
        from referee.systems.arm.sheet import point_cost

        loaded = RULESET.load_sheet(sheet)
        out: dict[str, JSONValue] = {
            "name": loaded.name,
            "race": loaded.race,
            "chp": loaded.chp if loaded.chp is not None else point_cost(loaded)["total"],
        }
        for s, v in loaded.stats.items():
            out[f"stat.{s}"] = v
        for m, v in loaded.movement.items():
            out[f"move.{m}"] = v
        out["mods"] = [{"name": m.name, "value": m.value, "kind": m.kind} for m in loaded.mods]
        out["weapons"] = [
            {
                k: v
                for k in ("name", "damage", "attack", "parry")
                if (v := getattr(w, k)) is not None
            }
            for w in loaded.weapons
        ]
        if loaded.armour is not None:
            out["armour"] = loaded.armour.name
        return out


BUILDER = ArmForm()
"""ARM's page builder."""
