"""Chat commands: a line typed in the chat read as a roll or one of the game's actions.

One reading for every game, derived from the action declarations (the ``param`` fields
of each :class:`~referee.systems.base.Action`, as
:func:`~referee.systems.records.describe_fields` describes them); nothing here names a
game. The web chat sends what is typed to the table's ``commands`` endpoint and the
action read from it goes through :class:`~referee.table.service.TableService` exactly as
the action panel's does (the same checks, the same visibility rules).

The language, as a player types it:

* ``/r EXPR [label]`` (or ``/roll``): the dice tray's roll of ``EXPR`` (written without
  spaces: ``4d6kh3``, ``2d6+1``) for everyone; ``/gr`` the same for the referee's eyes
  (a player's roll goes to them and the referee, a referee's to the referees only);
  ``/br`` blind (only the referee sees the result; a referee's roll is secret).
* ``/ACTION word word ...``: the game's action by its name (``/task Fitness 6``,
  ``/attack brad sword``). Each word fills the first field it fits, in the order the
  action declares them: a character's name or id one naming a character, a choice the
  field offers, a whole number a number, a name from the sheets (a Talent, a stat, a
  weapon) the field that takes it, a boolean field's own name sets it; any other word,
  the first free text field. ``field=value`` sets a field by its name (``difficulty=7``,
  ``check.skill=Melee``, quoted when it has spaces). A name of several words may be
  typed without quotes (``Gun Combat``).

:func:`parse` reads a line (a :class:`CommandError` says what is wrong and at which
word); :func:`complete` lists what may come next for completion as one types.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from referee.errors import RulesError
from referee.systems.outcome import JSONObject, JSONValue
from referee.systems.records import data_from_pairs, describe_fields

DICE: Final = ("r", "roll", "gr", "br")
"""The dice commands: ``/r`` and ``/roll`` for everyone, ``/gr`` for the referee's eyes,
``/br`` blind."""

MAX_LINE: Final = 1000
"""The longest command line read (a chat message may be longer; a command is not)."""

_JOIN: Final = 4
"""The most words a name without quotes is joined from (``Diabolic Power``)."""

_POSITIONAL: Final = ("integer", "string", "choice", "boolean")


class CommandError(RulesError):
    """A command line that cannot be read: ``word`` is the 1-based word at fault (0: the
    line as a whole), ``column`` where it starts in the line."""

    def __init__(self, message: str, word: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.word = word
        self.column = column


@dataclass(frozen=True)
class Spec:
    """What a command may refer to at one table, for one participant: the characters (id
    -> name), the character they act as by default (``actor``), whether they are a
    referee, and names a text field is offered from the sheets (field -> names: a
    Talent, a stat, a weapon), by :func:`referee.web.views.field_suggestions`."""

    characters: Mapping[str, str]
    actor: str | None = None
    referee: bool = False
    names: Mapping[str, Sequence[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Command:
    """A line read: the action's name, its fields, the visibility asked for (``None``: the
    table's default) and, for people, what each word was read as (``(field, value)``)."""

    action: str
    fields: JSONObject
    visibility: str | None = None
    reading: tuple[tuple[str, str], ...] = ()

    def data(self) -> JSONObject:
        """The command as JSON."""
        return {
            "action": self.action,
            "fields": self.fields,
            "visibility": self.visibility,
            "reading": [{"field": f, "value": v} for f, v in self.reading],
        }


# ---------------------------------------------------------------------------
# which actions a participant may type


def _kinds(rules: Any) -> dict[str, Any]:
    every: dict[str, Any] = rules.every_action()
    return every


def _free(rules: Any) -> str | None:
    for name, kind in _kinds(rules).items():
        if getattr(kind, "free", False):
            return name
    return None


def _typable(rules: Any, referee: bool) -> dict[str, Any]:
    """The actions a participant may type: a player a character's (an ``actor`` field,
    not the referee's), a referee every one; the free one is ``/r``'s."""
    out: dict[str, Any] = {}
    for name, kind in _kinds(rules).items():
        if getattr(kind, "free", False):
            continue
        names = {d["name"] for d in describe_fields(kind)}
        if referee or ("actor" in names and not getattr(kind, "referee_only", False)):
            out[name] = kind
    return out


def command_names(rules: Any, referee: bool) -> list[tuple[str, str]]:
    """Every command a participant may type, with a line saying what it does."""
    out = [
        ("r", "roll dice for everyone: /r 4d6kh3 strength"),
        ("roll", "the same as /r"),
        ("gr", "roll dice for the referee's eyes only"),
        ("br", "roll dice blind: only the referee sees the result"),
    ]
    for name, kind in _typable(rules, referee).items():
        doc = (kind.__doc__ or "").strip().split("\n")[0].replace("``", "").rstrip(".:")
        out.append((name, doc))
    return out


# ---------------------------------------------------------------------------
# reading a line


@dataclass
class _Word:
    text: str
    index: int  # 1-based
    column: int


def _split(line: str) -> list[_Word]:
    try:
        lex = shlex.shlex(line, posix=True, punctuation_chars=False)
        lex.whitespace_split = True
        lex.commenters = ""
        texts = list(lex)
    except ValueError as e:
        raise CommandError(f"the line cannot be read: {e} (a quote left open?)") from None
    words: list[_Word] = []
    at = 0
    for i, text in enumerate(texts, start=1):
        first = text[:1] or '"'
        found = line.find(first, at)
        column = found if found >= 0 else at
        words.append(_Word(text, i, column))
        at = column + max(len(text), 1)
    return words


def _visibility(command: str, referee: bool) -> str:
    if command == "gr":
        return "referee" if referee else "private"
    if command == "br":
        return "referee" if referee else "blind"
    return "public"


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _character(text: str, characters: Mapping[str, str]) -> str | None:
    want = _fold(text)
    for cid, name in characters.items():
        if want in (_fold(cid), _fold(name)):
            return cid
    return None


def _words(name: str) -> str:
    return name.replace("_", " ").replace(".", " ")


def parse(line: str, rules: Any, spec: Spec) -> Command:
    """Read a command line for the game ``rules`` (:class:`CommandError` if it cannot be
    read: an unknown command, a word no field takes, a value of the wrong kind)."""
    text = line.strip()
    if len(text) > MAX_LINE:
        raise CommandError(f"a command is at most {MAX_LINE} characters")
    if not text.startswith("/"):
        raise CommandError("a command starts with /: /r 2d6, or one of the game's actions")
    words = _split(text[1:])
    if not words or not words[0].text:
        raise CommandError("which command? /r 2d6, or one of the game's actions", 1, 0)
    for w in words:
        w.column += 1
    head, rest = words[0], words[1:]
    verb = head.text.casefold()
    if verb in DICE:
        return _dice(verb, rest, rules, spec)
    typable = _typable(rules, spec.referee)
    name = verb.replace("_", "-")
    if name not in typable:
        near = sorted(n for n in typable if n.startswith(name[:2]))
        hint = f"; did you mean {', '.join('/' + n for n in near[:4])}?" if near else ""
        raise CommandError(
            f"/{head.text}: no such command at this table{hint} (/r rolls dice; the "
            f"game's actions: {', '.join('/' + n for n in typable)})",
            1,
            head.column,
        )
    return _action(name, typable[name], rest, spec)


def _dice(verb: str, rest: list[_Word], rules: Any, spec: Spec) -> Command:
    free = _free(rules)
    if free is None:
        raise CommandError("this game has no dice tray", 1, 0)
    described = describe_fields(_kinds(rules)[free])
    texts = [d for d in described if d["type"] == "string"]
    if not rest:
        raise CommandError(f"/{verb} what? write the dice after it: /{verb} 2d6", 1, 0)
    fields: JSONObject = {str(texts[0]["name"]): rest[0].text}
    reading = [(_words(str(texts[0]["name"])), rest[0].text)]
    if len(rest) > 1 and len(texts) > 1:
        label = " ".join(w.text for w in rest[1:])
        fields[str(texts[1]["name"])] = label
        reading.append((_words(str(texts[1]["name"])), label))
    return Command(free, fields, _visibility(verb, spec.referee), tuple(reading))


@dataclass
class _Slot:
    desc: JSONObject

    @property
    def name(self) -> str:
        return str(self.desc["name"])

    @property
    def kind(self) -> str:
        return str(self.desc.get("type"))


def _slots(kind: Any) -> list[_Slot]:
    return [_Slot(d) for d in describe_fields(kind) if d.get("type") in _POSITIONAL]


def _names_for(slot: _Slot, spec: Spec) -> list[str]:
    if slot.desc.get("ref") == "character":
        return list(spec.characters.values())
    choices = slot.desc.get("choices")
    if isinstance(choices, list):
        return [str(c) for c in choices]
    if slot.kind == "string":
        return [str(n) for n in spec.names.get(slot.name, ())]
    return []


def _fits(slot: _Slot, text: str, spec: Spec) -> JSONValue | None:
    """The value ``text`` gives ``slot``, or ``None`` if it does not fit it by its kind
    (free text is not tried here: :func:`_action` gives it last)."""
    if slot.desc.get("ref") == "character":
        return _character(text, spec.characters)
    if slot.kind == "choice":
        choices = slot.desc.get("choices")
        for c in choices if isinstance(choices, list) else []:
            if _fold(str(c)) == _fold(text):
                return c if isinstance(c, str | int) else str(c)
        return None
    if slot.kind == "integer":
        try:
            return int(text)
        except ValueError:
            return None
    if slot.kind == "boolean":
        folded = _fold(text).replace(" ", "_").replace("-", "_")
        if folded == slot.name:
            return True
        if folded in (f"no_{slot.name}", f"not_{slot.name}"):
            return False
        return None
    if slot.kind == "string":
        for n in _names_for(slot, spec):
            if _fold(n) == _fold(text):
                return n
    return None


def _action(name: str, kind: Any, rest: list[_Word], spec: Spec) -> Command:
    slots = _slots(kind)
    named = {s.name for s in slots}
    fields: JSONObject = {}
    reading: list[tuple[str, str]] = []
    pairs: list[str] = []
    loose: list[_Word] = []
    for w in rest:
        key, sep, _value = w.text.partition("=")
        if sep and key and " " not in key:
            pairs.append(w.text)
            try:
                data_from_pairs(kind, [w.text])
            except RulesError as e:
                raise CommandError(f"word {w.index} ({w.text}): {e}", w.index, w.column) from None
        else:
            loose.append(w)
    explicit = data_from_pairs(kind, pairs) if pairs else {}
    for key, value in explicit.items():
        fields[key] = value
        reading.append((_words(key), _shown(value)))
    if "actor" in named and "actor" not in fields and spec.actor is not None:
        fields["actor"] = spec.actor
    i = 0
    while i < len(loose):
        placed = False
        # the longest run of words that names something a field takes (a name of
        # several words without quotes), then the word alone
        for size in range(min(_JOIN, len(loose) - i), 0, -1):
            text = " ".join(w.text for w in loose[i : i + size])
            for slot in slots:
                if slot.name in fields:
                    continue
                value = _fits(slot, text, spec)
                if value is not None:
                    fields[slot.name] = value
                    reading.append((_words(slot.name), _shown(value)))
                    i += size
                    placed = True
                    break
            if placed:
                break
        if placed:
            continue
        w = loose[i]
        # any other word: the first free text field the sheets offer no names for (a
        # field that has names, a stat or a weapon, takes one of them, or field=value)
        free = [
            s
            for s in slots
            if s.kind == "string"
            and s.name not in fields
            and s.desc.get("ref") != "character"
            and not _names_for(s, spec)
        ]
        if not free:
            raise CommandError(
                f"word {w.index} ({w.text}): no field of /{name} left takes it; "
                f"{_help(kind, spec)}",
                w.index,
                w.column,
            )
        fields[free[0].name] = w.text
        reading.append((_words(free[0].name), w.text))
        i += 1
    if "actor" in named and "actor" not in fields:
        raise CommandError(
            f"/{name}: who acts? add actor=NAME (the characters: "
            f"{', '.join(spec.characters.values()) or 'nobody is seated'})",
            0,
            0,
        )
    return Command(name, fields, None, tuple(reading))


def _shown(value: JSONValue) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict | list):
        return (
            ", ".join(f"{k} {_shown(v)}" for k, v in value.items())
            if isinstance(value, dict)
            else ", ".join(_shown(v) for v in value)
        )
    return str(value)


def _help(kind: Any, spec: Spec) -> str:
    parts = []
    for slot in _slots(kind):
        if slot.name == "actor" and spec.actor is not None:
            continue
        names = _names_for(slot, spec)
        what = (
            "a character"
            if slot.desc.get("ref") == "character"
            else f"one of {', '.join(names[:6])}"
            if names
            else {"integer": "a number", "boolean": "its name", "string": "text"}.get(
                slot.kind, slot.kind
            )
        )
        parts.append(f"{_words(slot.name)} ({what})")
    return "its fields: " + "; ".join(parts) if parts else "it takes no words"


# ---------------------------------------------------------------------------
# completion


@dataclass(frozen=True)
class Option:
    """One completion: the text that replaces the word being typed, and what it is."""

    value: str
    label: str

    def data(self) -> JSONObject:
        """The option as JSON."""
        return {"value": self.value, "label": self.label}


MAX_OPTIONS: Final = 12


def complete(line: str, rules: Any, spec: Spec) -> tuple[int, list[Option]]:
    """What may replace the word being typed at the end of ``line``: ``(start, options)``,
    ``start`` the column the word begins at. Commands first, then for an action the
    characters, choices, sheet names and field names its free fields take, once the
    word's first letter is typed."""
    if not line.startswith("/") or len(line) > MAX_LINE:
        return 0, []
    body = line[1:]
    if " " not in body:
        want = body.casefold()
        found = [
            Option("/" + name, doc)
            for name, doc in command_names(rules, spec.referee)
            if name.startswith(want)
        ]
        return 0, found[:MAX_OPTIONS]
    start = line.rfind(" ") + 1
    partial = line[start:]
    verb = body.split(None, 1)[0].casefold().replace("_", "-")
    if verb in DICE or not partial:  # nothing typed of the next word yet: nothing offered
        return start, []
        return start, []
    kind = _typable(rules, spec.referee).get(verb)
    if kind is None:
        return start, []
    try:
        done = parse(line[:start], rules, spec).fields
    except CommandError:
        done = {}
    want = _fold(partial)
    out: list[Option] = []
    seen: set[str] = set()
    for slot in _slots(kind):
        if slot.name in done:
            continue
        values = _names_for(slot, spec)
        if slot.kind == "boolean":
            values = [slot.name]
        for v in values:
            if _fold(v).startswith(want) and _fold(v) != want and v.casefold() not in seen:
                seen.add(v.casefold())
                out.append(Option(v, _words(slot.name)))
        key = slot.name + "="
        if want and key.startswith(want) and key not in seen:
            seen.add(key)
            out.append(Option(key, f"set {_words(slot.name)}"))
    return start, out[:MAX_OPTIONS]


__all__ = [
    "DICE",
    "Command",
    "CommandError",
    "Option",
    "Spec",
    "command_names",
    "complete",
    "parse",
]


# ---------------------------------------------------------------------------
# a roll request: /request ACTION words [difficulty] [secret] [@who ...]

REQUEST: Final = "request"
"""The referee's command that asks characters for a roll (:mod:`referee.table.requests`)."""

_ROLLS_SEEN: Final = ("public", "blind", "private")


@dataclass(frozen=True)
class RequestLine:
    """A ``/request`` line read: the action, its fields (no actor), who is asked (words as
    typed: characters or participants; none, every player's characters), the difficulty
    (a number, or ``None``: the action's default), whether it is secret, who sees the
    rolls, and what each word was read as."""

    action: str
    fields: JSONObject
    characters: tuple[str, ...]
    difficulty: int | None
    secret: bool
    visibility: str
    reading: tuple[tuple[str, str], ...] = ()

    def data(self) -> JSONObject:
        """The request as JSON."""
        return {
            "action": self.action,
            "fields": self.fields,
            "characters": list(self.characters),
            "difficulty": self.difficulty,
            "secret": self.secret,
            "visibility": self.visibility,
            "reading": [{"field": f, "value": v} for f, v in self.reading],
        }


def is_request(line: str) -> bool:
    """Whether ``line`` is a ``/request`` command."""
    head = line.strip()[1:].split(maxsplit=1)
    return line.strip().startswith("/") and bool(head) and head[0].casefold() == REQUEST


def parse_request(line: str, rules: Any, spec: Spec) -> RequestLine:
    """Read ``/request ACTION word ... [DIFFICULTY] [secret] [@who ...]`` (the referee's):
    ``secret`` keeps the difficulty from the players; ``@Ann`` asks a participant's
    characters or one character by name (none: every player's); ``blind`` or ``private``
    says who sees the rolls of an open difficulty; the difficulty is a whole number or a
    difficulty the game's text names (``Tough``, ``"Very Difficult"``) where the action
    declares one (:mod:`referee.systems.difficulty`); the other words fill the action's
    fields as for ``/ACTION`` (:func:`parse`)."""
    from referee.systems.difficulty import of_action, request_example

    text = line.strip()
    if len(text) > MAX_LINE:
        raise CommandError(f"a command is at most {MAX_LINE} characters")
    if not spec.referee:
        raise CommandError("only the referee asks for rolls", 1, 1)
    words = _split(text[1:])
    for w in words:
        w.column += 1
    if len(words) < 2:
        example = request_example(rules) or "ACTION ... DIFFICULTY secret @Ann"
        raise CommandError(f"/request ACTION ...: which action? (/request {example})", 1, 1)
    name = words[1].text.casefold().replace("_", "-")
    kinds = _kinds(rules)
    rolled = [n for n, k in kinds.items() if "actor" in {d["name"] for d in describe_fields(k)}]
    rolled = [n for n in rolled if not getattr(kinds[n], "free", False)]
    if name not in rolled:
        raise CommandError(
            f"/request {words[1].text}: not a character's roll; ask for one of: "
            f"{', '.join(rolled)}",
            2,
            words[1].column,
        )
    decl = of_action(rules, name)
    secret = False
    shown = "public"
    asked: list[str] = []
    reading: list[tuple[str, str]] = []
    rest: list[_Word] = []
    for w in words[2:]:
        folded = w.text.casefold()
        if folded == "secret":
            secret = True
            reading.append(("difficulty", "secret"))
        elif folded in _ROLLS_SEEN:
            shown = folded
            reading.append(("rolls seen", folded))
        elif w.text.startswith("@") and len(w.text) > 1:
            asked.append(w.text[1:])
            reading.append(("asks", w.text[1:]))
        else:
            rest.append(w)
    difficulty: int | None = None
    if decl is not None:
        difficulty, rest = _difficulty(decl, rest, reading)
    elif secret:
        raise CommandError(f"/request {name}: this action declares no difficulty to keep secret")
    if secret and difficulty is None:
        raise CommandError(
            "a secret difficulty needs its number or its name: /request ... 8 secret"
        )
    acting = Spec(spec.characters, "\0", True, spec.names)
    read = _action(name, kinds[name], rest, acting)
    fields = {k: v for k, v in read.fields.items() if k != "actor"}
    if decl is not None and decl.field in fields and difficulty is None:
        raw = fields.pop(decl.field)
        difficulty = raw if isinstance(raw, int) and not isinstance(raw, bool) else None
    reading += [r for r in read.reading if r[0] != "actor"]
    return RequestLine(name, fields, tuple(asked), difficulty, secret, shown, tuple(reading))


def _difficulty(
    decl: Any, rest: list[_Word], reading: list[tuple[str, str]]
) -> tuple[int | None, list[_Word]]:
    """The difficulty among the loose words: a name the text gives (of one or two words),
    else the last bare whole number; the words left."""
    for size in (2, 1):
        for i in range(len(rest) - size + 1):
            value = decl.read(" ".join(w.text for w in rest[i : i + size]))
            if value is not None:
                reading.append((_words(decl.field), decl.label(value)))
                return value, rest[:i] + rest[i + size :]
    for i in range(len(rest) - 1, -1, -1):
        text = rest[i].text
        if text.lstrip("+-").isdigit() and "=" not in text:
            value = int(text)
            reading.append((_words(decl.field), decl.label(value)))
            return value, rest[:i] + rest[i + 1 :]
    return None, rest
