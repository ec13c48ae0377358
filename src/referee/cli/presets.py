"""A game's commands as declarations over the generic path.

Every game gets ``actions``, ``act`` and ``odds-of`` from its action table alone. A
:class:`Preset` adds a command users know (``referee mneme check -m 2``) as flags ->
the action's fields, plus how its outcome reads: the command loads the table's
options and state, fills the action from the flags, has the ruleset check it (bounds,
choices and rules are the fields' own), then resolves it (or, ``odds=True``, gives its
exact distribution) and prints the renderer's text or JSON. Help text comes from the
fields' own docs (``param``); a flag says only what differs from its field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from dataclasses import field as record_field
from typing import Any, Final, Literal

import click

from referee.cli.bestiary import bestiary_command
from referee.cli.common import (
    FACES_HELP,
    OPTIONS_HELP,
    SEAT_HELP,
    SEED_HELP,
    STATE_HELP,
    all_faces_used,
    console,
    emit_json,
    faces_option,
    handle_errors,
    load_options,
    load_state,
    make_roller,
    odds_lines,
    outcome_text,
    print_odds,
    sheet_from,
    write_json_file,
)
from referee.cli.helps import Summed
from referee.cli.main import GROUPS
from referee.dice.roller import Roller
from referee.dice.rolling import check_faces_for
from referee.errors import IllegalAction, InvalidSheet, RulesError
from referee.systems.base import (
    Action,
    GameState,
    Outcome,
    Ruleset,
    data_from_pairs,
    describe_fields,
    get,
    outcome_data,
    problem_data,
    slug,
)
from referee.systems.records import build_record

Values = Mapping[str, Any]
"""Every flag's value by its key (``None`` / ``()`` when not given)."""

Rules = Ruleset[Any, Any, Any]
"""A game's ruleset, whichever game."""


@dataclass(frozen=True)
class Run:
    """What a command works on, built up as it runs: the game's ``ruleset``, the flags'
    ``values``, the table's ``options`` and ``state`` as the flags leave them, the
    ``action`` built from the flags, ``after``: the state once it is resolved, and
    ``seated``: where each sheet flag seated its sheet (flag key -> character id).
    Every hook of a :class:`Preset` and every renderer reads it."""

    ruleset: Rules
    values: Values
    options: Any = None
    state: GameState[Any] | None = None
    action: Action | None = None
    after: GameState[Any] | None = None
    seated: Mapping[str, str] = record_field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        """A flag's value by its key."""
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        """A flag's value, or ``default`` when the command has no such flag."""
        return self.values.get(key, default)

    @property
    def table(self) -> GameState[Any]:
        """The state the action is taken on (set before any hook reads it)."""
        assert self.state is not None, "the table is loaded before the hooks run"
        return self.state

    @property
    def acting(self) -> Action:
        """The action built from the flags (set before it is weighed or resolved)."""
        assert self.action is not None, "the action is built before it is weighed"
        return self.action

    def weigh(self) -> Any:
        """The action's exact distribution on this table (the ruleset's ``odds``)."""
        return self.ruleset.odds(self.acting, self.table, self.options)


Render = Callable[[Any, Run], Any]
"""What a command prints: the outcome (or distribution) and the run -> text (or a list
of printables: lines and tables, see :func:`show`), or JSON data."""

PARTS: Final = ("action", "after", "options", "state", "weigh")
"""What :func:`on` reads from the :class:`Run` rather than the flags (``weigh``: the
action's exact distribution)."""


def on(render: Callable[..., Any], *keys: str) -> Render:
    """A function as a renderer: ``render(result, *read)``, each of ``keys`` read from the
    run: one of :data:`PARTS`, else a flag's value."""

    def read(result: Any, run: Run) -> Any:
        return render(result, *(_part(run, k) if k in PARTS else run[k] for k in keys))

    return read


def _part(run: Run, key: str) -> Any:
    """One of :data:`PARTS` of ``run``."""
    return run.weigh() if key == "weigh" else getattr(run, key)


@dataclass(frozen=True)
class Flag:
    """One command-line input: an option or argument that fills a field of the action
    (``field``, dotted for a nested record), one of the table's options (``into =
    "options"``), a character's sheet seated under ``seat``, or an extra value the
    preset's ``build`` reads (``field=""``)."""

    field: str
    names: tuple[str, ...] = ()
    read: Callable[[Any], Any] | None = None
    help: str | None = None
    kind: str = ""
    default: Any = None
    argument: bool = False
    into: str = "action"
    seat: str = ""
    sets: Mapping[str, Any] = record_field(default_factory=dict)
    named_by: str = ""

    @property
    def key(self) -> str:
        """The Python name click passes the value under."""
        named = [n for n in self.names if not n.startswith("-")]
        if named:
            return named[0]
        long = [n for n in self.names if n.startswith("--")]
        base = long[0][2:] if long else (self.seat or self.field.rsplit(".", 1)[-1])
        return base.replace("-", "_")

    @property
    def shown(self) -> str:
        """The name a user types for it (``--rounds``, an argument's name): errors use it."""
        long = [n for n in self.names if n.startswith("--")]
        return self.key if self.argument else (long or ["--" + self.key.replace("_", "-")])[0]


def flag(field: str, *names: str, **how: Any) -> Flag:
    """An option filling ``field``; ``names`` replace ``--field-name`` (a short ``-m``
    adds to it). ``read`` turns the text into the field's value; ``kind`` is ``flag``,
    ``int``, ``many`` (repeatable), ``text`` or ``switch`` (``--x/--no-x``) when the
    field's type does not say."""
    return Flag(field, names, **how)


def arg(field: str, **how: Any) -> Flag:
    """A positional argument filling ``field`` (``kind="many"`` for several words)."""
    return Flag(field, argument=True, **how)


def option(name: str, *names: str, **how: Any) -> Flag:
    """A flag that sets one of the table's options (``--randomizer``)."""
    return Flag(name, names, into="options", **how)


NAME: Final = "{name}"
"""A sheet seated under its character's name."""
SLUG: Final = "{slug}"
"""A sheet seated under its character's name as an id (``Vooruk Fang`` -> ``vooruk-fang``)."""


def sheet(
    cid: str,
    *names: str,
    sets: Mapping[str, Any] | None = None,
    named_by: str = "",
    **how: Any,
) -> Flag:
    """A sheet file (or ``example:NAME``, or ``-``) seated as ``cid`` (:data:`NAME`,
    :data:`SLUG`: by its character's name), or as the value of the flag ``named_by`` when
    that is given; ``sets`` fills fields of the action when the sheet is given
    (``{"actor": "pc"}``). Every sheet a command reads is seated this one way."""
    how.setdefault("kind", "text")
    return Flag("", names, seat=cid, sets=sets or {}, named_by=named_by, **how)


@dataclass(frozen=True)
class Between:
    """A rule between a command's flags (by key), checked before anything is read:
    ``kind`` ``exclusive`` (at most one of ``keys``), ``one`` (exactly one), ``needs``
    (the first goes only with one of the others) or ``without`` (the first with none of
    the others)."""

    kind: Literal["exclusive", "one", "needs", "without"]
    keys: tuple[str, ...]
    why: str = ""


def not_both(*keys: str, why: str = "") -> Between:
    """At most one of the flags ``keys`` (``why`` says why, for the refusal)."""
    return Between("exclusive", keys, why)


def one_of(*keys: str, why: str = "") -> Between:
    """Exactly one of the flags ``keys``."""
    return Between("one", keys, why)


def goes_with(key: str, *others: str, why: str = "") -> Between:
    """The flag ``key`` only with one of ``others``."""
    return Between("needs", (key, *others), why)


def goes_without(key: str, *others: str, why: str = "") -> Between:
    """The flag ``key`` with none of ``others``."""
    return Between("without", (key, *others), why)


ODDS = Flag(
    "", ("--odds", "show_odds"), kind="flag", help="Show the exact odds instead of rolling."
)
"""The one ``--odds`` flag: a preset with ``offers_odds`` weighs its action when given."""


@dataclass(frozen=True)
class Preset:
    """One command: its name, the action it builds and the flags that fill it.

    What it does is declared: ``odds`` (it weighs the action instead of rolling it) or
    ``offers_odds`` (the :data:`ODDS` flag chooses), ``table`` (it reads and may save a
    table's state: ``--state``, ``--seat``, ``--save``), ``out`` (the seat whose sheet
    ``--out`` writes, or a function of the run naming it), ``exact_faces`` (typed-in
    faces must be exactly the dice the action rolls first), ``strict`` (the fields come as
    untyped text, ``act``: read as untrusted JSON), ``between`` (rules between flags:
    :func:`not_both`, :func:`one_of`, :func:`goes_with`), ``also`` (other actions the
    flags may fill, ``choose`` picks one from the run), ``hide`` (fields of the action the
    command does not offer), ``context`` (click's settings: ``ignore_unknown_options``
    reads ``-3`` as an argument). How its result reads: ``data`` (the outcome's JSON, or
    with ``odds`` the distribution's) and ``odds_data`` (the odds' JSON when not as
    ``data``); its text is always the game's words, as the log says the outcome, or the
    odds' JSON laid out by :func:`~referee.cli.common.odds_lines`.

    Its hooks, each given the :class:`Run`: ``prepare`` (the table as the flags leave it:
    stand-ins for the numbers given, cards already drawn), ``build`` (the action's data
    from the flags, for inputs the fields do not hold one for one), ``roller`` (the dice
    from typed-in input the game reads: cards, spoken numbers) and ``weigh`` (the odds,
    when they are not the ruleset's ``odds`` of the action)."""

    name: str
    action: str
    flags: tuple[Flag, ...] = ()
    help: str = ""
    odds: bool = False
    offers_odds: bool = False
    data: Render | None = None
    odds_data: Render | None = None
    table: bool = True
    out: str | Callable[[Run], str] | None = None
    exact_faces: bool = False
    strict: bool = False
    between: tuple[Between, ...] = ()
    also: tuple[str, ...] = ()
    choose: Callable[[Run], str] | None = None
    hide: tuple[str, ...] = ()
    context: Mapping[str, Any] = record_field(default_factory=dict)
    prepare: Callable[[Run], GameState[Any]] | None = None
    build: Callable[[dict[str, Any], Run], dict[str, Any]] | None = None
    roller: Callable[[Run], Roller | None] | None = None
    weigh: Callable[[Run], Any] | None = None

    @property
    def all_flags(self) -> tuple[Flag, ...]:
        """Its flags, with :data:`ODDS` when it offers the odds."""
        return (*self.flags, ODDS) if self.offers_odds else self.flags


def weighing(weigh: Callable[[Rules, Action, GameState[Any], Any], Any]) -> Callable[[Run], Any]:
    """A ``weigh`` hook from a game's function of the ruleset, action, state and options."""
    return lambda run: weigh(run.ruleset, run.acting, run.table, run.options)


def seating(make: Callable[[Run], Mapping[str, Any]]) -> Callable[[Run], GameState[Any]]:
    """A ``prepare`` hook that seats the sheets ``make`` makes from the run (stand-ins
    carrying the numbers given), by id."""

    def prepare(run: Run) -> GameState[Any]:
        state = run.table
        for cid, made in make(run).items():
            state = run.ruleset.seat(state, cid, made, run.options)
        return state

    return prepare


def _common(names: str, help: str, kind: str = "text") -> Flag:
    return Flag("", tuple(names.split()), help=help, kind=kind)


_COMMON: tuple[Flag, ...] = (
    _common("--options options_file", OPTIONS_HELP),
    _common("--state state_file", STATE_HELP),
    _common("--seat", SEAT_HELP, "many"),
    _common("--save", "Write the state after the action here."),
    _common("--faces", FACES_HELP),
    _common("--seed", SEED_HELP, "int"),
    _common("--out", "Write the character's sheet as the outcome leaves it (JSON)."),
    _common("--json as_json", "Print machine-readable JSON instead of text.", "flag"),
)
"""What every command may take; a preset's own flag of the same name wins."""


def _field_in(kinds: Sequence[type], path: str) -> dict[str, Any]:
    """The described field at a dotted ``path`` of the first of ``kinds`` that has it."""
    for kind in kinds:
        found: Any = {"fields": describe_fields(kind)}
        for part in path.split("."):
            found = next((f for f in found.get("fields") or () if f["name"] == part), None)
            if found is None:
                break
        if found is not None:
            return dict(found)
    raise RuntimeError(f"{kinds[0].__name__} has no field {path!r}")  # a preset's bug


def _param(f: Flag, described: dict[str, Any] | None) -> click.Parameter:
    """The click option or argument for one flag."""
    kind = f.kind or {"boolean": "flag", "integer": "int", "list": "many"}.get(
        str((described or {}).get("type")), "text"
    )
    if f.read is not None and kind == "int":
        kind = "text"
    doc = f.help if f.help is not None else str((described or {}).get("doc") or "")
    if described is not None and "default" in described and kind != "flag" and f.help is None:
        shown = described["default"]
        if shown not in (None, "", [], 0) or (kind == "int" and shown is not None):
            doc += f" (default: {shown})"
    doc += " (repeatable)" if kind == "many" and not f.argument and f.help is None else ""
    names = [n for n in f.names if n.startswith("-")]
    if not any(n.startswith("--") for n in names):
        names.insert(0, f.shown)
    if kind == "switch":  # a boolean either way: --x / --no-x, unset when not given
        names[0] = f"{names[0]}/--no-{names[0][2:]}"
    decl = [*names, f.key]
    typed: dict[str, Any] = {}
    if kind in ("int", "flag"):
        typed = {"type": int} if kind == "int" else {"is_flag": True}
    choices = (described or {}).get("choices")
    words = choices and all(isinstance(c, str) for c in choices)
    if kind in ("text", "many") and f.read in (None, str.lower) and words:
        typed = {"type": click.Choice(list(choices or ()), case_sensitive=False)}  # words in help
    many = kind == "many"
    if many and f.read is None and (described or {}).get("items", {}).get("type") == "integer":
        typed = {"type": int}  # a list of whole numbers
    if f.argument:
        wanted = f.default is None and (bool(described.get("required")) if described else not many)
        if isinstance(typed.get("type"), click.Choice):  # named in errors, its words in help
            typed["metavar"] = f.key.upper()
            doc += f" ({', '.join(map(str, choices or ()))})" if f.help is not None else ""
        return click.Argument([f.key], nargs=-1 if many else 1, required=wanted, help=doc, **typed)
    if many:
        typed["multiple"] = True
    return click.Option(decl, default=f.default, help=doc, **typed)


def _put(data: dict[str, Any], path: str, value: Any) -> None:
    node = data
    *outer, last = path.split(".")
    for part in outer:
        node = node.setdefault(part, {})
    node[last] = value


def _given(value: Any) -> bool:
    return value is not None and value != () and value is not False


def _flag_named(flags: Sequence[Flag], path: str) -> str:
    """The flag a user typed for a field path (for errors in their words)."""
    filling = (f for f in flags if f.field and (path + ".").startswith(f.field + "."))
    return next((f.shown for f in filling), path)


def _read(f: Flag, text: Any) -> Any:
    """A flag's text read into its field's value; a refusal names the flag and the text."""
    assert f.read is not None
    try:
        return f.read(text)
    except RulesError as e:
        raise RulesError(f"{f.shown} {text!r}: {e}") from None


def _set(f: Flag, value: Any) -> bool:
    """Whether ``value`` was given for ``f`` (a switch's ``--no-x`` is)."""
    return _given(value) or (f.kind == "switch" and value is False)


def tuned(opts: Any, flags: Sequence[Flag], values: Values) -> Any:
    """``opts`` with each option flag of ``flags`` given; a refused value is named by its
    flag (``--creation 'x': ...``)."""
    for f in flags:
        if f.into == "options" and _set(f, value := values.get(f.key)):
            value = _read(f, value) if f.read else value
            try:
                opts = replace(opts, **{f.field: value})
            except RulesError as e:
                raise RulesError(f"{f.shown} {value!r}: {e}") from None
    return opts


def build_action(preset: Preset, run: Run) -> Action:
    """The preset's action from the flags' values; a wrong value is named by its flag."""
    data: dict[str, Any] = {}
    ruleset = run.ruleset
    flags = derived_flags(ruleset, preset)
    for f in flags:
        value = run.get(f.key)
        if f.into != "action" or not _set(f, value):
            continue
        if f.seat:
            for path, given in f.sets.items():
                _put(data, path, run.seated.get(f.key, given) if given == SEATED else given)
            continue
        if f.field:
            if f.read is not None:
                value = (
                    [_read(f, v) for v in value] if isinstance(value, tuple) else _read(f, value)
                )
            _put(data, f.field, list(value) if isinstance(value, tuple) else value)
    if preset.build is not None:
        data = preset.build(data, run)
    name = preset.choose(run) if preset.choose else preset.action
    try:
        if preset.strict:
            action: Action = ruleset.load_action(name, data)
            return action
        kind = ruleset.action_type(name)
        wanted = [str(f["name"]) for f in describe_fields(kind) if f.get("required")]
        if missing := [_flag_named(flags, n) for n in wanted if n not in data]:
            raise RulesError("give " + ", ".join(missing))
        built: Action = build_record(kind, data, rule=f"{ruleset.name} {name}")
        return built
    except (InvalidSheet, IllegalAction) as e:
        if not e.problems:
            raise
        shown = "; ".join(
            f"{_flag_named(flags, p.field)} {p.message}"
            + ("" if p.value is None else f" (value: {p.value!r})")
            for p in e.problems
        )
        raise RulesError(shown) from None


SEATED: Final = "{seated}"
"""In a sheet flag's ``sets``: the id the sheet was seated under."""


def check_between(ruleset: Rules, preset: Preset, values: Values) -> None:
    """Refuse a command line that breaks a rule between its flags (:class:`Between`),
    naming the flags as a user types them, before anything is read or rolled."""
    flags = {f.key: f for f in (*_COMMON, *derived_flags(ruleset, preset))}

    def given(key: str) -> bool:
        f, value = flags[key], values.get(key)
        return _set(f, value) and value != f.default

    for rule in preset.between:
        named = [flags[k].key.upper() if flags[k].argument else flags[k].shown for k in rule.keys]
        why = f" ({rule.why})" if rule.why else ""
        count = sum(map(given, rule.keys))
        if rule.kind == "exclusive" and count > 1:
            raise RulesError(f"give {_either(named)}, not both{why}")
        if rule.kind == "one" and count != 1:
            raise RulesError(f"give {_either(named)}" + (", not both" if count else "") + why)
        if rule.kind == "needs" and given(rule.keys[0]) and count == 1:
            raise RulesError(f"{named[0]} goes with {_either(named[1:])}{why}")
        if rule.kind == "without" and given(rule.keys[0]) and count > 1:
            together = [n for k, n in zip(rule.keys, named, strict=True) if given(k)]
            others = _either(together[1:], "and")
            raise RulesError(f"{others} cannot go with {named[0]}{why}")


def _either(names: Sequence[str], word: str = "or") -> str:
    """``--a``, ``--a or --b``, ``--a, --b or --c`` (or ``and``)."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {word} " + names[-1]


def _seat_sheets(run: Run, flags: Sequence[Flag]) -> Run:
    """Each sheet flag given, its sheet seated (see :func:`sheet`)."""
    state, seated = run.table, dict(run.seated)
    for f in flags:
        value = run.get(f.key)
        if not f.seat or not _given(value):
            continue
        for where in value if isinstance(value, tuple) else (value,):
            made = sheet_from(run.ruleset, where)
            cid = run.get(f.named_by) if f.named_by and run.get(f.named_by) else f.seat
            cid = made.name if cid == NAME else slug(made.name) if cid == SLUG else cid
            state = run.ruleset.seat(state, cid, made, run.options)
            seated[f.key] = cid
    return replace(run, state=state, seated=seated)


def run_preset(game: str, preset: Preset, values: Values) -> None:
    """Check the flags, load the table, seat the sheets, build the action, resolve it (or
    weigh it) and print the result."""
    ruleset = get(game)
    check_between(ruleset, preset, values)
    opts = tuned(load_options(ruleset, values.get("options_file")), preset.flags, values)
    state = load_state(ruleset, values.get("state_file"), opts, values.get("seat") or ())
    run = _seat_sheets(Run(ruleset, values, opts, state), preset.flags)
    if preset.prepare is not None:
        run = replace(run, state=preset.prepare(run))
    run = replace(run, action=build_action(preset, run))
    if preset.odds or (preset.offers_odds and values.get(ODDS.key)):
        weighed = preset.weigh(run) if preset.weigh else run.weigh()
        _print(weighed, run, preset.odds_data or preset.data)
        return
    action, state = run.acting, run.table
    hand = faces_option(values.get("faces"))
    if preset.exact_faces and hand is not None:
        check_faces_for(ruleset.dice_for(action, state, opts), hand, f"the {preset.name}")
    made = preset.roller(run) if preset.roller else None
    roller = made or make_roller(hand, values.get("seed"))
    outcome = ruleset.resolve(action, state, roller, opts)
    all_faces_used(roller)
    run = replace(run, after=ruleset.apply(state, outcome))
    after = run.after
    assert after is not None
    if values.get("save"):
        write_json_file(values["save"], ruleset.dump_state(after))
    if values.get("out"):
        cid = (preset.out(run) if callable(preset.out) else preset.out) or ""
        if cid not in after.characters:
            raise RulesError(f"--out needs the character's sheet ({cid} is not seated)")
        write_json_file(values["out"], ruleset.dump_sheet(after.characters[cid].sheet))
    _print(outcome, run, preset.data)


def _print(result: Any, run: Run, data: Render | None) -> None:
    """An outcome in the game's words, as the table's log says it, or its JSON (``data``'s,
    else the outcome's own); odds (``result`` not an :class:`Outcome`) as their JSON
    (``data``'s) laid out in lines and tables, or a distribution's rows."""
    as_json = bool(run.get("as_json"))
    if not isinstance(result, Outcome):
        if data is None:
            print_odds(result, as_json=as_json)
        else:
            shown = data(result, run)
            show(as_json, shown, [] if as_json else odds_lines(shown))
    elif as_json:
        emit_json(outcome_data(result) if data is None else data(result, run))
    else:
        console.print(outcome_text(result, run.after, run.action))


def on_sheet(
    ruleset: Any, sheet: Any, steps: Sequence[tuple[str, Mapping[str, Any]]], save: str | None
) -> tuple[Any, Any]:
    """Seat ``sheet`` alone at a new table as ``sheet`` and take ``steps`` (action name,
    fields) on it in turn: the sheet before and after (written to ``save``)."""
    opts = ruleset.options_type()
    state = ruleset.seat(ruleset.initial_state(opts), "sheet", sheet, opts)
    for name, data in steps:
        action = ruleset.load_action(name, dict(data))
        state = ruleset.apply(state, ruleset.resolve(action, state, make_roller(None, None), opts))
    after = state.character("sheet").sheet
    if save is not None:
        write_json_file(save, ruleset.dump_sheet(after))
    return sheet, after


def show(as_json: bool, data: Any, lines: Sequence[Any]) -> None:
    """``data`` as JSON, or the lines as text: each a line, a table, or a table as data
    (``{"title", "columns", "rows", "justify"}``, as :func:`.common.odds_lines` gives it)."""
    for line in [] if as_json else lines:
        console.print(line)
    if as_json:
        emit_json(data)


class Command(Summed):
    """A game's command, whose line in the group's list is the first sentence of its help
    without the citations in parentheses, cut at a word to the width there is."""


PLAIN = frozenset({"boolean", "integer", "string", "choice"})
"""The field types a preset offers as flags of their own (and lists of them)."""


def derived_flags(ruleset: Rules, preset: Preset) -> tuple[Flag, ...]:
    """The preset's flags (:data:`ODDS` among them if it offers the odds), then one
    ``--field-name`` for each plain field of its action that none of them fills (a
    character reference, a record, a field of another action the preset may choose, or a
    name a flag already has, excepted): every field of the action can be given,
    described by its own doc."""
    flags = preset.all_flags
    if preset.also or preset.strict:
        return flags
    taken = {n for f in flags for n in f.names} | {"--" + f.key.replace("_", "-") for f in flags}
    taken |= {f.names[0] for f in _COMMON}
    filled = [f.field for f in flags if f.field]
    extra = []
    described: Any = describe_fields(ruleset.action_type(preset.action))
    for d in described:
        name, items = str(d["name"]), d.get("items") or {}
        plain = d["type"] in PLAIN or (d["type"] == "list" and items.get("type") in PLAIN)
        if "ref" in d or not plain or name in preset.hide or "--" + name.replace("_", "-") in taken:
            continue
        if not any(name == f or f.startswith(name + ".") for f in filled):
            extra.append(Flag(name, kind="switch" if d["type"] == "boolean" else ""))
    return (*flags, *extra)


def preset_command(game: str, preset: Preset) -> click.Command:
    """The click command of one preset (see :func:`derived_flags`)."""
    ruleset = get(game)
    kind = ruleset.action_type(preset.action)
    kinds = [kind, *map(ruleset.action_type, preset.also)]
    params: list[click.Parameter] = []
    for f in derived_flags(ruleset, preset):
        targets = [ruleset.options_type] if f.into == "options" else kinds
        params.append(_param(f, _field_in(targets, f.field) if f.field and not f.seat else None))
    skip = ROLLING if preset.odds else set()
    skip |= set() if preset.table else {"--state", "--seat", "--save"}
    skip |= set() if preset.out else {"--out"}
    doc = preset.help or (kind.__doc__ or "").strip().split("\n\n")[0].replace("``", "")
    return _command(
        preset.name,
        params,
        skip,
        doc,
        lambda values: run_preset(game, preset, values),
        context_settings=dict(preset.context),
    )


ROLLING = frozenset({"--faces", "--seed", "--save", "--out"})
"""The common flags of a command that rolls and keeps what it changed (not of odds)."""


def _command(
    name: str,
    params: list[click.Parameter],
    skip: Set[str],
    doc: str,
    run: Callable[[Values], None],
    **how: Any,
) -> click.Command:
    """A command of ``params``, then the common flags they do not name (but ``skip``),
    running ``run`` on the values; a :class:`RulesError` is one line."""
    own = {n for p in params for n in p.opts}
    params += [_param(f, None) for f in _COMMON if f.names[0] not in own | skip]
    call = handle_errors(lambda **values: run(values))
    return Command(name, params=params, callback=call, help=doc, **how)


def game_group(game: str, presets: Sequence[Preset] = (), help: str | None = None) -> click.Group:
    """A game's command group: its presets, then ``actions``, ``act`` and ``odds-of``
    (its help: ``referee --help``'s line for it)."""
    shown = help or GROUPS.get(game) or f"{get(game).title}: its actions, acted or weighed."
    group = PresetGroup(game, presets, name=game, help=shown, no_args_is_help=True)
    add_generic_commands(group, game)
    return group


class PresetGroup(click.Group):
    """A game's group whose presets become commands when first named: ``referee mneme
    odds`` builds one command's flags from its fields, not every command's."""

    def __init__(self, game: str, presets: Sequence[Preset], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game, self.presets = game, {p.name: p for p in presets}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*self.presets, *(n for n in self.commands if n not in self.presets)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.presets and cmd_name not in self.commands:
            self.add_command(preset_command(self.game, self.presets[cmd_name]))
        return super().get_command(ctx, cmd_name)


def validate_sheet(
    game: str,
    path: str,
    options_file: str | None,
    as_json: bool,
    flags: Sequence[Flag] = (),
    values: Values | None = None,
) -> None:
    """Print the ruleset's :meth:`~referee.systems.base.Ruleset.verdict` on the sheet at
    ``path`` (or the example so named) under the options in ``options_file``, tuned by
    ``flags`` that set options; the other ``flags`` give the verdict its inputs (ARM's
    setting). Exit 1 if the sheet breaks any rule."""
    rules = get(game)
    opts = tuned(load_options(rules, options_file), flags, values or {})
    given = {
        f.field: _read(f, v) if f.read else v
        for f in flags
        if f.into == "action" and _set(f, v := (values or {})[f.key])
    }
    verdict = rules.verdict(sheet_from(rules, path), opts, **given)
    problems = verdict.problems
    lines = list(verdict.lines or map(str, problems))
    if not problems:
        lines.append(f"{path}: valid" + (f"; {verdict.summary}" if verdict.summary else ""))
    data = {"valid": not problems, "problems": [problem_data(p) for p in problems]}
    show(as_json, data | dict(verdict.data), lines)
    if problems:
        raise click.exceptions.Exit(1)


def add_generic_commands(group: click.Group, game: str) -> None:
    """``actions``, ``act``, ``odds-of`` and ``example``: every action of the game, with no
    preset, and the rule text's example characters.

    ``act ACTION key=value...`` resolves one against a state (``--state`` / ``--seat``)
    and can ``--save`` the state after it; ``odds-of`` gives the exact distribution of
    what it would report. A new entry in the game's action table is usable here at once.
    """

    @group.command("actions", cls=Command)
    @click.option(
        "--json", "as_json", is_flag=True, help="Print machine-readable JSON instead of text."
    )
    @handle_errors
    def actions(as_json: bool) -> None:
        """Every action of this game with its fields (type, default, bounds, meaning)."""
        described = {n: describe_fields(t) for n, t in get(game).every_action().items()}
        if as_json:
            emit_json(described)
            return
        for name, fields in described.items():
            console.print(name)
            for f in fields:
                bits = [str(f["type"])]
                bits += [f"default {f['default']!r}"] if "default" in f else []
                bits += [f"{f.get('ge', '')}..{f.get('le', '')}"] if "ge" in f or "le" in f else []
                choices: Any = f.get("choices")
                bits += ["one of " + ", ".join(map(str, choices))] if choices else []
                doc = f" - {f['doc']}" if f.get("doc") else ""
                console.print(f"  {f['name']}: {'; '.join(bits)}{doc}")

    group.add_command(validate_command(game))
    group.add_command(bestiary_command(game))

    @group.command("example", cls=Command)
    @click.argument("name", help="Its id or another spelling the text uses.")
    @handle_errors
    def example(name: str) -> None:
        """Print one of the rule text's example characters as a JSON sheet."""
        emit_json(get(game).example_data(name))

    for name, odds in (("act", False), ("odds-of", True)):
        group.add_command(_generic(game, name, odds))


def validate_command(game: str, *flags: Flag) -> click.Command:
    """``validate PATH``: :func:`validate_sheet` on a sheet; each of ``flags`` sets one of
    the table's options (:func:`option`), or gives the verdict its field (read by ``read``)."""
    params: list[click.Parameter] = [
        click.Argument(["path"], help="A character sheet (JSON), or an example's name.")
    ]
    for f in flags:
        known = _field_in([get(game).options_type], f.field) if f.into == "options" else None
        params.append(_param(f, known))

    def run(v: Values) -> None:
        validate_sheet(game, v["path"], v["options_file"], v["as_json"], flags, v)

    doc = (
        "Validate a sheet, listing every broken rule (exit 1 if any); a legal one with what"
        " the game says of it."
    )
    return _command("validate", params, ROLLING | {"--state", "--seat"}, doc, run)


def _generic(game: str, name: str, odds: bool) -> click.Command:
    """``act`` or ``odds-of``: the action named by the first word, its fields as pairs."""

    def run(values: Values) -> None:
        kind = get(game).action_type(values["action"])
        data = data_from_pairs(kind, list(values["pairs"]))
        preset = Preset(name, values["action"], odds=odds, build=lambda _d, _r: data, strict=True)
        run_preset(game, preset, values)

    params: list[click.Parameter] = [
        click.Argument(["action"], help="The action's name (see `actions`)."),
        click.Argument(["pairs"], nargs=-1, help="The action's fields as key=value words."),
    ]
    doc = (
        "The exact distribution of what an action would report, before anything is rolled."
        if odds
        else "Resolve one action against a state; print its outcome (and --save the new state)."
    )
    return _command(name, params, ROLLING if odds else {"--out"}, doc, run)
