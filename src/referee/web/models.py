"""The JSON API's request bodies and answers.

A request body of an operation is a class here, one per operation, each field's default,
bounds and help taken from the operation's :class:`~referee.table.operations.Param`
(:func:`field_of`), under its key in the request (:func:`referee.web.routes.key`). The
classes carry no docstring of their own: the schema describes each field by its
parameter's help, and the route by the operation's.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field

from referee.table.events import Visibility
from referee.table.operations import Param
from referee.table.state import Role, SheetsShown, TakeBack, TypedDice
from referee.web.routes import param

Name = Annotated[str, Field(min_length=1, max_length=64)]
RoleName = Literal["referee", "player", "observer"]
JSONObjectIn = dict[str, Any]


class Strict(BaseModel):
    """Request bodies refuse unknown keys and take every value as its own type: ``"7"``
    is no number and ``true`` no 1 (a wrong type is refused, the field named)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------------------
# a parameter as a pydantic field


def listed(p: Param) -> bool:
    """Whether ``p``'s value is a list (its ``ge``/``le`` bound each number of it)."""
    return any(get_origin(t) is list for t in (p.type, *get_args(p.type)))


def bounds(p: Param) -> dict[str, Any]:
    """A parameter's bounds as pydantic's keywords (a list's ge/le: :func:`each`)."""
    numbers = {} if listed(p) else {"ge": p.ge, "le": p.le}
    return numbers | {"min_length": p.min_length, "max_length": p.max_length}


def field_of(op: str, name: str) -> Any:
    """The pydantic field of operation ``op``'s parameter ``name``: its default, bounds
    and help."""
    p = param(op, name)
    default = {"default_factory": dict} if p.default == {} else {"default": p.default}
    return Field(**default, description=p.help, **bounds(p))


def each(op: str, name: str) -> Any:
    """The bounds of each number of operation ``op``'s list parameter ``name``."""
    p = param(op, name)
    return Field(ge=p.ge, le=p.le)


def change(name: str) -> Any:
    """The pydantic field of an edit's change's key ``name``."""
    p = next(c for c in param("edit", "changes").items if c.name == name)
    return Field(default=p.default, description=p.help, **bounds(p))


# ---------------------------------------------------------------------------
# the operations' bodies (referee.table.operations; keys: referee.web.routes)


class OddsIn(Strict):
    """The odds' body, a class: the page's preview takes it too."""

    action: str = field_of("odds", "action")
    fields: JSONObjectIn = field_of("odds", "fields")


class ActIn(Strict):
    action: str = field_of("act", "action")
    fields: JSONObjectIn = field_of("act", "fields")
    visibility: Visibility = field_of("act", "visibility")
    faces: list[Annotated[int, each("act", "faces")]] | None = field_of("act", "faces")
    expect: int | None = field_of("act", "expect")


class DecideIn(Strict):
    fields: JSONObjectIn = field_of("decide", "values")


class NoteIn(Strict):
    text: str = field_of("note", "text")
    visibility: Visibility = field_of("note", "visibility")
    to: str | None = field_of("note", "audience")


class UndoIn(Strict):
    seq: int | None = field_of("undo", "seq")


class RedoIn(Strict):
    seq: int | None = field_of("redo", "seq")


class RevealIn(Strict):
    seq: int = field_of("reveal", "seq")


class EditChanges(Strict):
    target: str = change("target")
    field: str = change("field")
    delta: int | None = change("delta")
    value: Any = change("value")
    reason: str = change("reason")


class EditIn(Strict):
    changes: list[EditChanges] = field_of("edit", "changes")
    reason: str = field_of("edit", "reason")


class SetOptionsIn(Strict):
    options: JSONObjectIn = field_of("options", "options")


class SetSheetsIn(Strict):
    sheets: SheetsShown = field_of("sheets", "sheets")


class SetSettingsIn(Strict):
    take_back: TakeBack | None = field_of("settings", "take_back")
    typed_dice: TypedDice | None = field_of("settings", "typed_dice")
    true_odds: bool | None = field_of("settings", "true_odds")
    players_gauge: bool | None = field_of("settings", "players_gauge")


class AnswerIn(Strict):
    grant: bool = field_of("answer", "grant")


class RequestIn(Strict):
    action: str = field_of("request", "action")
    fields: JSONObjectIn = field_of("request", "fields")
    characters: list[str] = field_of("request", "characters")
    difficulty: int | None = field_of("request", "difficulty")
    secret: bool = field_of("request", "secret")
    visibility: Literal["public", "blind", "private"] = field_of("request", "visibility")


class RollIn(Strict):
    character: str | None = field_of("roll", "character")


class SetRoleIn(Strict):
    role: Role = field_of("role", "role")


class AddCharacterIn(Strict):
    example: str | None = field_of("char add", "example")
    sheet: JSONObjectIn | None = field_of("char add", "sheet")
    owner: str | None = field_of("char add", "owner")
    id: str | None = field_of("char add", "cid")
    force: bool = field_of("char add", "force")
    visibility: Visibility = field_of("char add", "visibility")


class SeatAdversariesIn(Strict):
    entry: str = field_of("char bestiary", "entry")
    count: int = field_of("char bestiary", "count")
    name: str | None = field_of("char bestiary", "name")
    dials: JSONObjectIn = field_of("char bestiary", "dials")
    force: bool = field_of("char bestiary", "force")


class UpdateCharacterIn(Strict):
    sheet: JSONObjectIn = field_of("char update", "sheet")
    force: bool = field_of("char update", "force")


BODIES: dict[str, type[Strict]] = {
    "odds": OddsIn,
    "act": ActIn,
    "decide": DecideIn,
    "note": NoteIn,
    "undo": UndoIn,
    "redo": RedoIn,
    "reveal": RevealIn,
    "edit": EditIn,
    "options": SetOptionsIn,
    "sheets": SetSheetsIn,
    "settings": SetSettingsIn,
    "answer": AnswerIn,
    "request": RequestIn,
    "roll": RollIn,
    "role": SetRoleIn,
    "char add": AddCharacterIn,
    "char bestiary": SeatAdversariesIn,
    "char update": UpdateCharacterIn,
}
"""Each operation's body, by its name (a test checks each holds its parameters)."""


# ---------------------------------------------------------------------------
# the API's own bodies


class CreateTable(Strict):
    game: str = field_of("new", "game")
    name: str = field_of("new", "name")
    referee: str = field_of("new", "referee")
    options: JSONObjectIn | None = field_of("new", "options")
    seed: int | None = field_of("new", "seed")
    settings: JSONObjectIn | None = field_of("new", "settings")


class SheetIn(Strict):
    sheet: JSONObjectIn
    force: bool = False


class InviteIn(Strict):
    name: Name
    role: RoleName = "player"


# ---------------------------------------------------------------------------
# answers


class TableSummary(BaseModel):
    id: str
    name: str
    game: str
    title: str
    me: str
    role: str


class Created(BaseModel):
    table: TableSummary
    link: str = Field(description="The secret link: open it to join as this participant.")
    token: str = Field(description="The same capability as a bearer token.")


class Imported(Created):
    events: int = Field(description="How many events were verified and stored.")
    signature: Literal["trusted", "untrusted", "unsigned"] = Field(
        description="trusted: signed by this server's key or one it trusts; untrusted: "
        "signed by another key (named in `key`); unsigned: no signed head."
    )
    key: str | None = Field(None, description="The id of the key that signed the file.")


class EventOut(BaseModel):
    seq: int
    event: dict[str, Any]


class InviteOut(BaseModel):
    id: str
    name: str
    kind: str
    created: str
    revoked: str | None = None
    link: str | None = None
    token: str | None = None
