"""One voice per game (issue 35): every action of every game, played at a table with dice
that fail and dice that succeed, under each visibility, reads in words at every edge -
the page's log entry, the recap in Markdown and HTML, the command line's log - for the
referee and for a player: no JSON, no dotted path, no ``null``/``None``, no Python repr,
no character id where a name is known, and every die drawn in a group named by its role.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from itertools import product
from pathlib import Path

import pytest
from tests.open_table import OPEN
from tests.web.test_every_action_fails_logged import OPENING, SEATED, Constant, _fields_for

from referee.errors import RulesError
from referee.systems.base import get, names
from referee.table.recap import log_text, recap
from referee.table.service import TableService
from referee.table.store import Store
from referee.web.render import Renderer
from referee.writers.recap import to_html, to_markdown

VISIBILITIES = ("public", "referee", "blind", "private")

PROGRAM_TEXT = [
    (re.compile(r"[{\[]\s*\""), "JSON"),
    (re.compile(r"\"\s*:\s*[\"\[{\d]"), "JSON"),
    (re.compile(r"\b(?:null|None|True|False)\b"), "null or a Python constant"),
    (re.compile(r"[\[({]'|'[\])}]|\w+\(\w+="), "a Python repr"),
    (re.compile(r"\b[a-z]+(?:_[a-z]+)*\.[a-z]+(?:_[a-z]+)*\b"), "a dotted path"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a program name"),
]


class _Text(HTMLParser):
    """The words a page shows (no tags, no attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _words_of(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(parser.parts)


def _program_text(text: str, ids: dict[str, str], where: str) -> list[str]:
    found = []
    for pattern, what in PROGRAM_TEXT:
        hit = pattern.search(text)
        if hit:
            around = text[max(0, hit.start() - 60) : hit.end() + 60]
            found.append(f"{where}: {what} {hit.group(0)!r} in {around!r}")
    for cid, name in ids.items():
        if cid != name and re.search(rf"(?<![\w-]){re.escape(cid)}(?![\w-])", text):
            found.append(f"{where}: the id {cid!r} where the name {name!r} is known")
    return found


def _play(tmp: Path, game: str) -> tuple[TableService, str]:
    """Every action of ``game`` with the lowest and the highest faces (public), then with
    the lowest under each other visibility."""
    service = TableService(Store(f"sqlite:///{tmp / game}.db"))
    tid = service.create(game, "Voices", "Ron", settings=OPEN).table.id
    service.join(tid, "Pat", "player")
    for i, example in enumerate(SEATED[game]):
        service.add_character(tid, example, owner="Pat" if i == 0 else None, force=True)
    for action, data in OPENING[game]:
        service.act(tid, "Ron", action, data)
    rules = get(game)
    ts = service.load(tid)
    ids = list(ts.state.characters)
    words = [w.name for w in getattr(ts.state.characters[ids[0]].sheet, "weapons", ())]
    plays = [(vis, high) for vis in VISIBILITIES for high in (False, True)]
    for (name, kind), fuller, (vis, high) in product(
        rules.every_action().items(), (False, True), plays
    ):
        if vis != "public" and high:
            continue
        data = _fields_for(kind, ids, [str(w) for w in words], fuller)
        try:
            action = rules.load_action(name, data)
        except RulesError:
            continue
        ts = service.load(tid)
        roller = Constant(high)
        try:
            rules.resolve(action, ts.state, roller, ts.options)
        except RulesError:
            continue
        faces = [f for r in roller.records for f in r.faces]
        try:
            service.act(tid, "Ron", name, data, faces=faces, visibility=vis)  # type: ignore[arg-type]
        except RulesError:
            continue
    return service, tid


@pytest.fixture(scope="module")
def tables(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, tuple[TableService, str]]]:
    tmp = tmp_path_factory.mktemp("voices")
    made = {game: _play(tmp, game) for game in sorted(names())}
    yield made
    for service, _ in made.values():
        service.store.close()


@pytest.mark.parametrize("game", sorted(names()))
@pytest.mark.parametrize("who", ["Ron", "Pat"])
def test_every_entry_reads_in_words_at_every_edge(
    tables: dict[str, tuple[TableService, str]], game: str, who: str
) -> None:
    service, tid = tables[game]
    ts = service.load(tid)
    ids = {cid: str(seat.sheet.name) for cid, seat in ts.state.characters.items()}
    events = service.log(tid, who)
    resolved = [e for e in events if e.get("kind") == "action-resolved"]
    assert len(resolved) >= 10, (game, who, len(resolved))  # the actions were played
    renderer = Renderer()
    problems: list[str] = []
    for e in events:
        html = renderer.entry(e)
        problems += _program_text(_words_of(html), ids, f"#{e['seq']} log entry")
        # every die is drawn in a group that names its role
        for group in re.findall(r'<span class="dice-group" data-role="([^"]*)">', html):
            if not group.strip():
                problems.append(f"#{e['seq']}: a die without a role")
        if 'class="die ' in html and 'class="dice-group"' not in html:
            problems.append(f"#{e['seq']}: dice outside a group that names their role")
    viewer = ts.viewer(who)
    made = recap(service.store.events(tid), viewer)
    problems += _program_text(to_markdown(made), ids, "recap (Markdown)")
    problems += _program_text(_words_of(to_html(made)), ids, "recap (HTML)")
    problems += _program_text(log_text(events), ids, "command line log")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("game", sorted(names()))
def test_every_roll_names_the_role_of_its_dice(
    tables: dict[str, tuple[TableService, str]], game: str
) -> None:
    """Every action with dice says what they are for in the text's words (the dice tray's
    free rolls alone are plain dice)."""
    service, tid = tables[game]
    from referee.table.words import outcome_words

    roles: set[str] = set()
    for e in service.log(tid, "Ron"):
        said = outcome_words(e)
        if said is None:
            continue
        for group in said.dice:
            roles.add(group.role)
            if group.role == "dice":
                assert e["payload"]["action"] == "roll", (game, e["payload"]["action"])
    expected = {
        "arm": {"plus", "minus"},
        "mneme": {"check", "initiative"},
        "mnemonic": {"randomizer"},
        "mongrel": {"check", "resistance", "purchase"},
    }[game]
    assert expected <= roles, roles
