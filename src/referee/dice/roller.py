"""Rollers: where dice faces come from.

Rules never draw randomness themselves; they take a :class:`Roller` (principle 4
of the architecture). Every roll a roller makes is recorded as a
:class:`RollRecord` so a session can be replayed and audited.

* :class:`SeededRoller` - reproducible, from an integer seed.
* :class:`ScriptedRoller` - exact faces given in advance (tests, worked examples).
* :class:`ManualRoller` - faces rolled on physical dice and typed in at the table.
* :class:`SystemRoller` - the operating system's CSPRNG (``secrets``) for live play.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from referee.errors import DiceError

MAX_SIDES = 10_000
"""No roller accepts dice with more sides than this."""

MAX_DICE_PER_ROLL = 100_000
"""No roller rolls more dice than this in one call (a tree built in code is not bounded by
the notation's limits)."""


@dataclass(frozen=True, slots=True)
class RollRecord:
    """One call to a roller: ``faces`` of dice with ``sides`` sides."""

    faces: tuple[int, ...]
    sides: int
    kind: str
    seed: int | None = None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form of the record."""
        return {
            "faces": list(self.faces),
            "sides": self.sides,
            "kind": self.kind,
            "seed": self.seed,
        }


@runtime_checkable
class Roller(Protocol):
    """Anything that returns the faces of ``n`` dice of ``sides`` sides."""

    kind: str

    def roll(self, n: int, sides: int) -> tuple[int, ...]:
        """Roll ``n`` dice of ``sides`` sides; every face lies in ``1..sides``."""
        ...

    @property
    def records(self) -> tuple[RollRecord, ...]:
        """Every roll made so far, oldest first."""
        ...


def _check_request(n: int, sides: int) -> None:
    if n < 0:
        raise DiceError(f"cannot roll a negative number of dice ({n})")
    if n > MAX_DICE_PER_ROLL:
        raise DiceError(f"cannot roll {n} dice at once; at most {MAX_DICE_PER_ROLL}")
    if not 1 <= sides <= MAX_SIDES:
        raise DiceError(f"dice must have 1..{MAX_SIDES} sides, not {sides}")


def _is_face(face: object, sides: int) -> bool:
    """A whole number a die of ``sides`` sides can show (``True`` and ``2.0`` are not)."""
    return isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= sides


class _RecordingRoller:
    """Shared bookkeeping: validates requests and records each roll."""

    kind = "abstract"
    seed: int | None = None

    def __init__(self) -> None:
        self._records: list[RollRecord] = []

    def _faces(self, n: int, sides: int) -> tuple[int, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    def roll(self, n: int, sides: int) -> tuple[int, ...]:
        """Roll ``n`` dice of ``sides`` sides and record the faces."""
        _check_request(n, sides)
        faces = self._faces(n, sides)
        self._records.append(RollRecord(faces, sides, self.kind, self.seed))
        return faces

    @property
    def records(self) -> tuple[RollRecord, ...]:
        """Every roll made so far, oldest first."""
        return tuple(self._records)


class SeededRoller(_RecordingRoller):
    """Reproducible pseudo-random faces from an integer seed (its own generator).

    Example::

        >>> SeededRoller(7).roll(3, 6)  # the same seed, the same faces, on every machine
        (3, 2, 4)
    """

    kind = "seeded"

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self._rng = random.Random(seed)

    def _faces(self, n: int, sides: int) -> tuple[int, ...]:
        rng = self._rng
        return tuple(rng.randint(1, sides) for _ in range(n))


class SystemRoller(_RecordingRoller):
    """Faces from the operating system's cryptographic generator, for live play."""

    kind = "system"

    def _faces(self, n: int, sides: int) -> tuple[int, ...]:
        import secrets  # here, not above: a command that only reads odds never loads it

        return tuple(secrets.randbelow(sides) + 1 for _ in range(n))


class ScriptedRoller(_RecordingRoller):
    """Hands out exactly the faces it was given, in order.

    It fails loudly: asking for more faces than remain, or a scripted face that
    the requested die cannot show, raises :class:`DiceError`.

    Example::

        >>> roller = ScriptedRoller([6, 1])
        >>> roller.roll(2, 6)
        (6, 1)
        >>> roller.roll(1, 6)
        Traceback (most recent call last):
        ...
        referee.errors.DiceError: ...
    """

    kind = "scripted"

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__()
        self._script = list(faces)
        self._used = 0

    @property
    def remaining(self) -> tuple[int, ...]:
        """Faces not handed out yet."""
        return tuple(self._script[self._used :])

    def _faces(self, n: int, sides: int) -> tuple[int, ...]:
        left = len(self._script) - self._used
        if n > left:
            raise DiceError(
                f"{self.kind} faces ran out: {n} dice of d{sides} needed, {left} left "
                f"(faces used so far: {self._script[: self._used]})"
            )
        faces = tuple(self._script[self._used : self._used + n])
        for i, face in enumerate(faces):
            if not _is_face(face, sides):
                raise DiceError(
                    f"face {face} (entry {self._used + i + 1}) is impossible on a d{sides}"
                )
        self._used += n
        return faces

    def assert_exhausted(self) -> None:
        """Raise :class:`DiceError` if some faces were never used."""
        if self.remaining:
            raise DiceError(
                f"{len(self.remaining)} {self.kind} face(s) left unused: {list(self.remaining)}"
            )


class ManualRoller(ScriptedRoller):
    """Faces rolled on physical dice at a real table and entered by hand.

    Example::

        >>> roll("2d6", ManualRoller([3, 4])).total
        7
    """

    kind = "manual"


def parse_faces(text: str) -> tuple[int, ...]:
    """Parse ``"6,3,1,1"`` (commas or spaces) into faces; a clear error otherwise."""
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise DiceError("no faces given: write them as 6,3,1,1")
    if len(parts) > 1000:
        raise DiceError(f"too many faces ({len(parts)}); at most 1000")
    faces: list[int] = []
    for i, part in enumerate(parts, start=1):
        try:
            faces.append(int(part))
        except ValueError:
            raise DiceError(f"face {i} ({part!r}) is not a whole number") from None
    return tuple(faces)


def roller_for(faces: Sequence[int] | None = None, seed: int | None = None) -> _RecordingRoller:
    """The roller a command should use: hand-entered faces, a seed, or the system."""
    if faces is not None:
        return ManualRoller(faces)
    if seed is not None:
        return SeededRoller(seed)
    return SystemRoller()


def is_manual(roller: Roller) -> bool:
    """True when the faces came from physical dice typed in by hand."""
    return roller.kind == "manual"
