"""The character builder's API: a game's form, and one round of it (answers -> sheet).

``/api/games/{game}/builder...`` works under the game's default house rules (or
options given with the answers); ``/api/tables/{tid}/builder...`` under the
table's, for its participants. The game's rules are all in its package
(:mod:`referee.systems.building`); this module reads the request strictly,
bounds it, and answers. Answers that do not fit the form (an unknown field, a
wrong type, too many rows) are a 422 naming the field; answers that fit but
break a creation rule are a 200 whose ``problems`` name the field, so the page
can say so next to it while the user types.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import Field

from referee.errors import InvalidSheet, RulesError
from referee.systems import building
from referee.systems.base import Ruleset
from referee.systems.outcome import problem_data
from referee.web.app import WebError, error_response, web_of
from referee.web.deps import Reader, bounded, contract_games, rules_call
from referee.web.models import JSONObjectIn, Strict
from referee.web.strict import StrictRoute

router = APIRouter(prefix="/api", route_class=StrictRoute, tags=["builder"])

MAX_ANSWERS: Final = 200
"""Most fields one set of answers may hold (the largest form has about 60)."""
ANSWER_DEPTH: Final = 4
"""answers -> a rows field -> a row -> a value."""

GameName = Annotated[
    str,
    Path(
        min_length=1,
        max_length=40,
        pattern=r"^[a-z0-9_-]+$",
        description="The game: `mnemonic`, `mongrel`, `mneme` or `arm` (GET /api/games).",
    ),
]
ExampleId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="One of the game's example characters (the builder's `examples`).",
    ),
]
CharacterId = Annotated[
    str, Path(min_length=1, max_length=64, description="A character's id at the table.")
]


class CheckIn(Strict):
    answers: JSONObjectIn = Field(
        max_length=MAX_ANSWERS, description="The form's answers by field key."
    )
    options: JSONObjectIn | None = Field(
        None, description="House rules to build under (default: the game's defaults)."
    )


def _game(game: str) -> Ruleset[Any, Any, Any]:
    found = dict(contract_games()).get(game)
    if found is None or found.builder() is None:
        known = ", ".join(n for n, r in contract_games() if r.builder() is not None)
        raise WebError(404, f"no builder for the game {game!r}; known: {known}")
    return found


def _options(rules: Ruleset[Any, Any, Any], data: JSONObjectIn | None) -> Any:
    if data is None:
        return rules.options_type()
    bounded(data, "options")
    return rules.load_options(data)


def _check(
    request: Request, rules: Ruleset[Any, Any, Any], body: CheckIn, options: Any
) -> dict[str, Any] | Response:
    bounded(body.answers, "answers", depth=ANSWER_DEPTH)
    try:
        checked = rules_call(lambda: building.check(rules, body.answers, options))
    except building.BadAnswers as e:
        problem = {"field": f"answers.{e.where}".rstrip("."), "message": str(e)}
        return error_response(request, 422, str(e), problems=[problem])
    return checked.data()


def _answers(rules: Ruleset[Any, Any, Any], sheet: Any, options: Any) -> dict[str, Any]:
    """A loaded sheet as answers to the form (only the form's fields), with the sheet as
    JSON: the page fills the form from the answers and keeps what the form does not hold
    (notes, a text example's own figures) from the sheet, unless the form changes it."""
    builder = rules.builder()
    assert builder is not None
    keys = builder.spec(options).fields()
    data = rules.dump_sheet(sheet)
    answers = rules_call(lambda: builder.answers_of(data, options))
    return {"answers": {k: v for k, v in answers.items() if k in keys}, "sheet": data}


def _start(rules: Ruleset[Any, Any, Any], example: str, options: Any) -> dict[str, Any]:
    """The example's sheet as answers to the form, keeping only the form's fields."""
    sheets = rules.examples()
    if example not in sheets:
        known = ", ".join(sheets) or "none"
        raise WebError(404, f"no example character {example!r}; known: {known}")
    return {"example": example} | _answers(rules, sheets[example], options)


class SheetFileIn(Strict):
    sheet: JSONObjectIn = Field(description="A character sheet, as a sheet file holds it.")


# -- by game, under default (or given) house rules -------------------------------


@router.get("/games/{game}/builder")
def game_spec(game: GameName) -> dict[str, Any]:
    """The game's character builder form: sections, fields (text, number, choice,
    multi, rows) with their choices and bounds, and the rule text's sections."""
    rules = _game(game)
    spec = rules.builder().spec(rules.options_type())  # type: ignore[union-attr]
    return building.spec_data(spec)


@router.post("/games/{game}/builder/check", response_model=None)
def game_check(game: GameName, body: CheckIn, request: Request) -> dict[str, Any] | Response:
    """One round of the builder: the sheet the answers make, every rule they break
    (named by field), the budgets spent and left, and the choices still legal."""
    rules = _game(game)
    try:
        options = _options(rules, body.options)
    except RulesError as e:
        raise WebError(422, f"options: {e}") from e
    return _check(request, rules, body, options)


@router.get("/games/{game}/builder/examples/{example}")
def game_example(game: GameName, example: ExampleId) -> dict[str, Any]:
    """An example character as answers to the form ("start from example")."""
    rules = _game(game)
    return _start(rules, example, rules.options_type())


# -- at a table, under its house rules ---------------------------------------------


@router.get("/tables/{tid}/builder")
def table_spec(caller: Reader, request: Request) -> dict[str, Any]:
    """The builder form under the table's house rules."""
    ts = web_of(request).service.view(caller.table_id, caller.name)
    builder = ts.ruleset.builder()
    if builder is None:
        raise WebError(404, f"{ts.ruleset.title} has no character builder")
    return building.spec_data(builder.spec(ts.options))


@router.post("/tables/{tid}/builder/check", response_model=None)
def table_check(caller: Reader, body: CheckIn, request: Request) -> dict[str, Any] | Response:
    """One round of the builder under the table's house rules (``options`` is refused:
    the table's are used)."""
    if body.options is not None:
        raise WebError(422, "options: a table builds under its own house rules")
    ts = web_of(request).service.view(caller.table_id, caller.name)
    if ts.ruleset.builder() is None:
        raise WebError(404, f"{ts.ruleset.title} has no character builder")
    return _check(request, ts.ruleset, body, ts.options)


@router.get("/tables/{tid}/builder/examples/{example}")
def table_example(caller: Reader, request: Request, example: ExampleId) -> dict[str, Any]:
    """An example character as answers to the table's form."""
    ts = web_of(request).service.view(caller.table_id, caller.name)
    if ts.ruleset.builder() is None:
        raise WebError(404, f"{ts.ruleset.title} has no character builder")
    return _start(ts.ruleset, example, ts.options)


@router.post("/tables/{tid}/builder/answers", response_model=None)
def table_answers(caller: Reader, body: SheetFileIn, request: Request) -> dict[str, Any] | Response:
    """A sheet (a sheet file loaded on the page) as answers to the table's form, with
    the sheet as the game reads it; a sheet the game cannot read is a 422 naming what."""
    bounded(body.sheet, "sheet")
    ts = web_of(request).service.view(caller.table_id, caller.name)
    if ts.ruleset.builder() is None:
        raise WebError(404, f"{ts.ruleset.title} has no character builder")
    try:
        loaded = rules_call(lambda: ts.ruleset.load_sheet(body.sheet))
    except InvalidSheet as e:
        problems = [problem_data(p) for p in e.problems]
        said = "; ".join(f"{p['field']}: {p['message']}" for p in problems[:5])
        return error_response(
            request, 422, f"not a sheet of {ts.ruleset.title}: {said}", problems=problems
        )
    return _answers(ts.ruleset, loaded, ts.options)


@router.get("/tables/{tid}/builder/characters/{cid}")
def table_character(caller: Reader, request: Request, cid: CharacterId) -> dict[str, Any]:
    """A seated character's sheet as answers to the table's form (its owner, the
    referee, or anyone when the table shows every sheet): the form "Edit the sheet"
    opens, filled in."""
    ts = web_of(request).service.view(caller.table_id, caller.name)
    if ts.ruleset.builder() is None:
        raise WebError(404, f"{ts.ruleset.title} has no character builder")
    seated = ts.state.characters.get(cid)
    if seated is None or not ts.sees_sheet(ts.viewer(caller.name), cid):
        raise WebError(404, f"no character {cid!r} whose sheet you may see")
    name = seated.sheet.name or cid
    return {"id": cid, "name": str(name)} | _answers(ts.ruleset, seated.sheet, ts.options)
