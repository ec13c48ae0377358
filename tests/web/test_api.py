"""The JSON API and the pages over a real uvicorn server on 127.0.0.1 (httpx)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import httpx
import pytest

if TYPE_CHECKING:
    from tests.web.conftest import Connect, LiveSocket, Site, Table

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")

SHEET_CHECK = {"action": "sheet-check", "fields": {"actor": "mickey-ruane", "talent": "Tough"}}


def _events(site: Site, table: Table, who: str, after: int = 0) -> list[dict]:
    with site.client(table.tokens[who]) as http:
        r = http.get(f"/api/tables/{table.id}/log", params={"after": after, "limit": 1000})
        assert r.status_code == 200, r.text
        return r.json()


def test_creating_a_table_gives_the_referee_a_secret_link_and_a_strict_cookie(site: Site) -> None:
    with site.client() as http:
        r = http.post("/api/tables", json={"game": "mnemonic", "name": "Fri", "referee": "Ron"})
        assert r.status_code == 201, r.text
        body = r.json()
        assert body["table"]["role"] == "referee" and body["table"]["me"] == "Ron"
        assert body["link"] == f"{site.base}/join/{body['token']}"
        cookie = r.headers["set-cookie"]
        assert f"referee_{body['table']['id']}={body['token']}" in cookie
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Secure" not in cookie
        for header in ("content-security-policy", "x-content-type-options", "referrer-policy"):
            assert header in r.headers
    # a fresh browser opens the link: the join page keeps the token and leads to the table
    with httpx.Client(base_url=site.base) as browser:
        page = browser.get(f"/join/{body['token']}")
        assert page.status_code == 200 and f'data-next="/t/{body["table"]["id"]}"' in page.text
        assert "<title>Welcome, Ron · referee</title>" in page.text  # was " · referee"
        table = browser.get(f"/t/{body['table']['id']}", headers={"accept": "text/html"})
        assert table.status_code == 200 and "Fri" in table.text and 'role="log"' in table.text
        listed = browser.get("/api/tables").json()
        assert [t["id"] for t in listed] == [body["table"]["id"]]
        assert body["table"]["id"] in browser.get("/").text
    with httpx.Client(base_url=site.base) as stranger:
        refused = stranger.get(f"/t/{body['table']['id']}", headers={"accept": "text/html"})
        assert refused.status_code == 401 and "invite link" in refused.text
        assert "Traceback" not in refused.text
        assert stranger.get("/join/not-a-token").status_code == 404


def test_the_view_and_the_odds_are_the_callers(site: Site, table: Table) -> None:
    with site.client(table.tokens["Ann"]) as http:
        view = http.get(f"/api/tables/{table.id}").json()
        assert view["me"] == {"name": "Ann", "role": "player"}
        assert view["owners"] == {"mickey-ruane": "Ann", "swiftsure": "Ben"}
        assert view["tracker"]["characters"]["mickey-ruane"]
        odds = http.post(f"/api/tables/{table.id}/odds", json=SHEET_CHECK)
        assert odds.status_code == 200, odds.text
        data = odds.json()
        assert data["success"]["probability"] == "2/3"  # Aptitude 8 on a d12: 8/12
        assert sum(Fraction(d["probability"]) for d in data["distribution"]) == 1
        worse = {**SHEET_CHECK, "fields": {**SHEET_CHECK["fields"], "chances": -3}}
        assert http.post(f"/api/tables/{table.id}/odds", json=worse).json()["success"] == {
            "probability": "5/12",
            "percent": pytest.approx(41.6666, abs=1e-3),
        }


def test_a_player_acts_only_for_their_own_characters(site: Site, table: Table) -> None:
    with site.client(table.tokens["Ann"]) as ann:
        mine = ann.post(f"/api/tables/{table.id}/actions", json=SHEET_CHECK)
        assert mine.status_code == 201, mine.text
        assert mine.json()["event"]["payload"]["outcome"]["faces"]
        theirs = ann.post(
            f"/api/tables/{table.id}/actions",
            json={"action": "sheet-check", "fields": {"actor": "swiftsure", "talent": "Fast"}},
        )
        assert theirs.status_code == 403 and "not Ann's character" in theirs.json()["detail"]
        referees = ann.post(
            f"/api/tables/{table.id}/actions", json={"action": "check", "fields": {"aptitude": 5}}
        )
        assert referees.status_code == 403 and "referee" in referees.json()["detail"]
        secret = ann.post(
            f"/api/tables/{table.id}/actions", json={**SHEET_CHECK, "visibility": "referee"}
        )
        assert secret.status_code == 403
    with site.client(table.tokens["Obi"]) as obi:
        r = obi.post(f"/api/tables/{table.id}/actions", json=SHEET_CHECK)
        assert r.status_code == 403 and "observer" in r.json()["detail"]
        assert obi.post(f"/api/tables/{table.id}/notes", json={"text": "hi"}).status_code == 403
    with site.client(table.tokens["Ron"]) as ron:  # the referee acts for anyone
        r = ron.post(f"/api/tables/{table.id}/actions", json=SHEET_CHECK)
        assert r.status_code == 201


def test_hidden_and_blind_rolls_never_reach_a_players_browser(
    site: Site, table: Table, ws_connect: Connect
) -> None:

    url = f"{site.ws_base}/ws/tables/{table.id}?after=0"
    ann_ws = ws_connect(url, additional_headers=table.auth("Ann"))
    ben_ws = ws_connect(url, additional_headers=table.auth("Ben"))
    frames: dict[str, list[str]] = {"Ann": [], "Ben": []}

    def drain(ws: LiveSocket, who: str, until_seq: int) -> None:
        seen = 0
        while seen < until_seq:
            text = ws.recv(timeout=10)
            assert isinstance(text, str)
            frames[who].append(text)
            msg = json.loads(text)
            if msg["type"] == "event":
                seen = msg["event"]["seq"]

    with site.client(table.tokens["Ron"]) as ron:
        secret = ron.post(
            f"/api/tables/{table.id}/actions", json={**SHEET_CHECK, "visibility": "referee"}
        )
        assert secret.status_code == 201
    with site.client(table.tokens["Ann"]) as ann:
        blind = ann.post(
            f"/api/tables/{table.id}/actions", json={**SHEET_CHECK, "visibility": "blind"}
        )
        assert blind.status_code == 201
        assert blind.json()["event"].get("redacted") is True  # Ann herself does not see it
        private = ann.post(
            f"/api/tables/{table.id}/actions", json={**SHEET_CHECK, "visibility": "private"}
        )
        assert private.status_code == 201 and "outcome" in private.json()["event"]["payload"]
    whole = {e.seq: e for e in site.service.store.events(table.id)}
    secret_seq, blind_seq, private_seq = (
        secret.json()["seq"],
        blind.json()["seq"],
        private.json()["seq"],
    )
    hidden_from = {"Ann": [secret_seq, blind_seq], "Ben": [secret_seq, blind_seq, private_seq]}
    drain(ann_ws, "Ann", private_seq)
    drain(ben_ws, "Ben", private_seq)
    ann_ws.close()
    ben_ws.close()
    for who, seqs in hidden_from.items():
        with site.client(table.tokens[who]) as http:
            answers = {
                "log": http.get(f"/api/tables/{table.id}/log").text,
                "view": http.get(f"/api/tables/{table.id}").text,
                "export": http.get(f"/api/tables/{table.id}/export").text,
                "page": http.get(f"/t/{table.id}").text,
                "panels": http.get(f"/t/{table.id}/panels").text,
                "frames": "\n".join(frames[who]),
            }
        for seq in seqs:
            salt = whole[seq].salt  # random, hashed with the payload, shown only with it
            for where, text in answers.items():
                assert salt not in text, f"{who} received event {seq}'s payload in {where}"
        redacted = [e for e in _events(site, table, who) if e["seq"] in seqs]
        assert all(e["redacted"] and "outcome" not in e.get("payload", {}) for e in redacted)
        assert all("rolls" not in e for e in redacted)
    ron_log = {e["seq"]: e for e in _events(site, table, "Ron")}
    assert all("outcome" in ron_log[s]["payload"] for s in (secret_seq, blind_seq, private_seq))
    assert whole[private_seq].salt in json.dumps(_events(site, table, "Ann"))


def test_a_reconnecting_client_gets_exactly_what_it_missed(
    site: Site, table: Table, ws_connect: Connect
) -> None:
    import threading

    def receive(ws: LiveSocket, until: int) -> list[int]:
        seqs: list[int] = []
        while not seqs or seqs[-1] < until:
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "event":
                seqs.append(msg["event"]["seq"])
        return seqs

    head = len(_events(site, table, "Ben"))
    ws = ws_connect(
        f"{site.ws_base}/ws/tables/{table.id}?after=0", additional_headers=table.auth("Ben")
    )
    assert receive(ws, head) == list(range(1, head + 1))
    assert json.loads(ws.recv(timeout=10)) == {"type": "live", "seq": head}
    # what waited together (the whole catch-up and the "live" mark) came as one frame,
    # a JSON array of the same messages in order
    first = json.loads(ws.frames[0])
    assert isinstance(first, list) and len(first) == head + 1
    assert [m["event"]["seq"] for m in first[:-1]] == list(range(1, head + 1))
    assert first[-1] == {"type": "live", "seq": head}
    ws.close()
    with site.client(table.tokens["Ann"]) as ann:  # while Ben is away
        for _ in range(5):
            assert ann.post(f"/api/tables/{table.id}/actions", json=SHEET_CHECK).status_code == 201
    # and while he reconnects, Ann keeps rolling: nothing is lost or repeated
    stop = threading.Event()

    def roll() -> None:
        with site.client(table.tokens["Ann"]) as ann:
            for _ in range(15):
                if stop.is_set():
                    return
                ann.post(f"/api/tables/{table.id}/notes", json={"text": "racing"})

    racer = threading.Thread(target=roll)
    racer.start()
    ws = ws_connect(
        f"{site.ws_base}/ws/tables/{table.id}?after={head}", additional_headers=table.auth("Ben")
    )
    racer.join()
    final = len(_events(site, table, "Ben"))
    got = receive(ws, final)
    ws.close()
    assert got == list(range(head + 1, final + 1))  # no gap, no duplicate, in order


def test_a_page_socket_gets_the_lean_form_of_each_event_with_the_same_entry(
    site: Site, table: Table, ws_connect: Connect
) -> None:
    """``lean=1`` (the page's socket): each event's table, seq and kind, and the entry an
    undo points at, beside the same HTML the whole form carries; a secret roll reads the
    same in both forms as the redacted event says (nothing of its payload)."""
    head = len(_events(site, table, "Ben"))
    url = f"{site.ws_base}/ws/tables/{table.id}?after={head}"
    whole = ws_connect(url, additional_headers=table.auth("Ben"))
    lean = ws_connect(url + "&lean=1", additional_headers=table.auth("Ben"))
    with site.client(table.tokens["Ann"]) as ann:
        rolled = ann.post(f"/api/tables/{table.id}/actions", json=SHEET_CHECK).json()["seq"]
        assert ann.post(f"/api/tables/{table.id}/undo", json={}).status_code == 201
    with site.client(table.tokens["Ron"]) as ron:
        secret = {**SHEET_CHECK, "visibility": "referee"}
        answered = ron.post(f"/api/tables/{table.id}/actions", json=secret)
        assert answered.status_code == 201, answered.text
        last = answered.json()["seq"]

    def events(ws: LiveSocket) -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = []
        while not got or got[-1]["event"]["seq"] < last:
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "event":
                got.append(msg)
        return got

    full, thin = events(whole), events(lean)
    whole.close()
    lean.close()
    assert [m["html"] for m in thin] == [m["html"] for m in full]
    for f, t in zip(full, thin, strict=True):
        e = f["event"]
        kept = {"table": e["table"], "seq": e["seq"], "kind": e["kind"]}
        if e["kind"] == "undo":
            kept["payload"] = {"seq": rolled}
        assert t["event"] == kept
    hidden = full[-1]["event"]
    assert hidden["redacted"] and "payload" not in hidden  # the secret roll, as Ben sees it
    assert len("".join(map(json.dumps, thin))) < len("".join(map(json.dumps, full)))


def test_undo_and_redo_reach_every_browser(site: Site, table: Table, ws_connect: Connect) -> None:

    ws = ws_connect(
        f"{site.ws_base}/ws/tables/{table.id}?after=0", additional_headers=table.auth("Ben")
    )
    with site.client(table.tokens["Ann"]) as ann:
        rolled = ann.post(f"/api/tables/{table.id}/actions", json=SHEET_CHECK).json()["seq"]
        undo = ann.post(f"/api/tables/{table.id}/undo", json={})
        assert undo.status_code == 201 and undo.json()["event"]["payload"] == {"seq": rolled}
        again = ann.post(f"/api/tables/{table.id}/undo", json={})
        assert again.status_code == 422 and "nothing to undo" in again.json()["detail"]
        assert ann.post(f"/api/tables/{table.id}/redo", json={}).status_code == 403
    with site.client(table.tokens["Ron"]) as ron:
        redo = ron.post(f"/api/tables/{table.id}/redo", json={"seq": rolled})
        assert redo.status_code == 201
    kinds = []
    while len(kinds) < 3 or kinds[-1] != "redo":
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] == "event" and msg["event"]["seq"] >= rolled:
            kinds.append(msg["event"]["kind"])
            assert msg["html"].startswith("<li")
    ws.close()
    assert kinds == ["action-resolved", "undo", "redo"]


def test_faces_from_physical_dice(site: Site, table: Table) -> None:
    with site.client(table.tokens["Ann"]) as ann:
        r = ann.post(f"/api/tables/{table.id}/actions", json={**SHEET_CHECK, "faces": [3]})
        assert r.status_code == 201, r.text
        outcome = r.json()["event"]["payload"]["outcome"]
        assert [f["face"] for f in outcome["faces"]] == [3] and outcome["manual"] is True
        assert outcome["result"] == 5  # Aptitude 8 - 3
        for faces, word in (([13], "d12"), ([3, 4], "more than")):
            bad = ann.post(f"/api/tables/{table.id}/actions", json={**SHEET_CHECK, "faces": faces})
            assert bad.status_code == 422 and word in bad.json()["detail"], bad.text


def test_bad_input_gets_a_clear_4xx_never_a_500(site: Site, table: Table) -> None:
    base = f"/api/tables/{table.id}"
    with site.client(table.tokens["Ann"]) as ann:
        cases = [
            ann.post(
                f"{base}/actions",
                content=b"{not json",
                headers={"content-type": "application/json"},
            ),
            ann.post(f"{base}/actions", json={"action": 5}),
            ann.post(f"{base}/actions", json={"action": "dance", "fields": {}}),
            ann.post(f"{base}/actions", json={**SHEET_CHECK, "surprise": 1}),
            ann.post(f"{base}/actions", json={**SHEET_CHECK, "visibility": "loud"}),
            ann.post(f"{base}/odds", json={"action": "check", "fields": {"aptitude": 13}}),
            ann.post(f"{base}/odds", json={"action": "sheet-check", "fields": {"actor": 7}}),
            ann.post(f"{base}/undo", json={"seq": 10**30}),
            ann.post(f"{base}/notes", json={"text": ""}),
            ann.post(f"{base}/notes", json={"text": "x" * 5000}),
            ann.get(f"{base}/log", params={"after": -1}),
            ann.get(f"{base}/log", params={"after": "x"}),
        ]
        deep = {
            "action": "check",
            "fields": {"aptitude": 5, "chances": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]},
        }
        cases.append(ann.post(f"{base}/odds", json=deep))
        very_deep = (
            b'{"action": "check", "fields": {"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
        )
        cases.append(
            ann.post(
                f"{base}/odds", content=very_deep, headers={"content-type": "application/json"}
            )
        )
        big = ann.post(
            f"{base}/notes",
            content=b'{"text": "' + b"x" * 600_000 + b'"}',
            headers={"content-type": "application/json"},
        )
        assert big.status_code == 413 and "over" in big.json()["detail"]

        def chunks() -> object:
            for _ in range(200):
                yield b"x" * 4096

        chunked = ann.post(
            f"{base}/notes", content=chunks(), headers={"content-type": "application/json"}
        )
        assert chunked.status_code == 413
        for r in cases:
            assert 400 <= r.status_code < 500, (r.request.url, r.status_code, r.text)
            assert isinstance(r.json()["detail"], str) and r.json()["detail"]
            assert "Traceback" not in r.text
        bounds = ann.post(f"{base}/odds", json={"action": "check", "fields": {"aptitude": 13}})
        detail = bounds.json()["detail"].lower()
        assert "aptitude" in detail and "12" in detail and "13" in detail
    with site.client() as nobody:
        assert nobody.get(f"{base}").status_code == 401
        # another table's link opens nothing here, and says nothing of whether it exists
        assert nobody.get("/api/tables/tnope/log", headers=table.auth("Ann")).status_code == 401
        assert nobody.get("/api/tables/bad%20id!/log").status_code == 422
        assert nobody.get(f"{base}", headers={"authorization": "Bearer nope"}).status_code == 401


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", {"game": "mongrel", "name": "Elsewhere", "referee": "Ron"}),
        ("/api/import", {}),
    ],
)
def test_a_new_table_or_an_import_from_another_site_is_refused(
    site: Site, path: str, body: dict[str, str]
) -> None:
    """A page elsewhere cannot make a table (or import one) in this browser's name: an
    Origin that is not this site's is refused before anything is made."""
    with httpx.Client(base_url=site.base) as browser:
        evil = browser.post(path, json=body, headers={"origin": "https://evil.example"})
        assert evil.status_code == 403 and "this site" in evil.json()["detail"]
        tables = browser.get("/api/tables").json()
    assert all(t["name"] != "Elsewhere" for t in tables)


def test_cookie_requests_that_change_things_must_come_from_this_site(
    site: Site,
    table: Table,
    ws_connect: Connect,
) -> None:
    cookies = {f"referee_{table.id}": table.tokens["Ann"]}
    host = site.base.removeprefix("http://")
    with httpx.Client(base_url=site.base, cookies=cookies) as browser:
        assert browser.get(f"/api/tables/{table.id}").status_code == 200  # reading is fine
        url = f"/api/tables/{table.id}/notes"
        evil = browser.post(url, json={"text": "hi"}, headers={"origin": "https://evil.example"})
        assert evil.status_code == 403 and "this site" in evil.json()["detail"]
        blank = browser.post(url, json={"text": "hi"})  # no Origin, no Sec-Fetch-Site
        assert blank.status_code == 403
        same = browser.post(url, json={"text": "hi"}, headers={"origin": f"http://{host}"})
        assert same.status_code == 201
        fetch = browser.post(url, json={"text": "hi"}, headers={"sec-fetch-site": "same-origin"})
        assert fetch.status_code == 201
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    with pytest.raises((ConnectionClosed, InvalidStatus)):
        ws = ws_connect(
            f"{site.ws_base}/ws/tables/{table.id}",
            additional_headers={"cookie": f"referee_{table.id}={table.tokens['Ann']}"},
            origin="https://evil.example",  # type: ignore[arg-type]
        )
        ws.recv(timeout=5)


def test_websocket_messages_are_bounded_and_checked(
    site: Site, table: Table, ws_connect: Connect
) -> None:
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    ws = ws_connect(
        f"{site.ws_base}/ws/tables/{table.id}?after=0", additional_headers=table.auth("Ann")
    )
    while json.loads(ws.recv(timeout=10))["type"] != "live":
        pass
    ws.send('{"type": "ping"}')
    assert json.loads(ws.recv(timeout=10))["type"] == "pong"
    ws.send("not json")
    assert json.loads(ws.recv(timeout=10))["type"] == "error"
    ws.send("x" * 10_000)
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    for bad in ("?after=-1", "?after=x", "?after=0&lean=2", "?lean=yes"):
        with pytest.raises((ConnectionClosed, InvalidStatus)):
            ws = ws_connect(
                f"{site.ws_base}/ws/tables/{table.id}{bad}", additional_headers=table.auth("Ann")
            )
            ws.recv(timeout=5)
    with pytest.raises((ConnectionClosed, InvalidStatus)):
        ws = ws_connect(
            f"{site.ws_base}/ws/tables/{table.id}", additional_headers={"authorization": "Bearer x"}
        )
        ws.recv(timeout=5)


def test_invites_are_made_and_revoked_by_the_referee(site: Site, table: Table) -> None:
    base = f"/api/tables/{table.id}"
    with site.client(table.tokens["Ann"]) as ann:
        assert ann.post(f"{base}/invites", json={"name": "Cai"}).status_code == 403
        assert ann.get(f"{base}/invites").status_code == 403
    with site.client(table.tokens["Ron"]) as ron:
        made = ron.post(f"{base}/invites", json={"name": "Cai", "role": "player"})
        assert made.status_code == 201
        cai = made.json()
        assert ron.get(base).json()["participants"]["Cai"] == "player"
        with site.client(cai["token"]) as as_cai:
            assert as_cai.get(base).status_code == 200
            listed = ron.get(f"{base}/invites").json()
            assert {"Ron", "Ann", "Ben", "Obi", "Cai"} <= {i["name"] for i in listed}
            assert all("token" not in i or i["token"] is None for i in listed)
            assert ron.delete(f"{base}/invites/{cai['id']}").status_code == 200
            assert ron.delete(f"{base}/invites/{cai['id']}").status_code == 404
            assert as_cai.get(base).status_code == 401
        second = ron.post(f"{base}/invites", json={"name": "Cai"}).json()  # a new link
        with site.client(second["token"]) as as_cai:
            assert as_cai.get(base).status_code == 200
            assert ron.delete(f"{base}/participants/Cai").status_code == 200
            assert as_cai.get(base).status_code == 401  # leaving revokes the links
        role = ron.put(f"{base}/participants/Obi", json={"role": "player"})
        assert role.status_code == 200
        assert ron.get(base).json()["participants"]["Obi"] == "player"


def test_sheets_are_validated_live_and_seated_by_rule(site: Site, table: Table) -> None:
    base = f"/api/tables/{table.id}"
    sheet = {
        "name": "Nell",
        "primary_role": "human",
        "talents": {"Agile": 99, "Tough": 3},
        "life_roles": {},
    }
    with site.client(table.tokens["Ann"]) as ann:
        checked = ann.post(f"{base}/validate", json={"sheet": sheet}).json()
        assert checked["valid"] is False and len(checked["problems"]) >= 2
        assert all(p["field"] and p["message"] for p in checked["problems"])
        refused = ann.post(f"{base}/characters", json={"sheet": sheet})
        assert refused.status_code == 422 and "breaks" in refused.json()["detail"]
        forced = ann.post(f"{base}/characters", json={"sheet": sheet, "force": True})
        assert forced.status_code == 403
        wrong = ann.post(f"{base}/validate", json={"sheet": {"name": 5}}).json()
        assert wrong["valid"] is False and wrong["problems"]
    with site.client(table.tokens["Ron"]) as ron:
        seated = ron.post(
            f"{base}/characters", json={"sheet": sheet, "force": True, "owner": "Ann"}
        )
        assert seated.status_code == 201
        assert ron.get(base).json()["findings"]["nell"]
        options = ron.put(f"{base}/options", json={"options": {"randomizer": "3d12"}})
        assert options.status_code == 200
        assert ron.get(base).json()["options"]["randomizer"] == "3d12"
        assert ron.put(f"{base}/options", json={"options": {"randomizer": "d7"}}).status_code == 422
        edit = ron.post(
            f"{base}/edits",
            json={
                "changes": [{"target": "nell", "field": "status.injuries", "delta": 1}],
                "reason": "a fall",
            },
        )
        assert edit.status_code == 201, edit.text
        assert ron.delete(f"{base}/characters/nell").status_code == 200


def test_reveal_makes_a_secret_roll_public(site: Site, table: Table) -> None:
    with site.client(table.tokens["Ron"]) as ron:
        seq = ron.post(
            f"/api/tables/{table.id}/actions", json={**SHEET_CHECK, "visibility": "referee"}
        ).json()["seq"]
        assert ron.post(f"/api/tables/{table.id}/reveal", json={"seq": seq}).status_code == 201
    shown = {e["seq"]: e for e in _events(site, table, "Ann")}[seq]
    assert "outcome" in shown["payload"]


@pytest.mark.slow
def test_export_and_import_through_the_api(
    site: Site, table: Table, tmp_path: object, new_site: Any
) -> None:
    with site.client(table.tokens["Ann"]) as ann:
        ann.post(f"/api/tables/{table.id}/actions", json=SHEET_CHECK)
        mine = ann.get(f"/api/tables/{table.id}/export")
        assert mine.status_code == 200 and mine.json()["redacted"] is True
        assert "attachment" in mine.headers["content-disposition"]
    with site.client(table.tokens["Ron"]) as ron:
        whole = ron.get(f"/api/tables/{table.id}/export").json()
        assert ron.get(f"/api/tables/{table.id}/verify").json()["ok"] is True
    other = new_site(f"sqlite:///{tmp_path}/other.db")
    if True:
        with other.client() as http:
            refused = http.post("/api/import", json=mine.json())
            assert refused.status_code == 422 and "redacted" in refused.json()["detail"]
            tampered = json.loads(json.dumps(whole))
            tampered["events"][3]["payload"]["owner"] = "Ben"
            bad = http.post("/api/import", json=tampered)
            assert bad.status_code == 422 and bad.json()["seq"] == 4
            done = http.post("/api/import", json=whole)
            assert done.status_code == 201, done.text
            assert done.json()["table"]["me"] == "Ron"
            again = http.post("/api/import", json=whole)
            assert again.status_code == 409
        assert other.service.load(table.id).hash == site.service.load(table.id).hash


def test_pending_fragments_and_older_entries(site: Site, table: Table) -> None:
    with site.client(table.tokens["Ann"]) as ann:
        panels = ann.get(f"/t/{table.id}/panels").json()
        assert set(panels["cards"]) == {"mickey-ruane", "swiftsure"}
        assert set(panels["panels"]) == {"mickey-ruane"}  # Ann acts only for hers
        preview = ann.post(f"/t/{table.id}/preview", json=SHEET_CHECK).json()
        assert preview["ok"] and "<svg" in preview["html"] and "66.67%" in preview["html"]
        bad = ann.post(
            f"/t/{table.id}/preview",
            json={
                "action": "sheet-check",
                "fields": {"actor": "mickey-ruane", "talent": "Tough", "chances": 99},
            },
        ).json()
        assert bad["ok"] is False and "chances" in bad.get("detail", "").lower()
        older = ann.get(f"/t/{table.id}/entries", params={"before": 3}).json()
        assert older["first"] == 1 and 'id="e2"' in older["html"]
        assert ann.post(f"/t/{table.id}/forget").status_code == 403  # needs the Origin of a page


def test_a_preview_says_what_its_numbers_are(site: Site, new_table: Any) -> None:
    """Odds with no success say what they count where the action has a ``report`` field:
    a Mneme CE attack's preview reads "Damage: every outcome", then "Condition: ..." when
    the condition is asked for; a preview without one says "Every outcome"."""
    table = new_table(site, "mneme")
    ron = table.auth("Ron")
    with site.client() as http:
        for example in ("ada", "raider"):
            r = http.post(
                f"/api/tables/{table.id}/characters", json={"example": example}, headers=ron
            )
            assert r.status_code == 201, r.text
        attack = {"actor": "ada-vance", "target": "raider", "weapon": "Broadsword"}
        for report, heading in (("damage", "Damage: every"), ("condition", "Condition: every")):
            body = {"action": "attack", "fields": attack | {"report": report}}
            preview = http.post(f"/t/{table.id}/preview", json=body, headers=ron).json()
            assert preview["ok"] and heading in preview["html"], preview
        rolls = {"action": "damage-rolls", "fields": {"rolls": 2, "damage": "2d6"}}
        preview = http.post(f"/t/{table.id}/preview", json=rolls, headers=ron).json()
        assert "Damage: every outcome" in preview["html"]
        tray = {"action": "roll", "fields": {"dice": "2d6"}}
        preview = http.post(f"/t/{table.id}/preview", json=tray, headers=ron).json()
        assert "Every outcome and its exact chance" in preview["html"]


@pytest.mark.parametrize(
    ("game", "examples", "action", "fields", "shown", "ids"),
    [
        (
            "mnemonic",
            (),  # the table comes with Mickey Ruane and Swiftsure
            "set-status",
            {"target": "mickey-ruane"},
            "Mickey Ruane: Fine",
            ("mickey-ruane",),
        ),
        ("arm", ("alex", "brad"), "prepare", {"actor": "alex"}, "Alex waits, prepared", ("alex",)),
        ("mongrel", ("alwia", "vooruk"), "start-conflict", {}, "Vooruk / Alwia", ("alwia",)),
    ],
)
def test_a_preview_names_the_characters_its_outcomes_name(
    site: Site,
    new_table: Any,
    game: str,
    examples: tuple[str, ...],
    action: str,
    fields: dict[str, Any],
    shown: str,
    ids: tuple[str, ...],
) -> None:
    """An outcome the log keeps by the characters' ids ("mickey-ruane: Fine", the order
    of a conflict) reads with their names in the form's preview, as in the log; the API's
    ``outcome`` keeps the value, its ``label`` the words."""
    table = new_table(site, game, f"Names {game}")
    ron = table.auth("Ron")
    with site.client() as http:
        for example in examples:
            body = {"example": example, "force": True}
            r = http.post(f"/api/tables/{table.id}/characters", json=body, headers=ron)
            assert r.status_code == 201, r.text
        if game == "arm":  # a round runs: the prepare is the round's action
            r = http.post(
                f"/api/tables/{table.id}/actions", json={"action": "next-round"}, headers=ron
            )
            assert r.status_code == 201, r.text
        body = {"action": action, "fields": fields}
        preview = http.post(f"/t/{table.id}/preview", json=body, headers=ron).json()
        assert preview["ok"] and shown in preview["html"], preview
        assert not any(re.search(rf"(?<![\w-]){i}(?![\w-])", preview["html"]) for i in ids)
        [row] = preview["distribution"]
        assert row["label"] == shown


def test_referee_odds_does_not_import_the_web_stack() -> None:
    code = (
        "import sys; from referee.cli.main import run; run(['odds', '2d6', '--json']); "
        "print('fastapi' in sys.modules, 'uvicorn' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip() == "False False"


def test_the_cookie_is_secure_behind_a_tls_proxy(site: Site) -> None:
    with site.client() as http:  # uvicorn trusts X-Forwarded-Proto from 127.0.0.1
        r = http.post(
            "/api/tables",
            json={"game": "mnemonic", "name": "Tls", "referee": "Ron"},
            headers={"x-forwarded-proto": "https"},
        )
        assert r.status_code == 201
        assert "Secure" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
        assert r.json()["link"].startswith("https://")


def test_a_new_role_reloads_and_leaving_closes_the_socket(
    site: Site, table: Table, ws_connect: Connect
) -> None:
    from websockets.exceptions import ConnectionClosed

    def live(who: str) -> LiveSocket:
        ws = ws_connect(
            f"{site.ws_base}/ws/tables/{table.id}?after=0", additional_headers=table.auth(who)
        )
        while json.loads(ws.recv(timeout=10))["type"] != "live":
            pass
        return ws

    obi, ben = live("Obi"), live("Ben")
    with site.client(table.tokens["Ron"]) as ron:
        assert (
            ron.put(f"/api/tables/{table.id}/participants/Obi", json={"role": "player"}).status_code
            == 200
        )
        assert ron.delete(f"/api/tables/{table.id}/participants/Ben").status_code == 200
    kinds = []
    while "reload" not in kinds:
        kinds.append(json.loads(obi.recv(timeout=10))["type"])
    obi.close()
    kinds = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            kinds.append(json.loads(ben.recv(timeout=10))["type"])
    assert "left" in kinds and closed.value.rcvd is not None and closed.value.rcvd.code == 4003
    with site.client(table.tokens["Ben"]) as gone:
        assert gone.get(f"/api/tables/{table.id}").status_code == 401


def test_many_sockets_joining_and_leaving_at_once_each_get_every_event(
    site: Site,
    table: Table,
    ws_connect: Connect,
) -> None:
    import threading

    url = f"{site.ws_base}/ws/tables/{table.id}?after=0"
    stop = threading.Event()
    results: dict[int, list[int]] = {}

    def churn() -> None:  # browsers that come and go while the others listen
        while not stop.is_set():
            with ws_connect(url, additional_headers=table.auth("Obi")) as ws:
                ws.recv(timeout=10)

    def listen(i: int, final: threading.Event) -> None:
        with ws_connect(url, additional_headers=table.auth("Ben" if i % 2 else "Ann")) as ws:
            seqs: list[int] = []
            while not (final.is_set() and seqs and seqs[-1] >= final_seq[0]):
                try:
                    msg = json.loads(ws.recv(timeout=0.5))
                except TimeoutError:
                    continue
                if msg["type"] == "event":
                    seqs.append(msg["event"]["seq"])
            results[i] = seqs

    final = threading.Event()
    final_seq = [0]
    churners = [threading.Thread(target=churn) for _ in range(2)]
    listeners = [threading.Thread(target=listen, args=(i, final)) for i in range(10)]
    for t in churners + listeners:
        t.start()
    with site.client(table.tokens["Ron"]) as ron:
        for n in range(30):
            assert (
                ron.post(f"/api/tables/{table.id}/notes", json={"text": f"n{n}"}).status_code == 201
            )
    final_seq[0] = site.service.load(table.id).seq
    final.set()
    for t in listeners:
        t.join(timeout=60)
    stop.set()
    for t in churners:
        t.join(timeout=30)
    assert len(results) == 10
    for seqs in results.values():
        assert seqs == list(range(1, final_seq[0] + 1))


def test_a_preview_against_a_hidden_stat_shows_the_chance_per_value(
    site: Site, new_table: Any
) -> None:
    """Issue 32, odds against what you cannot see: Ann's contest against Christine, whose
    sheet only the referee sees, shows the chance for each Wit a human may have (3 to 9),
    as a table and as data; the referee's preview is the one true number."""
    table = new_table(site, "arm", "Banquet")
    ron = table.auth("Ron")
    with site.client() as http:
        for example, owner in (("alex", "Ann"), ("christine", None)):
            body = {"example": example, **({"owner": owner} if owner else {})}
            r = http.post(f"/api/tables/{table.id}/characters", json=body, headers=ron)
            assert r.status_code == 201, r.text
        assert http.put(
            f"/api/tables/{table.id}/sheets", json={"sheets": "owner"}, headers=ron
        ).status_code in (200, 204)
    contest = {
        "action": "contest",
        "fields": {"actor": "alex", "opponent": "christine", "opponent_stat": "Wit"},
    }
    with site.client(table.tokens["Ann"]) as ann:
        seen = ann.post(f"/t/{table.id}/preview", json=contest).json()
    assert seen["ok"] is False and seen["depends"]["what"] == "Wit"
    rows = {row["value"]: row["chance"] for row in seen["depends"]["values"]}
    assert rows == {3: "1", 4: "35/36", 5: "11/12", 6: "5/6", 7: "13/18", 8: "7/12", 9: "5/12"}
    assert "Chance for each Wit the rules allow" in seen["html"]
    assert "<td>9</td><td>41.67%</td><td>5/12</td>" in seen["html"]
    with site.client(table.tokens["Ron"]) as referee:
        truth = referee.post(f"/t/{table.id}/preview", json=contest).json()
    assert truth["ok"] and "(exactly 5/6)" in truth["html"]
