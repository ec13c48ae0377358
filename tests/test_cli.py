"""The foundation's commands: roll, odds, games, options, validate, demo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from referee.cli.main import run


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_shows_faces_with_dropped_ones_marked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "roll", "3d6kh2+1", "--faces", "1,5,4")
    assert code == 0
    assert out.strip() == "3d6kh2[(1), 5, 4] + 1 = 10 (faces entered by hand)"


def test_roll_json_records_the_roller(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "roll", "4d6>=3", "--seed", "7", "--json")
    data = json.loads(out)
    assert code == 0 and data["expression"] == "4d6>=3"
    assert data["roller"] == "seeded" and data["seed"] == 7 and data["manual"] is False
    assert data["total"] == sum(d["face"] >= 3 for d in data["dice"])
    again = json.loads(_run(capsys, "roll", "4d6>=3", "--seed", "7", "--json")[1])
    assert again == data


def test_roll_with_hand_entered_faces_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_run(capsys, "roll", "2d6", "--faces", "6,3", "--json")[1])
    assert data["manual"] is True and data["roller"] == "manual" and data["total"] == 9


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["roll", "2d6", "--faces", "1,2,3"], "needs 2 faces (2d6); 3 given"),
        (["roll", "2d6", "--faces", "1,7"], "face 2 is 7, impossible on a d6"),
        (["roll", "2d6", "--faces", "1,x"], "not a whole number"),
        (["roll", "3d6kh"], "position 5"),
        (["odds", "100d100kh50"], "limit"),
        (["odds"], "Missing argument"),
        (["rol", "2d6"], "No such command"),
        (["options", "chess"], "unknown game 'chess'"),
        (["validate", "chess", "nothing.json"], "unknown game"),
    ],
)
def test_errors_are_one_line_on_stderr_and_non_zero(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _run(capsys, *argv)
    assert code != 0
    assert message in err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert "Traceback" not in err + out


def test_odds_json_is_reduced_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "odds", "2d6", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["expression"] == "2d6"
    assert data["outcomes"]["7"] == "1/6" and data["outcomes"]["2"] == "1/36"
    assert data["outcomes"]["12"] == "1/36" and data["outcomes"]["8"] == "5/36"
    assert list(data["outcomes"]) == [str(v) for v in range(2, 13)]
    assert data["mean"] == "7/1"


def test_odds_json_uses_the_canonical_expression(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_run(capsys, "odds", "1d6 - 1D6", "--json")[1])
    assert data["expression"] == "d6-d6" and data["outcomes"]["0"] == "1/6"


def test_odds_table_has_tails_and_bars(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "odds", "3d12med")
    assert code == 0
    for header in ("value", "exact", "at least", "at most"):
        assert header in out
    assert "█" in out and "34/1728" not in out and "17/864" in out


def test_wide_odds_tables_group_outcomes_into_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    # one row per outcome printed 19,981 rows (9 s) for 20d1000
    code, out, _ = _run(capsys, "odds", "20d1000")
    rows = [line for line in out.splitlines() if "█" in line]
    assert code == 0 and len(rows) <= 60
    assert "19,981 outcomes in ranges of" in out
    assert rows[0].split("│")[1].strip().startswith("20..")
    assert rows[-1].split("│")[1].strip().endswith("..20000")
    assert rows[-1].split("│")[5].strip() == "100.00"  # at most: the last range closes at 1


def test_help_exists_for_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    for cmd in ("roll", "odds", "games", "options", "validate", "demo"):
        code, out, _ = _run(capsys, cmd, "--help")
        assert code == 0 and "Usage" in out


def test_a_games_command_list_uses_the_width_there_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A game's command list gives each command's first sentence without its citations
    in parentheses (a word's own parentheses stay: ``P(success)``), whole when it fits,
    cut at a word with "..." when it does not (before, every line stopped at 45 letters)."""
    lines = {}
    for game in ("arm", "mneme"):
        code, out, _ = _run(capsys, game, "--help")
        assert code == 0
        lines |= {
            ln.split()[0]: " ".join(ln.split()[1:])
            for ln in out.split("Commands:")[1].splitlines()
            if ln.strip()
        }
    assert lines["odds"] == "Exact odds of a check: the chance of success and every..."
    assert lines["check"] == "Resolve a check: 2d6 + modifier vs Difficulty."  # mneme's
    assert lines["actions"] == "Every action of this game with its fields."
    code, out, _ = _run(capsys, "arm", "--help")
    assert "Exact odds of a check: P(success) and every result." in out


def test_demo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "demo")
    assert code == 0, err
    assert "2d6" in out
    # then each game's tour, under the game's name, in the words its log uses
    assert "Mickey Ruane's injury check" in out  # Mnemonic
    assert "Ada Vance takes damage" in out  # Mneme CE
    assert all(f" {name} " in out for name in ("mnemonic", "mongrel", "mneme", "arm"))


def test_validate_reports_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.systems.base import names

    if not names():
        pytest.skip("no game installed yet")
    code, _, err = _run(capsys, "validate", names()[0], "/nonexistent/sheet.json")
    assert code == 1 and "no such file" in err


def _shipped_sheets() -> list[tuple[str, str]]:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "src" / "referee" / "systems"
    return [(p.parents[2].name, str(p)) for p in sorted(root.glob("*/data/examples/*.json"))]


@pytest.mark.parametrize(("game", "path"), _shipped_sheets())
def test_every_shipped_sheet_loads_through_the_generic_validate(
    capsys: pytest.CaptureFixture[str], game: str, path: str
) -> None:
    code, out, err = _run(capsys, "validate", game, path, "--json")
    data = json.loads(out)
    assert code == (0 if data["valid"] else 1), err
    assert data["valid"] == (not data["problems"])
    assert all(p["rule"] and p["field"] and p["message"] for p in data["problems"])


def test_write_json_file_reports_an_unwritable_path(tmp_path: object) -> None:
    from pathlib import Path

    from referee.cli.common import load_json_file, write_json_file
    from referee.errors import RulesError

    target = Path(str(tmp_path)) / "sheet.json"
    write_json_file(str(target), {"name": "Ahvia", "size": 2})
    assert load_json_file(str(target)) == {"name": "Ahvia", "size": 2}
    with pytest.raises(RulesError, match="cannot write"):
        write_json_file(str(Path(str(tmp_path)) / "missing" / "x.json"), {})


GAMES = ("mnemonic", "mongrel", "mneme", "arm")


def _imported(*argv: str) -> tuple[str, set[str]]:
    """Run ``referee ARGV`` in a fresh interpreter, as the console script does: its
    output, and every module in ``sys.modules`` once the command is done."""
    code = (
        "import sys\nfrom referee.cli.main import run\n"
        f"code = run({list(argv)!r})\n"
        "print(' '.join(sys.modules), file=sys.stderr)\nsys.exit(code)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout, set(done.stderr.split())


def _under(modules: set[str], *packages: str) -> set[str]:
    return {m for m in modules for p in packages if m == p or m.startswith(p + ".")}


def test_referee_odds_starts_without_games_rich_or_pydantic() -> None:
    """Issue 9: a one-off ``referee odds`` loads click and the dice, nothing more."""
    out, modules = _imported("odds", "2d6", "--json")
    assert json.loads(out)["outcomes"]["7"] == "1/6"
    assert "click" in modules and "referee.dice.evaluate" in modules
    heavy = ("typer", "pydantic", "rich", "fastapi", "uvicorn", "numpy", "matplotlib", "dask")
    games = [f"referee.{kind}.{g}" for kind in ("systems", "cli") for g in GAMES]
    not_needed = ("referee.systems.base", "referee.table", "referee.web", "fractions")
    assert _under(modules, *heavy, *games, *not_needed) == set()


def test_a_game_command_loads_that_game_only() -> None:
    out, modules = _imported("mneme", "odds", "--modifier", "2", "--difficulty", "8", "--json")
    assert json.loads(out)["p_success"] == "13/18"
    assert "referee.systems.mneme" in modules and "referee.cli.mneme" in modules
    others = [f"referee.{kind}.{g}" for kind in ("systems", "cli") for g in GAMES if g != "mneme"]
    heavy = ("typer", "pydantic", "rich", "fastapi", "uvicorn", "numpy")
    assert _under(modules, *others, *heavy) == set()


def test_text_output_draws_its_own_table() -> None:
    """The text form prints a boxed table without a terminal-rendering library."""
    out, modules = _imported("mneme", "odds", "--modifier", "2", "--difficulty", "8")
    assert out.splitlines()[0] == "chance of success: 13/18 (72.22%)"
    assert "│      6 │  1/36 │  2.78 │" in out
    assert _under(modules, "rich", "pydantic") == set()


def test_a_table_falls_back_to_ascii_where_box_characters_cannot_print() -> None:
    import io

    from referee.cli.text import Console, boxed

    table = {"title": "odds", "title_justify": "left", "columns": ["total", "meaning"]}
    table |= {"justify": ["right", "left"], "rows": [[12, "boxcars"], ["2"]]}
    buffer = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    Console(file=buffer).print(table)
    buffer.seek(0)
    assert buffer.read().splitlines() == [
        "odds",
        "+-------+---------+",
        "| total | meaning |",
        "+=======+=========+",
        "|    12 | boxcars |",
        "|     2 |         |",
        "+-------+---------+",
    ]
    with pytest.raises(ValueError, match="3 cells for 2 columns"):
        boxed(table | {"rows": [["1", "2", "3"]]})


def test_the_top_help_lists_every_group_without_importing_it() -> None:
    """Issue 23: ``referee --help`` names each group from cli.main.GROUPS, loading none of
    them; each group, once loaded, says the same."""
    from referee.cli.main import GROUPS, load_group
    from referee.systems import SYSTEMS

    out, modules = _imported("--help")
    assert all(name in out for name in GROUPS) and set(SYSTEMS) <= set(GROUPS)
    loaded = ("referee.systems.base", "referee.table", "referee.web", "referee.analysis")
    assert _under(modules, *loaded, *(f"referee.cli.{g}" for g in GROUPS)) == set()
    for name, help in GROUPS.items():
        group = load_group(name)
        assert group is not None and (group.help or "").split("\n")[0].strip() == help, name


GROUP_NAMES = ["mnemonic", "mongrel", "mneme", "arm", "table", "serve", "analyze"]


def _console(argv: list[str], columns: int) -> tuple[str, set[str]]:
    """``referee ARGV`` as the console script runs it (referee.cli.dice:main), with
    ``COLUMNS``: its output and the modules it imported."""
    code = (
        "import sys\nfrom referee.cli.dice import main\nsys.argv = ['referee', *sys.argv[1:]]\n"
        "try:\n    main()\nfinally:\n    print(' '.join(sys.modules), file=sys.stderr)"
    )
    env = {**os.environ, "COLUMNS": str(columns)}
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout, set(done.stderr.split())


def test_the_stored_help_screens_are_the_commands_own() -> None:
    """Issues 37/38: cli/helps.json holds what click prints for every help screen with the
    groups loaded, and each group's listing (run ``python -m referee.cli.helps`` after
    changing a command's help)."""
    from referee.cli.helps import derive, printed
    from referee.cli.main import load_group
    from referee.cli.screens import read

    stored = read()
    assert set(stored["screens"]) == {"", *GROUP_NAMES}, "helps.json is stale"
    for key, screen in stored["screens"].items():
        assert screen == printed([*key.split(), "--help"]), f"helps.json is stale: {key!r}"
        assert screen.startswith("Usage: referee") and "-h, --help" in screen
    for name in GROUP_NAMES:
        group = load_group(name)
        if isinstance(group, click.Group):
            assert stored["groups"][name] == json.loads(json.dumps(derive(group))), name


@pytest.mark.parametrize("name", ["", *GROUP_NAMES])
def test_a_help_screen_prints_at_once_without_click(name: str) -> None:
    """Issue 38 target 4: at the usual width, ``referee [GROUP] --help`` and ``-h`` print
    the stored screen without importing click, the games, the table or the web."""
    from referee.cli.screens import read

    argv = [*name.split(), "--help"]
    out, modules = _console(argv, 100)
    assert out == read()["screens"][name]
    assert _console([*name.split(), "-h"], 80)[0] == out
    heavy = ("click", "referee.systems.base", "referee.table", "referee.web", "referee.cli.main")
    assert _under(modules, *heavy) == set()


@pytest.mark.parametrize("name", ["mnemonic", "mneme", "table", "analyze"])
def test_a_group_help_at_another_width_lists_from_the_file(name: str) -> None:
    """On a narrow terminal a group's screen is built by click from the stored listing,
    without importing the group, and is what the loaded group prints at that width."""
    out, modules = _console([name, "--help"], 60)
    assert out != _console([name, "--help"], 100)[0]  # narrower: not the stored screen
    heavy = ("referee.systems.base", "referee.table", "referee.web", "referee.analysis")
    assert _under(modules, *heavy, f"referee.cli.{name}", "referee.cli.presets") == set()
    assert "Commands:" in out and all(len(line) <= 58 for line in out.splitlines())
    code = (
        "import sys\nfrom referee.cli.main import app, load_group, run\n"
        f"app.add_command(load_group({name!r}), {name!r})\nsys.exit(run([{name!r}, '--help']))"
    )
    env = {**os.environ, "COLUMNS": "60"}
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert loaded.returncode == 0 and loaded.stdout == out


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "2d6"],
        ["odds", "3d6!", "--depth", "2", "--json"],
        ["odds", "--json", "4d6kh3"],
        ["odds", "--depth=0", "2d6!"],
        ["roll", "3d6", "--seed", "7"],
        ["roll", "2d6", "--faces", "6,1", "--json"],
        ["roll", "4d6kh3", "--seed=3", "--json"],
        ["odds", "2d7x"],
        ["roll", "2d6", "--faces", "6,1,1"],
    ],
)
def test_the_console_scripts_quick_path_answers_as_click_does(argv: list[str]) -> None:
    """Issue 23: ``referee odds|roll`` read without click print the same bytes and exit
    with the same status as through click."""
    from referee.cli.dice import plain

    assert plain(argv) is not None
    quick = "import sys; from referee.cli.dice import main; sys.argv[1:] = {!r}; main()"
    slow = "import sys; from referee.cli.main import main; sys.argv[1:] = {!r}; main()"
    a, b = (
        subprocess.run([sys.executable, "-c", code.format(argv)], capture_output=True, text=True)
        for code in (quick, slow)
    )
    assert (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr)


@pytest.mark.parametrize(
    "argv",
    [
        ["odds"],
        ["odds", "--help"],
        ["odds", "2d6", "3d6"],
        ["odds", "2d6", "--depth"],
        ["odds", "2d6", "--depth", "x"],
        ["odds", "2d6", "--depth", "101"],
        ["odds", "2d6", "--seed", "1"],
        ["odds", "2d6", "--depth", "1", "--depth", "2"],
        ["roll", "-1"],
        ["games"],
        [],
    ],
)
def test_anything_but_the_plain_forms_goes_to_click(argv: list[str]) -> None:
    from referee.cli.dice import plain

    assert plain(argv) is None


@pytest.mark.parametrize("game", ["arm", "mneme", "mnemonic", "mongrel"])
def test_every_game_prints_its_example_characters_and_seats_them_by_name(
    capsys: pytest.CaptureFixture[str], game: str
) -> None:
    """``referee GAME example NAME`` prints the stored sheet; ``--seat ID=NAME`` seats it
    when no file has that name; a name that is neither says the file is missing."""
    from referee.systems.base import get

    ruleset = get(game)
    name = next(iter(ruleset.examples()))
    code, out, _ = _run(capsys, game, "example", name.upper())
    assert code == 0 and json.loads(out) == ruleset.example_data(name)
    code, out, err = _run(capsys, game, "example", "nobody")
    assert code == 1 and "unknown example character 'nobody'; known: " in err and name in err
    from referee.cli.common import load_state

    seated = load_state(ruleset, None, ruleset.options_type(), [f"x={name}"])
    assert seated.characters["x"].sheet == ruleset.example(name)
    with pytest.raises(Exception, match=r"no such file: missing\.json"):
        load_state(ruleset, None, ruleset.options_type(), ["x=missing.json"])


def test_a_games_validate_takes_an_example_and_says_what_the_game_says_of_a_legal_sheet(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The game group's generic ``validate``: Mneme CE's example Ada is legal with 24 HP
    (her sheet's) and no damage; a sheet breaking a rule lists it and exits 1."""
    code, out, _ = _run(capsys, "mneme", "validate", "ada")
    assert code == 0 and out.strip() == "ada: valid; HP 24, damage 0 (Unhurt)"
    from referee.systems.base import get

    data = get("mneme").example_data("ada")
    data["weapons"][0]["damage"] = "three dice"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    code, out, _ = _run(capsys, "mneme", "validate", str(bad), "--json")
    found = json.loads(out)
    assert code == 1 and found["valid"] is False and found["problems"]
