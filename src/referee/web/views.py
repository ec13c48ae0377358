"""What the pages show, computed from the service's answers (no rules here).

Everything in this module turns data the service and the game's contract
already give (``describe_fields``, ``describe_options``, an odds
:class:`~referee.dice.odds.Distribution`, a redacted event) into the plain
values the templates and the JSON API print.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from referee.dice.odds import Distribution, fraction_text
from referee.dice.render import ranges
from referee.systems.base import JSONObject, JSONValue, Ruleset, describe_fields, jsonable
from referee.systems.building import ExampleMark, example_mark
from referee.systems.plan import success_of
from referee.systems.sheetview import SheetView, value_words
from referee.table.service import Answer, tracker
from referee.table.state import EVERYTHING, TableState, Viewer

ANSWER_CHARACTERS: Final = 200_000
"""The exact fractions an odds answer carries, in characters (about as many bytes): past
it the answer gives the chart's ranges instead of every outcome (:meth:`Odds.data`)."""

MAX_EXACT: Final = 400
"""The longest exact fraction a summarised answer or the page writes out; a longer one
is given by its percentage only."""


def _short(p: Fraction) -> str | None:
    """:func:`exact_text` where it fits in :data:`MAX_EXACT` characters, else ``None``."""
    text = exact_text(p)
    return text if text is not None and len(text) <= MAX_EXACT else None


MAX_BARS = 40
"""The odds chart shows at most this many bars; wider distributions are grouped in ranges."""


# ---------------------------------------------------------------------------
# odds


def outcome_label(outcome: object) -> str:
    """A short text for one outcome of an odds distribution."""
    if isinstance(outcome, bool):
        return "success" if outcome else "failure"
    if isinstance(outcome, int):
        return str(int(outcome))
    label = getattr(outcome, "label", None)
    if isinstance(label, str) and label:
        return label
    if isinstance(outcome, tuple):
        return " / ".join(outcome_label(o) for o in outcome)
    text = str(outcome)
    return text if len(text) <= 40 else text[:39] + "…"


@dataclass(frozen=True)
class Bar:
    """One bar of the odds chart: an outcome (or a range of them) and its probability."""

    label: str
    probability: Fraction
    success: bool | None = None

    @property
    def percent(self) -> float:
        """The probability in percent."""
        return float(self.probability) * 100


@dataclass(frozen=True)
class Odds:
    """An action's exact odds as the pages and the API show them."""

    success: Fraction | None
    rows: tuple[tuple[JSONValue, str, Fraction], ...]
    bars: tuple[Bar, ...]
    mean: Fraction | None = None
    grouped: int = 1
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def success_percent(self) -> float | None:
        """P(success) in percent (``None`` when the outcomes do not say success or not)."""
        return None if self.success is None else float(self.success) * 100

    def data(self, budget: int = ANSWER_CHARACTERS) -> JSONObject:
        """The odds as JSON (exact fractions as ``"num/den"`` text; ``null`` for one whose
        numbers run past the digits Python writes, :func:`exact_text`).

        An answer is bounded by ``budget`` characters of exact fractions: past it the
        distribution is summarised as the chart's ranges (each range's exact chance where
        it fits in :data:`MAX_EXACT`, else only its percentage) and ``summary`` says so;
        the chance of success and the mean stay. The command line prints every outcome
        (``referee dice odds``, ``referee table odds``)."""
        # the size from the numbers' lengths (about 0.3 digits a bit), before writing any
        size = sum(
            (p.numerator.bit_length() + p.denominator.bit_length()) * 3 // 10 + len(label) + 40
            for _, label, p in self.rows
        )
        rows = [(o, label, exact_text(p), p) for o, label, p in self.rows] if size <= budget else []
        out: JSONObject = {
            "success": None
            if self.success is None
            else {"probability": _short(self.success), "percent": self.success_percent},
            "mean": None if self.mean is None else _short(self.mean),
        }
        if size <= budget:
            out["distribution"] = [
                {"outcome": o, "label": label, "probability": text, "percent": float(p) * 100}
                for o, label, text, p in rows
            ]
            return out
        out["distribution"] = [
            {
                "outcome": b.label,
                "label": b.label,
                "probability": _short(b.probability),
                "percent": b.percent,
            }
            for b in self.bars
        ]
        out["summary"] = (
            f"{len(self.rows)} outcomes, shown as {len(self.bars)} ranges: their exact "
            f"table is longer than an answer's {budget:,} characters (the command line "
            "prints every outcome: referee dice odds, referee table odds)"
        )
        return out


def exact_text(p: Fraction) -> str | None:
    """``"num/den"``, or ``None`` when either number has more digits than Python converts
    to text (``sys.get_int_max_str_digits``, 4,300 by default: a guard against costly
    conversions, left in place); the percentage beside it still says how likely."""
    limit = sys.get_int_max_str_digits()
    bits = max(p.numerator.bit_length(), p.denominator.bit_length())
    if limit and bits > limit * 3.3:
        return None
    return fraction_text(p)


def odds_view(
    dist: Distribution[Hashable],
    success: Fraction | None = None,
    succeeds: Callable[[Hashable], bool | None] | None = None,
    say: Callable[[str], str] | None = None,
) -> Odds:
    """The success chance (the game's, from the same plan), every outcome's probability and
    the chart's bars of ``dist``, each a success, a failure or neither by ``succeeds`` (the
    plan's word: Mneme CE's Effect 0 and up) or the outcome's own. ``say`` words each
    outcome's label for people (a character's id as its name: an outcome labelled as the
    log keeps it, "mickey-ruane: Fine", reads "Mickey Ruane: Fine")."""
    probs = dist.probabilities()
    flags = [(succeeds or success_of)(o) for o in probs]
    worded = outcome_label if say is None else (lambda o: say(outcome_label(o)))
    rows = tuple((_plain(o), worded(o), p) for o, p in probs.items())
    mean: Fraction | None = None
    if probs and all(isinstance(o, int) and not isinstance(o, bool) for o in probs):
        mean = dist.mean()
    weights = [w for _, w in dist.items()]  # a bar's chance: its whole weights over the total
    items = list(zip(rows, flags, weights, strict=True))
    runs = ranges(items, MAX_BARS, lambda item: item[0][1])
    bars: list[Bar] = []
    for label, run in runs:
        kinds = {f for _, f, _ in run}
        chance = Fraction(sum(w for _, _, w in run), dist.total)
        bars.append(Bar(label, chance, kinds.pop() if len(kinds) == 1 else None))
    size = len(runs[0][1]) if runs else 1
    return Odds(success, rows, tuple(bars), mean, size)


def _plain(outcome: object) -> JSONValue:
    if isinstance(outcome, int) and not isinstance(outcome, bool):
        return int(outcome)
    try:
        return jsonable(outcome)
    except Exception:  # an outcome JSON cannot carry: its text
        return str(outcome)


# ---------------------------------------------------------------------------
# action forms


@dataclass(frozen=True)
class ActionForm:
    """One action of the game as a form: its name, fields, and whose it is."""

    name: str
    doc: str
    fields: tuple[JSONObject, ...]
    referee_only: bool
    has_actor: bool
    free: bool = False

    @property
    def first(self) -> tuple[JSONObject, ...]:
        """The fields a form shows first (:func:`split_fields`)."""
        return split_fields(self.fields)[0]

    @property
    def more(self) -> tuple[JSONObject, ...]:
        """The fields a form folds under "more"."""
        return split_fields(self.fields)[1]


MAIN_DEFAULT: Final = 2
"""Optional fields a form shows first when the game marks none of its action's as main."""


def split_fields(
    described: Sequence[JSONObject],
) -> tuple[tuple[JSONObject, ...], tuple[JSONObject, ...]]:
    """``(first, more)``: the required fields, the characters it names and the ones the
    game marks as most used (``param(main=True)``) first, in their order; when the game
    marks none, the first :data:`MAIN_DEFAULT` plain options too (not another's choice,
    not a nested record or a list). Everything else is folded under "more"."""
    marked = any(d.get("main") for d in described)
    first: list[JSONObject] = []
    more: list[JSONObject] = []
    spare = 0 if marked else MAIN_DEFAULT
    for d in described:
        if d.get("required") or d.get("ref") == "character" or d.get("main"):
            first.append(d)
        elif spare and not d.get("decided_by") and d.get("type") not in ("object", "list", "json"):
            first.append(d)
            spare -= 1
        else:
            more.append(d)
    return tuple(first), tuple(more)


def action_forms(rules: Ruleset[Any, Any, Any]) -> list[ActionForm]:
    """Every action of the game with its described fields (the contract's own
    :func:`describe_fields`)."""
    out = []
    for name, kind in rules.every_action().items():
        described = tuple(describe_fields(kind))
        doc = (kind.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ").replace("``", "")
        out.append(
            ActionForm(
                name=name,
                doc=doc,
                fields=described,
                referee_only=bool(getattr(kind, "referee_only", False)),
                has_actor=any(f["name"] == "actor" for f in described),
                free=bool(getattr(kind, "free", False)),
            )
        )
    return out


def forms_for(
    forms: Sequence[ActionForm], *, referee: bool
) -> tuple[list[ActionForm], list[ActionForm]]:
    """``(per-character actions, table actions)`` a viewer may take: a player the
    actions of a character (an ``actor`` field, not the referee's); a referee those
    and every other action. The free ones (the dice tray) are in neither: every
    participant but an observer has them (:func:`free_forms`)."""
    per_character = [f for f in forms if f.has_actor and not f.referee_only and not f.free]
    table = (
        [f for f in forms if (not f.has_actor or f.referee_only) and not f.free] if referee else []
    )
    return per_character, table


def free_forms(forms: Sequence[ActionForm]) -> list[ActionForm]:
    """The actions anyone at the table takes (the dice tray's roll)."""
    return [f for f in forms if f.free]


def field_text(value: JSONValue) -> str:
    """A default value as the text a form control starts with."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value)
    import json

    return json.dumps(value, ensure_ascii=False)


def simple_list(desc: Mapping[str, Any]) -> bool:
    """True for a list of plain values (typed as comma-separated text)."""
    items = desc.get("items")
    return (
        desc.get("type") == "list"
        and isinstance(items, Mapping)
        and items.get("type") in ("integer", "string", "choice")
    )


# ---------------------------------------------------------------------------
# characters


@dataclass(frozen=True)
class Seat:
    """One seated character as a sheet card shows it to one viewer: ``sheet`` (the JSON
    the editor starts from), ``view`` (the sheet laid out as the game's own) and the
    validator's ``findings`` are there only when the viewer may see the sheet
    (:meth:`~referee.table.state.TableState.sees_sheet`), and so are the tracker's rows,
    which are read from the sheet (:func:`~referee.table.viewing.tracker`); the name
    always is."""

    id: str
    name: str
    owner: str | None
    rows: list[list[JSONValue]]
    findings: tuple[JSONObject, ...]
    sheet: JSONObject | None
    example: ExampleMark | None = None
    """Set when the sheet is exactly one of the game's examples (its documented
    discrepancies are not a warning): :func:`referee.systems.building.example_mark`."""
    view: SheetView | None = None
    shown: bool = True


def seats(ts: TableState, viewer: Viewer = EVERYTHING) -> list[Seat]:
    """The characters of a table view with their names and, where ``viewer`` may see
    their sheets, the sheets (as JSON and laid out), their tracker rows and the
    validator's findings."""
    rules = ts.ruleset
    tracked = tracker(ts, viewer)
    per_char = tracked.get("characters", {})
    rows_of = per_char if isinstance(per_char, dict) else {}
    out = []
    for cid, seated in ts.state.characters.items():
        sheet_rec = seated.sheet
        name = sheet_rec.name or cid
        rows = rows_of.get(cid, [])
        shown = ts.sees_sheet(viewer, cid)
        sheet: JSONObject | None = None
        view: SheetView | None = None
        if shown:
            sheet = rules.dump_sheet(sheet_rec)
            view = rules.sheet_view_safe(sheet_rec, seated, ts.options, ts.state)
        out.append(
            Seat(
                id=cid,
                name=str(name),
                owner=ts.owners.get(cid),
                rows=[list(r) for r in rows if isinstance(r, list | tuple)]
                if isinstance(rows, list)
                else [],
                findings=tuple(ts.findings.get(cid, ())) if shown else (),
                sheet=sheet,
                example=example_mark(rules, sheet, ts.findings.get(cid, ())) if shown else None,
                view=view,
                shown=shown,
            )
        )
    return out


def table_rows(ts: TableState) -> list[list[JSONValue]]:
    """The tracker's rows for the whole table."""
    tracked = ts.ruleset.tracker(ts.state, ts.options)
    rows = tracked.get("table", [])
    return [list(r) for r in rows if isinstance(r, list | tuple)] if isinstance(rows, list) else []


def value_text(value: JSONValue) -> str:
    """A tracker value as short text (:func:`~referee.systems.sheetview.value_words`; an
    empty list reads ``-``)."""
    return value_words(value, empty="-")


PREFIXES = ("defender_", "opponent_", "target_", "victim_")


def _names_in(value: JSONValue) -> list[str]:
    if isinstance(value, dict):
        return [str(k) for k in value]
    if isinstance(value, list):
        out = []
        for item in value:
            if isinstance(item, str):
                out.append(item)
            elif isinstance(item, dict) and isinstance(item.get("name"), str):
                out.append(str(item["name"]))
        return out
    return []


def suggestions(field_name: str, own: JSONObject | None, others: Sequence[JSONObject]) -> list[str]:
    """Names a text field of an action may take, offered (never enforced) from the sheets:
    ``talent`` from the acting character's ``talents``, ``defender_talent`` from everyone's.
    Only a typing aid: the rules check whatever is sent."""
    base = field_name
    sheets: list[JSONObject] = [own] if own else []
    for prefix in PREFIXES:
        if field_name.startswith(prefix):
            base = field_name.removeprefix(prefix)
            sheets = list(others)
    found: list[str] = []
    for sheet in sheets:
        for key in (base, base + "s", base + "es"):
            for name in _names_in(sheet.get(key)):
                if name not in found:
                    found.append(name)
    return found[:100]


def sheet_names(key: str, sheets: Sequence[JSONObject | None]) -> list[str]:
    """The names under ``key`` of these sheets (a mapping's keys, a list's names), each
    once, in order (at most 100)."""
    found: list[str] = []
    for sheet in sheets:
        for name in _names_in(sheet.get(key)) if sheet else ():
            if name not in found:
                found.append(name)
    return found[:100]


def decider_suggestions(
    described: Sequence[JSONObject], sheets: Mapping[str, JSONObject | None], fields: JSONObject
) -> dict[str, list[str]]:
    """For a decision's form: each asked field declared ``param(sheet=...)`` with the names
    on the sheet of the character deciding it (named by its ``decided_by`` field, in the
    proposed action's ``fields``), where the viewer sees that sheet."""
    out: dict[str, list[str]] = {}
    for desc in described:
        key, by = desc.get("sheet"), desc.get("decided_by")
        who = fields.get(str(by)) if isinstance(by, str) else None
        if isinstance(key, str) and isinstance(who, str):
            found = sheet_names(key, [sheets.get(who)])
            if found:
                out[str(desc["name"])] = found
    return out


def field_matters(desc: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
    """Whether a field declared ``param(when=...)`` matters under the table's options
    (``"opposed_rolls"``: while on; ``"not opposed_rolls"``: while off)."""
    when = desc.get("when")
    if not isinstance(when, str):
        return True
    negated = when.startswith("not ")
    key = when.removeprefix("not ")
    if key not in options:
        return True
    return bool(options[key]) != negated


def field_suggestions(
    forms: Sequence[ActionForm], own: JSONObject | None, others: Sequence[JSONObject]
) -> dict[str, list[str]]:
    """``suggestions`` for every text or choice field of these forms (by field name): a
    text field offers them, a required choice starts at the first of them."""
    out: dict[str, list[str]] = {}
    for form in forms:
        for desc in form.fields:
            name = str(desc["name"])
            kind = desc.get("type")
            declared = desc.get("sheet")
            if isinstance(declared, str) and name not in out:
                # the game's word (param(sheet=...)): the names on the sheet of the character
                # the field concerns, the actor's (another's choice: any other's)
                found = sheet_names(
                    declared, others if desc.get("decided_by") else [own] if own else []
                )
                if found:
                    out[name] = found
            elif kind in ("string", "choice") and not desc.get("ref") and name not in out:
                found = suggestions(name, own, others)
                if found:
                    out[name] = found
    return out


# ---------------------------------------------------------------------------
# decisions


@dataclass(frozen=True)
class AnswerView:
    """One button of a decision: the action it takes, its chance of success (``None``:
    no number), the one outcome when no die decides it, or why its odds are not shown."""

    action: str
    actor: str
    chance: Fraction | None
    certain: str | None
    hidden: str | None
    mine: bool

    @property
    def words(self) -> str:
        """The button's words: the action's name in plain words."""
        return self.action.replace("-", " ")


def answer_views(answers: Sequence[Answer]) -> list[AnswerView]:
    """The service's answers of one decision as its buttons show them (a participant who
    does not answer it sees the buttons' names, no odds: :meth:`TableService.answers`)."""
    out = []
    for a in answers:
        certain: str | None = None
        if a.odds is not None:
            probs = a.odds.probabilities()
            if len(probs) == 1:
                only = next(iter(probs))
                label = getattr(only, "label", None)
                certain = (
                    label
                    if isinstance(label, str) and label
                    else (only if isinstance(only, str) else outcome_label(only))
                )
        out.append(
            AnswerView(
                a.action,
                a.actor,
                a.chance,
                certain if a.chance is None else None,
                a.hidden,
                a.odds is not None or a.hidden is not None,
            )
        )
    return out
