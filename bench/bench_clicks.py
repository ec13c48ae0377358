"""Clicks and keys to play each game's core exchange in the browser (issue 34).

Run by ``bench/run.py clicks`` (its section of RESULTS.md), or alone:
``python bench/bench_clicks.py [--mode panel|sheet] [--json FILE]``. One server in this
process (uvicorn in a thread, a temporary SQLite file); one Chromium page per player at
1280×800, each a participant with their own link; every table seeded (the same dice on
every run) with the text's example characters, one per player.

Two ways of playing the same exchanges are counted:

* **panel**: the action panel's forms only (choose the action in its list, fill in its
  fields, press Roll; a decision answered from its prompt). This is all the page offered
  before issue 34; measured on the code before it (``--before SRC``, the tree of the
  issue's starting commit) it is the "before" column.
* **sheet**: a check and a weapon from the sheet's buttons (one click opens the action
  filled in, one rolls), an attack as a chat command (``/attack giazza Rend``), a
  decision from its prompt.

What counts: a **click** is one press of a mouse button (a native list is two: open it,
pick; a checkbox or a button one); a **key** is one key pressed (a typed word counts its
letters, Enter one). Nothing that only waits (the odds appearing, the log's push) counts.
A field that already holds the value wanted costs nothing. The exchanges:

* a check from the sheet, each game (ARM task with Fitness, Mnemonic Success Check with
  Agile, Mongrel task with Rend, Mneme CE check with Dexterity);
* Mneme CE: Ada attacks the raider with her Automatic Rifle (as a chat command; and from
  the sheet's weapon, the target then chosen in its list: ``mneme-attack-sheet``);
* Mongrel: Vooruk attacks Giazza with Rend, and Giazza's player answers whether to defend
  (both players' clicks);
* ARM: Alex attacks Brad, Brad's player defends, Alex strikes (pushing off, the table's
  default), all three rolls (both players' clicks).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
SEATS: dict[str, tuple[tuple[str, str | None], ...]] = {
    "arm": (("alex", "Ann"), ("brad", "Ben")),
    "mnemonic": (("boxer", "Ann"), ("frigate", "Ben")),
    "mongrel": (("vooruk", "Ann"), ("giazza", "Ben")),
    "mneme": (("ada", "Ann"), ("raider", None)),
}
CHECKS: dict[str, tuple[str, dict[str, str], str, str]] = {
    # game: (action, fields, the sheet's button, the chat command)
    "arm": ("task", {"stat": "Fitness"}, "Fitness", "/task Fitness"),
    "mnemonic": ("sheet-check", {"talent": "Agile"}, "Agile", "/sheet-check Agile"),
    "mongrel": ("task", {"expertise": "Rend"}, "Rend", "/task Rend"),
    "mneme": ("check", {"characteristic": "Dex"}, "Dexterity", "/check Dex"),
    # a skill check needs its characteristic too (ch. 2): the skill's button opens it with
    # the sheet's highest ChM chosen (Ada: Dex), its odds shown
    "mneme-skill": (
        "check",
        {"skill": "Gun Combat", "characteristic": "Dex"},
        "Gun Combat",
        "/check Dex Gun Combat",
    ),
}
OPENING: dict[str, str] = {"mongrel": "start-conflict", "arm": "next-round"}
TARGETS: dict[str, int] = {
    "check": 2,
    "mneme-attack": 3,
    "mneme-attack-sheet": 3,
    "mongrel-attack": 4,
    "arm-melee": 6,
}


@dataclass
class Tally:
    """Clicks and keys one exchange took (all players together), and what was done."""

    clicks: int = 0
    keys: int = 0
    steps: list[str] = field(default_factory=list)

    def data(self) -> dict[str, Any]:
        return {"clicks": self.clicks, "keys": self.keys, "steps": self.steps}


class Retry(Exception):
    """The dice of this seed did not bring the exchange's every step (a defence that held
    leaves no strike): played again on the next seed."""


class Player:
    """One participant's page, counting what it is made to do into a :class:`Tally`."""

    def __init__(self, browser: Any, base: str, token: str, tally: Tally, who: str) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 800})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(f"{base}/join/{token}")
        self.page.wait_for_url("**/t/*")
        self.page.wait_for_selector("#conn.live")
        self.tally = tally
        self.who = who

    def click(self, loc: Any, what: str) -> None:
        loc.click()
        self.tally.clicks += 1
        self.tally.steps.append(f"{self.who}: click {what}")

    def choose(self, loc: Any, value: str, what: str) -> None:
        if loc.input_value() == value:
            return
        loc.select_option(value)
        self.tally.clicks += 2
        self.tally.steps.append(f"{self.who}: pick {value} in {what}")

    def type(self, loc: Any, text: str, what: str) -> None:
        if loc.input_value() == text:
            return
        self.click(loc, what)
        old = loc.input_value()
        if old:
            loc.press("Control+a")  # select what is there: typed over
            self.tally.keys += 2
        loc.press_sequentially(text, delay=5)
        self.tally.keys += len(text)
        self.tally.steps.append(f"{self.who}: type {text!r}")

    def enter(self, loc: Any) -> None:
        loc.press("Enter")
        self.tally.keys += 1
        self.tally.steps.append(f"{self.who}: Enter")

    def newest(self) -> int:
        seqs = self.page.locator("#log li.entry").evaluate_all(
            "els => els.map(e => Number(e.dataset.seq))"
        )
        return max(seqs or [0])

    def wait_after(self, seq: int, kind: str = "") -> None:
        sel = f"[data-kind='{kind}']" if kind else ""
        self.page.wait_for_function(
            f"() => [...document.querySelectorAll('#log li.entry{sel}')]"
            f".some(e => Number(e.dataset.seq) > {seq})",
            timeout=20000,
        )

    def close(self) -> None:
        self.context.close()


# ---------------------------------------------------------------------------
# the server and the tables


@contextmanager
def serving() -> Iterator[tuple[str, Any, Any]]:
    import uvicorn

    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.table.tokens import Tokens
    from referee.web import create_app

    with tempfile.TemporaryDirectory() as tmp:
        service = TableService(Store(f"sqlite:///{tmp}/clicks.db"))
        tokens = Tokens(service.store)
        if str(HERE.parent) not in sys.path:  # the tests' launcher module (not shipped)
            sys.path.insert(0, str(HERE.parent))
        from tests.support.postgres import free_port

        port = free_port()
        config = uvicorn.Config(
            create_app(service, tokens=tokens), host="127.0.0.1", port=port, log_level="warning"
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}", service, tokens
        finally:
            server.should_exit = True
            thread.join(timeout=15)
            service.store.close()


def table(
    service: Any, tokens: Any, game: str, name: str, seed: int
) -> tuple[dict[str, str], dict[str, str]]:
    """A seeded table of ``game`` with its two characters seated: each person's token, and
    each example's id at the table (the sheet's name made an id: ``mickey-ruane``)."""
    service.create(game, name, "Ron", seed=seed)
    for who in ("Ann", "Ben"):
        service.join(name, who, "player")
    ids: dict[str, str] = {}
    for example, owner in SEATS[game]:
        before = set(service.load(service.table(name).id).state.characters)
        service.add_character(name, example, owner=owner, force=True)
        after = set(service.load(service.table(name).id).state.characters)
        ids[example] = (after - before).pop()
    if game in OPENING:  # the referee opens the moment (not counted: not a player's)
        service.act(name, "Ron", OPENING[game], {})
    tid = service.table(name).id
    return {who: tokens.issue(tid, who, "invite")[0] for who in ("Ron", "Ann", "Ben")}, ids


# ---------------------------------------------------------------------------
# playing


def _form(p: Player, actor: str, action: str) -> Any:
    """The action's form in ``actor``'s panel, chosen in the list if it is not already."""
    panel = p.page.locator(f"#panels section.actpanel[data-actor='{actor}']")
    pick = panel.locator(".action-pick")
    if pick.is_visible():
        p.choose(pick, action, "the action list")
    return panel.locator(f"form.action[data-action='{action}']")


def _fill(p: Player, form: Any, fields: dict[str, str]) -> None:
    for path, value in fields.items():
        c = form.locator(f"[data-field='{path}']:not([type=hidden])")
        closed = c.evaluate("e => { const d = e.closest('details'); return !!d && !d.open; }")
        if closed:
            p.click(form.locator("details.more > summary"), "More")
        if c.evaluate("e => e.tagName") == "SELECT":
            p.choose(c, value, path)
        else:
            p.type(c, value, path)


def _roll(p: Player, form: Any, others: tuple[Player, ...] = ()) -> None:
    seq = p.newest()
    form.locator(
        ".preview .chance, .preview .error, .preview .problems, .preview .depends"
    ).first.wait_for(timeout=15000)
    p.click(form.locator("button[type=submit]"), "Roll")
    p.wait_after(seq)
    for o in others:
        o.wait_after(seq)


def _sheet(p: Player, actor: str, label: str) -> Any:
    """Click the sheet's button ``label`` on ``actor``'s card: the form it opens."""
    card = p.page.locator(f"#cards article.card[data-cid='{actor}']")
    p.click(card.locator("button.sheet-roll", has_text=label).first, f"{label} on the sheet")
    form = p.page.locator(
        f"#panels section.actpanel[data-actor='{actor}'] form.action:not([hidden])"
    )
    return form


def _chat(p: Player, line: str, others: tuple[Player, ...] = ()) -> None:
    box = p.page.locator("#chat-text")
    seq = p.newest()
    p.click(box, "the chat")
    box.press_sequentially(line, delay=5)
    p.tally.keys += len(line)
    p.tally.steps.append(f"{p.who}: type {line!r}")
    p.page.locator("#chat-cmd").filter(has_text="Enter rolls").wait_for(timeout=15000)
    p.enter(box)
    p.wait_after(seq)
    for o in others:
        o.wait_after(seq)


def _decide(
    p: Player, others: tuple[Player, ...], choice: str | None = None, *, one_click: bool = True
) -> str:
    """Answer what waits for ``p`` at the top of the actions: a choice's button (which
    opens its form, then Roll) or a proposal's form (its defaults, then Decide). Returns
    what was answered."""
    top = p.page.locator("#pending-top")
    top.locator(".decision").first.wait_for(timeout=15000)
    seq = p.newest()
    now = top.locator("button.answer-now")
    if one_click and now.count():  # one click: the choice taken with its declared defaults
        names = now.evaluate_all("els => els.map(e => e.dataset.action)")
        pick = choice if choice in names else names[0]
        p.click(top.locator(f"button.answer-now[data-action='{pick}']").first, f"{pick} (prompt)")
        p.wait_after(seq)
        for o in others:
            o.wait_after(seq)
        return pick
    buttons = top.locator("button.choice")
    if buttons.count():
        names = buttons.evaluate_all("els => els.map(e => e.dataset.action)")
        pick = choice if choice in names else names[0]
        p.click(top.locator(f"button.choice[data-action='{pick}']").first, f"{pick} (prompt)")
        form = p.page.locator("#panels section.actpanel:not([hidden]) form.action:not([hidden])")
        _roll(p, form, others)
        return pick
    submit = top.locator(".decide-form button[type=submit], .decision button.primary").first
    p.click(submit, "the decision")
    p.wait_after(seq)
    for o in others:
        o.wait_after(seq)
    return "decided"


def check(mode: str, key: str, ann: Player, ben: Player, ids: dict[str, str]) -> None:
    action, fields, label, _line = CHECKS[key]
    actor = ids[SEATS[key.split("-")[0]][0][0]]
    if mode == "panel":
        form = _form(ann, actor, action)
        _fill(ann, form, fields)
        _roll(ann, form)
    else:
        _roll(ann, _sheet(ann, actor, label))


def mneme_attack(mode: str, ann: Player, ben: Player, ids: dict[str, str]) -> None:
    if mode == "panel":
        form = _form(ann, ids["ada"], "attack")
        _fill(ann, form, {"target": ids["raider"], "weapon": "Automatic Rifle"})
        _roll(ann, form)
    else:
        _chat(ann, "/attack raider Automatic Rifle")


def mneme_attack_sheet(mode: str, ann: Player, ben: Player, ids: dict[str, str]) -> None:
    if mode == "panel":
        mneme_attack(mode, ann, ben, ids)
        return
    form = _sheet(ann, ids["ada"], "Automatic Rifle")
    _fill(ann, form, {"target": ids["raider"]})
    _roll(ann, form)


def mongrel_attack(mode: str, ann: Player, ben: Player, ids: dict[str, str]) -> None:
    if mode == "panel":
        form = _form(ann, ids["vooruk"], "attack")
        _fill(ann, form, {"target": ids["giazza"], "expertise": "Rend"})
        _roll(ann, form, (ben,))
    else:
        _chat(ann, "/attack giazza Rend", (ben,))
    _decide(ben, (ann,), one_click=mode == "sheet")


def arm_melee(mode: str, ann: Player, ben: Player, ids: dict[str, str]) -> None:
    if mode == "panel":
        form = _form(ann, ids["alex"], "attack")
        _fill(ann, form, {"target": ids["brad"]})
        _roll(ann, form, (ben,))
    else:
        form = _sheet(ann, ids["alex"], "Sword")
        _fill(ann, form, {"target": ids["brad"]})
        _roll(ann, form, (ben,))
    try:
        ben.page.locator("#pending-top .decision").first.wait_for(timeout=8000)
    except Exception:
        raise Retry("the attack missed: no defence to make") from None
    _decide(ben, (ann,), "defend", one_click=mode == "sheet")
    strike = ann.page.locator(
        f"#pending-top button.choice[data-actor='{ids['alex']}'][data-action='strike']"
    )
    try:
        strike.first.wait_for(timeout=5000)
    except Exception:
        raise Retry("the defence held: no strike to make") from None
    _decide(ann, (ben,), "strike", one_click=mode == "sheet")


def _check_of(key: str, mode: str, ann: Player, ben: Player, ids: dict[str, str]) -> None:
    check(mode, key, ann, ben, ids)


Play = Callable[[str, Player, Player, dict[str, str]], None]

EXCHANGES: dict[str, tuple[str, Play]] = {
    **{f"check-{g}": (g, partial(_check_of, g)) for g in ("arm", "mnemonic", "mongrel", "mneme")},
    "mneme-attack": ("mneme", mneme_attack),
    "mneme-attack-sheet": ("mneme", mneme_attack_sheet),
    "mongrel-attack": ("mongrel", mongrel_attack),
    "arm-melee": ("arm", arm_melee),
    # last, so the exchanges before it keep their seeds
    "check-mneme-skill": ("mneme", partial(_check_of, "mneme-skill")),
}


def play(mode: str, only: tuple[str, ...] = ()) -> dict[str, Any]:
    """Each exchange played in ``mode``: its tally, or the error that stopped it."""
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {}
    with serving() as (base, service, tokens), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for n, (name, (game, run)) in enumerate(EXCHANGES.items()):
            if only and name not in only:
                continue
            for attempt in range(12):
                tally = Tally()
                links, ids = table(
                    service, tokens, game, f"clicks-{n}-{attempt}", seed=3400 + 10 * n + attempt
                )
                ann = Player(browser, base, links["Ann"], tally, "Ann")
                ben = Player(browser, base, links["Ben"], tally, "Ben")
                try:
                    run(mode, ann, ben, ids)
                    out[name] = tally.data()
                    break
                except Retry:
                    ann.close()
                    ben.close()
                    continue
                except Exception as e:  # a step the page did not offer: said, not hidden
                    out[name] = {**tally.data(), "error": f"{type(e).__name__}: {str(e)[:300]}"}
                    shots = os.environ.get("BENCH_SHOTS")
                    if shots:
                        for p in (ann, ben):
                            p.page.screenshot(
                                path=f"{shots}/{mode}-{name}-{p.who}.png", full_page=True
                            )
                    break
            out[name]["page_errors"] = ann.errors + ben.errors
            ann.close()
            ben.close()
        browser.close()
    return out


# ---------------------------------------------------------------------------
# RESULTS.md


def _before(src: str) -> dict[str, Any]:
    """The panel's counts on the code of ``src`` (another tree's ``src``), in a process of
    its own (this one has imported the current code)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        target = f.name
    env = {**os.environ, "PYTHONPATH": src}
    subprocess.run(
        [sys.executable, __file__, "--mode", "panel", "--json", target],
        env=env,
        check=True,
        cwd=HERE.parent,
    )
    data: dict[str, Any] = json.loads(Path(target).read_text(encoding="utf-8"))
    Path(target).unlink()
    return data


BEFORE_FILE = HERE / "clicks_before.json"


def _cell(r: dict[str, Any] | None) -> str:
    if not r:
        return "-"
    if "error" in r:
        return f"stopped after {r['clicks']} clicks, {r['keys']} keys"
    return f"{r['clicks']} clicks, {r['keys']} keys"


def section(quick: bool) -> tuple[str, list[dict[str, object]]]:
    """This benchmark's section of RESULTS.md and its targets (``bench/run.py clicks``)."""
    before = json.loads(BEFORE_FILE.read_text(encoding="utf-8")) if BEFORE_FILE.exists() else {}
    panel = play("panel")
    sheet = play("sheet")
    lines = [
        f"## Clicks to play (measured {time.strftime('%Y-%m-%d')}, `python bench/bench_clicks.py`)",
        "",
        "Chromium at 1280×800, each player on their own page; every exchange on a seeded",
        "table of its own. **Before**: the action panel's forms on the code before issue 34",
        "(stored in `bench/clicks_before.json`). **Panel now**: the same on this",
        "code. **Sheet and chat**: the sheet's buttons, chat commands and the prompts.",
        "A click is one mouse press (a native list two: open, pick); a key one key.",
        "The decisions (Giazza's defence, Brad's defence, Alex's strike) are answered with",
        "the prompt's one-click answer (the choice with its declared defaults, its odds on",
        "the button); the panel columns answer from the prompt's form (a button per choice",
        "opens its action, then Roll). check-mneme-skill (Ada's Gun Combat, a skill with",
        "its characteristic) is new since the before figures were stored: none for it.",
        "The before column is the shortest path the old panel allowed (defaults kept, the",
        "target preselected): an evening's play with pushing on took more (issue 34).",
        "",
        "| exchange | before | panel now | sheet and chat | target (clicks) |",
        "|---|---|---|---|---|",
    ]
    targets: list[dict[str, object]] = []
    for name in EXCHANGES:
        key = "check" if name.startswith("check-") else name
        need = TARGETS[key]
        s = sheet.get(name)
        lines.append(
            f"| {name} | {_cell(before.get(name))} | {_cell(panel.get(name))} | {_cell(s)} "
            f"| ≤ {need} |"
        )
        met = bool(s) and "error" not in s and int(s["clicks"]) <= need
        targets.append(
            {
                "label": f"Clicks: {name} from the sheet and chat",
                "figure": _cell(s),
                "needed": f"≤ {need} clicks",
                "met": met,
            }
        )
    lines += ["", "What each took, sheet and chat:", ""]
    for name, r in sheet.items():
        lines.append(
            f"* **{name}**: {'; '.join(r['steps'])}"
            + (f" (stopped: {r['error']})" if "error" in r else "")
        )
    lines.append("")
    return "\n".join(lines), targets


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=("panel", "sheet"), default="sheet")
    parser.add_argument("--json", help="write the counts here")
    parser.add_argument("--before", help="a tree's src: measure the panel there, store it")
    parser.add_argument("only", nargs="*")
    args = parser.parse_args()
    if args.before:
        data = _before(args.before)
        BEFORE_FILE.write_text(json.dumps(data, indent=1), encoding="utf-8")
        print(json.dumps(data, indent=1))
        return
    data = play(args.mode, tuple(args.only))
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=1), encoding="utf-8")
    print(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
