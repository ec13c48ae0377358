"""``referee mneme ...``: Mneme CE's short forms as presets (flags -> the action's fields)
over the generic ``act`` / ``odds-of`` / ``actions``. Each command seats the sheets it is
given (``pc``, ``target``, ``attacker``, ``medic``, ``patient``...), resolves its action (or
weighs its odds) and prints what :mod:`referee.systems.mneme.report` reads from the outcome;
``--out`` writes a sheet as ``RULESET.apply`` leaves it, ``--options`` holds the house rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, get_args

import click

from referee.cli import common
from referee.cli.presets import Flag, Preset, Values, arg, flag, game_group, option, sheet
from referee.cli.text import Console, Table
from referee.dice.roller import ScriptedRoller
from referee.errors import RulesError
from referee.systems.mneme import RULESET, report
from referee.systems.mneme.actions import ModifierKind
from referee.systems.mneme.damage import Target, as_scale
from referee.systems.mneme.scale import armour_notation, damage_notation
from referee.systems.mneme.tables import DIFFICULTY, DIFFICULTY_ALIASES

ARMOUR = "Armour (AR) taken off each damage roll: 4, AR 4, or scaled DAR 2 / HAR 9 / KAR 3."
KINDS = get_args(ModifierKind)


def _difficulty(text: str) -> int:
    """A Difficulty as a number or by its name (Easy ... Formidable)."""
    t = text.strip()
    return (
        int(t)
        if t.lstrip("-").isdigit()
        else DIFFICULTY_ALIASES.get(t.lower()) or DIFFICULTY.value(t)
    )


def _mod(text: str) -> dict[str, Any]:
    """``VALUE:KIND[:SOURCE]`` -> a typed modifier (``2:equipment:scope``)."""
    parts = [p.strip() for p in text.split(":")]
    kind = parts[1].lower().removesuffix("s") if len(parts) in (2, 3) else ""
    if kind not in KINDS or not parts[0].lstrip("-").isdigit():
        raise RulesError(
            f"--mod {text!r}: write VALUE:KIND[:SOURCE]; kind must be one of {', '.join(KINDS)}"
        )
    return {"value": int(parts[0]), "source": parts[2] if len(parts) == 3 else kind, "kind": kind}


def _split(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def _mitigating(text: str) -> dict[str, int]:
    parts = common.faces_option(text) or ()
    if len(parts) != 3:
        raise RulesError("--mitigate takes three numbers: conditions,cover,skill")
    return dict(zip(("conditions", "cover", "skill"), parts, strict=True))


def _armour(text: str, scale: str = "", target_scale: str = "") -> Target:
    """Armour written ``4``, ``AR 4`` or ``DAR 2`` (its scale, or ``--armour-scale``)."""
    rating, written = armour_notation(text)
    if written and scale and written != scale:
        raise RulesError(f"armour {text!r} is scale {written}, but --armour-scale says {scale}")
    return Target(rating, as_scale(written or scale), as_scale(target_scale))


def _scaled(damage: str, scale: str) -> str:
    """A damage expression with ``--scale`` written as the text does (``D 3d3``)."""
    expression, written = damage_notation(damage)
    if written and scale and written != scale:
        raise RulesError(f"damage {damage!r} is scale {written}, but --scale says {scale}")
    return f"{written or scale} {expression}".strip()


def _pc(text: str) -> dict[str, Any]:
    """``NAME:MOD`` or ``NAME:MOD:CHM``: a PC rolling Initiative without a sheet."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) not in (2, 3) or not parts[0]:
        raise RulesError(f"--pc {text!r}: write NAME:MOD or NAME:MOD:CHM")
    if not all(p.lstrip("-").isdigit() for p in parts[1:]):
        raise RulesError(f"--pc {text!r}: MOD and CHM are whole numbers")
    chm = int(parts[2]) if len(parts) == 3 else None
    return {"who": parts[0], "modifier": int(parts[1]), "characteristic_modifier": chm}


def _inputs(check: dict[str, Any], v: Values) -> dict[str, Any]:
    """A check's inputs: ``--modifier`` as one total modifier before the typed ``--mod``s."""
    total = (
        [{"value": v["modifier"], "source": "--modifier", "kind": "total"}] if v["modifier"] else []
    )
    return {**check, "modifiers": total + check.get("modifiers", [])}


def _extra(data: dict[str, Any], v: Values) -> dict[str, Any]:
    """``--modifier`` as an equipment modifier (a kit, tools, help)."""
    return {
        **data,
        "modifiers": [{"value": v["modifier"], "source": "modifier", "kind": "equipment"}]
        if v["modifier"]
        else [],
    }


def _attack(data: dict[str, Any], v: Values) -> dict[str, Any]:
    """An attack: its check; with neither ``--armour`` nor a target sheet, no armour."""
    armour = {} if v["armour"] or v["target_sheet"] else {"armour": Target()}
    return {**data, "check": _inputs(data.get("check", {}), v), **armour}


def _weighed(data: dict[str, Any], v: Values) -> dict[str, Any]:
    """Damage rolls, or with ``--difficulty`` a whole attack, against scaled armour."""
    if v["weapon"] and (v["damage"] or not v["attacker"]):
        raise RulesError("--weapon needs --attacker and no damage expression")
    if not (v["weapon"] or v["damage"]):
        raise RulesError("give a damage expression or --weapon NAME --attacker FILE")
    data |= {"armour": _armour(v["armour"], v["armour_scale"], v["target_scale"])}
    data |= {"damage": _scaled(v["damage"], v["scale"])} if v["damage"] else {}
    if v["difficulty"] is None:
        if "check" in data or v["modifier"]:
            raise RulesError("--modifier/--advantage/--disadvantage need --difficulty")
        return data | ({"attacker": "attacker"} if v["weapon"] else {})
    if "rolls" in data or "effect" in data:
        raise RulesError("--difficulty makes the check decide the rolls: drop --rolls/--effect")
    return (
        data | {"check": _inputs(data["check"], v)} | ({"actor": "attacker"} if v["weapon"] else {})
    )


def _surgery(data: dict[str, Any], v: Values) -> dict[str, Any]:
    """A seated patient, or one known by their End (and condition)."""
    if not v["patient"] and v["end"] is None:
        raise RulesError("give the patient's sheet (--patient) or their End (--end)")
    return _extra({k: x for k, x in data.items() if k != "patient_condition" or not v["patient"]}, v)


def _cared(state: Any, v: Values) -> Any:
    """``set-care`` first: the activity and care level the time passes at."""
    care = {k: v[k] for k in ("activity", "care", "therapy") if v[k] is not None}
    action = RULESET.load_action(
        "set-care", {"actor": "pc", "supervised": not v["unsupervised"]} | care
    )
    return RULESET.apply(state, RULESET.resolve(action, state, ScriptedRoller([]), v["_options"]))


def _initiative(data: dict[str, Any], v: Values) -> dict[str, Any]:
    """The sheets' PCs first (seated by name), then the ``--pc`` entries, each with the
    Advantage steps named."""
    if (v["characteristic"] or v["skill"]) and not v["sheets"]:
        raise RulesError("--characteristic and --skill apply to sheets; give one")
    traits = {"characteristic": v["characteristic"], "skill": v["skill"]}
    pcs = [{"who": n, **traits} for n in v["_state"].characters] + [_pc(t) for t in v["pcs"]]
    names = [p["who"].lower() for p in pcs]
    for step in ("advantage", "disadvantage"):
        for name in v[step]:
            if name.strip().lower() not in names:
                raise RulesError(f"--{step} {name!r}: no such PC (PCs: {', '.join(names)})")
            pc = pcs[names.index(name.strip().lower())]
            pc[step] = pc.get(step, 0) + 1
    return {"pcs": pcs}


def _table(piece: str | report.Grid) -> str | Table:
    if isinstance(piece, str):
        return piece
    table = Table(title=piece.title, title_justify="left")
    for c in piece.columns:
        table.add_column(c, justify="left" if c in piece.left else "right")
    for row in piece.rows:
        table.add_row(*row)
    return table


def _text(lines: Callable[[Any, Values], report.Lines]) -> Callable[[Any, Values], list[Any]]:
    return lambda result, v: [_table(p) for p in lines(result, v)]


def _weigh_odds(result: Any, v: Values) -> list[str]:
    from referee.cli.dice import show_distribution

    show_distribution(
        report.damage_odds_title(v["_action"]), result["damage"], value_header="damage"
    )
    return [str(x) for x in report.target_odds_lines(report.damage_odds_data(result))]


SHEET = sheet("pc", "--sheet", sets={"actor": "pc"}, help="The character's sheet (JSON).")
PATH = sheet("pc", "path", argument=True, help="The character's sheet (JSON).")
TOTAL = flag("", "--modifier", "-m", kind="int", default=0, help="Total modifier added to 2d6.")
EXTRA = flag(
    "", "--modifier", "-m", kind="int", default=0, help="Extra modifier (tools, equipment...)."
)
FACES = flag("", "--faces", kind="text", help=common.FACES_HELP + " The check's dice first.")
ODDS = flag("", "--odds", "show_odds", kind="flag", help="Exact odds instead of a roll.")
DAMAGE = arg("damage", help="Damage of one roll: 3d6-2, 'D 3d3'... (or --weapon).")
RATE = flag("rate_of_attack", "--rate", "-r")


def _check(at: str = "", difficulty: str | None = "8") -> tuple[Flag, ...]:
    """The flags of a check's inputs (``at``: where the check sits in the action)."""
    return (TOTAL, flag(at + "difficulty", "-d", read=_difficulty, kind="text", default=difficulty,
                        help="A number or a name (Easy ... Formidable)."),
            flag(at + "advantage"), flag(at + "disadvantage"))  # fmt: skip


def _typed(at: str = "") -> tuple[Flag, ...]:
    return (flag(at + "modifiers", "--mod", read=_mod, kind="many", help="A typed modifier VALUE:KIND[:SOURCE]; repeatable."),
            flag(at + "conditions", "--condition", kind="many"), flag(at + "characteristic", "-c"), flag(at + "skill"))  # fmt: skip


CHECK = (*_check(), *_typed(), flag("stealth"), SHEET,
         flag("combined_skills", "--combined", read=_split, kind="text", help="Skills the task combines, rolled one first."))  # fmt: skip
PRESETS = (
    Preset("check", "check", (*CHECK, flag("costly_success", "--costly"), flag("duration"), flag("unit"),
           flag("mitigating", "--mitigate", read=_mitigating, kind="text", help="Mitigating Factors: conditions,cover,skill.")),
           help="Resolve a check: 2d6 (3d6 keep two with Advantage/Disadvantage) + modifier vs Difficulty.",
           text=_text(lambda o, v: report.check_lines(o)), data=lambda o, v: report.check_data(o), build=_inputs, exact_faces=True),
    Preset("odds", "check", CHECK, odds=True, build=_inputs,
           help="Exact odds of a check: the chance of success and every Effect (failures included).",
           text=_text(lambda d, v: report.effect_odds_lines(d)), data=lambda d, v: report.effect_odds_data(d)),
    Preset("attack-odds", "damage-rolls", (DAMAGE, flag("weapon", "-w"), sheet("attacker", "--attacker", help="The attacker's sheet (JSON)."),
           flag("", "--armour", "-a", kind="text", default="0", help=ARMOUR), flag("rolls", "-n"), *_check("check.", None), RATE,
           flag("effect"), *(flag("", f"--{s}scale", kind="text", default="", help=f"{h} scale: '', D, H or K.")
                             for s, h in (("", "Damage"), ("armour-", "Armour"), ("target-", "The target's own"))),
           sheet("target", "--sheet", sets={"target": "target"}, help="The target's sheet: the odds of each condition.")),
           also=("attack",), choose=lambda v: "damage-rolls" if v["difficulty"] is None else "attack", build=_weighed,
           odds=True, weigh=report.damage_odds, text=_weigh_odds, data=lambda d, v: report.damage_odds_data(d),
           help="Exact distribution of the damage k rolls deal, keeping the highest RoA, armour per roll "
           "(or, with --difficulty, a whole attack's: the check, then its damage rolls)."),
    Preset("attack", "attack", (DAMAGE, flag("weapon", "-w"), SHEET, sheet("target", "--target-sheet", sets={"target": "target"}, help="The target's sheet (JSON)."), *_check("check."),
           flag("armour", "-a", read=_armour, kind="text", help=ARMOUR + " Default: the target's."), RATE, *_typed("check."), FACES),
           build=_attack, text=_text(lambda o, v: report.attack_lines(o))),
    Preset("take-damage", "take-damage", (arg("threat.damage", help=DAMAGE.help), flag("threat.weapon", "-w"),
           sheet("attacker", "--attacker", sets={"threat.attacker": "attacker"}, help="The attacker's sheet (JSON)."),
           flag("fail_effect", "-f"), flag("threat.rate_of_attack", "--rate", "-r"),
           flag("threat.armour", "--armour", "-a", read=_armour, kind="text", help=ARMOUR + " Default: worn."),
           flag("threat.mitigating.conditions", "--conditions"), flag("threat.mitigating.cover", "--cover"),
           flag("threat.mitigating.cover_index", "--cover-object"), flag("threat.mitigating.skill", "--skill"),
           flag("skill", "--defence-skill"), sheet("pc", "--sheet", sets={"actor": "pc"}, help="Your sheet (armour, cover, Bleeding)."),
           flag("massive_roll")), out="pc", text=_text(lambda o, v: report.take_damage_lines(o))),
    Preset("clock", "pass-time", (PATH, flag("days"), flag("hours"), flag("minutes"), flag("activity"), flag("care"),
           flag("", "--unsupervised", kind="flag", help="Intensive care without a Medic 2+."), flag("therapy"),
           flag("", "--roll-dying/--note-dying", "roll_dying", kind="flag", default=True, help="Roll due dying rolls, or note them.")),
           also=("set-care",), state=_cared, out="pc",
           build=lambda d, v: {k: d[k] for k in ("days", "hours", "minutes") if k in d} | {"dying_rolls": v["roll_dying"]},
           help="Let time pass at an activity and care level (set-care, then pass-time): healing, bleeding, "
           "stabilisation, therapy and due dying rolls.", data=lambda o, v: report.one_character(o, "pc"),
           text=_text(lambda o, v: report.clock_lines(o, "pc", v["_state"].characters["pc"].sheet.damage))),
    Preset("dying", "pass-rounds", (PATH, flag("rounds", "-n"), ODDS), build=lambda d, v: {**d, "who": ["pc"]}, out="pc",
           odds_flag="show_odds", weigh=report.survival,
           text=_text(lambda r, v: report.survival_lines(r, v["_action"].rounds) if v["show_odds"] else report.rolled_lines(r)),
           data=lambda r, v: report.survival_data(r, v["_action"].rounds) if v["show_odds"] else report.one_character(r, "pc"),
           help="Rounds pass for a Dying character: End vs 4 each round (wound penalties); fail = dead."),
    Preset("survival", "survival", (replace(PATH, sets={"actor": "pc"}), arg("kind"), flag("supervisor_medic"), flag("ai_sickbay"),
           flag("equipped", "--no-tools", read=lambda on: not on, kind="flag", help="Intensive care without tools."),
           flag("damage_before")), out="pc",
           text=_text(lambda o, v: report.rolled_lines(o, RULESET.odds(v["_action"], v["_state"], v["_options"])))),
    Preset("first-aid", "first-aid", (sheet("medic", "medic", argument=True, sets={"actor": "medic"}, help="The medic's sheet (JSON)."),
           sheet("patient", "--patient", sets={"patient": "patient"}, help="The patient's sheet (JSON)."),
           flag("on_self", "--self", "on_self"), EXTRA, flag("rounds_left")),
           build=lambda d, v: _extra(d, v) | ({"patient": None} if v["on_self"] else {}),
           out=lambda v: "medic" if v["on_self"] else "patient", text=_text(lambda o, v: report.first_aid_lines(o))),
    Preset("surgery", "surgery", (sheet("surgeon", "surgeon", argument=True, sets={"actor": "surgeon"}, help="The surgeon's sheet (JSON)."),
           sheet("patient", "--patient", sets={"patient": "patient"}, help="The patient's sheet: End and condition."),
           flag("patient_end", "--end"), flag("patient_condition", "--condition", kind="text", default="Seriously Wounded",
                                             help="The patient's condition (no --patient; default Seriously Wounded)."),
           flag("facility", "--no-facility", read=lambda on: not on, kind="flag", help="No hospital or sickbay (refused)."), EXTRA),
           build=_surgery, out="patient",
           text=_text(lambda o, v: report.surgery_lines(o))),
    Preset("care", "care", (arg("conditions", kind="many", help="Each patient's condition (Wounded, Dying...)."),
           flag("medic"), flag("supervisor_medic"), flag("ai_sickbay")), table=False,
           text=_text(lambda o, v: report.care_lines(o)), data=lambda o, v: dict(o.details)),
    Preset("stimulant", "stimulant", (replace(PATH, sets={"patient": "pc"}),),
           out="pc", text=lambda o, v: o.label),
    Preset("initiative", "initiative", (Flag("", ("sheets",), argument=True, kind="many", help="PC sheets (JSON) rolling Initiative."),
           flag("", "--pc", "pcs", kind="many", help="A PC without a sheet: NAME:MOD[:CHM]. Repeatable."),
           flag("", "--characteristic", "-c", kind="text", help="With sheets (Dex)."),
           flag("", "--skill", kind="text", help="With sheets (the best of Tactics and Recon)."),
           *(flag("", f"--{s}", kind="many", help=f"A PC's name: one step of {s.title()}. Repeatable.") for s in ("advantage", "disadvantage")),
           option("initiative_ties", "--ties", kind="text"), ODDS), table=False,
           seats=lambda rules, v: {s.name: s for s in (common.sheet_from(rules, p) for p in v["sheets"])},
           build=_initiative, odds_flag="show_odds", weigh=report.initiative_odds,
           text=_text(lambda r, v: (report.initiative_odds_lines if v["show_odds"] else report.initiative_lines)(r, v["_options"].initiative_ties)),
           data=lambda r, v: report.initiative_odds_data(r) if v["show_odds"] else report.initiative_data(r)),
)  # fmt: skip
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
    seated = RULESET.seat(RULESET.initial_state(opts), "pc", pc, opts) if not problems else None
    rows = dict(RULESET.tracker(seated, opts)["characters"]["pc"]) if seated else {}
    common.report_problems(
        problems, as_json=as_json, valid_text=report.sheet_line(path, rows) if rows else ""
    )


def demo(console: Console) -> None:
    """A short seeded tour of Mneme CE at a table with the example characters."""
    for line in report.tour(RULESET):
        console.print(line, markup=False)
