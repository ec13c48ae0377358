"""A conflict as a Markov chain over a game's own state: who acts, with what, until when.

A :class:`ConflictModel` is the *policy* half of a conflict; the rules half is
the game's :class:`~referee.systems.base.Ruleset`. A chain node is a game state
plus a small hashable ``memo`` (what the policy remembers between actions: an
injury check owed after a Mnemonic hit). At each node the model names one
:class:`Step` - an action and how many rounds it starts - and the game plans,
resolves and applies it. The model reads the state to say when the conflict is
over (:meth:`ConflictModel.verdict`) and how much damage each character carries
(:meth:`ConflictModel.damage`); it never computes a rule's result itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from referee.systems.base import Action, Outcome, Plan, Ruleset

from .errors import AnalysisError
from .freeze import ATOMS, SheetKeys, freeze

A = TypeVar("A", bound=Action)

Memo = Hashable
"""What a policy remembers between two actions (``None`` mostly)."""

SIDES = ("a", "b")
"""The two sides of a conflict; a verdict is one of them, ``"draw"`` or ``"endless"``."""

VERDICT_CODES: dict[str, int] = {"a": 0, "b": 1, "draw": 2, "endless": 3}
"""Verdicts as small integers (the simulator's arrays)."""


@dataclass(frozen=True)
class Scope:
    """What one step of the rules reads and writes in a state: the seats of ``seats``
    (by id) and the table's fields named in ``fields``, and ``reads``: a key of whatever
    else the step reads but never writes (a target's condition, whether a round runs);
    see :meth:`ConflictModel.scope`."""

    seats: tuple[str, ...]
    fields: tuple[str, ...] = ()
    reads: Hashable = None


@dataclass(frozen=True)
class Step:
    """One action of the conflict and the rounds it starts (``ticks``: 1 for the first
    action of a new round, or for every action in a game without rounds)."""

    action: Action
    ticks: int = 0


@dataclass
class ConflictModel(ABC):
    """A conflict between side ``a`` and side ``b`` at one game's table (see module)."""

    ruleset: Ruleset[Any, Any, Any]
    options: Any
    state: Any
    side_a: tuple[str, ...]
    side_b: tuple[str, ...]
    policies: Mapping[str, str] = field(default_factory=dict)
    exchangeable: bool = False
    unit: str = "round"
    first: str | None = None
    """Who acts first, where the game's state does not say whose turn it is and the model
    keeps the turn in its memo (a live table's turn order: :mod:`.live`); ``None``: the
    model's own order."""

    POLICIES: ClassVar[tuple[str, ...]] = ("attack",)
    POLICY_WORDS: ClassVar[Mapping[str, str]] = {"attack": "attacks on every turn"}
    """Each policy in words, completing "If NAME ...": what people read where a policy is
    offered (the analysis page, the gauge's what-ifs), never the policy's name."""

    def __post_init__(self) -> None:
        self.sheet_keys = SheetKeys()
        self._acts: dict[Hashable, Action] = {}
        self._may_act: dict[tuple[str, int], tuple[object, bool]] | None = None
        kind = type(self.ruleset)
        if kind.can is Ruleset.can and kind.helpless is Ruleset.helpless:
            self._may_act = {}  # the game's helpless(seat, options) reads the seat alone
        known = set(self.state.characters)
        for cid in (*self.side_a, *self.side_b):
            if cid not in known:
                raise AnalysisError(
                    f"unknown character {cid!r}; seated: {', '.join(sorted(known)) or 'none'}"
                )
        if not self.side_a or not self.side_b:
            raise AnalysisError("a conflict needs at least one character on each side")
        if set(self.side_a) & set(self.side_b):
            raise AnalysisError("a character cannot be on both sides")
        for cid, policy in self.policies.items():
            if cid not in known:
                raise AnalysisError(f"a policy for {cid!r}, who is not in the conflict")
            if policy not in self.POLICIES:
                raise AnalysisError(
                    f"unknown policy {policy!r} for {cid}; known: {', '.join(self.POLICIES)}"
                )

    # -- what a game's model says ------------------------------------------------

    @property
    def fighters(self) -> tuple[str, ...]:
        """Everyone in the conflict, side a first."""
        return (*self.side_a, *self.side_b)

    def policy(self, cid: str) -> str:
        """The policy of ``cid`` (the first known one by default)."""
        return self.policies.get(cid, self.POLICIES[0])

    def side_of(self, cid: str) -> str:
        """``"a"`` or ``"b"``."""
        return "a" if cid in self.side_a else "b"

    def opponents(self, cid: str) -> tuple[str, ...]:
        """The other side's characters."""
        return self.side_b if cid in self.side_a else self.side_a

    def key(self, state: Any) -> Hashable:
        """The state as a chain node's key: everything the rules may read (a model drops
        what they never read, such as a round counter that only matters when it is 0)."""
        return freeze(state, self.sheet_keys)

    def start(self) -> tuple[Any, Memo]:
        """The first node: the table as given and an empty memo."""
        return self.state, None

    @abstractmethod
    def out(self, state: Any, cid: str) -> bool:
        """Whether ``cid`` is out of the fight (incapacitated, dead) in ``state``."""

    @abstractmethod
    def damage(self, state: Any, cid: str) -> int:
        """The damage ``cid`` carries in ``state`` (the game's own measure)."""

    @abstractmethod
    def next(self, state: Any, memo: Memo) -> Step:
        """The policy: the next action in ``state``."""

    def after(self, state: Any, memo: Memo, step: Step, outcome: Outcome, new: Any) -> Memo:
        """The memo after ``step``'s ``outcome`` led to ``new`` (default: none)."""
        return None

    def act(self, kind: type[A], *args: Any, **kwargs: Any) -> A:
        """The action ``kind(*args, **kwargs)``, made (and checked) once per model: a chain
        asks for the same few actions in thousands of states, and actions are immutable."""
        if all(type(a) in ATOMS for a in args) and all(
            type(v) in ATOMS for v in kwargs.values()
        ):  # the key freeze gives them, made at once
            key: Hashable = (kind, args, tuple(sorted(kwargs.items())))
        else:  # a list given for a tuple keys alike
            key = (kind, freeze(args), freeze(kwargs))
        found = self._acts.get(key)
        if found is None:
            found = self._acts[key] = kind(*args, **kwargs)
        assert isinstance(found, kind)
        return found

    def step_memo(self, state: Any, memo: Memo, step: Step) -> tuple[Memo] | None:
        """The memo after ``step`` whatever its outcome (as a 1-tuple), where the memo reads
        neither the outcome nor the state it leads to; ``None`` where it may. The lean path
        of a chain (no outcome built) needs it. By default: none after every step, when
        :meth:`after` is not overridden."""
        if type(self).after is ConflictModel.after:
            return (None,)
        return None

    def viewed(self, step: Step) -> bool:
        """Whether :meth:`view` reads the odds' value back for this step's action."""
        return False

    def view(self, step: Step, outcome: Outcome) -> Hashable:
        """What the game's odds report for ``step``, read back from its ``outcome``, for
        an action whose odds value alone decides the outcome's changes (the chain then
        takes the probabilities from the game's exact odds and needs one outcome per
        value). Only called where :meth:`viewed` is true."""
        raise NotImplementedError

    def scope(self, state: Any, memo: Memo, step: Step) -> Scope | None:
        """What ``step``'s plan, its outcomes and their changes read and write in ``state``,
        when that is less than the whole state (``None``, the default: everything).

        Two nodes whose states agree on the scope (its seats, its fields and its
        ``reads``) then share the step's outcomes, found once: the chain resolves the
        plan on the first, and for the others keeps their own seats and fields outside
        the scope and takes the first one's new scope. The chain checks that the changes
        write nothing outside the seats and fields; that the rules *read* nothing more
        than the scope says is the model's claim, tested by exploring with and without
        sharing. A model that uses it keys its states as records (:func:`freeze`'s
        layout, fields in declared order)."""
        return None

    def stopped(self, state: Any, cid: str) -> bool:
        """Whether ``cid`` takes no more part: :meth:`out`, or in a condition the game's
        text makes helpless that forbids acting (:meth:`Ruleset.helpless`: Mneme CE's
        Critically Wounded and out, ARM's Unconscious...). A side all stopped has lost.

        Whether the rules let ``cid`` act is asked once per seat record where the game
        keeps :meth:`Ruleset.can`'s own reading (the seat's condition alone: records are
        immutable, so the answer never goes stale)."""
        if self.out(state, cid):
            return True
        known = self._may_act
        if known is None:
            return not self.ruleset.can(state, cid, "act", self.options)
        seat = state.characters.get(cid)
        at = (cid, id(seat))
        found = known.get(at)
        if found is None:  # once per seat record (kept, so its id is never reused)
            found = known[at] = (seat, self.ruleset.can(state, cid, "act", self.options))
        return not found[1]

    def size_estimate(self) -> int:
        """An upper estimate of the chain's states, checked before any work."""
        return 1

    def verdict(self, state: Any, memo: Memo) -> str | None:
        """Who won (``"a"``, ``"b"``, ``"draw"``), or ``None`` while the fight goes on."""
        a_out = all(self.stopped(state, c) for c in self.side_a)
        b_out = all(self.stopped(state, c) for c in self.side_b)
        if a_out and b_out:
            return "draw"
        if b_out:
            return "a"
        if a_out:
            return "b"
        return None

    # -- the rules run here, once --------------------------------------------------

    def plan(self, state: Any, action: Action) -> Plan:
        """The game's plan for ``action`` (the checks ``Ruleset.resolve`` makes, first)."""
        self.ruleset.action_name(action)
        self.ruleset.check_helpless(action, state, self.options)
        self.ruleset.check_pending(action, state)
        return self.ruleset.plan(action, state, self.options)

    def describe(self) -> dict[str, Any]:
        """What the model is, for reports."""
        return {
            "game": self.ruleset.name,
            "a": list(self.side_a),
            "b": list(self.side_b),
            "policies": {c: self.policy(c) for c in self.fighters},
            "unit": self.unit,
        }
