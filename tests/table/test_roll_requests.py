"""Roll requests (issue 39 item 1): the referee asks characters for a roll against a
difficulty that may be secret; each asked player rolls with one call.

The exact chances are checked against a brute force over the dice written here from the
rule texts (Mneme CE: 2d6 + Competence against the Difficulty, ch. 2; ARM: stat + d6 - d6
against the difficulty, a draw succeeding, ARM 1.2 Task Resolution). The secret is checked
as non-interference: two tables that differ only in the secret difficulty give each
player and the observer the same bytes before and after the rolls.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from tests.support.fast import one_fast

from referee.errors import RulesError
from referee.systems.base import get, names
from referee.systems.difficulty import declared
from referee.table.commands import CommandError, Spec, parse_request
from referee.table.service import Forbidden, TableService
from referee.table.store import Store

SEATS = {
    "mnemonic": ("boxer", "frigate"),
    "mongrel": ("vooruk", "giazza"),
    "mneme": ("ada", "tess"),
    "arm": ("alex", "brad"),
}
ASK = {
    "mnemonic": ("sheet-check", {"talent": "Agile", "life_role": "Professional Boxer"}, ["Ann"]),
    "mongrel": ("task", {"expertise": "Burn"}, ["Ann", "Bea"]),
    "mneme": ("check", {"skill": "Recon", "characteristic": "Int"}, ["Ann", "Bea"]),
    "arm": ("task", {"stat": "Wit"}, ["Ann", "Bea"]),
}
TWINS = {"mnemonic": (-9, 9), "mongrel": (0, 4), "mneme": (6, 12), "arm": (4, 11)}
"""Two secret difficulties per game, far apart (the seeded dice pass one, fail the other)."""


def _table(tmp: Path, game: str, tag: str = "t") -> tuple[TableService, str, list[str]]:
    service = TableService(Store(f"sqlite:///{tmp / f'{tag}.db'}"))
    tid = service.create(game, "Twin", "Ron", seed=11).table.id
    for who, role in (("Ann", "player"), ("Bea", "player"), ("Obi", "observer")):
        service.join(tid, who, role)  # type: ignore[arg-type]
    for example, owner in zip(SEATS[game], ("Ann", "Bea"), strict=True):
        service.add_character(tid, example, owner=owner, force=True)
    return service, tid, list(service.load(tid).state.characters)


def _two_dice(total: int, target: int) -> Fraction:
    """P(2d6 + total >= target), every face pair counted."""
    hits = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + total >= target)
    return Fraction(hits, 36)


def _arm(total: int, difficulty: int) -> Fraction:
    """P(total + d6 - d6 - difficulty >= 0): a draw succeeds (ARM 1.2, Task Resolution)."""
    hits = sum(1 for a, b in product(range(1, 7), repeat=2) if total + a - b - difficulty >= 0)
    return Fraction(hits, 36)


def _dm(value: int) -> int:
    """Mneme CE's characteristic modifier (ch. 1): 2 -> -2, 3-5 -> -1, 6-8 -> 0, 9-11 -> +1,
    12-14 -> +2, 15 -> +3."""
    return value // 3 - 2


def _chance(row: dict[str, Any]) -> Fraction:
    return Fraction(row["chance"]["chance"])


def test_mneme_secret_chances_against_the_dice(tmp_path: Path) -> None:
    """The referee's preview is each character's exact chance with the secret Difficulty;
    the player's, one per named Difficulty of the ladder; the roll records the chance."""
    service, tid, ids = _table(tmp_path, "mneme")
    sheets = {cid: service.load(tid).state.characters[cid].sheet for cid in ids}
    competence = {
        cid: _dm(s.characteristics["Int"]) + s.skills.get("Recon", -3) for cid, s in sheets.items()
    }
    assert competence == {"ada-vance": 2, "tess": competence["tess"]}
    done = service.request(
        tid, "check", {"skill": "Recon", "characteristic": "Int"}, [], 10, True, by="Ron"
    )
    seq = done.event.seq
    assert done.event.visibility == "referee"  # the number is the referee's
    ref = service.requests(tid, "Ron")[0]
    assert ref["difficulty"] == 10 and ref["label"] == "Difficult (10)"
    for row in ref["asked"]:
        assert _chance(row) == _two_dice(competence[row["character"]], 10)
    mine = service.requests(tid, "Ann")[0]
    assert "difficulty" not in mine and "label" not in mine
    assert [(c["label"], c["value"]) for c in mine["asked"][0]["chances"]] == [
        ("Easy", 4),
        ("Routine", 6),
        ("Challenging", 8),
        ("Difficult", 10),
        ("Very Difficult", 12),
        ("Formidable", 14),
    ]
    for c in mine["asked"][0]["chances"]:
        assert _chance(c) == _two_dice(2, c["value"])
    rolled = service.roll(tid, seq, by="Ann")
    assert rolled.event.visibility == "referee"
    assert Fraction(str(rolled.event.payload["chance"])) == Fraction(5, 12) == _two_dice(2, 10)
    service.roll(tid, seq, by="Bea")
    answers = service.requests(tid, "Ron")[0]["asked"]
    assert [a["answered"] for a in answers] == [seq + 1, seq + 2]  # in the order rolled
    assert _chance(answers[1]) == _two_dice(competence["tess"], 10)
    assert service.requests(tid, "Ron")[0]["open"] is False


def test_arm_open_difficulty_against_the_dice(tmp_path: Path) -> None:
    """An open difficulty: the player sees their exact chance and the public roll."""
    service, tid, _ = _table(tmp_path, "arm")
    done = service.request(tid, "task", {"stat": "Wit"}, ["Ann"], 8, by="Ron")
    assert done.event.visibility == "public"
    mine = service.requests(tid, "Ann")[0]
    assert mine["label"] == "Tough (8)"
    assert _chance(mine["asked"][0]) == _arm(7, 8)  # Alex's Wit 7
    rolled = service.roll(tid, done.event.seq, by="Ann")
    assert rolled.event.visibility == "public"
    assert rolled.event.payload["fields"]["difficulty"] == 8
    secret = service.request(tid, "task", {"stat": "Wit"}, ["Ann"], 11, True, by="Ron")
    per = service.requests(tid, "Ann")[-1]["asked"][0]["chances"]
    assert {c["value"]: _chance(c) for c in per} == {d: _arm(7, d) for d in (1, 4, 6, 8, 11)}
    rolled = service.roll(tid, secret.event.seq, by="Ann")
    assert rolled.event.payload["fields"]["push"] == "never"  # decided before the roll


def test_who_may_ask_roll_and_withdraw(tmp_path: Path) -> None:
    """Only the referee asks and withdraws; only an asked character's owner rolls, once;
    every refusal comes before a die is drawn."""
    service, tid, _ = _table(tmp_path, "mneme")
    fields = {"skill": "Recon", "characteristic": "Int"}
    with pytest.raises(Forbidden, match="only the referee"):
        service.request(tid, "check", fields, ["Bea"], 8, True, by="Ann")
    with pytest.raises(RulesError, match="needs the characteristic"):
        service.request(tid, "check", {"skill": "Recon"}, ["Ann"], 8, True, by="Ron")
    with pytest.raises(RulesError, match="neither a character nor a participant"):
        service.request(tid, "check", fields, ["Zed"], 8, by="Ron")
    with pytest.raises(RulesError, match="declares no difficulty"):
        service.request(tid, "survival", {}, ["Ann"], 8, True, by="Ron")
    seq = service.request(tid, "check", fields, ["Ann"], 8, True, by="Ron").event.seq
    before = service.load(tid).seq
    with pytest.raises(Forbidden, match="none of your characters"):
        service.roll(tid, seq, by="Bea")
    with pytest.raises(Forbidden, match="an observer only reads"):
        service.roll(tid, seq, by="Obi")
    with pytest.raises(Forbidden, match="only the referee"):
        service.recall(tid, seq, by="Ann")
    assert service.load(tid).seq == before  # nothing drawn, nothing logged
    service.set_role(tid, "Ann", "observer", by="Ron")
    with pytest.raises(Forbidden, match="an observer only reads"):
        service.roll(tid, seq, by="Ann")  # checked for her role now
    service.set_role(tid, "Ann", "player", by="Ron")
    service.roll(tid, seq, by="Ann")
    with pytest.raises(RulesError, match=r"no roll request waits at event \d+"):
        service.roll(tid, seq, by="Ann")
    other = service.request(tid, "check", fields, ["Ann", "Bea"], 8, by="Ron").event.seq
    service.recall(tid, other, by="Ron")
    with pytest.raises(RulesError, match=r"no roll request waits"):
        service.roll(tid, other, by="Bea")
    assert service.requests(tid, "Bea")[-1]["withdrawn"] is True


def test_an_undone_answer_asks_again(tmp_path: Path) -> None:
    service, tid, _ = _table(tmp_path, "mneme")
    fields = {"skill": "Recon", "characteristic": "Int"}
    seq = service.request(tid, "check", fields, ["Ann"], 8, by="Ron").event.seq
    rolled = service.roll(tid, seq, by="Ann").event.seq
    service.undo(tid, rolled, by="Ron")
    assert service.requests(tid, "Ann")[0]["open"] is True
    service.roll(tid, seq, by="Ann")
    assert service.requests(tid, "Ann")[0]["open"] is False


def test_an_answer_is_the_referee_s_to_take_back_even_when_rolls_always_are(
    tmp_path: Path,
) -> None:
    """Under take_back "always" a player takes back their own roll at once, but not their
    answer to a roll request: that asks the referee (as under "ask"), so a secret
    difficulty's roll is not rolled again until it suits; the referee's yes reopens it."""
    service, tid, ids = _table(tmp_path, "mneme")
    service.set_settings(tid, take_back="always", by="Ron")
    fields = {"skill": "Recon", "characteristic": "Int"}
    own = service.act(tid, "Ann", "check", {**fields, "actor": ids[0], "difficulty": 8})
    assert service.undo(tid, own.event.seq, by="Ann").event.kind == "undo"
    seq = service.request(tid, "check", fields, ["Ann"], 8, True, by="Ron").event.seq
    rolled = service.roll(tid, seq, by="Ann").event.seq
    asked = service.undo(tid, rolled, by="Ann").event
    assert (asked.kind, asked.payload["what"], asked.payload["seq"]) == (
        "request-made",
        "undo",
        rolled,
    )
    assert rolled not in service.load(tid).undone
    assert service.requests(tid, "Ann")[-1]["open"] is False  # still answered
    service.answer(tid, asked.seq, True, by="Ron")
    assert rolled in service.load(tid).undone
    assert service.requests(tid, "Ann")[-1]["open"] is True  # asked again


@pytest.mark.parametrize("game", sorted(names()))
def test_every_game_names_its_difficulties(game: str) -> None:
    """Each game declares its rolled actions' difficulties in its own difficulties.py,
    with the named values of its text."""
    rules = get(game)
    found = declared(rules)
    assert found, game
    for d in found:
        assert d.action in rules.every_action()
        assert d.field in rules.action_type(d.action).__dataclass_fields__
        assert len({n.value for n in d.named}) == len(d.named) >= 5


REQUESTED = {
    "mnemonic": ({"talent": "Agile"}, 3),
    "mongrel": ({"expertise": "Burn"}, 2),
    "mneme": ({"characteristic": "Int", "skill": "Recon"}, 10),
    "arm": ({"stat": "Wit"}, 8),
}
"""What each game's example request asks: its fields and difficulty (the text's names:
Mnemonic's Fair +3, Mneme CE's Difficult 10, ARM's Tough 8; Mongrel's Modifier 2)."""


@pytest.mark.parametrize("game", sorted(names()))
def test_each_game_shows_a_request_in_its_own_words(game: str) -> None:
    """The request form's example is the game's own (no Mneme CE check at an ARM table)
    and reads as the request it shows, with every field the roll needs."""
    from referee.systems.difficulty import request_example

    line = request_example(get(game))
    read = parse_request(f"/request {line}", get(game), Spec({}, referee=True))
    fields, difficulty = REQUESTED[game]
    assert (read.fields, read.difficulty, read.secret) == (fields, difficulty, True)
    assert read.characters == (("Ann",) if game == "mnemonic" else ("Ann", "Ben"))
    with pytest.raises(CommandError, match=f"which action\\? \\(/request {line}\\)"):
        parse_request("/request", get(game), Spec({}, referee=True))


# ---------------------------------------------------------------------------
# non-interference: the secret difficulty changes nothing a player receives


def _received(service: TableService, tid: str, who: str) -> str:
    from tests.table.test_non_interference import _normal, _panels

    from referee.table.audit import export
    from referee.table.recap import recap
    from referee.table.service import table_data
    from referee.web.render import Renderer
    from referee.writers.recap import to_markdown

    html = Renderer()
    seen = service.view(tid, who)
    full = service.load(tid)
    log = service.log(tid, who)
    got = {
        "log": log,
        "html": [html.entry(e, undone=e.get("seq") in seen.undone) for e in log],
        "table": table_data(seen, seen.viewer(who)),
        "recap": to_markdown(recap(service.store.events(tid), full.viewer(who))),
        "export": export(service, tid, who),
        "panels": _panels(service, tid, who),
        "requests": service.requests(tid, who),
    }
    return json.dumps(_normal(got), sort_keys=True, default=str)


def _twin(tmp: Path, game: str, difficulty: int) -> tuple[dict[str, str], dict[str, str], Any]:
    service, tid, _ = _table(tmp, game, f"{game}-{difficulty}")
    action, fields, asked = ASK[game]
    seq = service.request(tid, action, fields, asked, difficulty, True, by="Ron").event.seq
    who = ("Ann", "Bea", "Obi")
    before = {w: _received(service, tid, w) for w in who}
    outcomes = []
    for person in asked:
        outcomes.append(service.roll(tid, seq, by=person).event.payload["outcome"])
    service.note(tid, "Bea", "and then?")
    return before, {w: _received(service, tid, w) for w in who}, outcomes


@pytest.mark.parametrize("game", one_fast(sorted(names())))
def test_a_secret_difficulty_reaches_the_players_as_the_same_bytes(
    tmp_path: Path, game: str
) -> None:
    low, high = TWINS[game]
    before_low, after_low, out_low = _twin(tmp_path, game, low)
    before_high, after_high, out_high = _twin(tmp_path, game, high)
    assert out_low != out_high  # the secret made a difference: the referee saw it
    for who in ("Ann", "Bea", "Obi"):
        assert before_low[who] == before_high[who], who
        assert after_low[who] == after_high[who], who


# ---------------------------------------------------------------------------
# the chat form


def test_the_chat_form_reads_a_request() -> None:
    rules = get("mneme")
    spec = Spec({"ada-vance": "Ada Vance", "tess": "Tess"}, None, True, {"skill": ["Recon"]})
    read = parse_request("/request check Recon 8 secret @Ann @Ben", rules, spec)
    assert (read.action, read.fields, read.characters) == (
        "check",
        {"skill": "Recon"},
        ("Ann", "Ben"),
    )
    assert (read.difficulty, read.secret, read.visibility) == (8, True, "public")
    named = parse_request('/request check Recon "Very Difficult" blind', rules, spec)
    assert (named.difficulty, named.secret, named.visibility) == (12, False, "blind")
    arm = parse_request("/request task stat=Wit Tough secret @Ann", get("arm"), spec)
    assert (arm.difficulty, arm.fields) == (8, {"stat": "Wit"})
    with pytest.raises(CommandError, match="only the referee"):
        parse_request("/request check 8", rules, Spec({}, None, False, {}))
    with pytest.raises(CommandError, match="not a character's roll"):
        parse_request("/request pass-time 8", rules, spec)
    with pytest.raises(CommandError, match="needs its number"):
        parse_request("/request check Recon secret", rules, spec)
