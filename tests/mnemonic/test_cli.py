"""``referee mnemonic ...`` commands and their JSON contracts."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from referee.cli.main import run

DATA = Path(__file__).resolve().parents[2] / "src/referee/systems/mnemonic/data/examples"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(["mnemonic", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "odds", "--aptitude", "7", "--chances", "Fair", "--randomizer", "d12", "--json"
    )
    data = json.loads(out)
    assert code == 0 and list(data) == ["p_success", "successes", "failures"]
    assert data["p_success"] == "5/6"
    assert data["successes"]["10"] == "1/12" and data["failures"] == {"1": "1/12", "2": "1/12"}


@pytest.mark.parametrize("randomizer", ["d12", "3d12", "cards", "3cards", "verbal", "verbal-ab"])
def test_odds_every_randomizer_sums_to_one(
    capsys: pytest.CaptureFixture[str], randomizer: str
) -> None:
    from fractions import Fraction

    code, out, _ = _run(
        capsys, "odds", "--aptitude", "6", "--chances", "-2", "--randomizer", randomizer, "--json"
    )
    data = json.loads(out)
    parts = [Fraction(p) for p in [*data["successes"].values(), *data["failures"].values()]]
    assert code == 0 and sum(parts) == 1
    assert sum(Fraction(p) for p in data["successes"].values()) == Fraction(data["p_success"])


def test_check_json_with_faces(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys,
        "check",
        "--aptitude",
        "7",
        "--chances",
        "Good",
        "--randomizer",
        "3d12",
        "--faces",
        "2,12,9",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["success"] is True and data["value"] == 9
    assert data["successes"] == 5 and data["failures"] == 0 and data["manual"] is True


def test_check_cards_by_value_and_deck_state(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "check", "-a", "6", "-r", "3cards", "--faces", "1,11,12", "--drawn", "12", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["cards"] == [1, 11, 12] and data["value"] == 11
    assert data["deck_left"] == 44 and data["deck"].count(12) == 2


def test_check_verbal_numbers_live(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(
        _run(
            capsys,
            "check",
            "-a",
            "6",
            "-r",
            "verbal-ab",
            "--player",
            "4A",
            "--referee",
            "5b",
            "--json",
        )[1]
    )
    assert data["value"] == 4 and data["manual"] is True
    data = json.loads(
        _run(
            capsys, "check", "-a", "6", "-r", "verbal", "--player", "8", "--referee", "9", "--json"
        )[1]
    )
    assert data["value"] == 5


def test_check_seeded_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    a = _run(capsys, "check", "-a", "6", "-r", "cards", "--seed", "4", "--json")[1]
    b = _run(capsys, "check", "-a", "6", "-r", "cards", "--seed", "4", "--json")[1]
    assert a == b and json.loads(a)["manual"] is False


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "check", "-a", "7", "-c", "Fair", "--faces", "9", "--degree")
    assert (
        code == 0
        and "A check: 2 Successes (Fair)" in out
        and "randomizer 9 against Aptitude 7" in out
    )
    code, out, _ = _run(capsys, "odds", "-a", "7", "-c", "Fair")
    assert code == 0 and "chance of success: 5/6" in out and "failures" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["check", "-a", "6", "-r", "cards", "--faces", "7", "--drawn", "7,7,7,7"],
            "card 1 (7) is not in the deck",
        ),
        (["check", "-a", "6", "-r", "cards", "--faces", "13"], "impossible"),
        (["check", "-a", "6", "-r", "3d12", "--faces", "1,2"], "needs 3 faces"),
        (["check", "-a", "6", "-r", "verbal-ab", "--player", "7A", "--referee", "1B"], "1..6"),
        (["check", "-a", "6", "-r", "verbal", "--player", "3"], "--player goes with --referee"),
        (["check", "-a", "13"], "Aptitude must be 0..12"),
        (["odds", "-a", "6", "-c", "Dreadful"], "neither a number nor a rating"),
        (["odds", "-a", "6", "-r", "d20"], "unknown randomizer"),
        (["odds", "-a", "6", "-r", "cards", "--drawn", "5,5,5,5,5"], "not in the deck"),
        (["injury", "-a", "6", "--worst", "maimed"], "worst outcome"),
        (["order", "ann"], "NAME:APTITUDE"),
        (["validate", "/nonexistent.json"], "no such file"),
    ],
)
def test_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _run(capsys, *argv)
    assert code != 0 and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out


def test_attack_injury_order(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(
        _run(capsys, "attack", "-a", "7", "-c", "Fair", "--dodge", "1", "--faces", "9", "--json")[1]
    )
    assert data["total"] == -2 and data["hit"] is False
    data = json.loads(
        _run(
            capsys,
            "attack",
            "-a",
            "8",
            "-c",
            "Fair",
            "--opposed",
            "--defender-aptitude",
            "6",
            "--faces",
            "3,4",
            "--json",
        )[1]
    )
    assert data["total"] == 5 and data["hit"] is True
    data = json.loads(_run(capsys, "attack", "-a", "7", "--odds", "--json")[1])
    assert data["p_success"] == "7/12"
    data = json.loads(
        _run(
            capsys,
            "injury",
            "-a",
            "8",
            "-c",
            "Good",
            "--worst",
            "dead",
            "--injuries",
            "2",
            "--faces",
            "3",
            "--json",
        )[1]
    )
    assert data["total"] == 5 and data["status"] == "Hurt"
    data = json.loads(_run(capsys, "order", "Ann:6", "Bo:8:Poor", "--faces", "3,2", "--json")[1])
    assert data["order"] == [["Ann", "Bo"]]


def test_validate(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "validate", str(DATA / "boxer.json"))
    assert code == 0 and "valid" in out
    code, out, _ = _run(
        capsys, "validate", str(DATA / "boxer.json"), "--creation", "trade", "--json"
    )
    data = json.loads(out)
    assert code == 1 and data["valid"] is False and data["problems"][0]["field"] == "talents"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "", "primary_role": "x", "talents": {"Agile": 9}}))
    code, out, _ = _run(capsys, "validate", str(bad), "--json")
    fields = [p["field"] for p in json.loads(out)["problems"]]
    assert (
        code == 1 and "name" in fields and "talents.Agile" in fields and "talents.Tough" in fields
    )
    code, _, err = _run(capsys, "validate", str(bad), "--creation", "nope")
    assert code != 0 and "--creation 'nope': " in err and "creation must be one of" in err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["validate", "boxer", "--start", "9"], "--starting-level 9: "),
        (["check", "-a", "6", "-c", "3", "--randomizer", "d7"], "--randomizer 'd7': "),
    ],
)
def test_a_refused_house_rule_is_named_by_its_flag(
    capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    code, out, err = _run(capsys, *argv)
    assert (code, out) == (1, "") and err.startswith("error: " + named)


def test_demo_runs() -> None:
    from referee.cli.tour import tour

    text = "\n".join(tour("mnemonic"))
    assert "chance 5/6" in text and "Mickey Ruane's injury check" in text


def test_too_many_faces(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "check", "-a", "6", "--faces", "3,4")
    assert code != 0 and "1 face(s) more than this roll needs" in err
    code, _, err = _run(capsys, "order", "Ann:6", "Bo:6", "--faces", "3")
    assert code != 0 and "needs 1 faces" in err


def test_check_from_a_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    boxer = str(DATA / "boxer.json")
    argv = ["check", "--sheet", boxer, "--talent", "Tough", "--role", "Professional Boxer"]
    data = json.loads(_run(capsys, *argv, "-c", "Fair", "--faces", "4", "--json")[1])
    assert data["total"] == 5 + 5 - 4 + 3
    kinds = [m["kind"] for m in data["outcome"]["modifiers"]]
    assert kinds[:2] == ["talent", "life role"]
    fallback = ["check", "--sheet", boxer, "--talent", "Smart", "--fallback", "irrelevant"]
    data = json.loads(_run(capsys, *fallback, "--faces", "4", "--json")[1])
    assert data["total"] == 3 + 0 - 4
    code, _, err = _run(capsys, "check", "--sheet", boxer, "--talent", "Smart", "--role", "Pilot")
    assert code != 0 and "no Life Role 'Pilot'" in err
    code, _, err = _run(capsys, "check", "--chances", "Good")
    assert code != 0 and "give --aptitude" in err


def test_sheet_shows_level_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "sheet", str(DATA / "frigate.json"), "--json")
    data = json.loads(out)
    assert code == 0 and data["talents"]["Fast"] == "Very (+5)"
    assert data["life_roles"]["Boarders"] == "Somewhat (+2)" and data["status"] == "Fine"


@pytest.mark.parametrize(
    ("randomizer", "p_success", "successes", "failures"),
    [
        # Aptitude 7, Chances 0: success when the value is 7 or less
        ("d12", "7/12", {"1": "1/12", "7": "1/12"}, {"5": "1/12"}),
        ("verbal", "7/12", {"1": "1/12", "7": "1/12"}, {"5": "1/12"}),
        ("cards", "7/12", {"1": "1/12", "7": "1/12"}, {"5": "1/12"}),  # 4 of 48 each
        # median of three d12 <= 7: 3 p^2 (1 - p) + p^3 with p = 7/12 = 1078/1728;
        # a median of 12 (or of 1) needs two or three of them: (3 * 11 + 1) / 1728
        ("3d12", "539/864", {"7": "17/864"}, {"5": "17/864"}),
        # A/B: value v weighs 2 (2d6 ways of v + 2d6 ways of 13 - v) of 144;
        # v <= 7 weighs 2 + 6 + 10 + 14 + 18 + 22 + 22 = 94
        ("verbal-ab", "47/72", {"1": "11/72", "7": "1/72"}, {"5": "1/72"}),
    ],
)
def test_odds_json_by_hand(
    capsys: pytest.CaptureFixture[str],
    randomizer: str,
    p_success: str,
    successes: dict[str, str],
    failures: dict[str, str],
) -> None:
    code, out, _ = _run(
        capsys, "odds", "--aptitude", "7", "--chances", "0", "--randomizer", randomizer, "--json"
    )
    data = json.loads(out)
    assert code == 0 and list(data) == ["p_success", "successes", "failures"]
    assert data["p_success"] == p_success
    assert list(data["successes"]) == [str(n) for n in range(1, 8)]
    assert list(data["failures"]) == [str(n) for n in range(1, 6)]
    for n, p in successes.items():
        assert data["successes"][n] == p
    for n, p in failures.items():
        assert data["failures"][n] == p


def test_three_card_odds_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    # fresh deck, median <= 6: symmetric about 6.5, so 1/2; the median is a
    # Queen only with two or three Queens among the three: (C(4,2) 44 + C(4,3)) / C(48,3)
    data = json.loads(_run(capsys, "odds", "-a", "6", "-r", "3cards", "--json")[1])
    assert data["p_success"] == "1/2"
    assert data["failures"]["6"] == "67/4324"  # (6 * 44 + 4) / 17296 = 268 / 17296


def test_odds_of_the_next_draw_from_the_deck_as_it_stands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # three Aces and two 2s gone: 43 cards left, one Ace and two 2s among them
    data = json.loads(
        _run(capsys, "odds", "-a", "2", "-r", "cards", "--drawn", "1,1,1,2,2", "--json")[1]
    )
    assert data["p_success"] == "3/43"
    assert data["successes"] == {"1": "2/43", "2": "1/43"}


def test_card_checks_chain_through_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    """A check's JSON says which cards are out, to pass on as --drawn to the next one."""
    first = json.loads(
        _run(capsys, "check", "-a", "6", "-r", "cards", "--faces", "12", "--json")[1]
    )
    assert first["drawn"] == [12] and first["deck_left"] == 47
    drawn = ",".join(str(c) for c in first["drawn"])
    second = json.loads(
        _run(
            capsys,
            "check",
            "-a",
            "6",
            "-r",
            "3cards",
            "--drawn",
            drawn,
            "--faces",
            "12,12,12",
            "--json",
        )[1]
    )
    assert second["drawn"] == [12, 12, 12, 12] and second["deck_left"] == 44
    code, _, err = _run(
        capsys, "check", "-a", "6", "-r", "cards", "--drawn", "12,12,12,12", "--faces", "12"
    )
    assert code != 0 and "card 1 (Queen) is not in the deck" in err
    odds = json.loads(
        _run(capsys, "odds", "-a", "1", "-r", "cards", "--drawn", "1,1,1", "--json")[1]
    )
    assert odds["p_success"] == "1/45"  # one Ace among 45 cards


def test_injury_odds(capsys: pytest.CaptureFixture[str]) -> None:
    # 8 + Good 6 - two earlier injuries 2 x 3 = 8: stays active on 1..8 of a d12
    data = json.loads(
        _run(
            capsys,
            "injury",
            "-a",
            "8",
            "-c",
            "Good",
            "--worst",
            "dead",
            "--injuries",
            "2",
            "--odds",
            "--json",
        )[1]
    )
    assert data == {"status": {"Hurt": "2/3", "inactive (dead)": "1/3"}}
    # the deck holds one Queen: 8 - 12 fails for sure
    drawn = ",".join(["1,2,3,4,5,6,7,8,9,10,11"] * 4 + ["12,12,12"])
    data = json.loads(
        _run(
            capsys,
            "injury",
            "-a",
            "8",
            "--worst",
            "unconscious",
            "-r",
            "cards",
            "--drawn",
            drawn,
            "--odds",
            "--json",
        )[1]
    )
    assert data == {"status": {"inactive (unconscious)": "1/1"}}


def test_order_cards_by_value_odds_and_rank_failures(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(
        _run(capsys, "order", "Ann:6", "Bo:6", "-r", "cards", "--faces", "12,1", "--json")[1]
    )
    assert [c["cards"] for c in data["checks"]] == [[12], [1]]
    assert data["order"] == [["Bo"], ["Ann"]] and data["checks"][1]["deck_left"] == 46
    # both fail (7+ on each d12: 36 of 144) or equal Successes (6 of 144): 42/144
    odds = json.loads(_run(capsys, "order", "Ann:6", "Bo:6", "--odds", "--json")[1])
    assert odds["first"] == {"Ann": "17/48", "Bo": "17/48", "simultaneous": "7/24"}
    assert odds["order"] == {"Ann & Bo": "7/24", "Ann then Bo": "17/48", "Bo then Ann": "17/48"}
    three = json.loads(_run(capsys, "order", "A:6", "B:6", "C:6", "--odds", "--json")[1])
    assert "first" not in three and sum(Fraction(p) for p in three["order"].values()) == 1
    # all three act together: all fail (6^3) or all score alike (6) of 12^3
    assert three["order"]["A & B & C"] == str(Fraction(6**3 + 6, 12**3))
    tied = json.loads(_run(capsys, "order", "Ann:6", "Bo:6", "--faces", "12,8", "--json")[1])
    assert tied["order"] == [["Ann", "Bo"]]
    ranked = json.loads(
        _run(capsys, "order", "Ann:6", "Bo:6", "--faces", "12,8", "--rank-failures", "--json")[1]
    )
    assert ranked["order"] == [["Bo"], ["Ann"]]
    code, _, err = _run(capsys, "order", "Ann:6", "Bo:6", "-r", "3cards", "--faces", "1,2")
    assert code != 0 and "2 checks draw 6 card(s)" in err


def test_table_options_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A referee's own Talent list, level names and randomizer reach every command."""
    talents = ["Agile", "Dangerous", "Sane", "Smart", "Tough"]
    opts = tmp_path / "table.json"
    opts.write_text(
        json.dumps(
            {
                "talents": talents,
                "rating_names": ["None", "Weak", "Poor", "Average", "Good", "Great", "Legendary"],
                "randomizer": "3d12",
                "degree_labels": True,
            }
        )
    )
    who = tmp_path / "ivy.json"
    who.write_text(
        json.dumps(
            {
                "schema": 1,
                "name": "Ivy",
                "primary_role": "human",
                "talents": dict.fromkeys(talents, 3) | {"Sane": 6},
            }
        )
    )
    code, out, _ = _run(capsys, "validate", str(who), "--options", str(opts))
    assert code == 0 and "valid" in out
    code, out, _ = _run(capsys, "validate", str(who))  # the default list wants other Talents
    assert code == 1 and "talents.Sane" in out and "talents.Handy" in out
    code, out, _ = _run(capsys, "validate", str(who), "--options", str(opts), "--creation", "trade")
    assert code == 1 and "3 raise(s)" in out
    data = json.loads(_run(capsys, "sheet", str(who), "--options", str(opts), "--json")[1])
    assert data["talents"]["Sane"] == "Legendary (+6)"
    data = json.loads(
        _run(
            capsys,
            "check",
            "--sheet",
            str(who),
            "--talent",
            "Sane",
            "--options",
            str(opts),
            "--faces",
            "2,9,4",
            "--json",
        )[1]
    )
    # 3d12 from the table's options: median 4; Sane 6 + Primary at Moderately 3 - 4 = 5
    assert data["randomizer"] == "3d12" and data["total"] == 5 and data["degree"] == "Great"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"randomizer": "d20"}))
    code, _, err = _run(capsys, "validate", str(who), "--options", str(bad))
    assert code != 0 and "randomizer must be one of" in err and err.count("\n") == 1


# ---------------------------------------------------------------------------
# issue 10: the table's options, the victim's Status, the deck carried as a file


def test_every_command_takes_the_tables_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """ "It's recommended that everyone playing use the same randomizer": every command
    reads it from the table's options file (a -r flag still overrides it)."""
    opts = tmp_path / "table.json"
    opts.write_text(json.dumps({"randomizer": "3d12", "degree_labels": True}))
    table = ["--options", str(opts), "--json"]
    # median of three d12 <= 7 (see test_odds_json_by_hand): 539/864, not a d12's 7/12
    odds = json.loads(_run(capsys, "odds", "-a", "7", *table)[1])
    assert odds["p_success"] == "539/864"
    assert json.loads(_run(capsys, "attack", "-a", "7", "--odds", *table)[1]) == odds
    check = json.loads(_run(capsys, "check", "-a", "7", "--faces", "2,12,9", *table)[1])
    assert check["randomizer"] == "3d12" and check["value"] == 9 and check["degree"] == "Poor"
    hit = json.loads(_run(capsys, "attack", "-a", "7", "--faces", "1,5,9", *table)[1])
    assert hit["randomizer"] == "3d12" and hit["value"] == 5 and hit["hit"] is True
    hurt = json.loads(
        _run(capsys, "injury", "-a", "8", "--worst", "dead", "--faces", "9,10,11", *table)[1]
    )
    assert hurt["value"] == 10 and hurt["status"] == "inactive (dead)"
    shares = json.loads(_run(capsys, "injury", "-a", "7", "--worst", "dead", "--odds", *table)[1])
    assert shares["status"]["Hurt"] == "539/864"
    order = json.loads(
        _run(capsys, "order", "Ann:6", "Bo:6", "--faces", "1,2,3,10,11,12", *table)[1]
    )
    assert [c["value"] for c in order["checks"]] == [2, 11] and order["order"] == [["Ann"], ["Bo"]]
    code, out, _ = _run(capsys, "order", "Ann:6", "Bo:6", "--odds", *table)
    assert code == 0 and sum(Fraction(p) for p in json.loads(out)["order"].values()) == 1
    override = json.loads(_run(capsys, "odds", "-a", "7", "-r", "d12", *table)[1])
    assert override["p_success"] == "7/12"
    code, _, err = _run(capsys, "check", "-a", "7", "--faces", "9", *table)
    assert code != 0 and "needs 3 faces" in err


def test_injury_accepts_the_victims_current_status(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 10: an already inactive victim stays inactive (at the worse outcome), and
    a Hurt one checks a step worse per earlier injury; a seated victim's Status is the
    table's."""
    argv = ["injury", "-a", "8", "--worst", "dead", "--json"]
    down = json.loads(_run(capsys, *argv, "--status", "inactive (unconscious)", "--faces", "1")[1])
    # 8 - 1 - 3 (one earlier injury) = 4 succeeds, but an unconscious victim stays so
    assert down["total"] == 4 and down["status"] == "inactive (unconscious)"
    worse = json.loads(_run(capsys, *argv, "--status", "unconscious", "--faces", "12")[1])
    assert worse["status"] == "inactive (dead)"
    # Hurt with two earlier injuries: 8 - 6 = 2, stays active on 1..2
    odds = json.loads(_run(capsys, *argv, "--status", "Hurt", "--injuries", "2", "--odds")[1])
    assert odds == {"status": {"Hurt": "1/6", "inactive (dead)": "5/6"}}
    code, _, err = _run(capsys, *argv, "--status", "bruised")
    assert code != 0 and "unknown Status 'bruised'" in err
    # a seated victim: its sheet resists (Tough 5 + Primary at Moderately 3 = 8) and
    # its Status is carried in the state file from one injury to the next
    table = tmp_path / "table.json"
    seat = ["--seat", "mick=example:boxer", "--save", str(table)]
    first = ["injury", "--victim", "mick", "--worst", "unconscious", "--faces", "12", "--json"]
    assert json.loads(_run(capsys, *first, *seat)[1])["status"] == "inactive (unconscious)"
    again = ["injury", "--victim", "mick", "--worst", "dead", "--state", str(table), "--json"]
    shown = json.loads(_run(capsys, *again, "--faces", "1")[1])
    assert shown["total"] == 8 - 1 - 3 and shown["status"] == "inactive (unconscious)"
    code, _, err = _run(capsys, *again, "--status", "Fine")
    assert code != 0 and "the table tracks mick's Status" in err


def test_the_deck_carries_between_commands_as_a_state_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 10: --save writes the table's state after a draw, --state reads it back,
    so one deck persists across checks, attacks, injuries and the order of action."""
    table, opts = tmp_path / "table.json", tmp_path / "options.json"
    opts.write_text(json.dumps({"randomizer": "cards"}))
    state = ["--options", str(opts), "--state", str(table), "--save", str(table), "--json"]
    first = ["--options", str(opts), "--save", str(table), "--json"]
    out = json.loads(_run(capsys, "check", "-a", "6", "--faces", "12", *first)[1])
    assert out["deck_left"] == 47
    out = json.loads(_run(capsys, "check", "-a", "6", "--faces", "12", *state)[1])
    assert out["deck_left"] == 46 and out["drawn"] == [12, 12]
    out = json.loads(_run(capsys, "attack", "-a", "7", "--faces", "12", *state)[1])
    assert out["deck_left"] == 45
    out = json.loads(
        _run(capsys, "injury", "-a", "8", "--worst", "dead", "--faces", "12", *state)[1]
    )
    assert out["deck_left"] == 44 and out["drawn"] == [12, 12, 12, 12]
    code, _, err = _run(capsys, "check", "-a", "6", "--faces", "12", *state)
    assert code != 0 and "card 1 (Queen) is not in the deck" in err
    # the odds read the deck as it stands: no Queen left, a 1-in-44 Ace
    odds = json.loads(
        _run(capsys, "odds", "-a", "1", "--options", str(opts), "--state", str(table), "--json")[1]
    )
    assert odds["p_success"] == "1/11"  # four Aces among 44 cards
    out = json.loads(_run(capsys, "order", "Ann:6", "Bo:6", "--faces", "1,2", *state)[1])
    assert out["drawn"] == [1, 2, 12, 12, 12, 12]
    assert json.loads(table.read_text())["order"] == [["Ann"], ["Bo"]]
    code, _, err = _run(capsys, "check", "-a", "6", "--drawn", "1", *state)
    assert code != 0 and "give --state or --drawn" in err
    assert run(["mnemonic", "act", "reshuffle", "--state", str(table), "--save", str(table)]) == 0
    capsys.readouterr()
    assert (
        json.loads(_run(capsys, "check", "-a", "6", "--faces", "12", *state)[1])["deck_left"] == 47
    )


def test_flags_are_the_actions_fields(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: help comes from the fields' docs, a missing field or a wrong value is
    named by its flag."""
    code, out, _ = _run(capsys, "attack", "--help")
    assert code == 0 and "the attacker's Aptitude given directly" in out and "--dodge" in out
    code, _, err = _run(capsys, "injury", "-a", "3")
    assert code == 1 and "give --worst" in err
    code, _, err = _run(capsys, "attack", "-a", "7", "--defender-aptitude", "30")
    assert code == 1 and "Aptitude must be 0..12" in err and "Traceback" not in err
    seated = ["--seat", "b=example:boxer", "--actor", "b", "--talent", "Tough"]
    code, _, err = _run(capsys, "check", *seated, "--fallback", "maybe")
    assert code == 2 and "'maybe' is not one of 'relevant', 'irrelevant', 'lucky'" in err


def test_flags_come_from_the_actions_fields(capsys: pytest.CaptureFixture[str]) -> None:
    """No command declares --defender-aptitude: the attack's field gives it (opposed
    rolls: the defender's Successes, Aptitude less the die, come off the attacker's)."""
    opposed = ("attack", "-a", "5", "--opposed", "--faces", "4,4", "--json")
    for defender, total in (("6", -2), ("2", 1)):
        code, out, _ = _run(capsys, *opposed, "--defender-aptitude", defender)
        assert code == 0 and json.loads(out)["total"] == total
    code, _, err = _run(capsys, *opposed, "--defender-fallback", "sideways")
    assert code != 0 and "--defender-fallback" in err
    code, _, err = _run(capsys, "attack", "-a", "5", "--dodge", "x")  # was a traceback
    assert code != 0 and "--dodge 'x'" in err and "Traceback" not in err
