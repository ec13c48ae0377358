"""Mnemonic house rules: one frozen value per table; the defaults are the rulings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.errors import RulesError
from referee.systems.base import option
from referee.systems.mnemonic.tables import (
    CHANCES_STEP,
    DEFAULT_TALENTS,
    FAILURE_DEGREES,
    FRIGATE_TALENTS,
    PRIMARY_IRRELEVANT,
    PRIMARY_RELEVANT,
    RANDOMIZERS,
    RATING_NAMES,
    SUCCESS_DEGREES,
)


class OptionsError(RulesError, ValueError):
    """House rules that cannot hold (a ``ValueError`` too, so record loading reports it)."""


CREATION_POLICIES = ("free", "trade", "free-raises")
"""Creation structures of "creation considerations": free choice with the
referee's approval; a common starting level with every raise paid by a drop;
a number of free raises before raises must be paid for."""

CHECK_FORMULAS = ("minus", "plus")
"""How a check's number is formed: Aptitude - value (the ruling) or Aptitude + value - 13."""

INITIATIVE_METHODS = ("referee", "agile")
"""Order of action ("timing of actions"): the referee decides (Agile checks when
uncertain), or every order comes from Agile checks."""


@dataclass(frozen=True)
class Options:
    """A Mnemonic table's house rules (Referee's Guide p. 1 and the rulings)."""

    randomizer: str = option(
        "d12",
        "Success Check randomizer: d12 (standard), 3d12 (median of three), cards, "
        "3cards (median of three cards), verbal, verbal-ab.",
    )
    check_formula: str = option(
        "minus",
        "The check result: minus = Aptitude - randomizer value (the ruling: low "
        "numbers are good); plus = Aptitude + value - 13 (high numbers are good). Every "
        "randomizer is symmetric, so the odds are the same; a given face reads differently.",
    )
    talents: tuple[str, ...] = option(
        DEFAULT_TALENTS, "The Talent list of ordinary characters (referee may add, rename, drop)."
    )
    talent_lists: tuple[tuple[str, tuple[str, ...]], ...] = option(
        (("frigate", FRIGATE_TALENTS),),
        "Extra named Talent lists for unusual Primary Roles (vehicles, armies, "
        "nations); a sheet names the list it uses. The text's frigate list is a preset.",
    )
    talent_stands_for: tuple[tuple[str, str], ...] = option(
        (("Well-Armed", "Dangerous"), ("Sturdy", "Tough")),
        "Renamed Talents that stand for standard ones, as (renamed, standard): a check "
        "naming the standard Talent uses the renamed one on a sheet that has it instead "
        "(the text's frigate: 'Sturdy is basically Tough, Well-Armed is Dangerous').",
    )
    use_lucky: bool = option(
        False, "Use the optional Talent Lucky (every character then rates it)."
    )
    rating_names: tuple[str, ...] = option(
        RATING_NAMES, "Names of the rating levels +0..+6 (data; a referee may rename)."
    )
    creation: str = option(
        "free",
        "Creation structure: free (player's choice, referee approves), trade "
        "(all Talents start at starting_level, each raise paid by a drop), free-raises "
        "(as trade, but the first free_raises raises cost nothing).",
    )
    starting_level: int = option(
        3, "Common starting Talent rating for trade / free-raises (3 = Moderately)."
    )
    free_raises: int = option(
        3, "Raises that need no drop under free-raises (the text's example: 3)."
    )
    primary_relevant: int = option(
        PRIMARY_RELEVANT, "Rating of the Primary Role as fallback when it fits the task."
    )
    primary_irrelevant: int = option(
        PRIMARY_IRRELEVANT, "Rating of the Primary Role as fallback when it does not."
    )
    degree_labels: bool = option(
        False,
        "Label Successes / Failures with the Chances names (1 Moderate, 2-3 Fair, "
        "4-5 Good, 6+ Great; 1-3 Poor, 4-6 Bad, 7+ Terrible).",
    )
    success_degrees: tuple[tuple[int, str], ...] = option(
        SUCCESS_DEGREES.steps,
        "Degree labels of Successes as (fewest Successes, label), ascending from 1 "
        "(the ruling: 1 Moderate, 2 Fair, 4 Good, 6 Great).",
    )
    failure_degrees: tuple[tuple[int, str], ...] = option(
        FAILURE_DEGREES.steps,
        "Degree labels of Failures as (fewest Failures, label), ascending from 1 "
        "(the ruling: 1 Poor, 4 Bad, 7 Terrible).",
    )
    reshuffle_when_short: bool = option(
        True,
        "Reshuffle the whole deck automatically when it holds fewer cards than a "
        "draw needs (otherwise the draw is refused until the referee reshuffles).",
    )
    reshuffle_every_check: bool = option(
        False,
        "Reshuffle every card back before each check (an opposed attack's two "
        "checks count as one draw). Off: the deck persists until the referee reshuffles.",
    )
    initiative: str = option(
        "referee",
        "Order of action: referee (the referee sets it, and may call for Agile checks "
        "when uncertain, as the text says) or agile (every order comes from Agile checks; "
        "the referee's order action is refused).",
    )
    rank_failures: bool = option(
        False,
        "Agile order of action: rank failed checks by fewest Failures. Off (the "
        "ruling): most Successes first, so every failed check (0 Successes) ties and "
        "those characters act together after every success.",
    )
    opposed_rolls: bool = option(
        False,
        "Opposed rolls: attacker's check result minus the defender's Successes "
        "(0 if the defender fails), plus the attacker's Chances.",
    )
    injured_label: str = option("Hurt", "Status of a character who stays active after an injury.")
    injury_step: int = option(
        CHANCES_STEP,
        "How much each earlier injury worsens the Chances of staying active "
        "(3 = one Chances step).",
    )

    def __post_init__(self) -> None:
        problems = []
        if self.randomizer not in RANDOMIZERS:
            problems.append(f"randomizer must be one of {', '.join(RANDOMIZERS)}")
        if self.check_formula not in CHECK_FORMULAS:
            problems.append(f"check_formula must be one of {', '.join(CHECK_FORMULAS)}")
        if self.creation not in CREATION_POLICIES:
            problems.append(f"creation must be one of {', '.join(CREATION_POLICIES)}")
        if self.initiative not in INITIATIVE_METHODS:
            problems.append(f"initiative must be one of {', '.join(INITIATIVE_METHODS)}")
        if len(self.rating_names) != len(RATING_NAMES):
            problems.append(f"rating_names needs {len(RATING_NAMES)} names (+0..+6)")
        if not 0 <= self.starting_level <= len(RATING_NAMES) - 1:
            problems.append("starting_level must be 0..6")
        if not 0 <= self.free_raises <= 100:
            problems.append("free_raises must be 0..100")
        if not 0 <= self.injury_step <= 30:
            problems.append("injury_step must be 0..30")
        for which in ("primary_relevant", "primary_irrelevant"):
            if not 0 <= getattr(self, which) <= len(RATING_NAMES) - 1:
                problems.append(f"{which} must be a rating 0..6")
        if not self.injured_label.strip():
            problems.append("injured_label must not be blank")
        lists = [("talents", self.talents), *self.talent_lists]
        for name, talents in lists:
            if not talents:
                problems.append(f"Talent list {name!r} must not be empty")
            low = [t.strip().lower() for t in talents]
            if "" in low or len(set(low)) != len(low):
                problems.append(f"Talent list {name!r} has a blank or repeated Talent")
        if any(not a.strip() or not b.strip() for a, b in self.talent_stands_for):
            problems.append("talent_stands_for pairs must name two Talents")
        names = [n for n, _ in self.talent_lists]
        if len(set(names)) != len(names) or "standard" in names:
            problems.append("talent_lists need distinct names other than 'standard'")
        for which in ("success_degrees", "failure_degrees"):
            steps = getattr(self, which)
            counts = [n for n, _ in steps]
            if not steps or counts[0] != 1 or counts != sorted(set(counts)):
                problems.append(f"{which} must start at 1 and rise strictly")
            if any(not label.strip() for _, label in steps):
                problems.append(f"{which} labels must not be blank")
        if any(not n.strip() for n in self.rating_names):
            problems.append("rating_names must not be blank")
        if problems:
            raise OptionsError("Mnemonic options: " + "; ".join(problems))

    def talent_list(self, name: str) -> tuple[str, ...] | None:
        """The Talent list called ``name`` ("standard" = :attr:`talents`), or ``None``."""
        if name == "standard":
            return self.talents
        return dict(self.talent_lists).get(name)

    def rating_name(self, value: int) -> str:
        """The level name of a rating value (e.g. 3 -> "Moderately")."""
        if 0 <= value < len(self.rating_names):
            return self.rating_names[value]
        return f"{value:+d}"


def renamed(talents: tuple[str, ...], renames: Mapping[str, str]) -> tuple[str, ...]:
    """A Talent list with some Talents renamed in place ("creation considerations",
    "unusual primary roles": e.g. Tough -> Sturdy, Dangerous -> Well-Armed for a
    ship). A name not on the list, or a rename that repeats a name, is an error."""
    unknown = [old for old in renames if old not in talents]
    if unknown:
        raise OptionsError(
            f"cannot rename {', '.join(map(repr, unknown))}: not on the list ({', '.join(talents)})"
        )
    out = tuple(renames.get(t, t) for t in talents)
    if len({t.strip().lower() for t in out}) != len(out):
        raise OptionsError(f"renaming would repeat a Talent: {', '.join(out)}")
    return out
