"""Mnemonic keeps the common contract: every action type, generated against the example
characters seated at a table part-way through play, resolves with a seeded roller,
survives JSON, applies as its stored outcome does, and has odds summing to 1 that
equal the brute-force enumeration of the same dice program."""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.cli.main import run
from referee.dice.roller import SeededRoller
from referee.systems.base import Action
from referee.systems.conformance import check_action, replay
from referee.systems.mnemonic import RULESET
from referee.systems.mnemonic.actions import (
    AgileOrder,
    Attack,
    Check,
    Contender,
    Injury,
    NextTurn,
    RefereeOrder,
    Reshuffle,
    SetStatus,
    SheetCheck,
)
from referee.systems.mnemonic.checks import deck_for
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.live import draws
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.sheet import Status
from referee.systems.mnemonic.state import Seat, State
from referee.systems.mnemonic.tables import CHANCES, INACTIVE_OUTCOMES, RANDOMIZERS

EXAMPLES = RULESET.examples()
AGILE = {"boxer": "Agile", "frigate": "Maneuverable"}
"""The Talent each example checks for the order of action (a frigate has no Agile)."""
WEAPON = {"boxer": "Dangerous", "frigate": "Well-Armed"}

Draw = st.DrawFn

chances = st.one_of(st.integers(-12, 12), st.sampled_from(CHANCES.names()))
aptitudes = st.integers(0, 12)
ids = st.sampled_from(sorted(EXAMPLES))
statuses = st.one_of(
    st.builds(Status, st.sampled_from(["Fine", "Hurt"]), st.none(), st.integers(0, 4)),
    st.builds(Status, st.just("inactive"), st.sampled_from(INACTIVE_OUTCOMES), st.integers(1, 4)),
)


@st.composite
def options(draw: Draw) -> Options:
    return Options(
        randomizer=draw(st.sampled_from(RANDOMIZERS)),
        check_formula=draw(st.sampled_from(["minus", "plus"])),
        opposed_rolls=draw(st.booleans()),
        reshuffle_every_check=draw(st.booleans()),
        rank_failures=draw(st.booleans()),
        degree_labels=draw(st.booleans()),
    )


@st.composite
def tables(draw: Draw) -> State:
    """The two examples seated with any Status, and a deck with any cards out."""
    out = draw(st.lists(st.integers(0, 47), unique=True, max_size=47))
    deck = Deck(tuple(card for i, card in enumerate(Deck().cards) if i not in out))
    seats = {cid: Seat(sheet, draw(statuses)) for cid, sheet in EXAMPLES.items()}
    return State(seats, deck=deck)


def _able(state: State) -> list[str]:
    """The seated examples who can act: an inactive character acts not (issue 41)."""
    return [c for c in sorted(EXAMPLES) if state.characters[c].status.active]


def _sheet_check(draw: Draw, state: State, opts: Options) -> Action:
    assume(_able(state))
    cid = draw(st.sampled_from(_able(state)))
    sheet = state.characters[cid].sheet
    return SheetCheck(
        cid,
        draw(st.sampled_from(sorted(sheet.talents))),
        draw(st.one_of(st.none(), st.sampled_from(sorted(sheet.life_roles)))),
        draw(st.sampled_from(["relevant", "irrelevant"])),
        draw(chances),
    )


def _attack(draw: Draw, state: State, opts: Options) -> Action:
    able = _able(state)
    actor = draw(st.one_of(st.none(), st.sampled_from(able))) if able else None
    target = draw(st.one_of(st.none(), ids))
    defends = opts.opposed_rolls or target is None or target in able  # the inactive don't
    return Attack(
        actor=actor,
        target=target,
        aptitude=draw(aptitudes) if actor is None or draw(st.booleans()) else None,
        talent=WEAPON.get(actor or "", "Dangerous"),
        chances=draw(chances),
        defense=0 if not defends or opts.opposed_rolls else -3 * draw(st.integers(0, 3)),
        defender_aptitude=draw(aptitudes) if target is None or draw(st.booleans()) else None,
        defender_talent=AGILE.get(target or "", "Agile"),
        defender_chances=draw(chances),
    )


def _injury(draw: Draw, state: State, opts: Options) -> Action:
    worst = draw(st.sampled_from(INACTIVE_OUTCOMES))
    if draw(st.booleans()):
        return Injury(worst, victim=draw(ids), chances=draw(chances))
    return Injury(worst, chances=draw(chances), aptitude=draw(aptitudes), status=draw(statuses))


def _agile(draw: Draw, state: State, opts: Options) -> Action:
    limit = 2 if opts.randomizer in ("3cards", "3d12") else 3
    names = draw(
        st.lists(
            st.sampled_from([*_able(state), "Ann", "Bo"]),
            min_size=1,
            max_size=limit,
            unique=True,
        )
    )
    return AgileOrder(
        tuple(
            Contender(n, talent=AGILE[n], chances=draw(chances))
            if n in EXAMPLES
            else Contender(n, draw(aptitudes), draw(chances))
            for n in names
        )
    )


def _order(draw: Draw, state: State, opts: Options) -> Action:
    names = draw(st.permutations(["boxer", "frigate", "Ann", "Bo"]))
    cuts = sorted(draw(st.sets(st.integers(1, len(names) - 1))))
    bounds = [0, *cuts, len(names)]
    return RefereeOrder(tuple(tuple(names[a:b]) for a, b in pairwise(bounds)))


def _set_status(draw: Draw, state: State, opts: Options) -> Action:
    status = draw(statuses)
    injuries = draw(st.one_of(st.none(), st.just(status.injuries)))
    return SetStatus(draw(ids), status.condition, status.inactive_as, injuries)  # type: ignore[arg-type]


BUILDERS: dict[str, Callable[[Draw, State, Options], Action]] = {
    "check": lambda draw, state, opts: Check(draw(aptitudes), draw(chances)),
    "sheet-check": _sheet_check,
    "attack": _attack,
    "injury": _injury,
    "agile-order": _agile,
    "order": _order,
    "next-turn": lambda draw, state, opts: NextTurn() if state.order else _order(draw, state, opts),
    "reshuffle": lambda draw, state, opts: Reshuffle(),
    "set-status": _set_status,
}


def test_every_action_has_a_builder() -> None:
    assert set(BUILDERS) == set(RULESET.actions())


def brute_is_cheap(action: Action, state: State, opts: Options) -> bool:
    """Enumerating three-card draws from a big deck takes seconds: only small decks."""
    if opts.randomizer != "3cards":
        return True
    plan = draws(action, opts)
    if len(plan) != 1:
        return not plan
    deck, _ = deck_for("3cards", state.deck, opts, plan[0])
    return deck is not None and len(deck) <= (20 if plan[0] == 1 else 9)


@pytest.mark.parametrize("name", list(BUILDERS))
@settings(max_examples=40)
@given(data=st.data(), opts=options(), state=tables(), seed=st.integers(0, 2**16))
def test_every_action_keeps_the_contract(
    name: str, data: st.DataObject, opts: Options, state: State, seed: int
) -> None:
    action = data.draw(st.composite(lambda draw: BUILDERS[name](draw, state, opts))())
    out, after = check_action(
        RULESET, state, action, opts, seed, brute=brute_is_cheap(action, state, opts)
    )
    assert out.system == "mnemonic"
    assert RULESET.load_state(json.loads(json.dumps(RULESET.dump_state(after)))) == after
    assert RULESET.odds(action, state, opts).probability(_view(action, out)) > 0


def _view(action: Action, out: Any) -> Any:
    """What the odds of ``action`` report, read from its outcome."""
    if isinstance(action, AgileOrder | RefereeOrder):
        return tuple(tuple(g) for g in out.details["order"])
    if isinstance(action, Injury):
        return out.details["status"]
    if isinstance(action, Reshuffle | SetStatus):
        return out.label
    return out.result


@settings(max_examples=25)
@given(data=st.data(), opts=options(), state=tables(), seed=st.integers(0, 2**16))
def test_a_session_replayed_from_stored_outcomes_is_the_same_table(
    data: st.DataObject, opts: Options, state: State, seed: int
) -> None:
    roller = SeededRoller(seed)
    live, outcomes = state, []
    for name in data.draw(st.lists(st.sampled_from(list(BUILDERS)), max_size=8)):
        action = data.draw(
            st.composite(lambda draw, n=name, at=live: BUILDERS[n](draw, at, opts))()
        )
        out = RULESET.resolve(action, live, roller, opts)
        outcomes.append(out)
        live = RULESET.apply(live, out)
    assert replay(RULESET, state, outcomes) == live
    # what the table tracks stays possible: a deck of real cards, counted injuries
    assert all(seat.status.injuries >= 0 for seat in live.characters.values())
    assert len(live.deck) <= 48


# ---------------------------------------------------------------------------
# the generic commands every game gets from its actions


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(["mnemonic", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_generic_actions_lists_every_action(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, "actions", "--json")
    listed = json.loads(out)
    assert code == 0 and list(listed) == list(RULESET.every_action())
    fields = {f["name"]: f for f in listed["attack"]}
    assert fields["actor"]["ref"] == "character" and fields["defense"]["le"] == 0
    assert fields["fallback"]["choices"] == ["relevant", "irrelevant", "lucky"]


def test_generic_act_and_odds_of(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _cli(
        capsys, "act", "check", "aptitude=7", "chances=Fair", "--faces", "9", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["result"] == 1 and data["manual"] is True
    code, out, _ = _cli(capsys, "odds-of", "check", "aptitude=7", "chances=Fair", "--json")
    rows = {r["outcome"]: r["probability"] for r in json.loads(out)}
    assert code == 0 and rows[-2] == "1/12" and len(rows) == 12
    # a seated example's check, and its Status carried in a saved state
    table = tmp_path / "table.json"
    argv = ["--seat", "mick=example:boxer", "--save", str(table), "--faces", "12", "--json"]
    code, out, _ = _cli(capsys, "act", "injury", "worst=dead", "victim=mick", *argv)
    assert code == 0 and json.loads(out)["details"]["status"] == "inactive (dead)"
    saved = json.loads(table.read_text())
    assert saved["characters"]["mick"]["status"] == {
        "condition": "inactive",
        "inactive_as": "dead",
        "injuries": 1,
    }
    code, out, err = _cli(
        capsys,
        "act",
        "sheet-check",
        "actor=mick",
        "talent=Tough",
        "life_role=Professional Boxer",
        "--state",
        str(table),
        "--faces",
        "4",
        "--json",
    )
    # Mick, inactive (dead), checks nothing (issue 41): refused before any face is read
    assert code != 0 and "Mickey Ruane is inactive (dead) and cannot act" in err
    code, _, err = _cli(capsys, "act", "check", "aptitude=13")
    assert code != 0 and "Aptitude must be 0..12 (a Talent plus a Life Role), not 13" in err


def test_generic_act_reshuffles_a_saved_deck(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    table, opts = tmp_path / "table.json", tmp_path / "options.json"
    opts.write_text(json.dumps({"randomizer": "3cards"}))
    code, _, _ = _cli(
        capsys, "act", "check", "aptitude=6", "--options", str(opts), "--save", str(table)
    )
    assert code == 0 and len(json.loads(table.read_text())["deck"]["cards"]) == 45
    code, _, _ = _cli(
        capsys, "act", "reshuffle", "--state", str(table), "--save", str(table), "--json"
    )
    assert code == 0 and len(json.loads(table.read_text())["deck"]["cards"]) == 48
