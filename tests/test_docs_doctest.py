"""The ``>>>`` examples in the docstrings a designer reads run, and print what they show.

The modules of :mod:`referee.dice` and :mod:`referee.systems` whose public names a designer
imports are searched for doctests (as ``pytest --doctest-modules`` would collect them); each
example runs with the public names of ``referee.dice`` and ``referee.systems.base`` at hand
(the imports the Python API page starts with), and must print exactly what it shows
(``...`` stands for text left out).
"""

from __future__ import annotations

import doctest
import importlib
from types import ModuleType

import pytest

MODULES = [
    "referee.dice.notation",
    "referee.dice.evaluate",
    "referee.dice.odds",
    "referee.dice.roller",
    "referee.dice.rolling",
    "referee.systems.base",
    "referee.systems.tray",
    "referee.systems.records",
]


def namespace() -> dict[str, object]:
    """What every example may use without importing it."""
    import referee.dice as dice
    import referee.dice.roller as roller
    import referee.dice.rolling as rolling
    import referee.systems.base as base
    import referee.systems.records as records

    names: dict[str, object] = {}
    for module in (records, base, roller, rolling, dice):
        public = getattr(module, "__all__", None) or [
            n for n in vars(module) if not n.startswith("_")
        ]
        names.update({n: getattr(module, n) for n in public if hasattr(module, n)})
    return names


def examples(module: ModuleType) -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(exclude_empty=True)
    return [t for t in finder.find(module, globs={}) if t.examples]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    runner = doctest.DocTestRunner(optionflags=flags)
    found = examples(module)
    for test in found:
        test.globs = {**vars(module), **namespace()}
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert found, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"


def test_the_designers_names_have_examples() -> None:
    """Every public function and class a designer imports from ``referee.dice`` and the
    games' contract shows how it is used."""
    import referee.dice as dice
    import referee.systems.base as base
    import referee.systems.records as records

    wanted = {
        dice: [
            "parse",
            "odds",
            "Distribution",
            "roll",
            "check_cost",
            "check_faces",
            "beyond_depth",
            "SeededRoller",
            "ScriptedRoller",
            "ManualRoller",
        ],
        base: ["get", "names", "slug", "Ladder", "Ruleset"],
        records: ["load_record", "dump_record", "describe_options", "data_from_pairs"],
    }
    bare = [
        f"{module.__name__}.{n}"
        for module, ns in wanted.items()
        for n in ns
        if ">>>" not in (getattr(module, n).__doc__ or "")
    ]
    assert not bare, f"no >>> example in the docstring of: {', '.join(bare)}"
