"""Roll requests over HTTP (issue 39 item 1): the chat's ``/request`` line previews each
asked character's exact chance and sends the request; the routes list, roll and withdraw;
a player's page, requests and log never hold a secret difficulty, and two tables that
differ only in it answer a player the same bytes."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from typing import Any

from tests.table.test_non_interference import _normal

from .conftest import Site, Table, make_table
from .test_fair_scenes import _seat


def _two_dice(total: int, target: int) -> Fraction:
    """P(2d6 + total >= target) (Mneme CE ch. 2), every face pair counted."""
    return Fraction(
        sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + total >= target), 36
    )


def _asked(site: Site, difficulty: int) -> tuple[Table, int]:
    table = make_table(site, "mneme", f"Asked {difficulty}", settings=None)
    _seat(site, table.id, table.auth("Ron"), "mneme")
    line = f"/request check skill=Recon characteristic=Int {difficulty} secret @Ann @Ben"
    with site.client(table.tokens["Ron"]) as http:
        read = http.post(f"/api/tables/{table.id}/commands", json={"line": line})
        assert read.status_code == 200, read.text
        body = read.json()
        assert body["command"]["difficulty"] == difficulty and body["command"]["secret"]
        assert [Fraction(p["chance"]["chance"]) for p in body["preview"]] == [
            _two_dice(2, difficulty),  # Ada Vance: Int 10 (+1) and Recon 1
            _two_dice(0, difficulty),  # Tess: Competence +0 on her sheet
        ]
        sent = http.post(f"/api/tables/{table.id}/commands", json={"line": line, "run": True})
        assert sent.status_code == 201, sent.text
    return table, sent.json()["seq"]


def _player(site: Site, table: Table, who: str, name: str) -> dict[str, Any]:
    with site.client(table.tokens[who]) as http:
        got = {
            "page": http.get(f"/t/{table.id}").text,
            "requests": http.get(f"/api/tables/{table.id}/roll-requests").json(),
            "log": http.get(f"/api/tables/{table.id}/log").json(),
            "show": http.get(f"/api/tables/{table.id}").json(),
        }
    text = json.dumps(_normal(got)).replace(table.id, "<table>").replace(name, "<name>")
    return dict(json.loads(text))


def test_a_secret_request_over_http(site: Site) -> None:
    table, seq = _asked(site, 10)
    with site.client(table.tokens["Ann"]) as http:
        mine = http.get(f"/api/tables/{table.id}/roll-requests").json()
        assert "difficulty" not in mine[0] and len(mine[0]["asked"]) == 1
        refused = http.delete(f"/api/tables/{table.id}/roll-requests/{seq}")
        assert refused.status_code == 403 and "only the referee" in refused.json()["detail"]
        rolled = http.post(f"/api/tables/{table.id}/roll-requests/{seq}", json={})
        assert rolled.status_code == 201, rolled.text
        assert rolled.json()["event"]["redacted"] is True  # her own roll: the referee sees it
        again = http.post(f"/api/tables/{table.id}/roll-requests/{seq}", json={})
        assert again.status_code == 403, again.text  # none of hers waits now
    with site.client(table.tokens["Obi"]) as http:
        assert http.get(f"/api/tables/{table.id}/roll-requests").json() == []
    with site.client(table.tokens["Ron"]) as http:
        panel = http.get(f"/api/tables/{table.id}/roll-requests").json()[0]
        assert panel["label"] == "Difficult (10)"
        assert Fraction(panel["asked"][0]["chance"]["chance"]) == _two_dice(2, 10)
        gone = http.delete(f"/api/tables/{table.id}/roll-requests/{seq}")
        assert gone.status_code == 200, gone.text
    with site.client(table.tokens["Ben"]) as http:
        late = http.post(f"/api/tables/{table.id}/roll-requests/{seq}", json={})
        assert late.status_code == 422 and "no roll request waits" in late.json()["detail"]


def test_two_secret_difficulties_answer_a_player_alike(site: Site) -> None:
    low, _ = _asked(site, 4)
    high, _ = _asked(site, 14)
    for who in ("Ann", "Ben", "Obi"):
        one, two = _player(site, low, who, "Asked 4"), _player(site, high, who, "Asked 14")
        for part in ("requests", "log", "show", "page"):
            assert json.dumps(one[part]) == json.dumps(two[part]), (who, part)


def test_each_game_s_request_form_shows_its_own_example_and_it_reads(site: Site) -> None:
    """The referee's request form shows a request in the game's own words (no Mneme CE
    check at an ARM table), and that very line, sent as the form would, previews each
    asked character's chance at a table of the game's example characters."""
    from html import escape

    from referee.systems.base import get, names
    from referee.systems.difficulty import request_example

    for game in sorted(names()):
        table = make_table(site, game, f"Example {game}", settings=None)
        _seat(site, table.id, table.auth("Ron"), game)
        line = request_example(get(game))
        with site.client(table.tokens["Ron"]) as http:
            page = http.get(f"/t/{table.id}").text
            assert f'placeholder="{escape(line)}"' in page, game
            read = http.post(f"/api/tables/{table.id}/commands", json={"line": f"/request {line}"})
            assert read.status_code == 200, (game, read.text)
            asked = 1 if game == "mnemonic" else 2  # a frigate has no Agile: Ann's boxer
            assert len(read.json()["preview"]) == asked, (game, read.text)
