"""The fast paths of exact chains against slow, independent ones (issue 23).

* The solver (components, loops in small fractions, whole-number vectors) against a
  plain reading of the same chain written here: one linear system over every node that
  is not an end, eliminated in exact fractions, and the rounds pushed one action at a
  time as fractions.
* Shared steps (a model's :meth:`~referee.analysis.model.ConflictModel.scope`) against
  the same chain explored with every node's step resolved on its own.
* The lean path (issue 38: a game's plan gives the state after a roll without building
  the outcome, ``Plan.settle``) against the same chain explored by building and applying
  every outcome, against random rolls resolved both ways, and the answers against the
  ones computed before it.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Hashable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from referee.analysis.chain import Chain, explore
from referee.analysis.enumerate import PathRoller, outcomes, settled
from referee.analysis.errors import AnalysisError
from referee.analysis.model import Memo, Scope, Step
from referee.analysis.models.arm import ArmMelee
from referee.analysis.models.mnemonic import MnemonicFight
from referee.analysis.rounds import by_edges, kernel, rounds_distribution
from referee.analysis.scenario import Scenario
from referee.analysis.solve import VERDICTS, _by_nodes, _by_rounds, solve
from referee.systems.arm.actions import Strike
from referee.systems.mneme.actions import Threat
from referee.systems.mneme.damage import Target
from referee.systems.mnemonic.actions import Injury

HORIZON = 12


def _scenario(name: str) -> Scenario:
    """Small fights of each game (a few hundred states at most)."""
    if name == "mnemonic":
        return Scenario.default("mnemonic")
    if name == "mnemonic-stalemate":  # nobody can ever hit: a loop nobody leaves
        sc = Scenario.default("mnemonic")
        sc.params["chances"] = -40
        return sc
    if name.startswith("arm"):
        sc = Scenario.default("arm")
        if "alex-defends" in name:
            sc.seats = {"alex": "example:alex", "brad": "example:brad"}
            sc.a, sc.b = ("alex",), ("brad",)
            sc.policies = {"alex": "defend"}
        sc.params = {"threshold": 3 if name.endswith("-3") else 2}
        return sc
    if name == "mongrel":
        return Scenario.default("mongrel")
    if name == "mongrel-defend":  # holding AP to defend, to collapse
        sc = Scenario.default("mongrel")
        sc.policies = {"vooruk": "defend", "giazza": "balanced"}
        sc.params = {"until": "collapsed"}
        return sc
    if name == "mongrel-collapsed":
        sc = Scenario.default("mongrel")
        sc.params = {"until": "collapsed"}
        return sc
    if name == "mneme":
        sc = Scenario.default("mneme")
        sc.options = {"adversary_attacks": "referee_rolls"}  # both sides roll
        return sc
    if name == "mneme-fail-effect":  # only Ada rolls; the raider strikes back on her failures
        sc = Scenario.default("mneme")
        sc.policies = {"raider": "fail-effect"}
        return sc
    raise KeyError(name)


def _reference(chain: Chain, horizon: int) -> dict[str, Any]:
    """The chain's answers by the plainest exact method: for the nodes that are not ends,
    ``x = P x + b`` solved by Gauss-Jordan elimination in fractions (columns: each
    verdict, each fighter's damage, the rounds); nodes that can never reach an end are
    stalemates. The rounds' distribution: the mass moved along one edge at a time."""
    model = chain.model
    n = len(chain)
    ends = [i for i in range(n) if chain.verdicts[i] is not None]
    reach_end = set(ends)  # who can reach an end (backwards search)
    back: dict[int, list[int]] = {}
    for i in range(n):
        for _, j, _ in chain.edges[i]:
            back.setdefault(j, []).append(i)
    todo = list(ends)
    while todo:
        j = todo.pop()
        for i in back.get(j, []):
            if i not in reach_end:
                reach_end.add(i)
                todo.append(i)
    width = len(VERDICTS) + len(model.fighters) + 1

    def end_row(i: int, verdict: str) -> list[Fraction]:
        return [
            *(Fraction(int(v == verdict)) for v in VERDICTS),
            *(Fraction(model.damage(chain.states[i], c)) for c in model.fighters),
            Fraction(0),
        ]

    fixed = {i: end_row(i, chain.verdicts[i] or "") for i in ends}
    for i in range(n):
        if i not in reach_end:
            fixed[i] = end_row(i, "endless")
    unknown = [i for i in range(n) if i not in fixed]
    col = {i: c for c, i in enumerate(unknown)}
    rows: list[dict[int, Fraction]] = []
    rhs: list[list[Fraction]] = []
    for i in unknown:
        row = {col[i]: Fraction(1)}
        b = [Fraction(0)] * width
        for p, j, t in chain.edges[i]:
            b[-1] += p * t
            if j in fixed:
                b = [x + p * y for x, y in zip(b, fixed[j], strict=True)]
            else:
                row[col[j]] = row.get(col[j], Fraction(0)) - p
        rows.append(row)
        rhs.append(b)
    for c in range(len(unknown)):  # Gauss-Jordan, rows kept sparse
        pivot = next(r for r in range(c, len(rows)) if rows[r].get(c))
        rows[c], rows[pivot], rhs[c], rhs[pivot] = rows[pivot], rows[c], rhs[pivot], rhs[c]
        inv = 1 / rows[c][c]
        rows[c] = {k: v * inv for k, v in rows[c].items()}
        rhs[c] = [v * inv for v in rhs[c]]
        for r in range(len(rows)):
            f = rows[r].get(c) if r != c else None
            if f:
                for k, v in rows[c].items():
                    rows[r][k] = rows[r].get(k, Fraction(0)) - f * v
                rhs[r] = [x - f * y for x, y in zip(rhs[r], rhs[c], strict=True)]
    value = dict(fixed)
    for i in unknown:
        value[i] = rhs[col[i]]
    start = value[0]
    k = len(VERDICTS)
    rounds: dict[int, Fraction] = {}
    beyond = Fraction(0)
    mass: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    if chain.verdicts[0] is not None:
        rounds, mass = {0: Fraction(1)}, {}
    while mass:
        nxt: dict[tuple[int, int], Fraction] = {}
        for (i, ticks), m in mass.items():
            for p, j, t in chain.edges[i]:
                at = ticks + t
                if at > horizon:
                    beyond += m * p
                elif chain.verdicts[j] is not None:
                    rounds[at] = rounds.get(at, Fraction(0)) + m * p
                else:
                    nxt[(j, at)] = nxt.get((j, at), Fraction(0)) + m * p
        mass = nxt
    return {
        "p": dict(zip(VERDICTS, start[:k], strict=True)),
        "damage": dict(zip(model.fighters, start[k:-1], strict=True)),
        "expected": start[-1] if start[VERDICTS.index("endless")] == 0 else None,
        "rounds": dict(sorted(rounds.items())),
        "beyond": beyond,
    }


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    ["mnemonic", "mnemonic-stalemate", "arm", "arm-alex-defends", "mongrel-collapsed", "mneme"],
)
def test_the_solver_matches_a_plain_elimination(name: str) -> None:
    chain = explore(_scenario(name).model())
    fast = solve(chain, horizon=HORIZON)
    slow = _reference(chain, HORIZON)
    assert fast.p == slow["p"]
    assert sum(fast.p.values()) == 1
    assert fast.damage == slow["damage"]
    assert fast.expected_rounds == slow["expected"]
    assert fast.rounds == slow["rounds"]
    assert fast.rounds_beyond == slow["beyond"]


@pytest.mark.parametrize("name", ["mnemonic", "arm", "mongrel-collapsed", "mneme"])
def test_the_chain_of_rounds_answers_as_the_nodes_do(name: str) -> None:
    """The solver reads a chain cut at its round starts where that is smaller, and pushes
    the rounds' distribution along the rounds or along the chain's edges: every reading
    is exact, so each gives the same fractions, whichever is the smaller."""
    chain = explore(_scenario(name).model())
    rounds = kernel(chain)
    by_rounds = _by_rounds(chain, rounds.rows, rounds.scale)
    assert by_rounds is not None
    assert by_rounds.fractions() == _by_nodes(chain).fractions()
    pushed = rounds_distribution(chain, HORIZON, rounds)
    assert pushed == rounds_distribution(chain, HORIZON, by_edges(chain, rounds.deepest))
    assert pushed[0] and sum(pushed[0].values()) + pushed[1] == 1


def test_a_stalemate_is_solved_node_by_node() -> None:
    """An endless fight reports the damage where it is caught, which need not be a
    round's start: the chain of rounds gives way to the nodes'."""
    chain = explore(_scenario("mnemonic-stalemate").model())
    rounds = kernel(chain)
    assert _by_rounds(chain, rounds.rows, rounds.scale) is None
    assert solve(chain).p["endless"] == 1


def _edges(chain: Chain) -> dict[tuple[Hashable, Memo], dict[tuple[Hashable, Memo, int], Fraction]]:
    """Every node by its key and memo, with its edges summed by where they lead."""
    out: dict[tuple[Hashable, Memo], dict[tuple[Hashable, Memo, int], Fraction]] = {}
    for i, edges in enumerate(chain.edges):
        row: dict[tuple[Hashable, Memo, int], Fraction] = {}
        for p, j, t in edges:
            to = (chain.keys[j], chain.memos[j], t)
            row[to] = row.get(to, Fraction(0)) + p
        out[(chain.keys[i], chain.memos[i])] = row
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["arm", "arm-3", "arm-alex-defends-3", "mongrel", "mongrel-defend"]
)
def test_shared_steps_give_the_chain_of_resolving_every_node(name: str) -> None:
    model, other = _scenario(name).model(), _scenario(name).model()
    other.sheet_keys = model.sheet_keys  # records numbered alike in both chains' keys
    shared = explore(model)
    alone = explore(other, share=False)
    assert len(shared) == len(alone)
    assert _edges(shared) == _edges(alone)
    for i, state in enumerate(shared.states):  # a grafted state is the state itself
        assert shared.model.key(state) == shared.keys[i]
        assert alone.states[alone.index[(shared.keys[i], shared.memos[i])]] == state
    assert solve(shared).data() == solve(alone).data()


class _Careless(ArmMelee):
    """A model whose scope of a blow forgets the target, which the blow hurts."""

    def scope(self, state: Any, memo: Memo, step: Step) -> Scope | None:
        found = super().scope(state, memo, step)
        if found is None or not isinstance(step.action, Strike):
            return found
        return replace(found, seats=())


def test_a_scope_missing_what_a_step_changes_is_refused() -> None:
    m = _scenario("arm").model()
    careless = _Careless(m.ruleset, m.options, m.state, m.side_a, m.side_b, threshold=2)
    with pytest.raises(AnalysisError, match=r"scope of strike misses (brad|christine)"):
        explore(careless)


class _SharedInjury(MnemonicFight):
    """Mnemonic with an injury check shared across states that agree on the victim's
    seat (and the deck): a memo that reads the outcome keeps every outcome apart."""

    def scope(self, state: Any, memo: Memo, step: Step) -> Scope | None:
        if isinstance(step.action, Injury):
            return Scope((str(step.action.victim),), ("deck", "pending"))
        return None


def test_sharing_keeps_a_memo_that_reads_the_outcome() -> None:
    m = _scenario("mnemonic").model()
    assert isinstance(m, MnemonicFight)
    params = {"life_roles": m.life_roles, "worst": m.worst}
    model = _SharedInjury(m.ruleset, m.options, m.state, m.side_a, m.side_b, **params)
    shared = explore(model)
    other = _scenario("mnemonic").model()
    other.sheet_keys = model.sheet_keys
    alone = explore(other, share=False)
    assert _edges(shared) == _edges(alone)
    assert solve(shared).data()["p"] == solve(alone).data()["p"]


# -- the lean path (issue 38): the state after a roll without building its outcome ------


@pytest.mark.parametrize(
    "name",
    [
        "mongrel",
        "mongrel-defend",
        "mongrel-collapsed",
        "mneme",
        "arm",
        "arm-alex-defends-3",
    ],
)
def test_the_lean_path_gives_the_chain_of_building_every_outcome(name: str) -> None:
    model, other = _scenario(name).model(), _scenario(name).model()
    other.sheet_keys = model.sheet_keys
    lean = explore(model)
    full = explore(other, lean=False)
    assert len(lean) == len(full)
    assert _edges(lean) == _edges(full)
    for i, state in enumerate(lean.states):  # the state made directly is the applied one
        assert full.states[full.index[(lean.keys[i], lean.memos[i])]] == state
    assert solve(lean).data() == solve(full).data()


class _Recorder:
    """A roller of seeded random faces that keeps what it handed out."""

    kind = "recorded"
    seed: int | None = None
    records: tuple[Any, ...] = ()

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.faces: list[tuple[int, ...]] = []

    def roll(self, n: int, sides: int) -> tuple[int, ...]:
        faces = tuple(self.rng.randint(1, sides) for _ in range(n))
        self.faces.append(faces)
        return faces


@pytest.mark.parametrize(
    "name", ["mongrel-defend", "mneme", "mneme-fail-effect", "arm-alex-defends-3"]
)
def test_a_lean_roll_leads_where_its_outcome_does(name: str) -> None:
    """For the attacks of a chain, random faces resolved the table's way (outcome, then
    the game's apply) and the lean way (``Plan.settle``) give equal states, and the
    lean way reports what the model reads back from the outcome; where the reported value
    alone decides the state (Mongrel's attack: its check result; Mneme CE's: the damage
    dealt, where nothing strikes back and no roll can make the target Bleed), the state
    the plan gives for that value unrolled is the same."""
    model = _scenario(name).model()
    chain = explore(model)
    checked = decided = 0
    for i, state in enumerate(chain.states[:300]):
        if chain.verdicts[i] is not None:
            continue
        step = model.next(state, chain.memos[i])
        plan = model.plan(state, step.action)
        if not plan.settles:
            continue
        for seed in range(8):
            rolled = _Recorder(seed + 100 * i)
            outcome = plan.resolve(rolled)
            found = plan.settle(PathRoller(tuple(rolled.faces)))
            assert found is not None
            reported, new = found
            assert new == model.ruleset.apply(state, outcome)
            assert reported == model.view(step, outcome)
            if plan.decides:  # the value alone decides the state: the same one, unrolled
                assert plan.decided(reported) == new
                decided += 1
            checked += 1
    assert checked > 100
    assert decided == (checked if name.startswith(("mongrel", "mneme")) else 0)


ANSWERS_BEFORE_ISSUE_38 = {
    "mneme": "3e17bc35877f5c395a4f20105dffcb16b2b20feef68abcb88c54677546b3b1d5",
    "mongrel": "73c187f827d858ec31b30e977c68c4258c85266edf8fd0421004c69f90e7ea3d",
    "mongrel-defend": "382b5b286461e0ba636d810a428e3caf3803755799a040f696d13819211d8bea",
    "mongrel-collapsed": "80e5be3a35831f53d5609a77a241abd37af60298cccf849b84615995087a53ea",
    "arm": "20611af116cfb3cee2e17783c56dd3bec621dcac9d066e7106d851af99302c95",
    "arm-alex-defends-3": "ebe5d5fa964bfcceec88cf7f52e777fa11b973fe7631ede69d25c0eee086470f",
    "mnemonic": "72fbf84d79ae64a9f0bd72cccf30beb8989b8dd477bab5ab6c82ce283fecb54d",
}
"""The SHA-256 of each fight's exact answer (its JSON, keys sorted) by the code before
issue 38's faster chains, computed then: every fraction today must be the same."""


@pytest.mark.parametrize("name", sorted(ANSWERS_BEFORE_ISSUE_38))
def test_exact_answers_are_the_ones_before_the_lean_path(name: str) -> None:
    data = solve(explore(_scenario(name).model())).data()
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    assert digest == ANSWERS_BEFORE_ISSUE_38[name]


def test_a_mneme_attack_is_decided_by_its_damage_only_where_that_number_decides() -> None:
    """Mneme CE's attack offers the state after each damage total unrolled only where the
    total decides it (ch. 7): no Fail Effect strikes back, the odds report the damage
    (not the condition), no targeted location, and no one roll can make the target Bleed
    (a target of HP 3, whose Seriously Wounded threshold one roll reaches, is settled roll
    by roll)."""
    model = _scenario("mneme").model()
    state, memo = model.start()
    attack = model.next(state, memo).action
    plan = model.plan(state, attack)
    assert plan.decides
    for other in (
        replace(attack, report="condition"),
        replace(attack, threat=Threat(damage="2d6")),
    ):
        assert not model.plan(state, other).decides
    target = str(attack.target)
    seat = state.characters[target]
    weak = {"Str": 1, "Dex": 1, "End": 1}  # HP 3: one roll reaches Seriously Wounded
    sheet = replace(seat.sheet, characteristics={**seat.sheet.characteristics, **weak})
    frail = replace(state, characters={**state.characters, target: replace(seat, sheet=sheet)})
    assert not model.plan(frail, attack).decides
    assert model.plan(frail, attack).settles
    # the wound (the damage with whether a roll made the target Bleed) decides it there
    assert model.plan(frail, replace(attack, report="wound")).decides


def _frail(state: Any, *cids: str) -> Any:
    """``state`` with each of ``cids`` at HP 3, whose Seriously Wounded threshold one
    roll of a small die reaches (ch. 7: Bleeding)."""
    weak = {"Str": 1, "Dex": 1, "End": 1}
    seats = dict(state.characters)
    for cid in cids:
        seat = seats[cid]
        sheet = replace(seat.sheet, characteristics={**seat.sheet.characteristics, **weak})
        seats[cid] = replace(seat, sheet=sheet)
    return replace(state, characters=seats)


@pytest.mark.parametrize(
    ("report", "bleeding"),
    [("damage", False), ("exchange", False), ("exchange", True), ("wound", True)],
)
def test_a_mneme_attack_decided_by_its_damage_is_every_face_path_applied(
    report: str, bleeding: bool
) -> None:
    """Against every face path of small dice (a 1d3 attack, a 1d2 threat striking back,
    no armour),
    each resolved to its outcome and applied by the game (ch. 7): the states the plan
    decides from each reported value (the damage dealt, or with ``exchange`` the pair of
    damage dealt and struck back; with ``bleeding``, both fighters at HP 3, whom one roll
    can make Bleed, so each side's value says whether it did) carry the same
    probabilities; and the odds of the pair are the faces' own (the plan's brute force)."""
    model = _scenario("mneme-fail-effect").model()
    state, memo = model.start()
    attack = replace(
        model.next(state, memo).action,
        damage="1d3",
        weapon="",
        armour=Target(),  # no armour either way: every face counts
        threat=None
        if report == "wound"
        else Threat(damage="1d2", attacker="raider", armour=Target()),
        report=report,
    )
    if bleeding:
        state = _frail(state, str(attack.actor), str(attack.target))
    plan = model.plan(state, attack)
    assert plan.decides == (report != "damage")  # "damage" does not read the strike back
    if report != "damage":
        assert plan.odds() == plan.brute()
    if bleeding:  # a value of each kind: Bleeding and not
        values = [v[0] if isinstance(v, tuple) else v for v in plan.odds().outcomes()]
        assert {v.bleeding for v in values} == {False, True}
    by_faces: dict[Hashable, Fraction] = {}
    for p, outcome in outcomes(plan):
        key = model.key(model.ruleset.apply(state, outcome))
        by_faces[key] = by_faces.get(key, Fraction(0)) + p
    if not plan.decides:
        return
    by_value: dict[Hashable, Fraction] = {}
    for p, new in settled(plan):
        key = model.key(new)
        by_value[key] = by_value.get(key, Fraction(0)) + p
    assert by_value == by_faces
    assert len(by_faces) > 4 and sum(by_faces.values()) == 1


def test_the_mneme_demo_fight_is_exact_where_a_rifle_can_make_the_raider_bleed(
    tmp_path: Any,
) -> None:
    """The demo table's fight (Ada Vance's automatic rifle, 3d6-2 four times a round,
    one roll of which can reach the raider's Seriously Wounded threshold, against a raider
    striking back through her Fail Effects with a broadsword): each attack's odds report
    both wounds (``exchange``: the damage dealt and taken back, each with whether it made
    its victim Bleed), which decide every state after, so the chain is exact; it agrees
    with a simulation of the same fight."""
    from referee.analysis.live import fight_model
    from referee.analysis.simulate import simulate
    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.table.tokens import Tokens
    from referee.web.demo import demo_tables

    store = Store(f"sqlite:///{tmp_path / 'demo.db'}")
    service = TableService(store)
    tables, _ = demo_tables(service, Tokens(store))
    ts = next(t for t in map(service.load, (d.id for d in tables)) if t.ruleset.name == "mneme")
    model = fight_model(ts, ("ada-vance",), ("raider",), {})
    assert model.policy("raider") == "fail-effect"  # the text's way with adversaries
    state, memo = model.start()
    attack = model.next(state, memo).action
    assert attack.report == "exchange" and model.plan(state, attack).decides
    exact = solve(explore(model))
    assert sum(exact.p.values()) == 1 and exact.states > 2_000
    sim = simulate(model, runs=20_000, confidence=0.999)
    for side in ("a", "b"):
        assert sim.p[side].low <= exact.p[side] <= sim.p[side].high
    store.close()
