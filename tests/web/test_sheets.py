"""Readable character sheets at the web table, and who may see them (issue 19).

The table made by ``make_table`` (tests/web/conftest.py) is a Mnemonic table: Ann
plays Mickey Ruane (the boxer), Ben the Swiftsure (the frigate), Obi observes and
Ron referees. Words found only on one sheet ("Cannoneers", a Life Role of the
frigate; "Professional Boxer", the boxer's) tell whose sheet reached whom.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from referee.errors import RulesError
from referee.systems.base import get, names
from referee.table.service import TableService
from referee.table.store import Store
from referee.table.tokens import Tokens
from referee.web.demo import demo_tables

if TYPE_CHECKING:
    from tests.web.conftest import Connect, LiveSocket, Site, Table

FRIGATE_ONLY = "Cannoneers"
BOXER_ONLY = "Professional Boxer"
REPR = re.compile(r"[A-Za-z]\w*\([^)]*=")


# ---------------------------------------------------------------------------
# the trackers in words


def _audit(label: object, value: object, where: str) -> None:
    assert isinstance(label, str) and label, where
    assert "_" not in label, f"{where}: the label {label!r} is a field name"
    assert label[0].isupper() or label[0].isdigit(), f"{where}: {label!r} is not a heading"
    assert not REPR.search(label), f"{where}: {label!r} is program output"
    text = json.dumps(value) if not isinstance(value, str) else value
    assert not REPR.search(text), f"{where}: {label} = {text!r} is program output"
    assert not re.search(r"\b[a-z]+_[a-z]+\b", text), f"{where}: {label} = {text!r}"


CHANCY = frozenset({"attack"})
PLAY: dict[str, Any] = {
    "mongrel": lambda ids: [
        ("start-conflict", {}),
        ("take-damage", {"victim": ids["Giazza"], "effect": 7}),
        ("attack", {"actor": ids["Vooruk"], "target": ids["Alwia"], "expertise": "Rend"}),
    ],
    "mnemonic": lambda ids: [
        (
            "set-status",
            {
                "target": ids["Swiftsure"],
                "condition": "inactive",
                "inactive_as": "immobilized",
                "injuries": 2,
            },
        ),
    ],
    "mneme": lambda ids: [
        ("set-care", {"actor": ids["Ada Vance"], "activity": "light", "care": "moderate"}),
        ("initiative", {}),
    ],
    "arm": lambda ids: [
        ("take-damage", {"target": ids["Alex"], "wound": 2, "shock": 3}),
        ("impose-penalty", {"target": ids["Alex"], "value": -2, "when": "now"}),
        ("prepare", {"actor": ids["Christine"]}),
    ],
}
"""A little play at each demo table, so the tracker shows more than fresh characters."""


def test_every_games_demo_table_tracker_reads_as_people_speak(tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'demo.db'}"))
    made, skipped = demo_tables(service, Tokens(service.store))
    assert skipped == [] and {t.name for t in made} == {f"demo-{g}" for g in names()}
    for demo in made:
        ts = service.load(demo.id)
        ids = {getattr(seat.sheet, "name", cid): cid for cid, seat in ts.state.characters.items()}
        for action, fields in PLAY[ts.game](ids):  # some play, so more rows show
            try:
                service.act(demo.id, "Referee", action, fields)
            except RulesError as e:  # a roll the dice refuse (a missed attack): say which
                assert action in CHANCY, f"{ts.game} {action}: {e}"
        ts = service.load(demo.id)
        tracked = ts.ruleset.tracker(ts.state, ts.options)
        assert tracked["table"] and tracked["characters"]
        for row in tracked["table"]:
            _audit(row[0], row[1], f"{ts.game} table")
        for cid, rows in tracked["characters"].items():
            assert rows, cid
            for row in rows:
                _audit(row[0], row[1], f"{ts.game} {cid}")
    service.store.close()


def test_the_audit_refuses_what_the_trackers_used_to_say() -> None:
    for label, value in (
        ("order key (Beast, Man, Demon)", "0, 2, 4"),
        ("hours_elapsed", 0),
        ("Result", "CheckResult(success=True, successes=6)"),
        ("Activity", "full_rest"),
    ):
        with pytest.raises(AssertionError):
            _audit(label, value, "old")


def test_every_game_has_a_present_module_and_lays_out_its_examples() -> None:
    for game in names():
        rules = get(game)
        module = __import__(f"referee.systems.{game}.present", fromlist=["sheet_view"])
        assert callable(module.sheet_view)
        options = rules.load_options({})
        for cid, sheet in rules.examples().items():
            view = rules.sheet_view(sheet, None, options)
            data = view.data()
            assert data["sections"] and view.source, (game, cid)
            assert json.loads(json.dumps(data)) == data


# ---------------------------------------------------------------------------
# who sees the sheets


def _answers(site: Site, table: Table, who: str) -> dict[str, str]:
    with site.client(table.tokens[who]) as http:
        return {
            "page": http.get(f"/t/{table.id}").text,
            "panels": http.get(f"/t/{table.id}/panels").text,
            "view": http.get(f"/api/tables/{table.id}").text,
            "log": http.get(f"/api/tables/{table.id}/log").text,
            "export": http.get(f"/api/tables/{table.id}/export").text,
        }


def _set(site: Site, table: Table, who: str, shown: str) -> Any:
    with site.client(table.tokens[who]) as http:
        return http.put(f"/api/tables/{table.id}/sheets", json={"sheets": shown})


def test_by_default_a_player_sees_only_their_own_sheet(site: Site, table: Table) -> None:
    ann = _answers(site, table, "Ann")
    for where, text in ann.items():
        assert FRIGATE_ONLY not in text, f"Ann received Ben's sheet in {where}"
    assert BOXER_ONLY in ann["page"] and BOXER_ONLY in ann["panels"]
    assert "Only Ben and the referee see this sheet." in ann["page"]
    view = json.loads(ann["view"])
    assert view["sheets"] == "owner"
    # the frigate's seat and tracker rows are read from its sheet: Ann is given neither
    assert view["state"]["characters"]["swiftsure"] == {"sheet_hidden": True}
    assert view["state"]["characters"]["mickey-ruane"]["sheet"]["name"] == "Mickey Ruane"
    assert set(view["sheet_views"]) == {"mickey-ruane"}
    assert view["tracker"]["characters"]["swiftsure"] == []
    assert dict(view["tracker"]["characters"]["mickey-ruane"])["Name"] == "Mickey Ruane"
    seated = [e for e in json.loads(ann["log"]) if e.get("kind") == "character-added"]
    frigate = next(e for e in seated if e["payload"]["id"] == "swiftsure")
    assert frigate["sheet_hidden"] is True and frigate["payload"]["sheet"] == {"name": "Swiftsure"}
    assert frigate["salt"] == "" and frigate["hash"]  # the hash stays, the salt goes
    # an observer sees no sheet; the referee every one
    obi = _answers(site, table, "Obi")
    assert all(FRIGATE_ONLY not in t and BOXER_ONLY not in t for t in obi.values())
    ron = _answers(site, table, "Ron")
    for where in ("page", "panels", "view", "log", "export"):
        assert FRIGATE_ONLY in ron[where] and BOXER_ONLY in ron[where], where


def test_the_referee_opens_the_sheets_and_it_is_an_audited_event(
    site: Site, table: Table, tmp_path: Path
) -> None:
    assert _set(site, table, "Ann", "everyone").status_code == 403
    bad = _set(site, table, "Ron", "nobody")
    assert bad.status_code == 422 and "sheets" in bad.text
    done = _set(site, table, "Ron", "everyone")
    assert done.status_code == 200, done.text
    assert done.json()["event"]["kind"] == "sheets-shown"
    assert done.json()["event"]["payload"] == {"sheets": "everyone"}
    ann = _answers(site, table, "Ann")
    for where in ("page", "panels", "view", "log", "export"):
        assert FRIGATE_ONLY in ann[where], where
    assert "Everyone at the table sees every character's sheet." in ann["page"]
    # replayed from the log by another service on the same database
    again = TableService(Store(site.url))
    assert again.load(table.id).sheets == "everyone"
    again.store.close()
    with site.client(table.tokens["Ron"]) as ron:
        report = ron.get(f"/api/tables/{table.id}/verify").json()
    assert report["ok"] is True
    assert _set(site, table, "Ron", "owner").status_code == 200
    ann = _answers(site, table, "Ann")
    assert all(FRIGATE_ONLY not in t for t in ann.values())


def test_the_players_sheets_shown_to_the_players_and_the_referees_kept(
    site: Site, table: Table
) -> None:
    """``players``: Ben's frigate opens to Ann and the observer, the referee's own
    character (a guard dog the referee seats for nobody) stays the referee's, numbers
    and tracker rows included."""
    with site.client(table.tokens["Ron"]) as ron:
        r = ron.post(f"/api/tables/{table.id}/characters/bestiary", json={"entry": "guard-dog"})
        assert r.status_code in (200, 201), r.text
        dog = r.json()["event"]["payload"]["id"]
    assert _set(site, table, "Ron", "players").status_code == 200
    for who in ("Ann", "Obi"):
        got = _answers(site, table, who)
        for where in ("page", "panels", "view", "log", "export"):
            assert FRIGATE_ONLY in got[where], (who, where)
        view = json.loads(got["view"])
        assert view["state"]["characters"][dog] == {"sheet_hidden": True}
        assert view["tracker"]["characters"][dog] == []
        assert set(view["sheet_views"]) == {"mickey-ruane", "swiftsure"}
        assert "the referee's characters are the referee's" in got["page"]
    log = json.loads(_answers(site, table, "Ron")["log"])
    assert log[-1]["kind"] == "sheets-shown" and log[-1]["payload"] == {"sheets": "players"}


def _drain(ws: LiveSocket, until_seq: int) -> list[str]:
    texts: list[str] = []
    seen = 0
    while seen < until_seq:
        text = ws.recv(timeout=10)
        texts.append(text)
        msg = json.loads(text)
        if msg["type"] in ("event", "live") and isinstance(msg.get("event"), dict):
            seen = msg["event"]["seq"]
    return texts


def test_a_players_socket_never_carries_anothers_sheet(
    site: Site, table: Table, ws_connect: Connect
) -> None:
    url = f"{site.ws_base}/ws/tables/{table.id}?after=0"
    sockets = {who: ws_connect(url, additional_headers=table.auth(who)) for who in ("Ann", "Ben")}
    sheet = get("mnemonic").dump_sheet(get("mnemonic").examples()["frigate"])
    sheet["life_roles"] = {**sheet["life_roles"], "Gunnery Mates": 4}  # type: ignore[dict-item]
    with site.client(table.tokens["Ben"]) as ben:
        r = ben.put(f"/api/tables/{table.id}/characters/swiftsure", json={"sheet": sheet})
        assert r.status_code == 200, r.text
        assert "Gunnery Mates" in r.text  # Ben's own answer holds his sheet
        seq = r.json()["seq"]
    with site.client(table.tokens["Ann"]) as ann:
        mine = get("mnemonic").dump_sheet(get("mnemonic").examples()["boxer"])
        mine["life_roles"] = {**mine["life_roles"], "Sparring Partner": 2}  # type: ignore[dict-item]
        r = ann.put(f"/api/tables/{table.id}/characters/mickey-ruane", json={"sheet": mine})
        assert r.status_code == 200, r.text
        last = r.json()["seq"]
    frames = {who: "\n".join(_drain(ws, last)) for who, ws in sockets.items()}
    for ws in sockets.values():
        ws.close()
    assert seq < last
    # catch-up (the seating events) and the live pushes alike
    assert FRIGATE_ONLY not in frames["Ann"] and "Gunnery Mates" not in frames["Ann"]
    assert "Sparring Partner" in frames["Ann"] and BOXER_ONLY in frames["Ann"]
    assert "Gunnery Mates" in frames["Ben"] and FRIGATE_ONLY in frames["Ben"]
    assert "Sparring Partner" not in frames["Ben"] and BOXER_ONLY not in frames["Ben"]
    pushed = [json.loads(t) for t in frames["Ann"].split("\n")]
    hidden = [m for m in pushed if m.get("event", {}).get("sheet_hidden")]
    assert hidden and all("Swiftsure" in m["html"] for m in hidden)  # the entry names it


def test_the_setting_from_the_command_line(tmp_path: Path) -> None:
    from referee.cli.main import run

    db = f"sqlite:///{tmp_path / 'cli.db'}"
    assert run(["table", "new", "arm", "--name", "Duel", "--referee", "Ron", "--db", db]) == 0
    assert run(["table", "join", "Duel", "Ann", "--db", db]) == 0
    assert run(["table", "sheets", "Duel", "everyone", "--as", "Ann", "--db", db]) != 0
    assert run(["table", "sheets", "Duel", "everyone", "--as", "Ron", "--db", db]) == 0
    service = TableService(Store(db))
    assert service.load("Duel").sheets == "everyone"
    assert run(["table", "sheets", "Duel", "nobody", "--db", db]) != 0
    service.store.close()


def test_the_setting_is_replayed_and_snapshotted_on_every_store(store_url: str) -> None:
    from referee.table.audit import verify

    service = TableService(Store(store_url), snapshot_every=4)
    tid = service.create("mnemonic", "Night", "Ron").table.id
    service.join(tid, "Ann", "player")
    service.add_character(tid, "boxer", owner="Ann")
    service.set_sheets(tid, "everyone", by="Ron")  # event 4: a snapshot holds the setting
    service.add_character(tid, "frigate")
    service.set_sheets(tid, "owner", by="Ron")
    service.set_sheets(tid, "everyone", by="Ron")
    with pytest.raises(Exception, match="only the referee"):
        service.set_sheets(tid, "owner", by="Ann")
    fresh = TableService(Store(store_url))
    assert fresh.load(tid).sheets == "everyone"
    assert fresh.view(tid, "Ann").sheets == "everyone"
    assert verify(fresh, tid).ok
    kinds = [e.kind for e in fresh.store.events(tid)]
    assert kinds.count("sheets-shown") == 3
    fresh.store.close()
    service.store.close()


# ---------------------------------------------------------------------------
# in a browser

SHOTS = Path(os.environ.get("REFEREE_ARTIFACTS", "artifacts"))
"""Where the screenshots go (the ones in docs/img were taken here and looked at)."""


def _open(browser: Any, site: Site, token: str, **context: Any) -> tuple[Any, Any]:
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site.base}/join/{token}")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#conn.live")
    page.errors = errors  # type: ignore[attr-defined]
    return ctx, page


DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

EXPECTED = {
    "mongrel": ("Alwia", "Expertise", "Diabolic Power", "Credit"),
    "mnemonic": ("Mickey Ruane", "Life Roles", "Professional Boxer", "Talents"),
    "mneme": ("Ada Vance", "Characteristics", "Gun Combat", "Hit Points"),
    "arm": ("Alex", "Gear", "Sword", "Wounds and shock"),
}


@pytest.mark.timeout(300)
def test_each_games_card_shows_its_sheet_and_prints_as_sheets(
    browser: Any, site: Site, new_table: Any
) -> None:
    for game in names():
        made = new_table(site, game, f"sheet-{game}")
        rules = get(game)
        if not site.service.load(made.id).state.characters:
            for i, example in enumerate(rules.examples()):
                owner = "Ann" if i == 0 else "Ben" if i == 1 else None
                site.service.add_character(made.id, example, owner=owner, force=True)
        name, section, cell, other = EXPECTED[game]
        ctx, page = _open(browser, site, made.tokens["Ann"], viewport=DESKTOP)
        try:
            card = page.locator("article.card", has_text=name).first
            sheet = card.locator("section.sheet")
            assert sheet.is_visible()
            heads = sheet.locator("h4").all_text_contents()
            assert section in heads and other in heads, heads
            assert sheet.locator("table.sheet-grid th", has_text=cell).first.is_visible()
            # the other player's character: its name, not its sheet nor its tracker rows
            others = page.locator("article.card:not(:has(section.sheet))")
            assert others.count() >= 1
            assert "see this sheet" in others.first.inner_text()
            # the sheet folds and opens from the keyboard
            summary = card.locator("details.sheet-box > summary")
            summary.focus()
            page.keyboard.press("Enter")
            assert not sheet.is_visible()
            page.keyboard.press("Enter")
            assert sheet.is_visible()
            page.evaluate("document.activeElement.blur()")  # no focus ring in the picture
            summary.evaluate("el => el.scrollIntoView({block: 'start'})")
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"sheet-{game}.png"))
            assert page.errors == []  # type: ignore[attr-defined]
        finally:
            ctx.close()
        if game != "mongrel":
            continue
        ctx, page = _open(browser, site, made.tokens["Ann"], viewport=PHONE, is_mobile=True)
        try:
            assert page.locator("#sheets").is_visible()
            first = page.locator("article.card details.sheet-box > summary").first
            first.evaluate("el => el.scrollIntoView({block: 'start'})")
            page.screenshot(path=str(SHOTS / "phone-sheet.png"))
        finally:
            ctx.close()
        ctx, page = _open(browser, site, made.tokens["Ron"], viewport=DESKTOP)
        try:
            cards = page.locator("article.card").count()
            page.emulate_media(media="print")
            for hidden in ("#actions", "#log-pane", "#table-pane", "header.bar"):
                assert not page.locator(hidden).is_visible(), hidden
            assert page.locator("article.card section.sheet").count() == cards
            colour = page.evaluate("getComputedStyle(document.body).backgroundColor")
            assert colour == "rgb(255, 255, 255)"
            page.screenshot(path=str(SHOTS / "print-sheet.png"))
            pdf = page.pdf(format="A4")
            assert _pages(pdf) == cards  # one character a page
        finally:
            ctx.close()


def _pages(pdf: bytes) -> int:
    """How many pages a PDF has (its page objects)."""
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_a_sheet_the_layout_cannot_read_is_listed_in_words() -> None:
    rules = get("mongrel")
    sheet = rules.examples()["alwia"]
    from dataclasses import replace

    odd = replace(sheet, identity=replace(sheet.identity, primary="dragon"))  # type: ignore[arg-type]
    view = rules.sheet_view_safe(odd, None, rules.load_options({}))
    rows = {r.label: r.value for s in view.sections for r in s.rows}
    assert rows["House"] == "Mekag" and view.name == "Alwia"
    assert all("_" not in r for r in rows)


@pytest.mark.timeout(300)
def test_the_referee_opens_the_sheets_from_the_table_tab(
    browser: Any, site: Site, table: Table
) -> None:
    ron_ctx, ron = _open(browser, site, table.tokens["Ron"], viewport=DESKTOP)
    ann_ctx, ann = _open(browser, site, table.tokens["Ann"], viewport=DESKTOP)
    try:
        frigate = ann.locator("article.card[data-cid='swiftsure']")
        assert frigate.locator("section.sheet").count() == 0
        assert FRIGATE_ONLY not in ann.content()
        # Ann folds her own sheet: it stays folded when the cards are redrawn
        ann.locator("article.card[data-cid='mickey-ruane'] details.sheet-box > summary").click()
        assert not ann.locator("article.card[data-cid='mickey-ruane'] section.sheet").is_visible()
        box = ron.locator("#sheets-setting")
        assert (
            ron.locator("label[for='sh-shown']").inner_text() == "Who sees each character's sheet"
        )
        ron.select_option("#sh-shown", "everyone")
        box.locator("button[type='submit']").click()
        ron.wait_for_selector("#sheets-setting .status.good")
        # Ann's page learns it from the live socket and redraws the cards
        frigate.locator("section.sheet").wait_for(timeout=10_000)
        assert frigate.locator("table.sheet-grid th", has_text=FRIGATE_ONLY).count() == 1
        assert not ann.locator("article.card[data-cid='mickey-ruane'] section.sheet").is_visible()
        ron.select_option("#sh-shown", "owner")
        box.locator("button[type='submit']").click()
        frigate.locator("p.sheet-private").wait_for(timeout=10_000)
        assert frigate.locator("section.sheet").count() == 0
        assert ron.errors == [] and ann.errors == []  # type: ignore[attr-defined]
    finally:
        ron_ctx.close()
        ann_ctx.close()


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")
def test_a_sheet_seated_through_another_process_is_judged_by_the_setting_now(
    store_url: str, tmp_path: Path, ws_connect: Connect
) -> None:
    """Ann's socket is on process B; the referee, through process A, first shows sheets to
    everyone, then keeps them to their owners and seats Ben's frigate: B judges the
    frigate's seating by the table now, not by what it last knew."""
    import httpx
    from tests.web.test_multiprocess import Process

    a = Process(store_url, tmp_path / "a.log")
    try:
        b = Process(store_url, tmp_path / "b.log")
    except Exception:
        a.stop()
        raise
    try:
        made = httpx.post(
            f"{a.base}/api/tables", json={"game": "mnemonic", "name": "Two", "referee": "Ron"}
        ).json()
        tid, ron = made["table"]["id"], {"authorization": f"Bearer {made['token']}"}
        tokens = {
            who: httpx.post(
                f"{a.base}/api/tables/{tid}/invites", json={"name": who}, headers=ron
            ).json()["token"]
            for who in ("Ann", "Ben")
        }
        ann = {"authorization": f"Bearer {tokens['Ann']}"}
        sheets = f"{a.base}/api/tables/{tid}/sheets"
        shown = httpx.put(sheets, json={"sheets": "everyone"}, headers=ron)
        assert shown.status_code == 200
        ws = ws_connect(
            f"{b.base.replace('http', 'ws')}/ws/tables/{tid}?after=0", additional_headers=ann
        )
        texts = [ws.recv(timeout=20)]
        while json.loads(texts[-1])["type"] != "live":
            texts.append(ws.recv(timeout=20))
        kept = httpx.put(sheets, json={"sheets": "owner"}, headers=ron)
        assert kept.status_code == 200
        seated = httpx.post(
            f"{a.base}/api/tables/{tid}/characters",
            json={"example": "frigate", "owner": "Ben"},
            headers=ron,
        )
        assert seated.status_code == 201 and FRIGATE_ONLY in seated.text
        last = seated.json()["seq"]
        seen = 0
        while seen < last:
            texts.append(ws.recv(timeout=20))
            msg = json.loads(texts[-1])
            if msg["type"] == "event":
                seen = msg["event"]["seq"]
        ws.close()
        pushed = "\n".join(texts)
        assert "Swiftsure" in pushed and FRIGATE_ONLY not in pushed
    finally:
        a.stop()
        b.stop()


def test_a_demo_table_leaves_the_adversaries_to_the_referee(tmp_path: Path) -> None:
    """Mneme CE's raider is an adversary, the referee's (ch. 2, Referee Doesn't Roll: it
    never rolls against the PCs, so no player could play it): the demo seats it with no
    player, and deals the PCs to the players in turn. The other games' examples all go to
    players."""
    service = TableService(Store(f"sqlite:///{tmp_path / 'demo.db'}"))
    made, _ = demo_tables(service, Tokens(service.store))
    seated = {}
    for demo in made:
        ts = service.load(demo.id)
        seated[ts.game] = {cid: ts.owners.get(cid) for cid in ts.state.characters}
    assert seated["mneme"] == {"ada-vance": "Ann", "raider": None, "tess": "Ben"}
    for game in ("mnemonic", "mongrel", "arm"):
        assert None not in seated[game].values(), game
    service.store.close()
