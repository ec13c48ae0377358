"""How ARM's outcomes read: an outcome (or its exact distribution) -> text lines or
JSON data, for the command line and anyone else printing them. Nothing here rolls,
prints or knows about flags; the rules that made the outcomes are in :mod:`.play`,
:mod:`.fight` and :mod:`.upkeep`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING

from referee.dice.odds import fraction_text
from referee.systems.arm.play import Levels
from referee.systems.arm.rolls import Pushed
from referee.systems.arm.sheet import ArmourEntry, Sheet
from referee.systems.arm.tables import LEVEL_CAP, RESULT_LADDER
from referee.systems.base import (
    Action,
    JSONObject,
    Outcome,
    RulesError,
    outcome_data,
    probability_map,
)

if TYPE_CHECKING:
    from referee.dice.odds import Distribution
    from referee.systems.arm.actions import Convert, LogOf, MeasureOf, Move, PushMode, Task
    from referee.systems.arm.catalog import Setting
    from referee.systems.arm.discrepancies import Discrepancy
    from referee.systems.arm.options import Options
    from referee.systems.arm.ruleset import ArmRuleset

RESULT_COLUMNS = ("result", "exact", "%", "meaning")
"""The columns of :func:`result_rows`."""


def score(report: object) -> int:
    """A roll's result from what its odds report (the result, or the result and shock)."""
    value = report.result if isinstance(report, Pushed) else report
    if not isinstance(value, int):
        raise RulesError(f"not a task's result: {report!r}")
    return value


def levels(report: object) -> Levels:
    """A blow's levels from what its odds report (the levels, or with a push's shock)."""
    value = report.result if isinstance(report, Pushed) else report
    if not isinstance(value, Levels):
        raise RulesError(f"not a blow's levels: {report!r}")
    return value


def _shock(report: object) -> int:
    return report.shock if isinstance(report, Pushed) else 0


# ---------------------------------------------------------------------------
# a check (ARM 1.2, Task Resolution; Pushing)


def task_text(outcome: Outcome, actor: str = "actor") -> str:
    """``8 +3 -5 = total 6; minus difficulty 4: result +2 (...)``, then what a push cost
    ``actor`` and whether the faces were typed in."""
    d = outcome.details
    pushed = f", push {d['push']} (+{d['push_bonus']})" if "push" in d else ""
    verdict = "success" if outcome.success else "failure"
    lines = [
        f"{d['base']} +{d['plus']} -{d['minus']}{pushed} = total {d['total']}; minus difficulty "
        f"{outcome.target}: result {outcome.result:+d} ({outcome.label}, {verdict})"
    ]
    if d.get("shock_cost"):
        lines.append(f"the push costs {'' if actor == 'actor' else actor + ' '}one level of shock")
    if outcome.manual:
        lines.append("(faces entered by hand)")
    return "\n".join(lines)


def task_data(outcome: Outcome, pushed: bool) -> JSONObject:
    """The outcome's JSON with its ``total`` (and ``shock_cost`` when it was pushed)."""
    d = outcome.details
    data = outcome_data(outcome) | {"total": d.get("total")}
    if "shock_cost" in d or pushed:
        data["shock_cost"] = d.get("shock_cost", 0)
    return data


def p_success(dist: Distribution[object], options: Options) -> Fraction:
    """The chance of success (a draw succeeds when the table says so)."""
    return dist.map(score).probability_where(lambda r: r >= (0 if options.draw_succeeds else 1))


def task_odds_data(dist: Distribution[object], options: Options, shock: bool) -> JSONObject:
    """``{"p_success", "result"}`` as fractions, and the push's ``shock`` when asked."""
    data: JSONObject = {"p_success": fraction_text(p_success(dist, options))}
    data["result"] = probability_map(dist.map(score))
    if shock:
        data["shock"] = probability_map(dist.map(_shock))
    return data


def task_odds_lines(
    dist: Distribution[object],
    action: Task,
    options: Options,
    odds_of: Callable[[Task], Distribution[object]] | None = None,
) -> list[object]:
    """The chance of success in words; with ``odds_of`` (a pushed check's) also the chance
    that pushing costs a level of shock, pushing when needed or every roll; then a table
    (as data) of every result (:func:`result_rows`)."""
    p = p_success(dist, options)
    base = "stat + mods" if action.total is None else action.total
    lines = [
        f"total {base} against difficulty {action.difficulty} ({action.push} push): "
        f"P(success) = {fraction_text(p)} ({float(p):.2%})"
    ]
    modes: tuple[tuple[str, PushMode], ...] = (
        ("only when needed", "if-needed"),
        ("every roll", "always"),
    )
    for label, mode in modes:
        if odds_of is not None:
            cost = odds_of(replace(action, push=mode)).probability_where(lambda o: _shock(o) == 1)
            lines.append(f"pushing {label}: P(a level of shock) = {fraction_text(cost)}")
    justify = ["left" if c == "meaning" else "right" for c in RESULT_COLUMNS]
    return [*lines, {"columns": RESULT_COLUMNS, "rows": result_rows(dist), "justify": justify}]


def result_rows(dist: Distribution[object]) -> list[tuple[str, str, str, str]]:
    """Each result of a check with its exact chance, percent and meaning."""
    rows = dist.map(score).probabilities().items()
    return [
        (f"{v:+d}", fraction_text(p), f"{float(p) * 100:.2f}", RESULT_LADDER.label(v))
        for v, p in rows
    ]


# ---------------------------------------------------------------------------
# a blow (ARM 1.2, Damage)


def blow_text(outcome: Outcome) -> str:
    """The blow's total against Toughness, each side's margin, the levels and the
    defender's condition; a push's die and what it cost the attacker."""
    d = outcome.details
    lines = [
        f"blow total {d['total']}, minus Toughness {outcome.target}: {d['margin']}; "
        f"wound side {d['wound_margin']}, shock side {d['shock_margin']} -> {outcome.label}; "
        f"now {d['condition']}"
    ]
    if "push" in d:
        cost = "costs the attacker one level of shock" if d["shock_cost"] else "costs no shock"
        lines.append(f"push {d['push']} (+{d['push_bonus']}) {cost}")
    return "\n".join(lines)


def blow_odds(dist: Distribution[object], pushed: bool) -> dict[str, dict[str, str]]:
    """The exact chance of each wound level, shock level and of Destroyed (and of the
    push's shock, ``shock_cost``, when pushed)."""
    hurt = dist.map(levels)
    found = {
        "wound": probability_map(hurt.map(lambda x: x.wound)),
        "shock": probability_map(hurt.map(lambda x: x.shock)),
        "destroyed": probability_map(hurt.map(lambda x: x.destroyed)),
    }
    if pushed:
        found["shock_cost"] = probability_map(dist.map(_shock))
    return found


def odds_lines(found: Mapping[str, Mapping[str, str]]) -> list[str]:
    """``key: outcome chance, ...``, a line per key."""
    return [f"{k}: " + ", ".join(f"{o} {p}" for o, p in v.items()) for k, v in found.items()]


def blow_lines(rolled: Outcome | Distribution[object], pushed: bool) -> str | list[str]:
    """A blow rolled (:func:`blow_text`) or weighed (:func:`blow_odds`, a line a key)."""
    if isinstance(rolled, Outcome):
        return blow_text(rolled)
    return odds_lines(blow_odds(rolled, pushed))


def blow_data(rolled: Outcome | Distribution[object], pushed: bool) -> JSONObject:
    """A blow rolled (the outcome's JSON) or weighed (:func:`blow_odds`)."""
    if isinstance(rolled, Outcome):
        return outcome_data(rolled)
    return dict(blow_odds(rolled, pushed))


# ---------------------------------------------------------------------------
# the scale (ARM 1.2, Scale; Movement Rates)


def log_text(outcome: Outcome, action: LogOf) -> str:
    """``log of 1342 = 16``."""
    return f"log of {action.measure} = {outcome.result}"


def log_data(outcome: Outcome) -> JSONObject:
    """``{"log": 16}``."""
    return {"log": outcome.result}


def measure_text(outcome: Outcome, action: MeasureOf) -> str:
    """``measure of -3 = 0.25``."""
    return f"measure of {action.log} = {outcome.details['measure']}"


def convert_text(outcome: Outcome, action: Convert) -> str:
    """``5 m/s = log 10 ft/round (about 100 ft/round)``."""
    d, unit = outcome.details, action.target
    return f"{action.log} {action.source} = log {d['log']} {unit} (about {d['measure']} {unit})"


def move_data(outcome: Outcome) -> JSONObject:
    """The rate, a push's die, shock and rate, then the distance per round (a character
    with no rate for the mode: the mode moved at, no distance)."""
    d = outcome.details
    if "rate" not in d:
        return {"mode": d.get("mode"), "distance": None}
    data: JSONObject = {"rate": d["rate"]}
    if "push" in d:
        data.update({k: d[k] for k in ("push", "shock_cost", "pushed_rate")}, manual=outcome.manual)
    return data | {k: d[k] for k in ("distance_log", "distance", "unit")}


def move_text(outcome: Outcome, action: Move) -> str:
    """``rate 5 m/s: log 10 = about 100 ft per 3s round`` (and what a push did); a
    character with no rate for the mode just moves (the outcome's label)."""
    d = outcome.details
    if "rate" not in d:
        return f"{outcome.label}: the sheet has no {d.get('mode')} rate, so no distance"
    pushed = ""
    if "push" in d:
        cost = "one level of shock" if d["shock_cost"] else "no shock"
        pushed = f" (pushed: die {d['push']}, rate {d['pushed_rate']}, costs {cost})"
    return (
        f"rate {d['rate']} {action.source}{pushed}: log {d['distance_log']} = about "
        f"{d['distance']} {d['unit']} per {d['round']} round"
    )


# ---------------------------------------------------------------------------
# the setting and the text's discrepancies


def setting_lines(s: Setting) -> list[str]:
    """The setting's stats and movement rates, each weapon's and armour's values."""
    lines = [f"{s.name}: stats {', '.join(s.stats)}; movement {', '.join(s.movement)}"]
    for w in s.weapons:
        stun = " (stun)" if w.stun else ""
        lines.append(
            f"  {w.name}: damage {w.damage}{stun}, attack {w.attack:+d}, parry {w.parry:+d}"
        )
    lines += [f"  {a.name}: wound armour {a.wound}, shock armour {a.shock}" for a in s.armour]
    return lines


def note_lines(notes: Sequence[Discrepancy]) -> list[str]:
    """A line per discrepancy: where, the two readings, the ruling."""
    return [f"{d.key} ({d.where}): {d.text} / {d.other} -> {d.ruling}" for d in notes]


def tour(rules: ArmRuleset) -> list[str]:
    """A short seeded tour: logs, a sprint in feet, a check pushed three ways, its roll
    and a blow on Alex (the text's melee example)."""
    from referee.dice.roller import SeededRoller, SystemRoller
    from referee.systems.arm import actions as a
    from referee.systems.arm.options import Options

    roller, opts = SeededRoller(1993), Options(pushing=True)
    table = rules.initial_state(opts)
    for cid, sheet in rules.examples().items():
        table = rules.seat(table, cid, sheet, opts)

    def look(action: Action) -> Outcome:
        return rules.resolve(action, rules.initial_state(opts), SystemRoller(), opts)

    log, quarter = look(a.LogOf("1342")).result, look(a.MeasureOf(-3)).details["measure"]
    sprint = look(a.Convert(5, "m/s", "ft/round", "3s")).details
    lines = [f"log of 1342 = {log}; measure of -3 = {quarter}"]
    lines.append(f"Corven's sprint: log {sprint['log']} = {sprint['measure']} ft per 3 s")
    modes: tuple[a.PushMode, ...] = ("never", "always", "if-needed")
    for mode in modes:
        p = rules.odds(a.Task("brad", 6, "Fitness", push=mode), table, opts)
        chance = p.probability_where(lambda o: score(o) >= 0)
        lines.append(f"Brad's Fitness 8 vs 50/50, push {mode}: {fraction_text(chance)}")
    o = rules.resolve(a.Task("brad", 6, "Fitness", push="always"), table, roller, opts)
    lines.append(
        f"Brad pushes: total {o.details['total']}, result {o.result:+d} ({o.label}), "
        f"shock cost {o.details['shock_cost']}"
    )
    hit = rules.resolve(a.Damage("alex", 5, "brad", damage=7, push="never"), table, roller, opts)
    lines.append(f"axe on Alex: total {hit.details['total']} -> {hit.label}")
    return lines


def difficulty_of(text: str) -> int:
    """A difficulty as typed: a number, or a preset of the guide by name (``50/50``,
    ``very tough``; ARM 1.2, Task Resolution)."""
    from referee.systems.arm.checks import difficulty_named

    return int(text) if text.strip().lstrip("+-").isdigit() else difficulty_named(text)


def stand_in(toughness: int, armour: str | None, wound: int, shock: int) -> Sheet:
    """A defender known only by numbers: its Toughness, armour (one value, or
    ``wound/shock`` as ``4/2``) and present wound and shock levels (0 to 5, Unharmed to
    Dead / Unconscious; ARM 1.2, Damage). :class:`RulesError` names a wrong one."""
    parts = (armour or "0").split("/")
    if len(parts) > 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise RulesError(f"--armour is a number or wound/shock, not {armour!r}")
    if not (0 <= wound <= LEVEL_CAP and 0 <= shock <= LEVEL_CAP):
        raise RulesError(f"--wound, --shock: each a level 0 to {LEVEL_CAP}, not {wound}, {shock}")
    worn = None if armour is None else ArmourEntry("armour", int(parts[0]), int(parts[-1]))
    return Sheet("defender", {"Toughness": toughness}, wound=wound, shock=shock, armour=worn)
