"""Mnemonic's guided character builder (:mod:`referee.systems.building`).

Referee's Guide p. 1, "character creation": the Primary Role describes what the
character is; each Talent of the table's list (or of a named list for unusual
Primary Roles, "unusual primary roles") gets a rating from +0 (Not At All) to
+6; Life Roles are named and rated the same way. "creation considerations":
the referee may start every Talent at a common level and make each raise be
paid by a drop (policy ``trade``), or allow some free raises first
(``free-raises``; the text's example is three) - the form's budget then counts
the raises not yet paid for.
"""

from __future__ import annotations

from referee.systems import building
from referee.systems.building import Choice, Field, Section, listing, named
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.tables import LUCKY, RATING_MAX, RATING_MIN
from referee.systems.outcome import JSONObject, JSONValue

R_CREATE = "Mnemonic: creation considerations"
R_UNUSUAL = "Mnemonic: unusual primary roles"
R_ROLES = "Mnemonic: Life Roles"
MAX_LIFE_ROLES = 12
"""Most Life Roles the form takes (the text sets no number)."""


def _lists(options: Options) -> list[tuple[str, tuple[str, ...]]]:
    """Every Talent list of the table, Lucky added when the table uses it."""
    out = [("standard", options.talents), *options.talent_lists]
    return [
        (name, (*talents, LUCKY) if options.use_lucky and LUCKY not in talents else talents)
        for name, talents in out
    ]


def _key(listed: str, talent: str) -> str:
    return f"talent.{listed}.{talent}"


class MnemonicForm(building.GameBuilder):
    """Name, Primary Role, the Talent list and its ratings, Life Roles."""

    def spec(self, options: Options) -> building.BuilderSpec:
        """The form under the table's Talent lists and creation policy."""
        ratings = tuple(
            Choice(v, f"{options.rating_name(v)} (+{v})") for v in range(RATING_MIN, RATING_MAX + 1)
        )
        lists = _lists(options)
        start = options.starting_level if options.creation != "free" else 3
        policy = {
            "free": "Rate each Talent freely (the referee approves).",
            "trade": f"Every Talent starts at {options.rating_name(options.starting_level)} "
            f"(+{options.starting_level}); each raise is paid by a drop elsewhere.",
            "free-raises": f"Every Talent starts at {options.rating_name(options.starting_level)} "
            f"(+{options.starting_level}); the first {options.free_raises} raises are free, "
            "the rest are paid by drops.",
        }[options.creation]
        who = Section(
            "who",
            "Who",
            (
                named("name", "Name", sheet="name", rule=R_CREATE),
                Field(
                    "primary_role",
                    "Primary Role",
                    "text",
                    low=1,
                    high=120,
                    help="what the character is: species, sex, age, notable gifts "
                    "(or a vehicle, an army, a nation)",
                    sheet="primary_role",
                    rule=R_UNUSUAL,
                ),
                Field(
                    "talent_list",
                    "Talent list",
                    "choice",
                    choices=tuple(Choice(n, n) for n, _ in lists),
                    default="standard",
                    help="standard for people; another list for unusual Primary Roles",
                    sheet="talent_list",
                    rule=R_UNUSUAL,
                ),
            ),
            rule=R_CREATE,
        )
        talents = Section(
            "talents",
            "Talents",
            tuple(
                Field(
                    _key(listed, t),
                    t,
                    "choice",
                    choices=ratings,
                    default=start,
                    sheet=f"talents.{t}",
                    rule=R_CREATE,
                    shown_when=("talent_list", listed),
                )
                for listed, names in lists
                for t in names
            ),
            help=policy,
            rule=R_CREATE,
        )
        roles = Section(
            "roles",
            "Life Roles",
            (
                listing(
                    "life_roles",
                    "Life Roles",
                    MAX_LIFE_ROLES,
                    (
                        named("role", "Life Role", rule=R_ROLES),
                        Field("rating", "Rating", "choice", choices=ratings, default=3),
                    ),
                    rule=R_ROLES,
                    help="what the character has done with their life (Boxer, Sailor...)",
                ),
            ),
            rule=R_ROLES,
        )
        return building.BuilderSpec(
            "mnemonic",
            "Mnemonic",
            (who, talents, roles),
            rule="Mnemonic: character creation",
        )

    def assemble(self, answers: building.Answers, options: Options) -> building.Draft:
        """The sheet, and under ``trade`` / ``free-raises`` the raises budget: raises
        minus drops from the starting level may not pass the free raises (0 under
        trade)."""
        chosen = building.text(answers, "talent_list", "standard")
        names = dict(_lists(options)).get(chosen, ())
        talents = {t: building.number(answers, _key(chosen, t), -1) for t in names}
        budgets: tuple[building.Budget, ...] = ()
        if options.creation != "free":
            allowed = options.free_raises if options.creation == "free-raises" else 0
            spent = sum(v - options.starting_level for v in talents.values() if v >= 0)
            label = (
                f"Raises not paid by drops ({allowed} free)"
                if allowed
                else "Raises not paid by drops"
            )
            budgets = (
                building.Budget(
                    "raises",
                    label,
                    allowed,
                    spent,
                    tuple(_key(chosen, t) for t in names),
                    R_CREATE,
                ),
            )
        if any(v < 0 for v in talents.values()):
            return building.Draft(None, budgets)
        roles = {
            str(r.get("role") or ""): r.get("rating") for r in building.rows(answers, "life_roles")
        }
        sheet: JSONObject = {
            "name": building.text(answers, "name"),
            "primary_role": building.text(answers, "primary_role"),
            "talents": dict(talents),
            "life_roles": {k: v for k, v in roles.items() if isinstance(v, int)},
            "talent_list": chosen,
        }
        return building.Draft(sheet, budgets)

    def answers_of(self, sheet: JSONObject, options: Options) -> dict[str, JSONValue]:
        """A Mnemonic sheet as answers."""
        listed = str(sheet.get("talent_list") or "standard")
        out: dict[str, JSONValue] = {
            "name": sheet.get("name"),
            "primary_role": sheet.get("primary_role"),
            "talent_list": listed,
        }
        talents = sheet.get("talents")
        if isinstance(talents, dict):
            for t, v in talents.items():
                out[_key(listed, t)] = v
        roles = sheet.get("life_roles")
        if isinstance(roles, dict):
            out["life_roles"] = [{"role": k, "rating": v} for k, v in roles.items()]
        return out


BUILDER = MnemonicForm()
"""Mnemonic's page builder."""
