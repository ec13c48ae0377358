"""The character builder through the HTTP API and in the page (issue 19, "Characters
made in the page")."""

from __future__ import annotations

from typing import Any

import pytest
from tests.mongrel.test_builder import FORM as MONGREL_FORM

from referee.systems.base import get

from .conftest import Site, make_table

GAMES = ("mnemonic", "mongrel", "mneme", "arm")

# A legal character per game, as a user fills the form in from scratch.
FRESH: dict[str, dict[str, Any]] = {
    "mnemonic": {
        "name": "Nell",
        "primary_role": "human, female, 28",
        "talent_list": "standard",
        **{
            f"talent.standard.{t}": v
            for t, v in zip(
                ("Agile", "Dangerous", "Disciplined", "Handy", "Influential", "Smart", "Tough"),
                (4, 2, 3, 3, 3, 5, 3),
                strict=True,
            )
        },
        "life_roles": [{"role": "Sailor", "rating": 4}],
    },
    "mongrel": dict(MONGREL_FORM),  # the builder test's own character (tests/mongrel)
    "mneme": {
        "name": "Ola",
        **{f"char.{c}": 8 for c in ("Str", "Dex", "End", "Int", "Edu", "Soc")},
        "skills": [{"skill": "Gun Combat", "level": 1}],
        "weapons": [{"name": "Pistol", "damage": "3d6-3", "rate_of_attack": 1}],
        "armour": [{"name": "Flak Jacket", "rating": 4}],
    },
    "arm": {
        "name": "Dana",
        "race": "human",
        "chp": 240,
        **{f"stat.{s}": 6 for s in ("Fitness", "Dexterity", "Toughness", "Wit", "Charisma")},
        "stat.Willpower": 6,
        "weapons": [{"name": "Knife (20cm)"}],
        "armour": "Leather",
    },
}


def _check(site: Site, game: str, answers: dict[str, Any], **extra: Any) -> Any:
    with site.client() as http:
        return http.post(f"/api/games/{game}/builder/check", json={"answers": answers, **extra})


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_builder_spec(site: Site, game: str) -> None:
    with site.client() as http:
        r = http.get(f"/api/games/{game}/builder")
    assert r.status_code == 200, r.text
    spec = r.json()
    assert spec["game"] == game and spec["sections"]
    kinds = {f["kind"] for s in spec["sections"] for f in s["fields"]}
    keys = [f["key"] for s in spec["sections"] for f in s["fields"]]
    assert "name" in keys and len(keys) == len(set(keys))
    assert kinds <= {"text", "number", "choice", "multi", "rows"}
    for s in spec["sections"]:
        for f in s["fields"]:
            assert f["label"], f
            if f["kind"] in ("choice", "multi"):
                assert f["choices"], f


@pytest.mark.parametrize("game", GAMES)
def test_answers_make_a_legal_sheet(site: Site, game: str) -> None:
    r = _check(site, game, FRESH[game])
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["problems"] == [] and body["legal"] is True
    rules = get(game)
    sheet = rules.load_sheet(body["sheet"])
    assert rules.validate(sheet, rules.options_type()) == ()
    assert all(b["ok"] for b in body["budgets"])


def test_the_built_sheet_has_the_answers(site: Site) -> None:
    body = _check(site, "mongrel", FRESH["mongrel"]).json()
    sheet = body["sheet"]
    assert sheet["identity"] == {"man": 2, "beast": 1, "demon": 3, "primary": "demon"}
    assert sheet["expertise"]["Know"] == 1 + 3 + 0  # step 1, step 2
    assert sheet["expertise"]["Resist"] == 1 + 1  # step 1, Area A's +1 from Know
    assert sheet["powers"] == {"Wings": 1}
    budgets = {b["key"]: b for b in body["budgets"]}
    assert budgets["identity"]["spent"] == 6 and budgets["identity"]["left"] == 0
    assert budgets["powers"]["total"] == 1  # Diabolic Power 1 from step 1


@pytest.mark.parametrize(
    ("game", "change", "field", "words"),
    [
        ("mongrel", {"demon": 4}, "man", "Identity points: 1 over (7 spent of 6)"),
        ("mongrel", {"size": 4}, "size", "Size + Spirit: 1 over (9 spent of 8)"),
        ("mongrel", {"power.demon.Wings": 2}, "power.demon.Inhuman (waist down)", "1 over"),
        ("arm", {"chp": 239}, "chp", "Character points (chp): 1 over (240 spent of 239)"),
    ],
)
def test_an_overspent_budget_is_named_by_field(
    site: Site, game: str, change: dict[str, Any], field: str, words: str
) -> None:
    body = _check(site, game, {**FRESH[game], **change}).json()
    assert body["legal"] is False
    found = [p for p in body["problems"] if p["field"] == field]
    assert any(words in p["message"] for p in found), body["problems"]
    budget = next(b for b in body["budgets"] if field in b["fields"])
    assert budget["ok"] is False and budget["left"] == -1


def test_a_trade_table_counts_raises(site: Site) -> None:
    answers = dict(FRESH["mnemonic"])  # raises: +1 Agile, +2 Smart; drops: -1 Dangerous
    body = _check(site, "mnemonic", answers, options={"creation": "trade"}).json()
    budget = body["budgets"][0]
    assert (budget["spent"], budget["total"]) == (2, 0) and not body["legal"]
    answers["talent.standard.Tough"] = 1  # two drops pay for them
    body = _check(site, "mnemonic", answers, options={"creation": "trade"}).json()
    assert body["legal"], body["problems"]


def test_a_field_out_of_bounds_is_named(site: Site) -> None:
    body = _check(site, "mneme", {**FRESH["mneme"], "char.Str": 16}).json()
    assert not body["legal"]
    assert [p["field"] for p in body["problems"]] == ["char.Str"]
    assert "from 2 to 15" in body["problems"][0]["message"]


def test_the_offered_choices_follow_the_answers(site: Site) -> None:
    body = _check(site, "mongrel", {**FRESH["mongrel"], "man": 4, "demon": 1}).json()
    assert body["offered"]["primary"] == ["man"]
    assert any(p["field"] == "primary" for p in body["problems"])


@pytest.mark.parametrize(
    ("answers", "where"),
    [
        ({"nonsense": 1}, "answers.nonsense"),
        ({"man": "two"}, "answers.man"),
        ({"man": True}, "answers.man"),
        ({"name": "x" * 201}, "answers.name"),
        ({"step2": "Know"}, "answers.step2"),
        ({"step2": [{"a": 1}]}, "answers.step2"),
    ],
)
def test_bad_answers_are_refused_naming_the_field(
    site: Site, answers: dict[str, Any], where: str
) -> None:
    r = _check(site, "mongrel", answers)
    assert r.status_code == 422, r.text
    assert r.json()["detail"].startswith(where)


def test_bad_payloads_are_refused(site: Site) -> None:
    with site.client() as http:
        r = http.post("/api/games/mongrel/builder/check", json={"answers": [], "x": 1})
        assert r.status_code == 422 and "answers" in r.text and "x" in r.json()["detail"]
        r = http.post(
            "/api/games/mneme/builder/check",
            json={"answers": {"skills": [{"skill": "a", "level": 1, "extra": 2}]}},
        )
        assert r.status_code == 422 and r.json()["detail"].startswith("answers.skills.0.extra")
        rows = [{"skill": f"s{i}", "level": 1} for i in range(41)]
        r = http.post("/api/games/mneme/builder/check", json={"answers": {"skills": rows}})
        assert r.status_code == 422 and "at most" in r.json()["detail"]
        r = http.post(
            "/api/games/arm/builder/check",
            content=b'{"answers": {"chp": 1e400}}',
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 422
        r = http.post(
            "/api/games/mnemonic/builder/check",
            json={"answers": {}, "options": {"creation": "bribe"}},
        )
        assert r.status_code == 422 and r.json()["detail"].startswith("options:")
        assert http.get("/api/games/chess/builder").status_code == 404
        big = {f"k{i}": 1 for i in range(201)}
        r = http.post("/api/games/arm/builder/check", json={"answers": big})
        assert r.status_code == 422 and "answers" in r.json()["detail"]


@pytest.mark.parametrize("game", GAMES)
def test_start_from_each_example(site: Site, game: str) -> None:
    rules = get(game)
    for example in rules.examples():
        with site.client() as http:
            r = http.get(f"/api/games/{game}/builder/examples/{example}")
        assert r.status_code == 200, r.text
        answers = r.json()["answers"]
        body = _check(site, game, answers).json()
        assert body["legal"], (example, body["problems"])


def test_the_table_builds_under_its_house_rules(site: Site) -> None:
    table = make_table(site, "mnemonic", "Trade")
    ron = table.auth("Ron")
    with site.client() as http:
        r = http.put(
            f"/api/tables/{table.id}/options", json={"options": {"creation": "trade"}}, headers=ron
        )
        assert r.status_code == 200, r.text
        spec = http.get(f"/api/tables/{table.id}/builder", headers=table.auth("Ann")).json()
        talents = next(s for s in spec["sections"] if s["key"] == "talents")
        assert "each raise is paid by a drop" in talents["help"]
        r = http.post(
            f"/api/tables/{table.id}/builder/check",
            json={"answers": FRESH["mnemonic"]},
            headers=table.auth("Ann"),
        )
        assert r.status_code == 200 and not r.json()["legal"]
        r = http.post(f"/api/tables/{table.id}/builder/check", json={"answers": {}})
        assert r.status_code == 401
        r = http.get(f"/api/tables/{table.id}/builder/examples/frigate", headers=table.auth("Ann"))
        assert r.json()["answers"]["talent.frigate.Fast"] == 5


# -- the texts' example characters, marked as such --------------------------------


def _cards(site: Site, table_id: str, token: str) -> dict[str, str]:
    with site.client(token) as http:
        r = http.get(f"/t/{table_id}/panels")
    assert r.status_code == 200, r.text
    return {cid: c["live"] for cid, c in r.json()["cards"].items()}


def test_an_example_is_marked_with_its_documented_discrepancies(site: Site) -> None:
    table = make_table(site, "mongrel", "Examples")
    for example in ("alwia", "vooruk", "giazza"):
        site.service.add_character(table.id, example, owner="Ann", force=True)
    cards = _cards(site, table.id, table.tokens["Ann"])
    alwia = cards["alwia"]
    assert "The rule text&#39;s example character" in alwia or "rule text's example" in alwia
    assert "Mongrel: Examples of character creation" in alwia
    assert "5 documented findings" in alwia and "Breaks" not in alwia
    assert "Resist is 0" in alwia and "expertise.Resist" in alwia
    assert "Rend 6 is out of reach" in cards["vooruk"] and "Breaks" not in cards["vooruk"]
    assert "2 documented findings" in cards["giazza"]


def test_an_example_changed_to_break_more_still_warns(site: Site) -> None:
    table = make_table(site, "mongrel", "Edited")
    rules = get("mongrel")
    sheet = rules.dump_sheet(rules.examples()["giazza"])
    sheet["house"] = "Nowhere"
    site.service.add_character(table.id, sheet, owner="Ann", force=True)
    live = _cards(site, table.id, table.tokens["Ann"])["giazza"]
    assert "example character" not in live  # no longer the text's sheet: a character like any
    assert "Breaks 3 rules" in live and "house" in live


def test_package_examples_are_not_the_texts(site: Site) -> None:
    table = make_table(site, "mneme", "Ada")
    site.service.add_character(table.id, "ada", owner="Ann")
    live = _cards(site, table.id, table.tokens["Ann"])["ada-vance"]
    assert "An example character of the package" in live and "Breaks" not in live
    assert "(an example character" not in live  # said once, not again as where it is from
    table = make_table(site, "arm", "Alex")
    site.service.add_character(table.id, "alex", owner="Ann")
    live = _cards(site, table.id, table.tokens["Ann"])["alex"]
    assert "ARM 1.2: Combat (Melee)" in live and "Sword (6D/0A/-1P)" in live


# -- in the browser: built from scratch with the keyboard, and from an example -----------

# ``browser`` (Chromium) and ``artifacts`` (the screenshots' folder) are tests/web/conftest.py's.


def _open_builder(browser: Any, site: Site, token: str, **context: Any) -> Any:
    from tests.web.test_browser import Person

    person = Person(browser, site, token, **context)
    page = person.page
    page.locator("details.add-char > summary").focus()
    page.keyboard.press("Enter")  # opens the fold
    page.locator("#builder .bd-section").first.wait_for()
    return person


def _type_into(page: Any, spec: dict[str, Any], answers: dict[str, Any]) -> None:
    """Fill the form as a keyboard user: type into inputs, type a choice's label into its
    select, Space on checkboxes, Enter on "Add a row"."""
    fields = {f["key"]: f for s in spec["sections"] for f in s["fields"]}

    def label_of(field: dict[str, Any], value: Any) -> str:
        return str(next(c["label"] for c in field["choices"] if c["value"] == value))

    def put(control: Any, field: dict[str, Any], value: Any) -> None:
        control.focus()
        if field["kind"] == "choice":
            page.keyboard.type(label_of(field, value))
            assert control.evaluate("e => e.selectedOptions[0].textContent") == label_of(
                field, value
            ), field["key"]
        else:
            page.keyboard.press("Control+A")
            page.keyboard.type(str(value))

    for key, value in answers.items():
        field = fields[key]
        wrap = page.locator(f".bd-field[data-key='{key}']")
        if field["kind"] == "multi" and wrap.locator("select.bd-pick").count():
            for i, v in enumerate(value):  # exactly two of many: two choices
                put(wrap.locator("select.bd-pick").nth(i), {**field, "kind": "choice"}, v)
        elif field["kind"] == "multi":
            for v in value:
                wrap.get_by_label(label_of(field, v), exact=True).focus()
                page.keyboard.press("Space")
        elif field["kind"] == "rows":
            for row in value:
                wrap.locator("button.bd-add").focus()
                page.keyboard.press("Enter")
                last = wrap.locator(".bd-row").last
                for col in field["columns"]:
                    if col["key"] in row:
                        put(last.locator(f"[data-col='{col['key']}']"), col, row[col["key"]])
        else:
            put(wrap.locator("input, select").first, field, value)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", GAMES)
def test_a_player_builds_and_seats_a_character_with_the_keyboard(
    browser: Any, site: Site, artifacts: Any, game: str
) -> None:
    table = make_table(site, game, f"Build {game}")
    with site.client() as http:
        spec = http.get(f"/api/games/{game}/builder").json()
    ann = _open_builder(browser, site, table.tokens["Ann"], viewport={"width": 1280, "height": 800})
    try:
        page = ann.page
        seat = page.locator("#bd-seat")
        assert seat.is_disabled()
        page.locator("#bd-example").focus()
        page.keyboard.press("Tab")  # "Start from", then "or load a sheet file", then the form
        assert page.evaluate("document.activeElement.id") == "bd-file"
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.key") in ("name",)
        _type_into(page, spec, FRESH[game])
        verdict = page.locator("#bd-verdict")
        page.wait_for_function(
            "() => document.getElementById('bd-verdict').textContent.includes('ready to seat')"
        )
        assert seat.is_enabled()
        budgets = page.locator("#bd-budgets li")
        assert budgets.count() == len(_check(site, game, FRESH[game]).json()["budgets"])
        assert page.locator("#bd-budgets li.bad").count() == 0
        page.locator("#builder .bd-field").first.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"builder-{game}.png"))
        # one point too many: the budget turns, the field says why, Seat turns off
        first_number = next(
            (k for k, v in FRESH[game].items() if isinstance(v, int) and k != "chp"), None
        )
        if game in ("mongrel", "arm"):
            key = "demon" if game == "mongrel" else "chp"
            box = page.locator(f".bd-field[data-key='{key}'] input")
            box.focus()
            page.keyboard.press("Control+A")
            page.keyboard.type(str(FRESH[game][key] + 1 if game == "mongrel" else 239))
            page.keyboard.press("Tab")
            page.locator("#bd-budgets li.bad").wait_for()
            assert "1 over" in page.locator("#bd-budgets li.bad").inner_text()
            problem = page.locator(".bd-field .bd-problem:not(:empty)").first
            assert "1 over" in problem.inner_text()
            assert seat.is_disabled()
            page.screenshot(path=str(artifacts / f"builder-{game}-over.png"))
            box.focus()
            page.keyboard.press("Control+A")
            page.keyboard.type(str(FRESH[game][key]))
            page.wait_for_function(
                "() => document.getElementById('bd-verdict').textContent.includes('ready')"
            )
        assert first_number is not None
        seat.focus()
        page.keyboard.press("Enter")
        verdict.filter(has_text="Seated").wait_for()
        name = FRESH[game]["name"]
        page.locator("#cards article.card h3", has_text=name).wait_for()
        seated = site.service.load(table.id)
        cid = next(
            c for c, who in seated.owners.items() if who == "Ann" and c.startswith(name.lower())
        )
        assert seated.findings.get(cid, ()) == ()
        assert ann.errors == []
    finally:
        ann.close()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", GAMES)
def test_start_from_an_example_fills_the_form(
    browser: Any, site: Site, artifacts: Any, game: str
) -> None:
    table = make_table(site, game, f"Example {game}")
    example = next(iter(get(game).examples()))
    ron = _open_builder(browser, site, table.tokens["Ron"], viewport={"width": 1280, "height": 800})
    try:
        page = ron.page
        page.locator("#bd-example").select_option(example)
        page.wait_for_function(
            "() => document.getElementById('bd-verdict').textContent.includes('ready to seat')"
        )
        name = page.locator(".bd-field[data-key='name'] input").input_value()
        assert name == str(get(game).dump_sheet(get(game).examples()[example])["name"])
        # the user changes it: a new name, and it is still legal
        box = page.locator(".bd-field[data-key='name'] input")
        box.fill(f"{name} the Second")
        page.wait_for_timeout(400)
        page.wait_for_function(
            "() => document.getElementById('bd-verdict').textContent.includes('ready to seat')"
        )
        page.select_option("#bd-owner", "Ben")
        page.locator("#bd-seat").click()
        page.locator("#bd-verdict", has_text="Seated").wait_for()
        seated = site.service.load(table.id)
        assert "Ben" in seated.owners.values()
        assert all(not f for f in seated.findings.values())
        assert ron.errors == []
    finally:
        ron.close()


@pytest.mark.timeout(300)
def test_the_builder_on_a_phone(browser: Any, site: Site, artifacts: Any) -> None:
    table = make_table(site, "mongrel", "Phone")
    ann = _open_builder(
        browser, site, table.tokens["Ann"], viewport={"width": 390, "height": 844}, is_mobile=True
    )
    try:
        page = ann.page
        page.locator("#bd-example").select_option("vooruk")
        page.wait_for_function(
            "() => document.getElementById('bd-verdict').textContent.includes('ready to seat')"
        )
        box = page.locator(".bd-field[data-key='size'] input")
        box.fill("6")
        page.locator("#bd-budgets li.bad").wait_for()
        box.scroll_into_view_if_needed()
        bar = page.locator(".bd-bar").bounding_box()
        assert bar is not None and bar["y"] + bar["height"] <= 844 + 1  # the bar stays on screen
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(artifacts / "phone-builder.png"))
        assert ann.errors == []
    finally:
        ann.close()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_builder_api_has_no_server_errors(site: Site) -> None:
    """schemathesis on the builder's operations alone: valid and invalid bodies, as a
    player of a real table, never a 500."""
    from .conftest import fuzz_api

    table = make_table(site, "mongrel", "Fuzz")

    def prepare(case: Any, n: int) -> str:
        params = case.path_parameters or {}
        if "tid" in params:
            params["tid"] = table.id
        if "game" in params:
            params["game"] = "mongrel"
        return table.tokens["Ann"]

    operations, _cases, failures = fuzz_api(
        site.base, prepare, max_examples=40, path_regex="builder"
    )
    assert operations == 8  # the six, and a seated sheet or a sheet file as answers
    assert failures == []


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", GAMES)
def test_axe_finds_nothing_in_the_builder(browser: Any, site: Site, game: str) -> None:
    """axe-core on the builder form (every fold open, a problem shown) and the seated
    example's card, as a player on a phone: no violation at all."""
    from axe_playwright_python.sync_playwright import Axe

    table = make_table(site, game, f"Axe {game}")
    example = next(iter(get(game).examples()))
    if game != "mnemonic":  # make_table seats Mnemonic's examples already
        site.service.add_character(table.id, example, owner="Ann", force=True)
    ann = _open_builder(
        browser, site, table.tokens["Ann"], viewport={"width": 390, "height": 844}, is_mobile=True
    )
    try:
        page = ann.page
        page.locator("#bd-example").select_option(example)
        page.wait_for_function(
            "() => document.getElementById('bd-verdict').textContent.includes('ready')"
        )
        page.locator(".bd-field[data-key='name'] input").fill("")
        page.keyboard.press("Tab")
        page.locator(".bd-problem:not(:empty)").first.wait_for()
        for fold in page.locator("#builder details > summary").all():
            fold.click()
        for card in page.locator("#cards details > summary").all():
            card.click()
        options = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa"]}}
        for where in ("#builder", "#cards"):
            found = Axe().run(page, context=where, options=options).response["violations"]
            assert [(v["id"], v["nodes"][0]["target"]) for v in found] == [], where
    finally:
        ann.close()


# -- a sheet into the form: a seated character's, a sheet file's (issue 34) ----------


def test_a_seated_sheet_and_a_sheet_file_come_as_answers(site: Site) -> None:
    table = make_table(site, "mnemonic", "Edit")
    with site.client() as http:
        ann, ben, obi = (table.auth(who) for who in ("Ann", "Ben", "Obi"))
        base = f"/api/tables/{table.id}/builder"
        got = http.get(f"{base}/characters/mickey-ruane", headers=ann).json()
        assert got["name"] == "Mickey Ruane" and got["answers"]["name"] == "Mickey Ruane"
        assert got["sheet"] == get("mnemonic").dump_sheet(get("mnemonic").examples()["boxer"])
        # Ann's sheet is hers and the referee's: Ben and the observer are told it is not there
        for who in (ben, obi):
            r = http.get(f"{base}/characters/mickey-ruane", headers=who)
            assert r.status_code == 404 and "whose sheet you may see" in r.json()["detail"]
        assert http.get(f"{base}/characters/nobody", headers=ann).status_code == 404
        sheet = {"name": "Nell", "primary_role": "sailor", "talents": {"Agile": 4}}
        got = http.post(f"{base}/answers", json={"sheet": sheet}, headers=ann).json()
        assert got["answers"]["talent.standard.Agile"] == 4 and got["sheet"]["notes"] == ""
        r = http.post(f"{base}/answers", json={"sheet": {"name": 5}}, headers=ann)
        assert r.status_code == 422 and "not a sheet of" in r.json()["detail"]
        r = http.post(f"{base}/answers", json={"sheet": sheet})
        assert r.status_code == 401


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_sheet_is_edited_in_the_form_and_keeps_what_the_form_does_not_hold(
    browser: Any, site: Site
) -> None:
    """A card's "Edit the sheet" opens the builder filled in; a changed Talent is saved
    in place, the sheet's notes (no field of the form) kept; no JSON is shown."""
    from tests.web.test_browser import Person

    table = make_table(site, "mnemonic", "Edit in the form")
    rules = get("mnemonic")
    before = rules.dump_sheet(site.service.load(table.id).state.characters["mickey-ruane"].sheet)
    ann = Person(browser, site, table.tokens["Ann"], viewport={"width": 1280, "height": 800})
    try:
        page = ann.page
        page.locator("article[data-cid='mickey-ruane'] button.edit-sheet").click()
        page.locator("#bd-editing-what", has_text="Editing the sheet of Mickey Ruane").wait_for()
        assert page.locator("#bd-summary").inner_text() == "Edit the sheet of Mickey Ruane"
        page.wait_for_function(
            "() => document.getElementById('bd-verdict').textContent.includes('ready to save')"
        )
        assert page.locator(".bd-field[data-key='name'] input").input_value() == "Mickey Ruane"
        assert page.locator("#sheets textarea").count() == 0
        smart = page.locator(".bd-field[data-key='talent.standard.Smart'] select")
        old = before["talents"]["Smart"]
        smart.select_option(
            label=next(o for o in smart.locator("option").all_inner_texts() if f"(+{old - 1})" in o)
        )
        agile = page.locator(".bd-field[data-key='talent.standard.Agile'] select")
        a = before["talents"]["Agile"]
        agile.select_option(
            label=next(o for o in agile.locator("option").all_inner_texts() if f"(+{a + 1})" in o)
        )
        page.wait_for_timeout(400)
        page.wait_for_function(
            "() => document.getElementById('bd-verdict').textContent.includes('ready to save')"
        )
        page.locator("#bd-seat", has_text="Save the sheet of Mickey Ruane").click()
        page.locator("#bd-verdict", has_text="Saved the sheet of Mickey Ruane").wait_for()
        after = rules.dump_sheet(site.service.load(table.id).state.characters["mickey-ruane"].sheet)
        assert after["talents"]["Smart"] == old - 1 and after["talents"]["Agile"] == a + 1
        assert after["notes"] == before["notes"] != ""
        assert {k: v for k, v in after.items() if k != "talents"} == {
            k: v for k, v in before.items() if k != "talents"
        }
        # back to seating a new one
        page.locator("#bd-new").click()
        assert page.locator("#bd-summary").inner_text() == "Seat a character"
        assert page.locator("#bd-seat").inner_text() == "Seat"
        assert ann.errors == []
    finally:
        ann.close()


COUNT_CONTROLS = """
() => {
  const all = [...document.querySelectorAll('#builder input, #builder select, #builder textarea')];
  const shown = all.filter((c) => c.checkVisibility({ visibilityProperty: true }));
  return [all.length, shown.length];
}
"""


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_mongrels_builder_shows_what_matters_for_what_is_chosen(
    browser: Any, site: Site, artifacts: Any
) -> None:
    """Mongrel's form had 111 controls (three steps of 23 Expertise checkboxes, every
    Identity's Powers); each step is now two choices and only the primary Identity's
    Powers are there, once it is chosen (issue 34)."""
    table = make_table(site, "mongrel", "Count")
    ron = _open_builder(browser, site, table.tokens["Ron"], viewport={"width": 1280, "height": 800})
    try:
        page = ron.page
        total, shown = page.evaluate(COUNT_CONTROLS)
        print(f"mongrel builder: {total} controls in the form, {shown} shown at first")
        assert total <= 50 and shown <= 30, (total, shown)
        steps = page.locator(".bd-field[data-key='step2'] select")
        assert steps.count() == 2
        assert page.locator(".bd-field[data-key^='power.']:visible").count() == 0
        page.locator(".bd-field[data-key='primary'] select").select_option(label="demon")
        page.locator(".bd-field[data-key='power.demon.Wings']:visible").wait_for()
        assert page.locator(".bd-field[data-key^='power.']:visible").count() == 5
        _type_into(
            page,
            page.evaluate("fetch('/api/games/mongrel/builder').then(r => r.json())"),
            FRESH["mongrel"],
        )
        page.wait_for_function(
            "() => document.getElementById('bd-verdict').textContent.includes('ready to seat')"
        )
        total, shown = page.evaluate(COUNT_CONTROLS)
        print(f"mongrel builder filled in: {total} controls, {shown} shown")
        page.locator("#builder .bd-field").first.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "builder-mongrel-steps.png"), full_page=True)
        assert ron.errors == []
    finally:
        ron.close()
