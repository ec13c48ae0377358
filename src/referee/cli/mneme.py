"""``referee mneme ...``: Mneme CE's short forms as presets (flags -> the action's fields)
over the generic ``act`` / ``odds-of`` / ``actions``. Each command seats the sheets it is
given (``pc``, ``target``, ``attacker``, ``medic``, ``patient``...), resolves its action (or
weighs its odds) and prints what :mod:`referee.systems.mneme.report` reads from the outcome;
``--out`` writes a sheet as ``RULESET.apply`` leaves it, ``--options`` holds the house rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import click

from referee.cli import common, presets
from referee.cli.presets import Flag, Preset, Values, arg, flag, game_group, sheet
from referee.cli.text import Console
from referee.dice.roller import ScriptedRoller
from referee.errors import RulesError
from referee.systems.mneme import RULESET, report
from referee.systems.mneme.damage import Target

Data = dict[str, Any]
STEPS = ("advantage", "disadvantage")
ARMOUR = "Armour (AR) taken off each damage roll: 4, AR 4, or scaled DAR 2 / HAR 9 / KAR 3."


def _total(check: Data, v: Values, source: str = "--modifier", kind: str = "total") -> Data:
    """``--modifier`` as one modifier (of ``kind``) before the typed ``--mod``s."""
    given = [{"value": v["modifier"], "source": source, "kind": kind}] if v["modifier"] else []
    return {**check, "modifiers": given + check.get("modifiers", [])}


_equipped = partial(_total, source="modifier", kind="equipment")
"""``--modifier`` as equipment (a kit, tools, help)."""


def _attack(data: Data, v: Values) -> Data:
    """An attack: its check; with neither ``--armour`` nor a target sheet, no armour."""
    armour = {} if v["armour"] or v["target_sheet"] else {"armour": Target()}
    return {**data, "check": _total(data.get("check", {}), v), **armour}


def _weighed(data: Data, v: Values) -> Data:
    """Damage rolls, or with ``--difficulty`` a whole attack, against scaled armour."""
    if v["weapon"] and (v["damage"] or not v["attacker"]):
        raise RulesError("--weapon needs --attacker and no damage expression")
    if not (v["weapon"] or v["damage"]):
        raise RulesError("give a damage expression or --weapon NAME --attacker FILE")
    data["armour"] = report.armour(v["armour"], v["armour_scale"], v["target_scale"])
    data |= {"damage": report.scaled_damage(v["damage"], v["scale"])} if v["damage"] else {}
    who = "attacker" if v["difficulty"] is None else "actor"
    data |= {who: "attacker"} if v["weapon"] else {}
    if v["difficulty"] is None:
        if "check" in data or v["modifier"]:
            raise RulesError("--modifier/--advantage/--disadvantage need --difficulty")
        return data
    if "rolls" in data or "effect" in data:
        raise RulesError("--difficulty makes the check decide the rolls: drop --rolls/--effect")
    return data | {"check": _total(data["check"], v)}


def _surgery(data: Data, v: Values) -> Data:
    """A seated patient, or one known by their End (and condition)."""
    if not v["patient"] and v["end"] is None:
        raise RulesError("give the patient's sheet (--patient) or their End (--end)")
    seated = {"patient_condition"} if v["patient"] else set()
    return _equipped({k: x for k, x in data.items() if k not in seated}, v)


def _cared(state: Any, v: Values) -> Any:
    """``set-care`` first: the activity and care level the time passes at."""
    cared = presets.build_action(RULESET, CARED, v)
    return RULESET.apply(state, RULESET.resolve(cared, state, ScriptedRoller([]), v["_options"]))


def _initiative(data: Data, v: Values) -> Data:
    """The sheets' PCs first (seated by name), then the ``--pc`` entries; each
    ``--advantage`` / ``--disadvantage`` NAME gives that PC a step."""
    if (v["characteristic"] or v["skill"]) and not v["sheets"]:
        raise RulesError("--characteristic and --skill apply to sheets; give one")
    traits = {"characteristic": v["characteristic"], "skill": v["skill"]}
    pcs = [{"who": n, **traits} for n in v["_state"].characters] + data.get("pcs", [])
    names = [p["who"].lower() for p in pcs]
    for step, name in ((s, n.strip()) for s in STEPS for n in v[s]):
        if name.lower() not in names:
            raise RulesError(f"--{step} {name!r}: no such PC (PCs: {', '.join(names)})")
        pc = pcs[names.index(name.lower())]
        pc[step] = pc.get(step, 0) + 1
    return {"pcs": pcs}


def _named(rules: Any, v: Values) -> dict[str, Any]:
    """Each sheet seated under its name."""
    return {s.name: s for s in (rules.load_sheet(common.load_json_file(p)) for p in v["sheets"])}


def _damage_odds(odds: Any, v: Values) -> report.Lines:
    from referee.cli.dice import show_distribution

    show_distribution(report.damage_odds_title(v["_action"]), odds["damage"], value_header="damage")
    return report.target_odds_lines(report.damage_odds_data(odds))


def _of(render: Callable[[Any], Any]) -> Callable[[Any, Values], Any]:
    return lambda result, v: render(result)


def _sheet(cid: str, *names: str, **sets: str) -> Flag:
    """A sheet seated as ``cid`` (an argument when named without dashes)."""
    argument, who = not names[0].startswith("-"), "character" if cid == "pc" else cid
    return sheet(cid, *names, sets=sets, argument=argument, help=f"The {who}'s sheet (JSON).")


def _check(at: str = "", difficulty: str | None = "8") -> tuple[Flag, ...]:
    """The flags of a check (``at``: where the check sits in the action)."""
    level = flag(at + "difficulty", "-d", read=report.difficulty, kind="text", default=difficulty)
    named = replace(level, help="A number or a name (Easy ... Formidable).")
    return TOTAL, named, flag(at + "advantage"), flag(at + "disadvantage")


def _typed(at: str = "") -> tuple[Flag, ...]:
    """A check's typed modifiers, condition presets and the sheet's traits."""
    mods = flag(at + "modifiers", "--mod", read=report.typed_modifier, kind="many", help=MOD)
    traits = flag(at + "characteristic", "-c"), flag(at + "skill")
    return mods, flag(at + "conditions", "--condition", kind="many"), *traits


MOD = "A typed modifier VALUE:KIND[:SOURCE]."
TOTAL = flag("", "--modifier", "-m", kind="int", default=0, help="Total modifier added to 2d6.")
EXTRA = replace(TOTAL, help="Extra modifier (tools, equipment...).")
SHEET, PATH = _sheet("pc", "--sheet", actor="pc"), _sheet("pc", "path")
ODDS = flag("", "--odds", "show_odds", kind="flag", help="Exact odds instead of a roll.")
DAMAGE = arg("damage", help="Damage of one roll: 3d6-2, 'D 3d3'... (or --weapon).")
RATE, WEAPON = flag("rate_of_attack", "--rate", "-r"), flag("weapon", "-w")
FACES = flag("", "--faces", kind="text", help=common.FACES_HELP + " The check's dice first.")
OFF = {"read": lambda on: not on, "kind": "flag"}
"""A flag that turns a field off (``--no-tools``: not equipped)."""
SCALE = {"": "Damage", "armour-": "Armour", "target-": "Target's own"}
SCALES = [
    flag("", f"--{s}scale", kind="text", default="", help=f"{h} scale: '', D, H or K.")
    for s, h in SCALE.items()
]
COMBINED = flag(
    "combined_skills",
    "--combined",
    kind="text",
    help="Skills combined, rolled first.",
    read=lambda t: [p.strip() for p in t.split(",") if p.strip()],
)
CHECK = (*_check(), *_typed(), flag("stealth"), SHEET, COMBINED)
THREAT = (
    *(flag(f"threat.mitigating.{f}", f"--{f}") for f in ("conditions", "cover", "skill")),
    flag("threat.mitigating.cover_index", "--cover-object"),
)
PC = partial(report.one_character, cid="pc")
PATIENT = _sheet("patient", "--patient", patient="patient")
TIME, WEIGHED = ("days", "hours", "minutes", "dying_rolls"), ("_action", "_state", "_options")
UNSUPERVISED = flag("supervised", "--unsupervised", help="Intensive care with no Medic 2+.", **OFF)
CARED = Preset(
    "clock",
    "set-care",
    (
        replace(PATH, sets={"actor": "pc"}),
        *map(flag, ("activity", "care", "therapy")),
        UNSUPERVISED,
    ),
)
PRESETS = (
    Preset(
        "check",
        "check",
        (
            *CHECK,
            flag("costly_success", "--costly"),
            flag("duration"),
            flag("unit"),
            flag(
                "mitigating",
                "--mitigate",
                read=report.mitigating,
                kind="text",
                help="Mitigating Factors: conditions,cover,skill.",
            ),
        ),
        build=_total,
        exact_faces=True,
        text=_of(report.check_lines),
        data=_of(report.check_data),
        help="Resolve a check: 2d6 (3d6 keep two with Advantage/Disadvantage) + modifier vs "
        "Difficulty.",
    ),
    Preset(
        "odds",
        "check",
        CHECK,
        odds=True,
        build=_total,
        text=_of(report.effect_odds_lines),
        help="Exact odds of a check: the chance of success and every Effect (failures included).",
        data=_of(report.effect_odds_data),
    ),
    Preset(
        "attack-odds",
        "damage-rolls",
        (
            DAMAGE,
            WEAPON,
            _sheet("attacker", "--attacker"),
            flag("", "--armour", "-a", kind="text", default="0", help=ARMOUR),
            flag("rolls", "-n"),
            *_check("check.", None),
            RATE,
            flag("effect"),
            *SCALES,
            _sheet("target", "--sheet", target="target"),
        ),
        also=("attack",),
        build=_weighed,
        choose=lambda v: "damage-rolls" if v["difficulty"] is None else "attack",
        odds=True,
        weigh=report.damage_odds,
        text=_damage_odds,
        data=_of(report.damage_odds_data),
        help="Exact distribution of the damage k rolls deal, keeping the highest RoA, armour "
        "per roll (or, with --difficulty, by a whole attack: the check, then its rolls).",
    ),
    Preset(
        "attack",
        "attack",
        (
            DAMAGE,
            WEAPON,
            SHEET,
            *_check("check."),
            *_typed("check."),
            _sheet("target", "--target-sheet", target="target"),
            RATE,
            FACES,
            flag("armour", "-a", read=report.armour, kind="text", help=ARMOUR + " Default: worn."),
        ),
        build=_attack,
        text=_of(report.attack_lines),
    ),
    Preset(
        "take-damage",
        "take-damage",
        (
            replace(DAMAGE, field="threat.damage"),
            replace(WEAPON, field="threat.weapon"),
            flag("fail_effect", "-f"),
            _sheet("attacker", "--attacker", **{"threat.attacker": "attacker"}),
            replace(RATE, field="threat.rate_of_attack"),
            *THREAT,
            SHEET,
            flag("massive_roll"),
            flag(
                "threat.armour",
                "--armour",
                "-a",
                read=report.armour,
                kind="text",
                help=ARMOUR + " Default: worn.",
            ),
            flag("skill", "--defence-skill"),
        ),
        out="pc",
        text=_of(report.take_damage_lines),
    ),
    Preset(
        "clock",
        "pass-time",
        (
            PATH,
            *map(flag, TIME[:3]),
            *CARED.flags[1:],
            flag(
                "dying_rolls",
                "--note-dying/--roll-dying",
                "note_dying",
                **OFF,
                help="Only note the dying rolls that fall due (default: roll them).",
            ),
        ),
        also=("set-care",),
        build=lambda d, v: {k: d[k] for k in TIME if k in d},
        out="pc",
        text=lambda o, v: report.clock_lines(o, "pc", v["_state"].characters["pc"].sheet.damage),
        help="Let time pass at an activity and care level (set-care, then pass-time): healing, "
        "bleeding, stabilisation, therapy and due dying rolls.",
        state=_cared,
        data=_of(PC),
    ),
    Preset(
        "dying",
        "pass-rounds",
        (PATH, flag("rounds", "-n"), ODDS),
        out="pc",
        build=lambda d, v: {**d, "who": ["pc"]},
        weigh=report.survival,
        odds_flag="show_odds",
        text=_of(report.rolled_lines),
        data=_of(PC),
        odds_text=_of(report.survival_lines),
        odds_data=_of(report.survival_data),
    ),
    Preset(
        "survival",
        "survival",
        (
            replace(PATH, sets={"actor": "pc"}),
            arg("kind"),
            flag("supervisor_medic"),
            flag("ai_sickbay"),
            flag("damage_before"),
            flag("equipped", "--no-tools", help="Intensive care without tools.", **OFF),
        ),
        out="pc",
        text=lambda o, v: report.rolled_lines(o, RULESET.odds(*(v[k] for k in WEIGHED))),
    ),
    Preset(
        "first-aid",
        "first-aid",
        (
            _sheet("medic", "medic", actor="medic"),
            PATIENT,
            flag("on_self", "--self", "on_self"),
            EXTRA,
            flag("rounds_left"),
        ),
        build=lambda d, v: _equipped(d, v) | ({"patient": None} if v["on_self"] else {}),
        out=lambda v: "medic" if v["on_self"] else "patient",
        text=_of(report.first_aid_lines),
    ),
    Preset(
        "surgery",
        "surgery",
        (
            _sheet("surgeon", "surgeon", actor="surgeon"),
            PATIENT,
            flag("patient_end", "--end"),
            flag(
                "patient_condition",
                "--condition",
                kind="text",
                default="Seriously Wounded",
                help="The patient's condition (no --patient).",
            ),
            EXTRA,
            flag("facility", "--no-facility", help="No hospital or sickbay (refused).", **OFF),
        ),
        build=_surgery,
        out="patient",
        text=_of(report.surgery_lines),
    ),
    Preset(
        "care",
        "care",
        (
            arg("conditions", kind="many", help="Each patient's condition."),
            flag("medic"),
            flag("supervisor_medic"),
            flag("ai_sickbay"),
        ),
        table=False,
        text=_of(report.care_lines),
        data=lambda o, v: dict(o.details),
    ),
    Preset(
        "stimulant",
        "stimulant",
        (replace(PATH, sets={"patient": "pc"}),),
        out="pc",
        text=lambda o, v: o.label,
    ),
    Preset(
        "initiative",
        "initiative",
        (
            Flag(
                "",
                ("sheets",),
                argument=True,
                kind="many",
                help="PC sheets (JSON) rolling Initiative.",
            ),
            flag(
                "pcs",
                "--pc",
                kind="many",
                read=report.initiative_entry,
                help="A PC without a sheet: NAME:MOD[:CHM].",
            ),
            flag("", "--characteristic", "-c", kind="text", help="With sheets (Dex)."),
            flag("", "--skill", kind="text", help="With sheets (the best of Tactics and Recon)."),
            *(
                flag("", f"--{s}", kind="many", help=f"A PC's name: one step of {s.title()}.")
                for s in STEPS
            ),
            presets.option("initiative_ties", "--ties"),
            ODDS,
        ),
        table=False,
        seats=_named,
        build=_initiative,
        weigh=report.initiative_odds,
        odds_flag="show_odds",
        text=_of(report.initiative_lines),
        data=_of(report.initiative_data),
        odds_text=_of(report.initiative_odds_lines),
        odds_data=_of(report.initiative_odds_data),
    ),
)
app = game_group("mneme", PRESETS)


@app.command()
@click.argument("path", help="The character's sheet (JSON).")
@common.OPTIONS_OPTION
@common.JSON_OPTION
@common.handle_errors
def validate(path: str, options_file: str | None, as_json: bool) -> None:
    """Validate a Mneme CE sheet, listing every problem; shows HP and condition when valid."""
    opts = common.load_options(RULESET, options_file)
    pc = RULESET.load_sheet(common.load_json_file(path))
    problems = RULESET.validate(pc, opts)
    seated = None if problems else RULESET.seat(RULESET.initial_state(opts), "pc", pc, opts)
    valid = report.sheet_line(path, RULESET.tracker(seated, opts)) if seated else ""
    common.report_problems(problems, as_json=as_json, valid_text=valid)


def demo(console: Console) -> None:
    """A short seeded tour of Mneme CE at a table with the example characters."""
    for line in report.tour(RULESET):
        console.print(line, markup=False)
