"""``referee analyze``: every command end to end, one-line errors, and the heavy
libraries loaded only by the commands that need them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli.main import run


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_compare_writes_table_csv_json_and_charts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    png, svg, csv_path = tmp_path / "c.png", tmp_path / "c.svg", tmp_path / "c.csv"
    code, out, _ = _run(
        capsys, "analyze", "compare", "mongrel", "-p", "tn=4", "-p", "dice=1,2",
        "--png", str(png), "--svg", str(svg), "--csv", str(csv_path),
    )  # fmt: skip
    assert code == 0 and "1d6 under" in out and "success" in out
    assert png.read_bytes().startswith(b"\x89PNG") and b"<svg" in svg.read_bytes()
    assert csv_path.read_text().startswith("variant,Effect,exact")
    code, out, _ = _run(capsys, "analyze", "compare", "arm", "--json")
    assert json.loads(out)["p_success"]["push never"]["exact"] == "7/12"


def test_curve_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "analyze", "curve", "mnemonic", "-p", "randomizers=d12")
    assert code == 0 and "aptitude" in out
    code, out, _ = _run(capsys, "analyze", "curve", "mnemonic", "--json")
    assert json.loads(out)["xs"] == list(range(13))


def test_conflict_exact_and_simulated(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "analyze", "conflict", "mnemonic", "--json")
    exact = json.loads(out)
    assert code == 0 and exact["method"] == "exact"
    p = exact["p"]["a"]["value"]
    code, out, _ = _run(
        capsys, "analyze", "conflict", "mnemonic", "--simulate", "--runs", "20000", "--json"
    )
    sim = json.loads(out)
    assert sim["p"]["a"]["low"] <= p <= sim["p"]["a"]["high"]
    code, out, _ = _run(capsys, "analyze", "conflict", "mnemonic", "--policy", "bo=dodge")
    assert code == 0 and "mick wins" in out and "bo: dodge" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["conflict", "mongrel", "--a", "nobody"], "unknown character 'nobody'"),
        (["conflict", "mongrel", "--policy", "vooruk=flee"], "unknown policy 'flee'"),
        (["conflict", "mongrel", "--max-states", "30"], "simulate instead"),
        (["conflict", "mongrel", "--simulate", "--precision", "1e-7"], "may need"),
        (["conflict", "chess"], "unknown game 'chess'"),
        (["compare", "mnemonic", "-p", "randomizers=d20"], "unknown randomizer"),
        (["sweep", "mnemonic"], "at least one axis"),
        (["sweep", "mnemonic", "--grid", "policy.mick=run"], "unknown policy 'run'"),
        (["sweep", "mnemonic", "--grid", "policy.bo="], "--grid 'policy.bo=': write AXIS=V1,V2"),
        (["conflict", "mongrel", "--override", "vooruk=3"], "write ID.PATH=VALUE"),
        (["conflict", "mongrel", "--seat", "vooruk"], "--seat 'vooruk': write NAME=VALUE"),
        (["conflict", "mongrel", "--options", "/nonexistent.json"], "no such file"),
        # the default Life Role is Mick's: seating others leaves it without its character
        (
            ["conflict", "mnemonic", "--seat", "x=example:boxer", "--seat", "y=example:boxer"],
            "a Life Role for 'mick', who is not in the conflict",
        ),
    ],
)
def test_bad_input_is_one_line_before_any_work(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _out, err = _run(capsys, "analyze", *argv)
    assert code != 0 and message in err and err.count("\n") == 1


def test_sweep_on_a_local_cluster(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    args = ["analyze", "sweep", "mnemonic", "--grid", "policy.bo=attack,dodge", "--runs", "500"]
    code, out, _ = _run(capsys, *args, "--json", "--csv", str(path))
    data = json.loads(out)
    assert code == 0 and len(data["cells"]) == 2
    assert path.read_text().splitlines()[0].startswith("policy.bo,method,p_a")
    code, again, _ = _run(capsys, *args, "--workers", "0", "--json")
    assert json.loads(again) == data


def _modules(code: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys; print(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(done.stdout.split())


def test_odds_and_import_referee_never_load_the_heavy_libraries() -> None:
    heavy = {"numpy", "matplotlib", "dask", "distributed"}
    assert not heavy & _modules("import referee")
    assert not heavy & _modules("from referee.cli.main import run\nrun(['odds', '2d6', '--json'])")
    assert not heavy & _modules(
        "from referee.cli.main import run\nrun(['analyze', 'compare', 'arm', '--json'])"
    )


@pytest.mark.slow
def test_page_data_for_the_web_is_json_with_svg() -> None:
    from referee.analysis.page import page_data
    from referee.systems.base import get

    data = page_data("mnemonic")
    assert data["errors"] == {}
    assert data["compare"]["svg"].lstrip().startswith("<?xml")
    assert data["conflict"]["method"] == "exact" and "<svg" in data["conflict"]["svg"]
    json.dumps(data)
    rs = get("arm")  # a table's own state and options, a chain over the bound: simulated
    opts = rs.options_type()
    state = rs.initial_state(opts)
    for cid in ("alex", "brad"):
        state = rs.seat(state, cid, rs.examples()[cid], opts)
    page = page_data("arm", state, opts, max_states=50, runs=500)
    assert page["conflict"]["method"] == "simulated" and page["conflict"]["runs"] == 500
    lonely = rs.seat(rs.initial_state(opts), "alex", rs.examples()["alex"], opts)
    assert "at least one character" in page_data("arm", lonely, opts)["errors"]["conflict"]


def test_the_group_lists_its_four_commands_only(capsys: pytest.CaptureFixture[str]) -> None:
    """``analyze`` is not a game: no ``act``, ``actions`` or ``odds-of`` of a game by that name."""
    code, out, _ = _run(capsys, "analyze", "--help")
    names = [line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()]
    assert code == 0 and names == ["compare", "conflict", "curve", "sweep"]


@pytest.mark.slow
def test_an_override_sets_one_house_rule_as_an_options_file_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--override option.NAME=VALUE`` sets one house rule over the default table's, as
    an ``--options`` file holding that one does (a file's rules go over the default
    table's, which keeps its referee rolling the raider's attacks): the same exact chain,
    not the default's (Mneme CE: a wound penalty every six points of damage, not three)."""
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"wound_penalty_step": 6}))
    base = ("analyze", "conflict", "mneme", "--json")
    answers = [
        _run(capsys, *base, *more)
        for more in ((), ("--options", str(rules)), ("--override", "option.wound_penalty_step=6"))
    ]
    assert [code for code, _, _ in answers] == [0, 0, 0]
    default, by_file, by_override = (json.loads(out) for _, out, _ in answers)
    assert by_override == by_file
    assert by_override["p"] != default["p"]
