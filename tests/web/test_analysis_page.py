"""The analysis view of every table (issue 19): check variants, curves and a fight.

Numbers are checked against brute force written here from the rule texts where that
is cheap: one variant's P(success) and one point of each game's curve. The fight's
probabilities must add up (exactly, for a chain); the picking rules follow what the
viewer may see; a referee's secret roll changes nothing of a player's analysis; and
requests past a bound, a slot or the work budget are refused, the limit named.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from referee.web.analysis_routes import MAX_RUNS, MAX_STATES, compute
from referee.web.demo import demo_tables
from referee.web.limits import Limits

if TYPE_CHECKING:
    from tests.web.conftest import Site

pytestmark = pytest.mark.timeout(300)


@dataclass
class Demo:
    """The demo tables of a running site: table id and tokens by game."""

    site: Site
    ids: dict[str, str]
    tokens: dict[str, dict[str, str]]

    def client(self, game: str, who: str) -> httpx.Client:
        return self.site.client(self.tokens[game][who])


@pytest.fixture(scope="module")
def demo(shared_site: Site) -> Demo:
    site = shared_site
    made, skipped = demo_tables(site.service, site.tokens)
    assert not skipped
    ids = {site.service.load(t.id).game: t.id for t in made}
    tokens = {site.service.load(t.id).game: t.tokens for t in made}
    # the Mnemonic demo seats a boxer and a frigate, who cannot fight: a second boxer
    with site.client(tokens["mnemonic"]["Referee"]) as http:
        r = http.post(
            f"/api/tables/{ids['mnemonic']}/characters",
            json={"example": "boxer", "id": "bo", "owner": "Ben"},
        )
        assert r.status_code == 201, r.text
    return Demo(site, ids, tokens)


def _p(x: dict[str, Any]) -> Fraction:
    return Fraction(x["exact"])


def _d6() -> range:
    return range(1, 7)


def brute_success(game: str, label: str, x: int) -> Fraction:
    """P(success) by counting faces, from the rule texts: Mnemonic Aptitude - d12 >= 0;
    Mneme CE 2d6 - Difficulty >= 0 (plain); ARM (total - difficulty) + d6 - d6 >= 0
    (never pushed); Mongrel: at least one of n d6 at or under the TN (rolled under)."""
    if game == "mnemonic":
        assert label == "d12"
        return Fraction(sum(x - f >= 0 for f in range(1, 13)), 12)
    if game == "mneme":
        assert label == "plain"
        return Fraction(sum(a + b - x >= 0 for a, b in product(_d6(), _d6())), 36)
    if game == "arm":
        assert label == "push never"
        return Fraction(sum(x + a - b >= 0 for a, b in product(_d6(), _d6())), 36)
    assert game == "mongrel"
    n = int(label.split("d")[0])
    assert label.endswith("under")
    hits = sum(any(f <= x for f in faces) for faces in product(_d6(), repeat=n))
    return Fraction(hits, 6**n)


# the picks per game: (a, b, policy a, policy b, method)
FIGHTS = {
    "mnemonic": (["mickey-ruane"], ["bo"], "", "", "exact"),
    "mongrel": (["alwia"], ["vooruk"], "", "", "exact"),
    "mneme": (["ada-vance"], ["raider"], "attack", "fail-effect", "simulated"),
    "arm": (["brad"], ["christine"], "", "", "simulated"),
}
VARIANT = {"mnemonic": "d12", "mneme": "plain", "arm": "push never", "mongrel": "2d6 under"}
CURVE = {"mnemonic": 7, "mneme": 9, "arm": -2, "mongrel": 3}
DEFAULT_X = {"mnemonic": 6, "mneme": 8, "arm": 0, "mongrel": 4}


@pytest.mark.slow
@pytest.mark.parametrize("game", ["mnemonic", "mongrel", "mneme", "arm"])
def test_every_demo_table_answers_variants_curves_and_a_fight(demo: Demo, game: str) -> None:
    a, b, pa, pb, method = FIGHTS[game]
    tid = demo.ids[game]
    params: dict[str, Any] = {"a": a, "b": b, "policy_a": pa, "policy_b": pb}
    with demo.client(game, "Referee") as http:
        r = http.get(f"/api/tables/{tid}/analysis", params=params)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["errors"] == {}
    assert data["a"] == a and data["b"] == b
    # one variant at the check's default number, and one point of the curve, by brute force
    label = VARIANT[game]
    assert _p(data["compare"]["p_success"][label]) == brute_success(game, label, DEFAULT_X[game])
    cur = data["curve"]
    x = CURVE[game]
    point = cur["p_success"][label][cur["xs"].index(x)]
    assert _p(point) == brute_success(game, label, x)
    assert abs(point["value"] - float(brute_success(game, label, x))) < 1e-12
    # every variant's distribution adds up to 1, and P(at least) falls as the value rises
    for rows in data["compare"]["variants"].values():
        assert sum(_p(v["exact"]) for v in rows.values()) == 1
        values = sorted(rows, key=int)
        ats = [_p(rows[v]["at_least"]) for v in values]
        assert ats == sorted(ats, reverse=True) and ats[0] == 1
    # the fight: exact fractions adding up to 1, or a simulation with its runs and intervals
    fight = data["conflict"]
    assert fight["method"] == method, fight.get("why")
    assert fight["model"]["a"] == a and fight["model"]["b"] == b
    if method == "exact":
        assert sum(_p(fight["p"][k]) for k in ("a", "b", "draw", "endless")) == 1
        assert fight["states"] >= 2
        rounds = [_p(v) for v in fight["rounds"].values()]
        assert sum(rounds) + _p(fight["rounds_beyond"]) == 1
    else:
        assert 1 <= fight["runs"] <= fight["asked"] <= MAX_RUNS
        assert abs(sum(fight["p"][k]["value"] for k in fight["p"]) - 1) < 1e-9
        for est in fight["p"].values():
            assert est["low"] <= est["value"] <= est["high"]
        assert sum(fight["rounds"].values()) == fight["runs"]
        assert fight["confidence"] == 0.95
    for part in ("compare", "curve", "conflict"):
        svg = data[part]["svg"]
        assert svg.startswith("<svg") and 'role="img"' in svg and "<title" in svg
        assert "style=" not in svg and "<script" not in svg.lower()


@pytest.mark.slow
@pytest.mark.parametrize("game", ["mnemonic", "mongrel", "mneme", "arm"])
def test_every_demo_tables_analysis_answers_as_it_opens(demo: Demo, game: str) -> None:
    """The page as a referee first opens it, nothing picked: every demo table answers who
    wins. Before, Mnemonic's frigate had no Dangerous to attack with (the text: its
    Well-Armed is Dangerous) and Mneme CE's raider was asked to roll where the referee
    doesn't, and both pages showed the rules' refusal instead."""
    with demo.client(game, "Referee") as http:
        r = http.get(f"/api/tables/{demo.ids[game]}/analysis")
    assert r.status_code == 200, r.text
    assert r.json()["errors"] == {} and r.json()["conflict"]["p"]


@pytest.mark.slow
def test_a_fight_with_no_policy_picked_follows_the_tables_rules(demo: Demo) -> None:
    """On a Mneme CE table at its defaults the referee doesn't roll (ch. 2): the raider,
    an adversary facing a PC, strikes only through the PC's Fail Effects. With no policy
    picked, the page fights it so (before, it asked the raider to roll and showed the
    rules' refusal instead of an answer), says so in its form, and builds the fight those
    picks build."""
    tid = demo.ids["mneme"]
    sides = {"a": ["ada-vance"], "b": ["raider"]}
    with demo.client("mneme", "Referee") as http:
        plain = http.get(f"/api/tables/{tid}/analysis", params=sides).json()
        picked = sides | {"policy_a": "attack", "policy_b": "fail-effect"}
        chosen = http.get(f"/api/tables/{tid}/analysis", params=picked).json()
    assert plain["errors"] == {}, plain["errors"]
    assert plain["conflict"]["model"]["policies"] == {
        "ada-vance": "attack",
        "raider": "fail-effect",
    }
    assert plain["policy"] == {"a": "attack", "b": "fail-effect"}
    assert chosen["errors"] == {} and chosen["policy"] == plain["policy"]
    # the model the page built is the one those picks build: the same fight, the same numbers
    from referee.analysis.scenario import model_type

    ts = demo.site.service.load(tid)
    both = [
        model_type("mneme")(ts.ruleset, ts.options, ts.state, ("ada-vance",), ("raider",), p)
        for p in ({}, {"ada-vance": "attack", "raider": "fail-effect"})
    ]
    assert both[0].describe() == both[1].describe()
    start = both[0].start()[0]
    first = both[0].next(start, 0)  # Ada attacks; the raider strikes back on her failure
    assert first == both[1].next(start, 0) and first.action.threat is not None


@pytest.mark.slow
@pytest.mark.parametrize("game", ["mnemonic", "mongrel", "mneme", "arm"])
def test_the_page_shows_the_numbers_and_the_charts(demo: Demo, game: str) -> None:
    a, b, pa, pb, _method = FIGHTS[game]
    tid = demo.ids[game]
    query = {"a": a, "b": b, "policy_a": pa, "policy_b": pb}
    with demo.client(game, "Referee") as http:
        page = http.get(f"/t/{tid}/analysis", params=query, headers={"accept": "text/html"})
        table = http.get(f"/t/{tid}", headers={"accept": "text/html"})
    assert page.status_code == 200, page.text
    html = page.text
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg"') == 3
    assert 'id="compare-title"' in html and 'aria-labelledby="curve-title"' in html
    assert 'id="wins"' in html and "%" in html
    assert "<script>" not in html  # only the page's own files
    assert f'href="/t/{tid}/analysis"' in table.text  # the table page links to it
    # every control of the form has a label
    for control in ("pick-a", "pick-b", "policy-a", "policy-b", "max-states", "runs", "seed"):
        assert f'for="{control}"' in html and f'id="{control}"' in html


def test_a_character_name_cannot_reach_the_chart_as_markup(demo: Demo) -> None:
    tid = demo.ids["mnemonic"]
    evil = "x<img src=x onerror=alert(1)>$y$"
    with demo.client("mnemonic", "Referee") as http:
        r = http.post(
            f"/api/tables/{tid}/characters", json={"example": "boxer", "id": evil, "owner": "Ann"}
        )
        assert r.status_code == 201, r.text
        found = http.get(f"/api/tables/{tid}/analysis", params={"a": ["bo"], "b": [evil]})
        assert found.status_code == 200, found.text
        svg = found.json()["conflict"]["svg"]
        assert "<img" not in svg and "&lt;img src=x onerror=alert(1)&gt;$y$" in svg
        page = http.get(
            f"/t/{tid}/analysis", params={"a": ["bo"], "b": [evil]}, headers={"accept": "text/html"}
        )
        assert "<img" not in page.text and "&lt;img src=x" in page.text
        r = http.delete(f"/api/tables/{tid}/characters/{evil}")
        assert r.status_code == 200, r.text


@pytest.mark.slow
def test_a_player_picks_only_whom_they_may_see(demo: Demo) -> None:
    tid = demo.ids["mongrel"]
    with demo.client("mongrel", "Referee") as ref:
        r = ref.post(
            f"/api/tables/{tid}/characters",
            json={
                "example": "giazza",
                "id": "hidden-ghoul",
                "visibility": "referee",
                "force": True,
            },
        )
        assert r.status_code == 201, r.text
        ghoul = r.json()["event"]["payload"]["id"]  # a secret seat: an id nobody can guess
        assert ghoul.startswith("hidden-ghoul-")
        seen = ref.get(f"/api/tables/{tid}/analysis", params={"a": [ghoul], "b": ["alwia"]})
        assert seen.status_code == 200, seen.text  # the referee sees everyone
    with demo.client("mongrel", "Ann") as ann:
        mine = ann.get(f"/api/tables/{tid}/analysis", params={"b": ["vooruk"]})
        assert mine.status_code == 200, mine.text
        ids = [c["id"] for c in mine.json()["characters"]]
        assert ghoul not in ids and "alwia" in ids
        assert mine.json()["a"] == ["alwia"]  # her own character first
        hidden = ann.get(f"/api/tables/{tid}/analysis", params={"a": [ghoul], "b": ["vooruk"]})
        nobody = ann.get(f"/api/tables/{tid}/analysis", params={"a": ["no-such"], "b": ["vooruk"]})
        page = ann.get(
            f"/t/{tid}/analysis",
            params={"a": [ghoul], "b": ["vooruk"]},
            headers={"accept": "text/html"},
        )
    assert hidden.status_code == nobody.status_code == 422
    text = hidden.json()["detail"]
    # the same refusal as for a character nobody seated: nothing tells them it exists
    assert text.replace(ghoul, "no-such") == nobody.json()["detail"]
    assert text.count("hidden-ghoul") == 1  # only what she asked for, echoed
    assert text.endswith("(you can pick: alwia, giazza, vooruk)")
    assert page.status_code == 422 and "you can see" in page.text
    assert f'value="{ghoul}"' not in page.text  # the form offers only whom she sees
    with demo.client("mongrel", "Referee") as ref:  # an observer picks as a player does
        made = ref.post(f"/api/tables/{tid}/invites", json={"name": "Obi", "role": "observer"})
        assert made.status_code == 201, made.text
    with demo.site.client(made.json()["token"]) as obi:
        seen_by_obi = obi.get(f"/api/tables/{tid}/analysis", params={"b": ["giazza"]})
        refused = obi.get(f"/api/tables/{tid}/analysis", params={"a": [ghoul]})
    assert seen_by_obi.status_code == 200, seen_by_obi.text
    assert ghoul not in [c["id"] for c in seen_by_obi.json()["characters"]]
    assert seen_by_obi.json()["a"] == ["alwia"]  # nobody of his own: the first he sees
    assert refused.status_code == 422 and "you can see" in refused.json()["detail"]
    with demo.client("mongrel", "Referee") as ref:
        assert ref.delete(f"/api/tables/{tid}/characters/{ghoul}").status_code == 200


@pytest.mark.slow
def test_a_secret_roll_does_not_change_a_players_analysis(demo: Demo) -> None:
    tid = demo.ids["mnemonic"]
    params = {"a": ["mickey-ruane"], "b": ["bo"]}
    with demo.client("mnemonic", "Ann") as ann, demo.client("mnemonic", "Referee") as ref:
        before = ann.get(f"/api/tables/{tid}/analysis", params=params).json()["conflict"]
        ref_before = ref.get(f"/api/tables/{tid}/analysis", params=params).json()["conflict"]
        assert before["p"] == ref_before["p"]
        secret = ref.post(
            f"/api/tables/{tid}/actions",
            json={
                "action": "injury",
                "fields": {"victim": "mickey-ruane", "worst": "unconscious"},
                "visibility": "referee",
                "faces": [12],
            },
        )
        assert secret.status_code == 201, secret.text
        after = ann.get(f"/api/tables/{tid}/analysis", params=params)
        ref_after = ref.get(f"/api/tables/{tid}/analysis", params=params).json()["conflict"]
        assert after.status_code == 200, after.text
        assert after.json()["conflict"]["p"] == before["p"]  # Ann knows nothing of it
        assert ref_after["p"] != ref_before["p"]  # the referee's analysis knows
        revealed = ref.post(f"/api/tables/{tid}/reveal", json={"seq": secret.json()["seq"]})
        assert revealed.status_code == 201, revealed.text
        shown = ann.get(f"/api/tables/{tid}/analysis", params=params).json()["conflict"]
        assert shown["p"] == ref_after["p"]  # once revealed, Ann's is the referee's
        assert (
            ref.post(f"/api/tables/{tid}/undo", json={"seq": secret.json()["seq"]}).status_code
            == 201
        )


def test_requests_past_a_bound_are_refused_naming_it(demo: Demo) -> None:
    tid = demo.ids["mongrel"]
    with demo.client("mongrel", "Ben") as ben:
        for name, value, bound in (
            ("max_states", MAX_STATES + 1, MAX_STATES),
            ("runs", MAX_RUNS + 1, MAX_RUNS),
            ("runs", 0, 1),
        ):
            r = ben.get(f"/api/tables/{tid}/analysis", params={name: value})
            assert r.status_code == 422, r.text
            assert name in r.json()["detail"] and str(bound) in r.json()["detail"], r.text
        many = ben.get(
            f"/api/tables/{tid}/analysis", params={"a": ["alwia", "vooruk", "giazza", "a", "b"]}
        )
        assert many.status_code == 422 and "a" in many.json()["detail"]
        policy = ben.get(f"/api/tables/{tid}/analysis", params={"policy_a": "berserk"})
        assert policy.status_code == 422 and "berserk" in policy.json()["detail"]
        assert "attack" in policy.json()["detail"]  # the known ones are named


def test_work_past_the_budget_is_refused_naming_it(demo: Demo) -> None:
    # ARM's simulation needs far more than 50 ms: refused, the limit named
    kind, text = compute(
        demo.site.service,
        demo.ids["arm"],
        "Referee",
        ["brad"],
        ["christine"],
        "",
        "",
        2000,
        2000,
        0,
        0.05,
    )
    assert kind == "rules"
    assert "50 ms of work an analysis request may take" in text


@pytest.mark.slow
def test_analyses_of_one_link_at_once_are_limited(new_site: Any, tmp_path: Path) -> None:
    site = new_site(f"sqlite:///{tmp_path / 'web.db'}", Limits(odds_per_participant=1))
    made, _ = demo_tables(site.service, site.tokens)
    arm = next(t for t in made if site.service.load(t.id).game == "arm")
    token = arm.tokens["Ann"]
    answers: list[httpx.Response] = []

    def slow() -> None:
        with site.client(token) as http:
            answers.append(
                http.get(
                    f"/api/tables/{arm.id}/analysis", params={"a": ["brad"], "b": ["christine"]}
                )
            )

    odds = site.server.server.config.app.state.web.quotas.odds
    first = threading.Thread(target=slow)
    first.start()
    deadline = time.monotonic() + 60
    while not odds._running and first.is_alive() and time.monotonic() < deadline:
        time.sleep(0.005)  # until the first analysis holds Ann's slot (no guessed delay)
    assert odds._running, "the first analysis never held a slot"
    with site.client(token) as http:
        second = http.get(f"/api/tables/{arm.id}/analysis", params={"seed": 1})
    first.join()
    assert second.status_code == 429, second.text
    assert "at most 1 at once" in second.json()["detail"]
    assert answers[0].status_code == 200, answers[0].text


@pytest.mark.slow
def test_a_slow_analysis_does_not_stall_another_tables_notes(demo: Demo) -> None:
    arm, mongrel = demo.ids["arm"], demo.ids["mongrel"]
    done: list[float] = []

    def slow() -> None:
        began = time.monotonic()
        with demo.client("arm", "Cai") as http:
            r = http.get(
                f"/api/tables/{arm}/analysis", params={"a": ["alex"], "b": ["christine"], "seed": 7}
            )
            assert r.status_code == 200, r.text
        done.append(time.monotonic() - began)

    worker = threading.Thread(target=slow)
    worker.start()
    time.sleep(0.3)
    waits = []
    with demo.client("mongrel", "Ann") as ann:
        while worker.is_alive() and len(waits) < 20:
            began = time.monotonic()
            r = ann.post(f"/api/tables/{mongrel}/notes", json={"text": "still here"})
            assert r.status_code == 201, r.text
            waits.append(time.monotonic() - began)
            time.sleep(0.05)
    worker.join()
    assert waits, "the analysis ended before any note was written"
    assert done and done[0] > max(waits)
    assert sorted(waits)[len(waits) // 2] < 0.5, waits  # the notes never waited for it


# -- in a browser --------------------------------------------------------------------------


# who looks, and whom they pick: a player, their own character against another
BROWSER_PICKS = {
    "mnemonic": ("Ann", "mickey-ruane", "bo", "", ""),
    "mongrel": ("Ann", "alwia", "vooruk", "", ""),
    "mneme": ("Ann", "ada-vance", "raider", "attack", "fail-effect"),
    "arm": ("Cai", "christine", "brad", "", ""),
}


@pytest.mark.parametrize("game", ["mnemonic", "mongrel", "mneme", "arm"])
def test_a_player_opens_the_analysis_picks_two_characters_and_sees_who_wins(
    browser: Any, demo: Demo, game: str, artifacts: Path
) -> None:
    who, a, b, pa, pb = BROWSER_PICKS[game]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{demo.site.base}/join/{demo.tokens[game][who]}")
        page.wait_for_url("**/t/*")
        page.get_by_role("link", name="Analysis").click()
        page.wait_for_url("**/analysis")
        assert page.locator("svg.analysis-chart").count() >= 2  # the variants and the curve
        page.select_option("#pick-a", [a])
        page.select_option("#pick-b", [b])
        if pa:
            page.select_option("#policy-a", pa)
        if pb:
            page.select_option("#policy-b", pb)
        page.get_by_role("button", name="Who wins?").click()
        page.wait_for_url("**/analysis?*", timeout=60_000)
        row_a = page.locator("#wins tr[data-side='a']")
        row_b = page.locator("#wins tr[data-side='b']")
        names = demo.site.service.load(demo.ids[game]).state.characters
        assert str(names[a].sheet.name) in row_a.locator("th").inner_text()
        assert str(names[b].sheet.name) in row_b.locator("th").inner_text()
        shown = [float(r.locator("strong").inner_text().rstrip("%")) for r in (row_a, row_b)]
        assert all(0 <= s <= 100 for s in shown)
        if page.locator("#wins tbody tr").count() == 2:  # no draw, no endless fight
            assert abs(sum(shown) - 100) < 0.05
        method = page.locator("#method").inner_text()
        assert method.startswith(("Exact", "Simulated"))
        if method.startswith("Simulated"):
            assert " runs" in method
        assert page.locator("svg.analysis-chart").count() == 3
        assert page.locator("svg.analysis-chart title").first.text_content()
        assert not errors, errors
        page.screenshot(path=str(artifacts / f"analysis-{game}.png"))
        page.screenshot(path=str(artifacts / f"analysis-{game}-whole.png"), full_page=True)
        if game == "mongrel":
            phone = browser.new_context(
                viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True
            )
            small = phone.new_page()
            small.goto(f"{demo.site.base}/join/{demo.tokens[game][who]}")
            small.wait_for_url("**/t/*")
            small.goto(page.url)
            small.locator("#wins").scroll_into_view_if_needed()
            small.screenshot(path=str(artifacts / "phone-analysis.png"))
            phone.close()
    finally:
        context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_analysis_page_passes_an_axe_audit(
    browser: Any, demo: Demo, size: tuple[int, int]
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    try:
        page.goto(f"{demo.site.base}/join/{demo.tokens['mongrel']['Ann']}")
        page.wait_for_url("**/t/*")
        page.goto(f"{demo.site.base}/t/{demo.ids['mongrel']}/analysis?a=alwia&b=vooruk")
        page.locator("#wins").wait_for()
        for details in page.locator("details").all():  # the folded tables too
            details.evaluate("d => d.open = true")
        found = Axe().run(page)
        bad = [
            f"{v['id']} ({v['impact']}): {v['help']} - {[n['target'] for n in v['nodes']][:3]}"
            for v in found.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert bad == []
    finally:
        context.close()


@pytest.mark.slow
def test_the_variants_follow_the_tables_house_rules(demo: Demo) -> None:
    tid = demo.ids["mneme"]
    with demo.client("mneme", "Referee") as ref, demo.client("mneme", "Ben") as ben:
        before = ben.get(f"/api/tables/{tid}/analysis", params={"policy_b": "fail-effect"})
        assert before.status_code == 200, before.text
        shown = {k: v["exact"] for k, v in before.json()["compare"]["p_success"].items()}
        # 2d6 against 8, by counting: plain 15/36; Advantage keeps the best two of three
        three = list(product(_d6(), _d6(), _d6()))
        best = Fraction(sum(sum(sorted(t)[1:]) >= 8 for t in three), 216)
        worst = Fraction(sum(sum(sorted(t)[:2]) >= 8 for t in three), 216)
        assert shown == {"disadvantage": str(worst), "plain": "5/12", "advantage": str(best)}
        # a table that allows no net Advantage: every variant is the plain roll
        r = ref.put(f"/api/tables/{tid}/options", json={"options": {"max_net_advantage": 0}})
        assert r.status_code == 200, r.text
        after = ben.get(f"/api/tables/{tid}/analysis", params={"policy_b": "fail-effect"})
        assert after.status_code == 200, after.text
        assert after.json()["options"]["max_net_advantage"] == 0
        assert {v["exact"] for v in after.json()["compare"]["p_success"].values()} == {"5/12"}
        assert ref.put(f"/api/tables/{tid}/options", json={"options": {}}).status_code == 200


def test_the_page_refuses_in_a_page(demo: Demo) -> None:
    tid = demo.ids["arm"]
    html = {"accept": "text/html"}
    with demo.client("arm", "Ann") as ann:
        big = ann.get(f"/t/{tid}/analysis", params={"max_states": MAX_STATES + 1}, headers=html)
    assert big.status_code == 422 and big.headers["content-type"].startswith("text/html")
    assert "max_states" in big.text and str(MAX_STATES) in big.text
    with httpx.Client(base_url=demo.site.base) as nobody:
        page = nobody.get(f"/t/{tid}/analysis", headers=html)
    assert page.status_code == 401 and "invite link" in page.text
    assert page.headers["content-type"].startswith("text/html")


def test_the_fight_models_plain_parameters_are_set_by_name(demo: Demo) -> None:
    tid = demo.ids["mnemonic"]
    fight = {"a": ["mickey-ruane"], "b": ["bo"]}
    with demo.client("mnemonic", "Ann") as ann:
        plain = ann.get(f"/api/tables/{tid}/analysis", params=fight)
        names = [p["name"] for p in plain.json()["params"]]
        assert {"worst", "chances", "injury_chances"} <= set(names)
        # each injury check one Chances step easier to shrug off: a longer fight
        tougher = ann.get(f"/api/tables/{tid}/analysis", params={**fight, "m.injury_chances": "3"})
        assert tougher.status_code == 200, tougher.text
        longer = tougher.json()["conflict"]["expected_rounds"]
        assert _p(longer) > _p(plain.json()["conflict"]["expected_rounds"])
        assert {p["name"]: p["value"] for p in tougher.json()["params"]}["injury_chances"] == 3
        for bad, words in (
            ({"m.armour": "3"}, "no model parameter 'armour' for mnemonic; known: worst"),
            ({"m.chances": "lots"}, "m.chances must be a whole number, not 'lots'"),
            ({"m.chances": "5000"}, "between -1000 and 1000"),
        ):
            r = ann.get(f"/api/tables/{tid}/analysis", params={**fight, **bad})
            assert r.status_code == 422 and words in r.json()["detail"], r.text
        page = ann.get(
            f"/t/{tid}/analysis",
            params={**fight, "m.injury_chances": "3"},
            headers={"accept": "text/html"},
        )
    assert 'for="m-injury_chances"' in page.text
    assert 'name="m.injury_chances" type="number" min="-1000" max="1000" value="3"' in page.text


@pytest.mark.usefixtures("without_analysis_extra")
def test_a_server_without_the_analysis_extra_says_what_to_install(tmp_path: Any) -> None:
    """Without numpy a simulated fight ended in a 500 on every demo table; now the fight's
    part and the variants' part say what to install, and the page's form is all there."""

    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.web.analysis_routes import MISSING, compute

    service = TableService(Store(f"sqlite:///{tmp_path / 'a.db'}"))
    tid = service.create("arm", "Fight", "Rea").table.id
    for example in ("brad", "christine"):
        service.add_character(tid, example, force=True)
    args = (tid, "Rea", ["brad"], ["christine"], "", "", 5000, 2000, 1, 20.0, [])
    kind, text = compute(service, *args)  # text: the page's data
    service.store.close()
    assert kind == "ok"
    said = text["errors"]["conflict"]
    assert said.startswith(MISSING) and "pip install 'referee[analysis]'" in said
    assert "conflict" not in text  # no fight drawn
    # the variants' charts are matplotlib's: that part says what to install too
    assert "pip install 'referee[analysis]'" in text["errors"]["compare"]
    assert text["characters"] and text["a"] == ["brad"]  # the form is all there
