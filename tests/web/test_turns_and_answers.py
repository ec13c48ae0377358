"""Whose turn it is and one-click answers with their odds (issue 34, items 4 and 5), over
HTTP: the panels a push carries, for the referee and for a player.

The odds on an answer's button are checked against a brute force written here: ARM's
d6 - d6 task roll enumerated face by face."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import product

import pytest
from tests.web.conftest import Site, Table, make_table


def _add(site: Site, t: Table, example: str, owner: str | None) -> None:
    with site.client() as http:
        body: dict = {"example": example, "force": True}
        if owner:
            body["owner"] = owner
        r = http.post(f"/api/tables/{t.id}/characters", json=body, headers=t.auth("Ron"))
        assert r.status_code == 201, r.text


def _act(
    site: Site, t: Table, who: str, action: str, fields: dict, faces: list[int] | None = None
) -> dict:
    with site.client() as http:
        body: dict = {"action": action, "fields": fields}
        if faces:
            body["faces"] = faces
        r = http.post(f"/api/tables/{t.id}/actions", json=body, headers=t.auth(who))
        assert r.status_code in (200, 201), r.text
        return r.json()


def _panels(site: Site, t: Table, who: str) -> dict:
    with site.client() as http:
        r = http.get(f"/t/{t.id}/panels", headers=t.auth(who))
        assert r.status_code == 200, r.text
        return r.json()


def _arm_table(site: Site) -> Table:
    t = make_table(site, "arm", "Tavern")
    _add(site, t, "alex", "Ann")
    _add(site, t, "brad", None)
    return t


def brute_task(total: int, difficulty: int) -> Fraction:
    """P(total - difficulty + d6 - d6 >= 0) by enumerating the 36 faces (ARM 1.2's task
    roll: a result of 0, a draw, succeeds by default)."""
    wins = sum(1 for a, b in product(range(1, 7), repeat=2) if total - difficulty + a - b >= 0)
    return Fraction(wins, 36)


def test_arm_defence_answered_with_its_odds(site: Site) -> None:
    t = _arm_table(site)
    _act(site, t, "Ron", "next-round", {})
    _act(site, t, "Ron", "attack", {"actor": "brad", "target": "alex"}, [3, 5])
    ann = _panels(site, t, "Ann")["pending"]
    buttons = re.findall(
        r'<button type="button" class="answer-now[^"]*" data-actor="alex" data-action="([^"]+)"',
        ann,
    )
    assert buttons == ["defend", "take-blow"]
    chances = re.findall(r'data-chance="([^"]+)"', ann)
    # Alex dodges with Fitness 6 (the example sheet) at 4 + the attack's result 2
    assert [Fraction(c) for c in chances] == [brute_task(6, 4 + 2)] == [Fraction(7, 12)]
    assert "no dice:" in ann  # taking the blow rolls nothing
    # Ben owns nobody in the exchange: the prompt, no buttons to answer and no odds
    ben = _panels(site, t, "Ben")["pending"]
    assert "answer-now" not in ben and "data-chance" not in ben
    # one click: the defence with its defaults
    _act(site, t, "Ann", "defend", {"actor": "alex"}, [4, 1])
    assert "answer-now" not in _panels(site, t, "Ann")["pending"]


def test_arm_turns_your_turn_and_advance(site: Site) -> None:
    t = _arm_table(site)
    ron = _panels(site, t, "Ron")["tracker"]
    assert 'class="turn-advance primary" data-action="next-round"' in ron
    assert "Start round 1" in ron
    _act(site, t, "Ron", "next-round", {})
    ann = _panels(site, t, "Ann")["tracker"]
    assert "Round 1" in ann and "Your turn:" in ann and "Alex" in ann
    assert "turn-advance" not in ann  # the referee moves the turn on
    _act(site, t, "Ann", "prepare", {"actor": "alex"})
    ann = _panels(site, t, "Ann")["tracker"]
    assert "Your turn:" not in ann and "acted (prepare)" in ann
    assert "Start round 2" in _panels(site, t, "Ron")["tracker"]


@pytest.mark.slow
def test_mongrel_turns_show_ap_and_wait_advances(site: Site) -> None:
    t = make_table(site, "mongrel", "Pit")
    from referee.systems.base import get

    names = list(get("mongrel").examples())[:2]
    _add(site, t, names[0], "Ann")
    _add(site, t, names[1], "Ben")
    panels = _panels(site, t, "Ron")
    ids = [c["id"] for c in panels["characters"]]
    # no conflict yet: the referee starts one in one click (the button's action, no fields:
    # every living seated character); a player has no such button
    before = panels["tracker"]
    assert 'class="turn-advance primary" data-action="start-conflict">' in before
    assert "Start a conflict (everyone seated)" in before
    assert "turn-advance" not in _panels(site, t, "Ann")["tracker"]
    _act(site, t, "Ron", "start-conflict", {})
    ron = _panels(site, t, "Ron")["tracker"]
    assert all(site.service.load(t.id).state.characters[c].name in ron for c in ids)
    first = re.search(r'data-action="wait" data-arg-actor="([^"]+)"', ron)
    assert first, ron
    assert re.search(r"\d+ of \d+ AP", ron)
    _act(site, t, "Ron", "wait", {"actor": first.group(1)})
    after = _panels(site, t, "Ron")["tracker"]
    second = re.search(r'data-action="wait" data-arg-actor="([^"]+)"', after)
    assert second and second.group(1) != first.group(1)


def test_mnemonic_next_turn_moves_the_order(site: Site) -> None:
    t = make_table(site, "mnemonic", "Deck")  # boxer (Ann), frigate (Ben)
    ids = {c["owner"]: c["id"] for c in _panels(site, t, "Ron")["characters"]}
    _act(site, t, "Ron", "order", {"groups": [[ids["Ann"]], [ids["Ben"]]]})
    ann = _panels(site, t, "Ann")["tracker"]
    assert "Your turn:" in ann and "round 1" in ann
    assert "Your turn:" not in _panels(site, t, "Ben")["tracker"]
    ron = _panels(site, t, "Ron")["tracker"]
    assert 'data-action="next-turn"' in ron
    _act(site, t, "Ron", "next-turn", {})
    assert "Your turn:" in _panels(site, t, "Ben")["tracker"]
    _act(site, t, "Ron", "next-turn", {})
    ann = _panels(site, t, "Ann")["tracker"]
    assert "Your turn:" in ann and "round 2" in ann


def brute_push(result: int) -> Fraction:
    """P(success) of pushing a held d6 - d6 result (ARM 1.2, pushing): the third d6 adds
    nothing on a 1 and +1 on 2-6; a result of 0 or more succeeds."""
    return Fraction(sum(1 for d in range(1, 7) if result + (d >= 2) >= 0), 6)


def test_arm_push_or_accept_shows_both_chances(site: Site) -> None:
    t = _arm_table(site)
    site.service.set_options(t.id, {"pushing": True}, by="Ron")
    # Alex's Fitness 6 at difficulty 6, faces 3 and 4: result -1, held for the push decision
    _act(
        site,
        t,
        "Ann",
        "task",
        {"actor": "alex", "stat": "Fitness", "difficulty": 6, "push": "ask"},
        [3, 4],
    )
    ann = _panels(site, t, "Ann")["pending"]
    buttons = re.findall(r'class="answer-now[^"]*" data-actor="alex" data-action="([^"]+)"', ann)
    assert buttons == ["push", "accept"]
    chances = [Fraction(c) for c in re.findall(r'data-chance="([^"]+)"', ann)]
    assert chances == [brute_push(-1), Fraction(0)] == [Fraction(5, 6), Fraction(0)]
