"""The referee's gauge of who is winning (issue 39 item 2, :mod:`referee.analysis.live`):
a live fight per game, its figures checked against ``referee analyze conflict`` on the
same state and against a simulation written here (the game's rules played out run by
run, no chain and no simulator of the analysis), and what a player is shown."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from referee.analysis.live import HIDDEN_SHEETS, OFF, chances, fight_model, gauge, sides_of
from referee.analysis.model import ConflictModel
from referee.cli.main import run
from referee.dice.roller import SeededRoller
from referee.systems.outcome import outcome_from_data
from referee.table.service import TableService
from referee.table.state import TableState
from referee.table.store import Store

# game -> (side a: id and example, Ann's), (side b: id and example, the referee's),
# the house rules, and what `referee analyze conflict` needs to study the same fight
# (its default table sets Life Roles / weapons the live table leaves to the model)
FIGHTS: dict[str, tuple[tuple[str, str], tuple[str, str], dict[str, str], list[str]]] = {
    "mnemonic": (("mick", "boxer"), ("bo", "boxer"), {}, ["-p", "life_roles={}"]),
    "mongrel": (("vooruk", "vooruk"), ("giazza", "giazza"), {}, []),
    "mneme": (
        ("r1", "raider"),
        ("r2", "raider"),
        {"adversary_attacks": "referee_rolls"},
        ["-p", "weapons={}"],
    ),
    "arm": (("brad", "brad"), ("christine", "christine"), {}, []),
}


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    yield TableService(Store(f"sqlite:///{tmp_path / 'gauge.db'}"))


def seat_fight(service: TableService, game: str, **settings: Any) -> str:
    """A seeded table of ``game``: the referee Ron, the player Ann with side a's
    character, side b's character the referee's (no owner)."""
    (a, ex_a), (b, ex_b), options, _ = FIGHTS[game]
    done = service.create(
        game, f"fight-{game}", "Ron", options=options or None, seed=7, settings=settings or None
    )
    tid = done.table.id
    service.join(tid, "Ann", "player")
    service.add_character(tid, ex_a, owner="Ann", cid=a, force=True)
    service.add_character(tid, ex_b, cid=b, force=True)
    return tid


def play_on(service: TableService, tid: str, steps: int) -> TableState:
    """Take the fight ``steps`` actions further at the table as the model plays it (and
    on until no injury roll is owed, which the model keeps in its memo): each action by
    its character's owner (the referee for theirs), a proposal answered by whoever owns
    the character it asks (the defaults)."""
    ts = service.load(tid)
    a, b, _how = sides_of(ts)
    model = fight_model(ts, a, b, {})
    state, memo = model.start()
    taken = 0
    while taken < steps or (isinstance(memo, tuple) and memo[0] == "injure"):
        if model.verdict(state, memo) is not None:
            break
        step = model.next(state, memo)
        rules = ts.ruleset
        actor = getattr(step.action, "actor", None)
        by = ts.owners.get(str(actor)) or "Ron"
        done = service.act(tid, by, rules.action_name(step.action), rules.action_data(step.action))
        if done.event.kind == "action-proposed":
            asked = next(iter(done.event.payload["ask"].values()))
            decider = ts.owners.get(str(asked)) or "Ron"
            done = service.decide(tid, done.event.seq, {}, by=decider)
        outcome = outcome_from_data(done.event.payload["outcome"])
        new = service.load(tid).state
        memo = model.after(state, memo, step, outcome, new)
        state = new
        taken += 1
    return service.load(tid)


def analyze(capsys: pytest.CaptureFixture[str], game: str, *extra: str) -> dict[str, Any]:
    (a, ex_a), (b, ex_b), _, flags = FIGHTS[game]
    seats = ["--seat", f"{a}=example:{ex_a}", "--seat", f"{b}=example:{ex_b}"]
    code = run(["analyze", "conflict", game, *seats, *flags, *extra, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    found: dict[str, Any] = json.loads(out)
    return found


def wilson(wins: int, n: int, z: float = 3.29) -> tuple[float, float]:
    """The 99.9 % Wilson interval of ``wins`` in ``n`` (written here, not imported)."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def played_out(model: ConflictModel, runs: int, seed: int) -> Counter[str]:
    """The fight from the model's start ``runs`` times: the game's own plan rolled with
    seeded dice and applied, the model naming each next action and who won."""
    verdicts: Counter[str] = Counter()
    for run_no in range(runs):
        roller = SeededRoller(seed * 100_003 + run_no)
        state, memo = model.start()
        for _ in range(5_000):
            verdict = model.verdict(state, memo)
            if verdict is not None:
                break
            step = model.next(state, memo)
            outcome = model.plan(state, step.action).resolve(roller)
            new = model.ruleset.apply(state, outcome)
            memo = model.after(state, memo, step, outcome, new)
            state = new
        else:
            verdict = "endless"
        verdicts[verdict] += 1
    return verdicts


SLOW = pytest.mark.slow  # a chain of 13,000 states, or 300 Mongrel fights played out


@pytest.mark.parametrize("game", ["mnemonic", "mongrel", "mneme", pytest.param("arm", marks=SLOW)])
def test_the_gauge_at_a_fight_s_start_is_referee_analyze(
    service: TableService, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    """Seated and not yet fought: the gauge's exact figures are the command line's on the
    same sheets and house rules, fraction for fraction; side a is the player's."""
    tid = seat_fight(service, game)
    ts = service.load(tid)
    (a, _), (b, _), _, _ = FIGHTS[game]
    assert sides_of(ts) == ((a,), (b,), "the players' characters against the referee's")
    found = chances(ts, (a,), (b,))
    assert found["method"] == "exact"
    cli = analyze(capsys, game)
    for side in ("a", "b", "draw"):
        assert found["p"][side]["exact"] == cli["p"][side]["exact"]
    assert found["states"] == cli["states"]


@pytest.mark.parametrize(
    ("game", "steps"),
    [
        ("mnemonic", 4),
        pytest.param("mongrel", 5, marks=SLOW),
        pytest.param("mneme", 3, marks=SLOW),
        ("arm", 6),
    ],
)
def test_the_gauge_mid_fight_agrees_with_a_simulation_written_here(
    service: TableService, game: str, steps: int
) -> None:
    """Some blows later the state has moved on; the gauge's exact chance for each side
    lies within the 99.9 % interval of the fight played out 300 times from that state
    (by the game's rules, dice drawn here), and differs from the start's."""
    tid = seat_fight(service, game)
    start = chances(service.load(tid), *sides_of(service.load(tid))[:2])
    ts = play_on(service, tid, steps)
    assert ts.seq >= 4 + steps  # created, joined, two seated, then the fight's events
    a, b, _ = sides_of(ts)
    g = gauge(ts)
    assert g["method"] == "exact" and "error" not in g
    assert g["p"] != start["p"]
    runs = 300
    verdicts = played_out(fight_model(ts, a, b, {}), runs, seed=11)
    for side in ("a", "b"):
        low, high = wilson(verdicts[side], runs)
        assert low <= g["p"][side]["value"] <= high, (side, verdicts, g["p"])
    total = sum(Fraction(g["p"][k]["exact"]) for k in ("a", "b", "draw"))
    assert total <= 1


def test_a_simulated_gauge_holds_the_exact_figure_within_its_interval(
    service: TableService, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where the chain passes the gauge's bound, it simulates and says so; the exact
    answer of ``referee analyze`` lies within its interval."""
    tid = seat_fight(service, "mnemonic")
    ts = service.load(tid)
    found = chances(ts, ("mick",), ("bo",), max_states=20, runs=2_000, seconds=60)
    assert found["method"] == "simulated" and "20 states" in found["why"]
    assert found["runs"] == 2_000 and found["confidence"] == 0.95
    exact = analyze(capsys, "mnemonic")["p"]
    for side in ("a", "b"):
        p = found["p"][side]
        assert p["low"] <= exact[side]["value"] <= p["high"]
        assert p["high"] - p["low"] < 0.05


def test_what_if_gives_each_way_the_actor_may_fight(
    service: TableService, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mick acts first; the what-ifs are his side's chance for each of the model's
    policies from now on, the usual one the gauge's own figure, the other the command
    line's with that policy."""
    tid = seat_fight(service, "mnemonic")
    g = gauge(service.load(tid))
    assert g["now"] == {"id": "mick", "name": "Mickey Ruane"}
    rows = {w["policy"]: w for w in g["what_if"]}
    assert set(rows) == {"attack", "dodge"}
    assert rows["attack"]["usual"] and rows["attack"]["p"] == g["p"]["a"]
    dodge = analyze(capsys, "mnemonic", "--policy", "mick=dodge")["p"]["a"]["exact"]
    assert rows["dodge"]["p"]["exact"] == dodge == "438899/810000"
    assert rows["dodge"]["words"] == "attacks while making themselves a harder target"


@pytest.mark.parametrize("game", ["mnemonic", "mneme"])
def test_the_figures_come_first_and_the_usual_way_is_the_fight_solved(
    service: TableService, game: str
) -> None:
    """The push's first gauge is the whole one without its what-ifs (and says they
    follow); the what-if of the way the analysis plays the one acting now reuses the
    fight just solved, which is honest because naming that way changes nothing: solved
    afresh with the policy named, it is the same fraction."""
    tid = seat_fight(service, game)
    ts = service.load(tid)
    whole = gauge(ts)
    first = gauge(ts, what_ifs=False)
    assert first.pop("what_if_pending") is True and first["what_if"] == []
    assert {**whole, "what_if": []} == first
    a, b, _ = sides_of(ts)
    model = fight_model(ts, a, b, {})
    now = whole["now"]["id"]
    usual = model.policy(now)
    named = chances(ts, a, b, {now: usual}, seconds=60)
    assert named["p"] == chances(ts, a, b, seconds=60)["p"] == whole["p"]
    row = next(w for w in whole["what_if"] if w["usual"])
    assert row["policy"] == usual and row["p"] == whole["p"][row["side"]]


@pytest.mark.parametrize("game", ["arm", "mneme", "mnemonic", "mongrel"])
def test_every_way_to_fight_is_offered_in_words(game: str) -> None:
    """People read a policy as words completing "If NAME ...", never its name: every
    policy of each game's conflict model has them, distinct from one another."""
    from referee.analysis.scenario import model_policies, policy_words

    words = policy_words(game)
    assert list(words) == list(model_policies(game))
    assert all(w and w != p and " " in w for p, w in words.items()), words
    assert len(set(words.values())) == len(words)


def test_the_sides_follow_who_owns_what(service: TableService) -> None:
    """Two players' characters and nobody else's: a duel, one side per owner. Three
    players' characters: no two sides, said in words."""
    tid = service.create("mnemonic", "duel", "Ron").table.id
    for who, cid in (("Ann", "mick"), ("Ben", "bo")):
        service.join(tid, who, "player")
        service.add_character(tid, "boxer", owner=who, cid=cid, force=True)
    assert sides_of(service.load(tid)) == (("mick",), ("bo",), "Ann's characters against Ben's")
    service.join(tid, "Cai", "player")
    service.add_character(tid, "boxer", owner="Cai", cid="cy", force=True)
    g = gauge(service.load(tid))
    assert g["error"].startswith("no two sides: the gauge needs characters of the players")
    # who a side may name is said even then: the page's side picker lists them
    assert g["fighters"] == [
        {"id": "mick", "name": "Mickey Ruane"},
        {"id": "bo", "name": "Mickey Ruane"},
        {"id": "cy", "name": "Mickey Ruane"},
    ]
    named = gauge(service.load(tid), a=("mick", "cy"), b=("bo",))
    assert named["sides"]["how"] == "as asked" and named["method"] == "exact"
    assert named["fighters"] == g["fighters"]


def test_a_player_is_shown_the_gauge_only_where_allowed(service: TableService) -> None:
    """The referee sees it always. A player: not while the setting keeps it for the
    referee; with the setting on, not while the referee's sheet is kept from them; with
    every sheet shown, the same figures as the referee's."""
    tid = seat_fight(service, "mnemonic")
    assert service.gauge(tid, "Ron")["shown"]
    assert service.gauge(tid, "Ann") == {"shown": False, "why": OFF}
    service.set_settings(tid, players_gauge=True, by="Ron")
    assert service.gauge(tid, "Ann") == {"shown": False, "why": HIDDEN_SHEETS}
    service.set_sheets(tid, "everyone", by="Ron")
    ron, ann = service.gauge(tid, "Ron"), service.gauge(tid, "Ann")
    assert ann["shown"] and ann["p"] == ron["p"] and ann["what_if"] == ron["what_if"]


def test_a_player_s_gauge_is_the_same_whatever_a_hidden_sheet_holds(
    service: TableService,
) -> None:
    """Non-interference: two tables that differ only in the referee's hidden sheet (the
    same adversary, one much tougher) give Ann the same answer, byte for byte, while the
    referee's figures differ."""
    ann, ron = [], []
    for n, tough in enumerate((5, 1)):
        done = service.create("mnemonic", f"twin-{n}", "Ron", settings={"players_gauge": True})
        tid = done.table.id
        service.join(tid, "Ann", "player")
        service.add_character(tid, "boxer", owner="Ann", cid="mick", force=True)
        ts = service.load(tid)
        data = json.loads(json.dumps(ts.ruleset.dump_sheet(ts.ruleset.examples()["boxer"])))
        data["talents"]["Tough"] = tough
        service.add_character(tid, data, cid="bo", force=True)
        ann.append(json.dumps(service.gauge(tid, "Ann"), sort_keys=True))
        ron.append(service.gauge(tid, "Ron")["p"]["a"]["exact"])
    assert ann[0] == ann[1] == json.dumps({"shown": False, "why": HIDDEN_SHEETS}, sort_keys=True)
    assert ron[0] != ron[1]


def test_a_player_s_gauge_ignores_a_secret_roll(service: TableService) -> None:
    """Every sheet shown, the gauge on: the referee's secret injury roll on Mick (Hurt)
    changes the referee's gauge, and Ann's is what it was, byte for byte: computed from
    the table as she may know it."""
    tid = seat_fight(service, "mnemonic", players_gauge=True)
    service.set_sheets(tid, "everyone", by="Ron")
    before = json.dumps(service.gauge(tid, "Ann"), sort_keys=True)
    assert json.loads(before)["p"] == service.gauge(tid, "Ron")["p"]
    done = service.act(
        tid, "Ron", "injury", {"victim": "mick", "worst": "unconscious"}, visibility="referee"
    )
    assert done.event.kind == "action-resolved" and done.event.visibility == "referee"
    assert done.table.state.characters["mick"].status.condition == "Hurt"
    assert json.dumps(service.gauge(tid, "Ann"), sort_keys=True) == before
    assert service.gauge(tid, "Ron")["p"] != json.loads(before)["p"]


@pytest.mark.parametrize("game", ["mnemonic", "mneme"])
def test_whose_turn_it_is_starts_the_model_s_exchange(service: TableService, game: str) -> None:
    """Mnemonic and Mneme CE keep the turn in the model's memo, not in the state: the
    gauge's model starts with whoever the turn order names (``first``), else side a; a
    model parameter the command line may not set."""
    tid = seat_fight(service, game)
    ts = service.load(tid)
    (a, _), (b, _), _, _ = FIGHTS[game]
    kind = type(fight_model(ts, (a,), (b,), {}))
    for first, actor in ((None, a), (a, a), (b, b)):
        model = kind(ts.ruleset, ts.options, ts.state, (a,), (b,), {}, first=first)
        assert model.next(*model.start()).action.actor == actor  # type: ignore[attr-defined]
    from referee.analysis.scenario import model_params

    assert "first" not in {p["name"] for p in model_params(game)}


def test_the_gauge_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``referee table gauge``: the operator's gauge in words with the exact fractions of
    the table's own, the same JSON with ``--json``, a player told why not, and a side
    naming nobody seated refused with exit 1 naming who is."""
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    service = TableService(Store(db))
    tid = seat_fight(service, "mnemonic")
    expected = gauge(service.load(tid))
    assert run(["table", "gauge", tid, "--json", "--db", db]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(expected, default=float))
    assert run(["table", "gauge", tid, "--db", db]) == 0
    out = capsys.readouterr().out.splitlines()
    a, b = expected["p"]["a"]["exact"], expected["p"]["b"]["exact"]
    assert out[0] == f"Mickey Ruane: 57.9% (exactly {a})" and a == "19234669894/33237432513"
    assert out[1] == f"Mickey Ruane: 42.1% (exactly {b})"
    assert out[2].startswith("exact, the whole fight's chain from now (96 states)")
    assert out[4] == (
        "  if Mickey Ruane attacks while making themselves a harder target: "
        "54.2% (exactly 438899/810000)"
    )
    assert run(["table", "gauge", tid, "--as", "Ann", "--db", db]) == 0
    assert capsys.readouterr().out == "Not shown: the referee keeps the gauge to themselves\n"
    code = run(["table", "gauge", tid, "--side-a", "mick", "--side-b", "nobody", "--db", db])
    err = capsys.readouterr().err
    assert code == 1 and "side b: no character 'nobody' here (seated: mick, bo)" in err
