"""The command line's manners (issue 37): Ctrl-C ends quietly with 130, and a command that
needs a part of an extra that is not installed says what to install (exit 1, one line),
never an internal error."""

from __future__ import annotations

import pytest

from referee.cli.main import EXIT_INTERRUPTED, app, run


@pytest.mark.usefixtures("without_analysis_extra")
def test_a_missing_extra_is_named_with_what_to_install(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``analyze conflict mongrel --simulate`` without numpy ended "internal error
    ModuleNotFoundError" with exit 70."""
    status = run(["analyze", "conflict", "mongrel", "--simulate", "--runs", "200"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 1
    assert err == [
        "error: this needs the analysis extra (numpy is missing): pip install 'referee[analysis]'"
    ]


def test_ctrl_c_ends_quietly_with_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(app, "invoke", interrupted)
    assert run(["odds", "2d6"]) == EXIT_INTERRUPTED == 130
    assert capsys.readouterr().err.strip() == ""
