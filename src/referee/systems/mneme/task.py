"""A check built from its inputs and the roller's sheet (Mneme CE ch. 2, Core Task
Resolution): Competence, wound penalties, modifiers stacked by kind, condition presets
on the Difficulty, combined difficulties and Advantage, ready as one
:class:`~referee.systems.base.Procedure` that both rolls and gives the exact odds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from referee.dice.evaluate import DieRoll
from referee.errors import RulesError
from referee.systems.base import Change, Modifier, Outcome, Procedure
from referee.systems.mneme.checks import (
    check_procedure,
    is_preset,
    kept_indices,
    modifier_text,
    net_advantage,
    split_presets,
    stack,
    wound_penalty,
)
from referee.systems.mneme.effects import combined_difficulty, condition_modifiers, stealth_skill
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet

if TYPE_CHECKING:
    from referee.systems.mneme.actions import CheckInputs

SYSTEM = "mneme"
"""The game's name in every outcome."""


class Built(NamedTuple):
    """A check ready to roll: its procedure and how its numbers were derived.

    ``applied`` are the roll's modifiers; ``dropped`` those that did not stack;
    ``conditions`` the presets that changed the Difficulty; ``skill`` the skill rolled
    and ``skill_level`` its level on the sheet (0 unskilled or without a sheet: the
    last defence against a Fail Effect, ch. 2, Skill Checks). An immutable record
    made for every check (a named tuple: a frozen dataclass of nine fields cost a
    sixth of a check's odds).
    """

    procedure: Procedure[int, int]
    applied: tuple[Modifier, ...]
    dropped: tuple[Modifier, ...]
    difficulty: int
    steps: int
    missing_skills: tuple[str, ...]
    conditions: tuple[str, ...] = ()
    skill: str | None = None
    skill_level: int = 0

    @property
    def modifier(self) -> int:
        """The total of the modifiers that apply."""
        return sum(m.value for m in self.applied)

    def dice(self, faces: tuple[int, ...]) -> tuple[DieRoll, ...]:
        """The check's faces as dice, the dropped ones (Advantage) marked."""
        kept = set(kept_indices(faces, self.steps))
        return tuple(DieRoll(f, 6, i in kept) for i, f in enumerate(faces))

    def outcome(
        self,
        action: str,
        faces: tuple[DieRoll, ...],
        effect: int,
        label: str,
        changes: tuple[Change, ...],
        details: dict[str, Any],
        *,
        success: bool | None = None,
    ) -> Outcome:
        """The check's outcome for ``action``: its dice, modifiers, Difficulty and Effect
        (a success at an Effect of 0 or more, unless ``success`` says otherwise), and what
        the rule made of them."""
        return Outcome(
            SYSTEM,
            action,
            faces=faces,
            modifiers=self.applied,
            target=self.difficulty,
            result=effect,
            success=effect >= 0 if success is None else success,
            label=label,
            changes=changes,
            details=details,
        )

    def details(self, faces: tuple[int, ...], effect: int) -> dict[str, Any]:
        """What the check's outcome reports: dice, modifier, Dice Roll, Difficulty, Effect,
        the Success or Fail Effect's degree and how the modifiers stacked."""
        dice = sum(faces[i] for i in kept_indices(faces, self.steps))
        data: dict[str, Any] = {
            "dice": dice,
            "modifier": self.modifier,
            "roll": dice + self.modifier,
            "difficulty": self.difficulty,
            "effect": effect,
            "advantage": self.steps,
            "dropped_modifiers": [modifier_text(m) for m in self.dropped],
            "missing_skills": list(self.missing_skills),
            ("success_effect" if effect >= 0 else "fail_effect"): abs(effect),
        }
        if self.conditions:
            data["conditions"] = list(self.conditions)
        return data


def build(check: CheckInputs, sheet: Sheet | None, options: Options) -> Built:
    """Collect the modifiers (Competence, wound penalty, given ones and condition
    presets), stack them by kind, apply combined difficulties and Advantage, and build the
    check's procedure (ch. 2: Modifiers to Rolls, Competence, Combined Difficulties,
    Advantage and Disadvantage; ch. 7: wound penalties apply to all rolls)."""
    mods: list[Modifier] = list(check.modifiers)
    if check.conditions:
        mods += condition_modifiers(check.conditions)
    difficulty = check.difficulty
    missing: tuple[str, ...] = ()
    rolled: str | None = None
    level = 0
    if sheet is None:
        if check.characteristic or check.skill or check.combined_skills or check.stealth:
            raise RulesError("a characteristic or skill check needs a character sheet")
    else:
        if check.stealth and not check.characteristic:
            raise RulesError("a stealth roll needs the characteristic it adds to")
        if check.characteristic:
            rolled = check.skill or (check.combined_skills[0] if check.combined_skills else None)
            if check.stealth:
                rolled = stealth_skill(sheet.skills, options) or "Recon"
            cmp = sheet.competence(check.characteristic, rolled, options)
            what = check.characteristic + (f" + {rolled}" if rolled else "")
            if rolled and sheet.skill(rolled) is None:
                what += " (unskilled)"
            mods.append(Modifier(cmp, f"Competence ({what})", "competence"))
            level = max(0, sheet.skill(rolled) or 0) if rolled else 0
        elif check.skill:
            raise RulesError("a skill check needs the characteristic it adds to")
        if check.combined_skills:
            difficulty, missing = combined_difficulty(
                difficulty, check.combined_skills, sheet.skills
            )
        if check.wounds:
            wp = wound_penalty(sheet.damage, options)
            if wp:
                mods.append(Modifier(wp, f"wound penalty ({sheet.damage} damage)", "wound"))
    applied, dropped = stack(mods, options)
    roll_mods = applied
    presets: tuple[str, ...] = ()
    if check.conditions:
        roll_mods, harder = split_presets(applied)
        presets = tuple(modifier_text(m) for m in applied if is_preset(m))
        difficulty += harder
    steps = net_advantage(check.advantage, check.disadvantage, options)
    total = sum(m.value for m in roll_mods)
    return Built(
        check_procedure(total, difficulty, steps),
        roll_mods,
        dropped,
        difficulty,
        steps,
        missing,
        presets,
        rolled,
        level,
    )
