"""``referee mneme ...``: Mneme CE's short forms as presets over the generic ``act`` /
``odds-of`` / ``actions``: flags -> the action's fields (every plain field is a flag of its
own, so only what differs is declared here). A command seats the sheets it is given,
resolves its action (or weighs its odds) and prints the outcome in Mneme's words, as the
table's log says it (:mod:`referee.systems.mneme.words`), or the odds as their JSON gives
them, laid out as every game's are (:func:`referee.cli.common.odds_lines`); ``--out``
writes a sheet as ``RULESET.apply`` leaves it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, cast

from referee.cli import common, presets
from referee.cli.presets import NAME, Flag, Preset, Run, arg, flag, game_group, on, sheet, weighing
from referee.dice.roller import ScriptedRoller
from referee.errors import RulesError
from referee.systems.base import Outcome, outcome_data
from referee.systems.mneme import RULESET
from referee.systems.mneme.checks import effect_odds_data, typed_modifier
from referee.systems.mneme.damage import (
    armour_of,
    damage_odds_data,
    mitigating_of,
    scaled_damage,
    weighed_damage,
)
from referee.systems.mneme.dying import survival, survival_data
from referee.systems.mneme.initiative import initiative_entry, initiative_odds, initiative_odds_data
from referee.systems.mneme.tables import difficulty_of

Data = dict[str, Any]
Reads = Sequence[Callable[[Any], Any] | None]
STEPS = ("advantage", "disadvantage")
CHECK_KEYS = ("roll", "dice", "modifier", "difficulty", "effect")
"""What a rolled check's JSON shows on top: the roll, dice, modifier, Difficulty, Effect."""


def _check_data(out: Outcome) -> Data:
    """A check's JSON: the whole outcome plus the roll, dice, modifier, Difficulty and
    Effect (each null when nothing was rolled)."""
    return {**outcome_data(out), **{k: out.details.get(k) for k in CHECK_KEYS}}


def _one_character(out: Outcome, cid: str) -> Data:
    """An outcome over the table as JSON with one character's details on top."""
    details = dict(out.details)
    per = out.record("characters").get(cid)
    if isinstance(per, dict):
        details = {**per, **{k: v for k, v in details.items() if k != "characters"}}
    return {**outcome_data(out), "details": details}


def _initiative_data(out: Outcome) -> Data:
    """The roll as JSON with the order (first to act first) and the tied steps on top."""
    return {**outcome_data(out), "order": out.details["order"], "steps": out.details["steps"]}


def _total(data: Data, v: Run, at: str = "", kind: str = "total") -> Data:
    """``--modifier`` as one modifier of ``kind`` before the typed ``--mod``s of the check
    (the action's own, or the one nested at ``at``)."""
    check = data.get(at, {}) if at else data
    source = "modifier"
    given = [{"value": v["modifier"], "source": source, "kind": kind}] if v["modifier"] else []
    check = {**check, "modifiers": given + check.get("modifiers", [])}
    return {**data, at: check} if at else check


_equipped = partial(_total, kind="equipment")
"""``--modifier`` as equipment (a kit, tools, help)."""
_aimed = partial(_total, at="check")
"""``--modifier`` on an attack's check."""


def _weighed(data: Data, v: Run) -> Data:
    """Damage rolls, or with ``--difficulty`` a whole attack whose check decides the rolls,
    against scaled armour; the ``--attacker`` holds the ``--weapon``."""
    data["armour"] = armour_of(v["armour"], v["armour_scale"], v["target_scale"])
    data |= {"damage": scaled_damage(v["damage"], v["scale"])} if v["damage"] else {}
    if v["attacker"]:
        data["attacker" if v["difficulty"] is None else "actor"] = "attacker"
    if v["difficulty"] is None:
        if "check" in data or v["modifier"]:
            raise RulesError("the check's flags (--modifier, --advantage...) need --difficulty")
        return data
    if "rolls" in data or "effect" in data:
        raise RulesError("--difficulty makes the check decide the rolls: drop --rolls/--effect")
    return _total(data, v, "check")


def _aided(v: Run) -> str:
    """Whose sheet ``--out`` writes after first aid: the medic's on themself, else the patient's."""
    return "medic" if v["self"] else "patient"


def _cared(run: Run) -> Any:
    """``set-care`` first: the activity and care level the time passes at."""
    cared, state = presets.build_action(CARED, run), cast(Any, run.state)
    return RULESET.apply(state, RULESET.resolve(cared, state, ScriptedRoller([]), run.options))


def _initiative(data: Data, v: Run) -> Data:
    """The sheets' PCs first (seated by name), then the ``--pc`` entries; each
    ``--advantage`` / ``--disadvantage`` NAME gives that PC a step."""
    if (v["characteristic"] or v["skill"]) and not v["sheets"]:
        raise RulesError("--characteristic and --skill apply to sheets; give one")
    traits = {"characteristic": v["characteristic"], "skill": v["skill"]}
    pcs = [{"who": n, **traits} for n in v.table.characters] + data.get("pcs", [])
    names = [p["who"].lower() for p in pcs]
    for step, name in ((s, n.strip()) for s in STEPS for n in v[s]):
        if name.lower() not in names:
            raise RulesError(f"--{step} {name!r}: no such PC (PCs: {', '.join(names)})")
        pc = pcs[names.index(name.lower())]
        pc[step] = pc.get(step, 0) + 1
    return {"pcs": pcs}


def _preset(name: str, action: str, flags: Sequence[Flag], reads: Reads = (), **how: Any) -> Preset:
    """A command whose ``reads`` render the result's JSON alone: the outcome's, then the
    odds' (None: the default)."""
    keys = ("data", "odds_data")
    how |= {k: on(r) for k, r in zip(keys, reads, strict=False) if r}
    return Preset(name, action, tuple(flags), HELP.get(name, ""), **how)


def _sheet(cid: str, *names: str, **sets: Any) -> Flag:
    """A sheet seated as ``cid`` (an argument when named without dashes)."""
    argument, who = not names[0].startswith("-"), "character" if cid == "pc" else cid
    return sheet(cid, *names, sets=sets, argument=argument, help=f"The {who}'s sheet (JSON).")


def _check(at: str, difficulty: str | None = "8") -> tuple[Flag, ...]:
    """The flags of a check nested in an action (``at``), whose fields are not derived."""
    moved = {f.field: replace(f, field=at + f.field) for f in CHECK if f.field}
    moved["difficulty"] = replace(moved["difficulty"], default=difficulty)
    return (TOTAL, *moved.values(), *(flag(at + f) for f in (*STEPS, "skill")))


ARMOUR = "Armour (AR) taken off each damage roll: 4, AR 4, or scaled DAR 2 / HAR 9 / KAR 3."
OFF = {"read": lambda on: not on, "kind": "flag"}
"""A flag that turns a field off (``--no-tools``: not equipped)."""
TOTAL = flag("", "--modifier", "-m", kind="int", default=0, help="Total modifier added to 2d6.")
EXTRA = replace(TOTAL, help="Extra modifier (tools, equipment...).")
SHEET, PATH = _sheet("pc", "--sheet", actor="pc"), _sheet("pc", "path")
DAMAGE, WEAPON, RATE = arg("damage"), flag("weapon", "-w"), flag("rate_of_attack", "--rate", "-r")
WORN = flag("armour", "-a", read=armour_of, kind="text", help=ARMOUR + " Default: worn.")
LEVEL, MOD = "A number or a name (Easy ... Formidable).", "A typed modifier VALUE:KIND[:SOURCE]."
CHECK = (
    TOTAL,
    flag("difficulty", "-d", read=difficulty_of, kind="text", default="8", help=LEVEL),
    flag("modifiers", "--mod", read=typed_modifier, kind="many", help=MOD),
    flag("conditions", "--condition"),
    flag("characteristic", "-c"),
)
ROLLED = (
    *CHECK,
    SHEET,
    flag(
        "combined_skills",
        "--combined",
        read=lambda text: [p.strip() for p in text.split(",") if p.strip()],
        kind="text",
    ),
)
MITIGATE = flag("mitigating", "--mitigate", read=mitigating_of, kind="text")
CHECKED = (*ROLLED, flag("costly_success", "--costly"), MITIGATE)
SCALED = tuple(
    flag("", f"--{s}scale", kind="text", default="", help=f"{h} scale: '', D, H or K.")
    for s, h in {"": "Damage", "armour-": "Armour", "target-": "Target's own"}.items()
)
BARE = flag("", "--armour", "-a", kind="text", default="0", help=ARMOUR)
ROLLS = (flag("rolls", "-n"), RATE, flag("effect"))
ATTACKER, TARGET = _sheet("attacker", "--attacker"), _sheet("target", "--sheet", target="target")
WEIGHED = (DAMAGE, WEAPON, ATTACKER, BARE, *ROLLS, *_check("check.", None), *SCALED, TARGET)
TARGETED = _sheet("target", "--target-sheet", target="target")
DICE = flag("", "--faces", kind="text", help=common.FACES_HELP + " The check's dice first.")
ATTACK = (DAMAGE, WEAPON, SHEET, *_check("check."), TARGETED, RATE, DICE, WORN)
THREAT = tuple(replace(f, field="threat." + f.field) for f in (DAMAGE, WEAPON, RATE, WORN))
MITIGATION = (
    *(flag(f"threat.mitigating.{f}", f"--{f}") for f in ("conditions", "cover", "skill")),
    flag("threat.mitigating.cover_index", "--cover-object"),
    flag("skill", "--defence-skill"),
)
"""What stands between a character and a Fail Effect's rolls, the failed check's skill last."""
STRIKER = _sheet("attacker", "--attacker", **{"threat.attacker": "attacker"})
STRUCK = (*THREAT, flag("fail_effect", "-f"), STRIKER, SHEET, *MITIGATION)
UNSUPERVISED = flag("supervised", "--unsupervised", help="Intensive care with no Medic 2+.", **OFF)
CARE = (*map(flag, ("days", "hours", "minutes", "activity", "care", "therapy")), UNSUPERVISED)
CARED = Preset("clock", "set-care", (_sheet("pc", "path", actor="pc"), *CARE[3:]))
NOTE = "Only note the dying rolls that fall due (default: roll them)."
NOTED = flag("dying_rolls", "--note-dying/--roll-dying", "note_dying", **OFF, help=NOTE)
CLOCK = (PATH, *CARE, NOTED)
NO_TOOLS = flag("equipped", "--no-tools", help="Intensive care without tools.", **OFF)
PATIENT = _sheet("patient", "--patient", patient="patient")
AID = (_sheet("medic", "medic", actor="medic"), PATIENT, flag("on_self", "--self"), EXTRA)
UNSEATED = (flag("patient_end", "--end"), flag("patient_condition", "--condition"))
"""A patient known only by their End and condition."""
NO_FACILITY = flag("facility", "--no-facility", help="No hospital or sickbay (refused).", **OFF)
SURGERY = (_sheet("surgeon", "surgeon", actor="surgeon"), PATIENT, *UNSEATED, EXTRA, NO_FACILITY)
WOKEN = _sheet("pc", "path", patient="pc")
"""The character a stimulant is given to."""
LINEUP = (
    sheet(NAME, "sheets", argument=True, kind="many", help="PC sheets (JSON) rolling Initiative."),
    flag("pcs", "--pc", read=initiative_entry, help="A PC without a sheet: NAME:MOD[:CHM]."),
    flag("", "--characteristic", "-c", kind="text", help="With sheets (Dex)."),
    flag("", "--skill", kind="text", help="With sheets (the best of Tactics and Recon)."),
    *(
        flag("", f"--{s}", kind="many", help=f"A PC's name: one step of {s.title()}.")
        for s in STEPS
    ),
    presets.option("initiative_ties", "--ties"),
)
ONE = partial(_one_character, cid="pc")
"""The outcome as JSON with the pc's own details on top."""
SURVIVOR = (CARED.flags[0], arg("kind"), NO_TOOLS)
WARD = (arg("conditions", kind="many", help="Each patient's condition."),)
ROUNDS = (_sheet("pc", "path", who=["pc"]), flag("rounds", "-n"))
CHECKS = (_check_data,)
EFFECTS = (effect_odds_data,)
DYING = (ONE, survival_data)
INITIATIVE = (_initiative_data, initiative_odds_data)
"""A command's JSON, then its odds' (its text is Mneme CE's words, or the odds' JSON laid
out)."""
HELP = {
    "check": "Resolve a check: 2d6 (3d6 keep two with Advantage/Disadvantage) + modifier vs "
    "Difficulty.",
    "odds": "Exact odds of a check: the chance of success and every Effect (failures included).",
    "attack-odds": "Exact distribution of the damage k rolls deal, keeping the highest RoA, "
    "armour per roll (or, with --difficulty, by a whole attack: the check, then its rolls).",
    "clock": "Let time pass at an activity and care level (set-care, then pass-time): healing, "
    "bleeding, stabilisation, therapy and due dying rolls.",
}
"""A command's help where its action's doc does not say what the command does."""
PRESETS = (
    _preset("check", "check", CHECKED, CHECKS, build=_total, exact_faces=True),
    _preset("odds", "check", ROLLED, EFFECTS, build=_total, odds=True),
    _preset(
        "attack-odds",
        "damage-rolls",
        WEIGHED,
        (damage_odds_data,),
        also=("attack",),
        build=_weighed,
        choose=lambda run: "damage-rolls" if run["difficulty"] is None else "attack",
        odds=True,
        weigh=weighing(weighed_damage),
    ),
    _preset("attack", "attack", ATTACK, build=_aimed, hide=("report",)),
    _preset("take-damage", "take-damage", STRUCK, out="pc"),
    _preset(
        "clock",
        "pass-time",
        CLOCK,
        (ONE,),
        also=("set-care",),
        build=lambda d, _run: {
            k: d[k] for k in ("days", "hours", "minutes", "dying_rolls") if k in d
        },
        out="pc",
        prepare=_cared,
    ),
    _preset(
        "dying", "pass-rounds", ROUNDS, DYING, out="pc", weigh=weighing(survival), offers_odds=True
    ),
    _preset("survival", "survival", SURVIVOR, out="pc"),
    _preset("first-aid", "first-aid", AID, build=_equipped, out=_aided),
    _preset("surgery", "surgery", SURGERY, build=_equipped, out="patient"),
    _preset("care", "care", WARD, (lambda o: dict(o.details),), table=False),
    _preset("stimulant", "stimulant", (WOKEN,), out="pc"),
    _preset(
        "initiative",
        "initiative",
        LINEUP,
        INITIATIVE,
        table=False,
        build=_initiative,
        weigh=weighing(initiative_odds),
        offers_odds=True,
    ),
)
app = game_group("mneme", PRESETS)
