"""How a game's outcomes, changes, prompts and refusals read: one voice per game
(principle 11), shared by every edge (the page's log, the recap, the command line).

Each game's package has a ``words.py`` of the same shape whose ``WORDS`` is a
:class:`Words` (:meth:`~referee.systems.base.Ruleset.words` finds it): its glossary,
how each tracked field reads when it changes (:class:`FieldWords`), how each action
reads (:attr:`Words.actions`), and what role each of an outcome's dice plays
(:meth:`Words.dice`: the check, the plus and minus dice, a push, damage, a
strike back). This base is the plain default for anything a game does not word:
never program text - no JSON, no dotted path, no ``None``, no id where a name is
known (:class:`Names`).

Everything here reads the JSON an event carries (:func:`~referee.systems.outcome.outcome_data`),
never a live state, so a stored, exported or redacted event reads the same anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, Final

from referee.systems.outcome import JSONValue, jsonable

__all__ = [
    "WORDS",
    "DiceGroup",
    "FieldWords",
    "Names",
    "OutcomeWords",
    "Words",
    "humanize",
    "plural",
]


def humanize(name: str) -> str:
    """A program name in words, lower case: ``refresh_hour`` -> ``refresh hour``,
    ``sheet.character_points`` -> ``character points`` (the last segment of a path)."""
    last = name.rsplit(".", 1)[-1]
    text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", last.replace("_", " ").replace("-", " "))
    return re.sub(r"\s+", " ", text).strip().lower()


def plural(n: int, one: str, many: str | None = None) -> str:
    """``"1 point"``, ``"3 points"``."""
    return f"{n} {one if abs(n) == 1 else (many or one + 's')}"


def _title_id(cid: str) -> str:
    """A character id read as a name where no name is known: ``ada-vance`` -> ``Ada Vance``."""
    return " ".join(p[:1].upper() + p[1:] for p in re.split(r"[-_\s]+", cid) if p) or cid


class Names:
    """The characters' names by id, for sentences: a known id reads as its name, an
    unknown one as itself in title case (a table's ids are slugs of their names)."""

    def __init__(self, names: Mapping[str, str] | None = None) -> None:
        self.known: dict[str, str] = {k: v for k, v in (names or {}).items() if v}

    def __call__(self, cid: JSONValue) -> str:
        key = str(cid or "")
        if not key:
            return "someone"
        return self.known.get(key) or _title_id(key)

    def knows(self, cid: str) -> bool:
        """Whether ``cid`` is a known character's id."""
        return cid in self.known

    def merged(self, more: Mapping[str, str] | None) -> Names:
        """These names with ``more`` (theirs first)."""
        return Names({**self.known, **(more or {})})

    def say(self, text: str) -> str:
        """``text`` with every known id written as a whole word replaced by its name."""
        if not self.known or not text:
            return text
        return _ids_pattern(tuple(self.known)).sub(lambda m: self.known[m.group(1)], text)


@lru_cache(maxsize=256)
def _ids_pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    """Any of ``ids`` written as a whole word (the longest first), compiled once per set of
    names (a log entry says several sentences with the same names)."""
    longest = sorted(ids, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in longest) + r")(?![\w-])")


@dataclass(frozen=True)
class FieldWords:
    """How a change to one tracked field reads. Each template may use ``{who}`` (the
    character's name, or "the table"), ``{n}`` (the size of a change), ``{noun}`` and
    ``{value}`` (the new value in words), ``{count}`` (``{n} {noun}``, or ``{n} {many}``
    when ``many`` gives the plural and ``n`` is not 1); ``up`` and ``down`` read a change
    by a number, ``to`` a new value, ``cleared`` a value taken away (empty, none, false)."""

    noun: str
    up: str = "{who} gains {count}"
    down: str = "{who} loses {count}"
    to: str = "{who}'s {noun} is now {value}"
    cleared: str = "{who}'s {noun} is cleared"
    many: str = ""


@dataclass(frozen=True)
class DiceGroup:
    """Some of an outcome's dice and the role they play (``check``, ``plus``, ``minus``,
    ``push``, ``damage``, ``strike-back``...), each face as shown ("5", "2 dropped")."""

    role: str
    faces: tuple[str, ...]
    at: tuple[int, ...] = ()
    """Where each face is in the outcome's ``faces`` (for a page that draws each die)."""

    @property
    def text(self) -> str:
        """``"check dice 3, 5"`` (``"dice 3, 5"`` for dice with no role)."""
        noun = "die" if len(self.faces) == 1 else "dice"
        role = "" if self.role == "dice" else f"{self.role} "
        return f"{role}{noun} {', '.join(self.faces)}"


@dataclass(frozen=True)
class OutcomeWords:
    """A resolved action in words: ``sentence`` (who did what, and how it went), its
    ``dice`` by role, its modifiers, its ``changes`` and what it leaves ``waiting`` for
    someone's decision, each a plain sentence."""

    sentence: str
    did: str = ""
    """Who did what, without how it went ("Alex attacks Brad")."""
    dice: tuple[DiceGroup, ...] = ()
    modifiers: tuple[str, ...] = ()
    numbers: tuple[str, ...] = ()
    changes: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    verdict: str = ""

    @property
    def facts(self) -> tuple[str, ...]:
        """The dice, modifiers, numbers, changes and waits, one sentence each."""
        dice = tuple(g.text for g in self.dice)
        return (*dice, *self.modifiers, *self.numbers, *self.changes, *self.waiting)

    @property
    def text(self) -> str:
        """Everything in one paragraph."""
        parts = [self.sentence, *self.facts]
        return ". ".join(p.rstrip(".") for p in parts if p) + "."


TABLE_FIELDS: Final[Mapping[str, FieldWords]] = {
    "round": FieldWords(
        "round", up="the round advances", to="the round is now {value}", cleared="the rounds end"
    ),
    "order": FieldWords(
        "order",
        to="the order of action is {value}",
        cleared="the order of action is cleared",
    ),
    "pending": FieldWords(
        "decisions", to="waiting for {value}", cleared="nothing waits for a decision"
    ),
}
"""Fields every game's table may track, worded once for all (a game's own words win)."""


class Words:
    """A game's voice; this base is the plain default (see the module text). A game's
    ``words.py`` subclasses it and fills the class attributes, overriding a method only
    for what its text says its own way."""

    glossary: ClassVar[Mapping[str, str]] = {}
    """The game's terms, each with what it means at the table (shown beside the log)."""

    fields: ClassVar[Mapping[str, FieldWords]] = {}
    """How each tracked field reads, by its path in a seat (``status.condition``) or, for
    the table's own, ``table.<path>``; a path not listed is tried by its last segment."""

    actions: ClassVar[Mapping[str, str]] = {}
    """How each action reads, a template over its fields (``{actor} attacks {target}``,
    each character field by name); an action not listed reads "Alex: group task"."""

    choices: ClassVar[Mapping[str, str]] = {}
    """How each answer to a decision reads (``take-blow``: "take the blow")."""

    def __init__(self, names: Names | Mapping[str, str] | None = None) -> None:
        self.names = names if isinstance(names, Names) else Names(names)

    def with_names(self, names: Names | Mapping[str, str] | None) -> Words:
        """The same voice with these names."""
        return type(self)(names)

    # -- values ---------------------------------------------------------------

    def value(self, value: JSONValue) -> str:
        """Any value a change or a detail holds, in words: a character id as its name,
        a list joined, a decision as its prompt, a record by its name or label."""
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, str):
            return self.names(value) if self.names.knows(value) else self.names.say(value)
        if isinstance(value, int | float):
            return str(value)
        if isinstance(value, list):
            if not value:
                return "none"
            if len(value) > 8 and all(isinstance(v, int) for v in value):
                return plural(len(value), "entry", "entries")
            return ", ".join(self.value(v) for v in value)
        if isinstance(value, dict):
            return self.record(value)
        return str(value)

    def record(self, value: Mapping[str, JSONValue]) -> str:
        """A record in words: a decision as its prompt, a thing by its name or label, a
        deck by its cards, else its fields in words."""
        if {"actor", "prompt", "choices"} <= set(value):
            return self.decision(value)
        if {"attacker", "target"} <= set(value):
            weapon = f" ({value['weapon']})" if value.get("weapon") else ""
            who, whom = self.names(value["attacker"]), self.names(value["target"])
            return f"{who}'s attack on {whom}{weapon}"
        for key in ("name", "label", "title"):
            if isinstance(value.get(key), str) and value.get(key):
                return self.names.say(str(value[key]))
        if isinstance(value.get("cards"), list):
            return f"a deck of {plural(len(value['cards']), 'card')}"  # type: ignore[arg-type]
        inner = ", ".join(
            f"{humanize(k)} {self.value(v)}" for k, v in value.items() if v not in (None, "", [])
        )
        return inner or "none"

    # -- prompts and refusals -------------------------------------------------

    def choice(self, name: JSONValue) -> str:
        """An answer to a decision in words."""
        key = str(name)
        return self.choices.get(key) or humanize(key)

    def decision(self, d: Mapping[str, JSONValue] | object) -> str:
        """A decision the rules wait for: "Alex decides: Brad's attack comes in (defend
        or take the blow)"; ``d`` as JSON or a :class:`~referee.systems.state.Decision`."""
        if not isinstance(d, Mapping):
            plain = jsonable(d)
            d = plain if isinstance(plain, dict) else {}
        raw = d.get("choices")
        choices = [self.choice(c) for c in raw] if isinstance(raw, list) else []
        prompt = self.names.say(str(d.get("prompt") or "a decision")).rstrip(".")
        said = all(c.lower() in prompt.lower() for c in choices)  # the prompt names them
        what = f" ({' or '.join(choices)})" if choices and not said else ""
        return f"{self.names(d.get('actor'))} decides: {prompt}{what}"

    def refusal(self, message: str) -> str:
        """Why an action is refused, with the characters' names (the rules' messages are
        already sentences)."""
        return self.names.say(message)

    # -- changes --------------------------------------------------------------

    def field_words(self, target: str, path: str) -> FieldWords:
        """How the field ``path`` of ``target`` (a character id or ``table``) reads."""
        key = f"table.{path}" if target == "table" else path
        last = path.rsplit(".", 1)[-1]
        for found in (
            self.fields.get(key),
            self.fields.get(f"table.{last}" if target == "table" else last),
            TABLE_FIELDS.get(last) if target == "table" else None,
        ):
            if found is not None:
                return found
        return FieldWords(humanize(path))

    def change(self, c: Mapping[str, JSONValue]) -> str:
        """One state change in words: "Alwia spends 1 AP", "Swiftsure is Hurt"."""
        target = str(c.get("target") or "")
        path = str(c.get("field") or "")
        words = self.field_words(target, path)
        who = "the table" if target == "table" else self.names(target)
        delta = c.get("delta")
        value = c.get("value")
        if isinstance(delta, int) and not isinstance(delta, bool):
            template = words.up if delta >= 0 else words.down
            n = abs(delta)
            count = f"{n} {words.many if words.many and n != 1 else words.noun}"
            text = template.format(who=who, n=n, noun=words.noun, value="", count=count)
        elif value in (None, "", [], {}, False):
            text = words.cleared.format(who=who, n="", noun=words.noun, value="", count="")
        else:
            said = self.value(value)
            text = words.to.format(who=who, n="", noun=words.noun, value=said, count="")
        return _sentence(text)

    # -- outcomes -------------------------------------------------------------

    def action(self, name: str, fields: Mapping[str, JSONValue]) -> str:
        """What was done, in words, from the action's name and fields."""
        template = self.actions.get(name)
        values = {k: self.value(v) for k, v in fields.items() if v not in (None, "", [])}
        actor = fields.get("actor")
        if template is not None and "{actor}" in template and not values.get("actor"):
            template = None  # nobody's: the action's name alone ("Check")
        if template is not None:
            try:
                return _sentence(template.format_map(_Missing(values)))
            except (ValueError, IndexError):
                pass
        what = humanize(name)
        return _sentence(f"{self.names(actor)}: {what}" if actor else what)

    def dice(self, outcome: Mapping[str, JSONValue]) -> tuple[DiceGroup, ...]:
        """The outcome's dice by role: here each roll's dice are ``dice`` (a game names
        their roles: :meth:`roles`)."""
        runs = dice_runs(outcome)
        roles = self.roles(outcome, [len(r) for r in runs])
        out: list[DiceGroup] = []
        at = 0
        for run, role in zip(runs, roles, strict=False):
            where = tuple(range(at, at + len(run)))
            at += len(run)
            if isinstance(role, tuple):  # one roll read die by die (ARM's plus and minus)
                for face, i, one in zip(run, where, role, strict=False):
                    out.append(DiceGroup(one, (face,), (i,)))
                continue
            if out and out[-1].role == role:
                last = out[-1]
                out[-1] = DiceGroup(role, last.faces + run, last.at + where)
            else:
                out.append(DiceGroup(role, run, where))
        return tuple(out)

    def roles(
        self, outcome: Mapping[str, JSONValue], sizes: Sequence[int]
    ) -> list[str | tuple[str, ...]]:
        """The role of each roll of the outcome (its dice in the order drawn, ``sizes``
        dice each), or a role per die of one roll. Plain ``dice`` by default."""
        return ["dice"] * len(sizes)

    def numbers(self, outcome: Mapping[str, JSONValue]) -> tuple[str, ...]:
        """The target and the result in words (a game says what they are called)."""
        out = []
        if outcome.get("target") is not None:
            out.append(f"target {outcome['target']}")
        if outcome.get("result") is not None:
            out.append(f"result {outcome['result']}")
        return tuple(out)

    def label(self, outcome: Mapping[str, JSONValue]) -> str:
        """The outcome's label on the game's ladder, with the characters' names."""
        return self.names.say(str(outcome.get("label") or ""))

    def verdict(self, outcome: Mapping[str, JSONValue]) -> str:
        """The label and whether it succeeded, said once: "Definite success"."""
        success = outcome.get("success")
        label = self.label(outcome)
        said = _verdict_word(success)
        if not label:
            return said
        lower = label.lower()
        if not said or said in lower or ("fail" in lower and not success) or "miss" in lower:
            return label
        return f"{label} ({said})"

    def _says_who(self, label: str, did: str) -> bool:
        """Whether ``label`` is a sentence about the character ``did`` names first: it
        starts with their name and goes on in words ("Brad recovers", "Brad: -2 to all
        actions next round")."""
        named = [(did.find(n), n) for n in self.names.known.values() if n in did]
        for _, name in sorted(named)[:1]:
            rest = label[len(name) :] if label.startswith(name) else None
            if rest is not None and re.match(r"(\s[A-Za-z]|'s\s|:\s)", rest):
                return True
        return False

    def outcome(
        self,
        outcome: Mapping[str, JSONValue],
        action: str = "",
        fields: Mapping[str, JSONValue] | None = None,
    ) -> OutcomeWords:
        """A resolved action in words (:class:`OutcomeWords`)."""
        name = action or str(outcome.get("action") or "")
        did = self.action(name, fields or {})
        verdict = self.verdict(outcome)
        label = self.label(outcome)
        success = outcome.get("success")
        if label and (
            did.lower().rstrip(".") in label.lower()
            or (success is None and self._says_who(label, did))
        ):
            did = _sentence(label)  # the label is a whole sentence already: "Brad recovers"
            verdict = _verdict_word(success)
        sentence = f"{did.rstrip('.')}: {verdict}" if verdict else did
        mods = outcome.get("modifiers")
        modifiers = tuple(
            f"{m['value']:+d} {self.names.say(str(m.get('source', '')))}".strip()
            for m in (mods if isinstance(mods, list) else [])
            if isinstance(m, dict) and isinstance(m.get("value"), int)
        )
        raw = outcome.get("changes")
        changes = [c for c in (raw if isinstance(raw, list) else []) if isinstance(c, dict)]
        waits = [c for c in changes if c.get("target") == "table" and c.get("field") == "pending"]
        waiting: list[str] = []
        for c in waits:
            value = c.get("value")
            waiting += [
                self.decision(d)
                for d in (value if isinstance(value, list) else [])
                if isinstance(d, dict)
            ]
        said = tuple(self.change(c) for c in changes if c not in waits and c.get("delta") != 0)
        return OutcomeWords(
            sentence=_sentence(sentence),
            did=did,
            dice=self.dice(outcome),
            modifiers=modifiers,
            numbers=self.numbers(outcome),
            changes=tuple(dict.fromkeys(said)),
            waiting=tuple(_sentence(w) for w in waiting),
            verdict=verdict,
        )


class _Missing(dict[str, str]):
    """Template values where a field not given reads as nothing (then trimmed)."""

    def __missing__(self, key: str) -> str:
        return "someone" if key in ("actor", "target") else ""


def _verdict_word(success: JSONValue) -> str:
    return "success" if success is True else "failure" if success is False else ""


def _sentence(text: str) -> str:
    """``text`` tidied: spaces collapsed, an empty bracket or a dangling word dropped,
    the first letter raised."""
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"\s+(with|a|on|against|from)\s*$", "", text.strip())
    text = re.sub(r"\s+", " ", text).strip().rstrip(",;:").strip()
    return text[:1].upper() + text[1:] if text else text


def dice_runs(outcome: Mapping[str, JSONValue]) -> list[tuple[str, ...]]:
    """The outcome's dice, each as shown ("5", "2 dropped"), split by the rolls that drew
    them (one run for dice entered by hand or rolled at once)."""
    faces = outcome.get("faces")
    shown: list[str] = []
    for f in faces if isinstance(faces, list) else []:
        if not isinstance(f, dict):
            continue
        worth = f.get("value")
        if worth is None:
            worth = f.get("face")
        notes = ([] if f.get("kept", True) else ["dropped"]) + [
            k for k in ("rerolled", "exploded") if f.get(k)
        ]
        shown.append(f"{worth}" + (f" ({', '.join(notes)})" if notes else ""))
    rolls = outcome.get("rolls")
    sizes = [
        len(faces_of)
        for r in (rolls if isinstance(rolls, list) else [])
        if isinstance(r, dict) and isinstance(faces_of := r.get("faces"), list)
    ]
    runs: list[tuple[str, ...]] = []
    at = 0
    if sum(sizes) == len(shown):
        for n in sizes:
            runs.append(tuple(shown[at : at + n]))
            at += n
    elif shown:
        runs.append(tuple(shown))
    return [r for r in runs if r]


WORDS: Final = Words()
"""The plain default, for a game without a ``words.py``."""


def names_in(characters: Mapping[str, object], *values: JSONValue) -> dict[str, str]:
    """The names of the seated ``characters`` (by id) whose id appears anywhere in
    ``values`` (an action's fields, an outcome's changes and details), for an event to
    carry beside the ids it holds, so it reads with names wherever it is shown."""
    found: dict[str, str] = {}
    if not characters:  # nobody seated: no id to find (a table's checks before anyone sits)
        return found

    def visit(value: JSONValue) -> None:
        kind = type(value)
        if kind is int or kind is float or kind is bool or value is None:
            return  # the most common leaves, quickly
        if kind is dict:  # JSON's objects (a Mapping below also reads other mappings)
            for k, v in value.items():  # type: ignore[union-attr]
                visit(k)
                visit(v)
        elif kind is list:
            for v in value:  # type: ignore[union-attr]
                visit(v)
        elif isinstance(value, str):
            if value in characters and value not in found:
                sheet = getattr(characters[value], "sheet", None)
                name = getattr(sheet, "name", None)
                if isinstance(name, str) and name:
                    found[value] = name
        elif isinstance(value, Mapping):
            for k, v in value.items():
                visit(k)
                visit(v)
        elif isinstance(value, list | tuple):
            for v in value:
                visit(v)

    for v in values:
        visit(v)
    return found
