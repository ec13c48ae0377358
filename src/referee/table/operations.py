"""The live table's operations, each declared once: what a table can do.

An :class:`Operation` is one call of :class:`~referee.table.service.TableService`: its
command's name, its help, its parameters (:class:`Param`: type, bounds, help), who may
call it, and whether it only reads. Nothing here says how an edge spells it: the HTTP
API's verbs, paths and tags are :mod:`referee.web.routes`' (its routes in
:mod:`referee.web.api`), the command line's arguments and options
:mod:`referee.cli.table`'s. Each edge answers a command with the event it appended, as
that edge shows events; the few operations an edge answers its own way (the odds in a
worker process, the table's state as text, an export file) it names, keeping this help
and these parameters. :data:`ELSEWHERE` holds the operations on no table yet (a new
table, an import) or answered by a document (a recap), with their help and parameters
declared here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from referee.table.events import Visibility
from referee.table.state import Role, SheetsShown, TakeBack, TypedDice

MAX_SEQ: Final = 2**31 - 1
"""The largest event number a request may name."""

Object = dict[str, Any]
"""A JSON object (an action's fields, a sheet, house rules)."""

Who = Literal["participant", "anyone", "referee"]
"""Who may call an operation: ``participant``, a participant named for it (the command
line's ``--as NAME`` is required); ``anyone``, a participant or the local operator (who
may do what a referee may; ``--as`` is optional); ``referee``, a referee only (the API
refuses the others; the command line runs as the operator)."""


@dataclass(frozen=True)
class Param:
    """One parameter of an operation.

    ``name`` is the service method's keyword (an edge may spell it otherwise: a
    request's key, a command line's flag). ``type`` is the JSON value's (a ``Literal``
    lists the choices); ``default`` ``...``: required. ``ge``/``le`` bound a number or
    each number of a list, ``min_length``/``max_length`` a text or a list. ``items``:
    the value is a list of records with these parameters.
    """

    name: str
    help: str
    type: Any = str
    default: Any = ...
    ge: int | None = None
    le: int | None = None
    min_length: int | None = None
    max_length: int | None = None
    items: tuple[Param, ...] = ()


@dataclass(frozen=True)
class Operation:
    """One thing a participant does at a live table (see the module text): ``name``, the
    command's (``char add``: ``add`` in the ``char`` group); ``method``, the service's
    (default: the command's); ``reads``: it appends nothing (a reader may call it)."""

    name: str
    help: str
    params: tuple[Param, ...] = ()
    method: str = ""
    who: Who = "anyone"
    reads: bool = False

    @property
    def service_method(self) -> str:
        """The :class:`~referee.table.service.TableService` method it calls."""
        return self.method or self.name


# ---------------------------------------------------------------------------
# parameters several operations take

NAME: Final = 64
"""The longest name (of a participant, a character)."""
VISIBILITY = Param(
    "visibility",
    "Who sees it: public; referee (the referee's secret roll); blind (a player's roll only "
    "the referee sees the result of); private (its roller and the referee); self (a free "
    "roll only its roller sees).",
    Visibility,
    "public",
)
ROLE_HELP: Final = "referee, player or observer."
PARTICIPANT = Param("name", "The participant's name.", min_length=1, max_length=NAME)
CHARACTER = Param("cid", "The character's id.", min_length=1, max_length=NAME)
SHEET_HELP: Final = "A sheet as JSON (on the command line: a .json file, or an example's name)."
FORCE = Param("force", "The referee seats a sheet that breaks rules (marked).", bool, False)
ACTION = Param("action", "The action's name (`referee GAME actions`).", max_length=64)
FIELDS = Param(
    "fields",
    "The action's fields (on the command line: key=value words).",
    Object,
    {},
)
SEQ = Param(
    "seq", "The event's number (as `table log` or `table show` gives it).", int, ge=1, le=MAX_SEQ
)
NEWEST = Param(
    "seq",
    "The event's number (default: the newest).",
    int | None,
    None,
    ge=1,
    le=MAX_SEQ,
)
NEWEST_UNDONE = Param(
    "seq",
    "The event's number (default: the newest undone).",
    int | None,
    None,
    ge=1,
    le=MAX_SEQ,
)
CHANGE = (
    Param("target", "A character's id, or `table`.", min_length=1, max_length=64),
    Param("field", "A dotted field path.", min_length=1, max_length=200),
    Param("delta", "Add this whole number.", int | None, None, ge=-(10**9), le=10**9),
    Param("value", "Set this value.", Any, None),
    Param("reason", "Why this change.", str, "", max_length=500),
)


OPERATIONS: Final[tuple[Operation, ...]] = (
    # -- reading
    Operation(
        "show",
        "The table as you may know it: participants, characters and their owners, the "
        "validator's findings, house rules, the game's tracker, pending decisions, the state.",
        method="view",
        reads=True,
    ),
    Operation(
        "log",
        "The log as a participant may see it: the events after a seq (a hidden roll shows "
        "only what they may know of it).",
        (
            Param("after", "Only events after this seq.", int, 0, ge=0, le=MAX_SEQ),
            Param("limit", "At most this many events.", int, 200, ge=1, le=1000),
        ),
        reads=True,
    ),
    Operation(
        "odds",
        "The exact odds of an action before anything is rolled, on what you may know: the "
        "success chance (where the outcome says success or not) and every outcome's "
        "probability.",
        (ACTION, FIELDS),
        who="participant",
        reads=True,
    ),
    Operation(
        "export",
        "The table as JSON, its head (the last event's seq and hash) signed with the "
        "server's key: whole for a referee (importable), a participant's redacted view "
        "otherwise.",
        reads=True,
    ),
    Operation(
        "verify",
        "Re-check the hash chain and replay every action from its recorded faces (the referee).",
        who="referee",
        reads=True,
    ),
    # -- the game
    Operation(
        "act",
        "Take an action of the game (for one of your characters; the referee for anyone): "
        "resolve it, record it, show its outcome.",
        (
            ACTION,
            FIELDS,
            VISIBILITY,
            Param(
                "faces",
                "Faces rolled on physical dice, in order, e.g. 6,3,1,1: used instead of the "
                "roller and checked against the dice the action rolls.",
                list[int] | None,
                None,
                ge=-(10**6),
                le=10**6,
                max_length=1000,
            ),
            Param(
                "expect",
                "Refuse unless the table is still at this event (its seq).",
                int | None,
                None,
                ge=0,
                le=MAX_SEQ,
            ),
        ),
        who="participant",
    ),
    Operation(
        "decide",
        "Answer an action that waits for your decision (a target's defence, an opponent's "
        "choice: the fields its proposal asks, as the owner of that character or the "
        "referee): the action is then checked again and rolled, as its proposer's.",
        (
            SEQ,
            Param(
                "values",
                "Values for the fields the action asks (others keep their defaults; on the "
                "command line: field=value words).",
                Object,
                {},
            ),
        ),
        who="participant",
    ),
    Operation(
        "withdraw",
        "Withdraw an action that waits for a decision (its proposer or the referee).",
        (SEQ,),
        who="participant",
    ),
    Operation(
        "note",
        "Write a note or chat line to the log (a private one: for whom it names and the referees).",
        (
            Param("text", "The note or chat line.", min_length=1, max_length=4000),
            VISIBILITY,
            Param(
                "audience",
                "For a private note: who it is for.",
                str | None,
                None,
                min_length=1,
                max_length=NAME,
            ),
        ),
        who="participant",
    ),
    Operation(
        "undo",
        "Take back an action or edit (a player: their own newest, while nothing happened "
        "since); the log keeps it.",
        (NEWEST,),
        who="participant",
    ),
    Operation(
        "redo",
        "Put back an undone action or edit (the referee).",
        (NEWEST_UNDONE,),
        who="participant",
    ),
    # -- the referee
    Operation(
        "reveal",
        "Show a hidden roll or note to everyone (the referee).",
        (SEQ,),
        who="participant",
    ),
    Operation(
        "edit",
        "Correct the game state by hand, with a reason (the referee).",
        (
            Param(
                "changes",
                "The changes (on the command line: --add and --set).",
                list[Object],
                min_length=1,
                max_length=50,
                items=CHANGE,
            ),
            Param("reason", "Why (kept in the log).", min_length=1, max_length=4000),
        ),
        who="participant",
    ),
    Operation(
        "options",
        "Replace the table's house rules (the referee); options left out take their defaults.",
        (Param("options", "The house rules as JSON.", Object),),
        method="set_options",
    ),
    Operation(
        "sheets",
        "Choose who sees other players' character sheets (the referee): owner (each "
        "player their own), players (every player's character to everyone, the "
        "referee's characters to the referee alone) or everyone. A player always sees "
        "their own; the referee sees every sheet.",
        (Param("sheets", "owner, players or everyone.", SheetsShown),),
        method="set_sheets",
    ),
    Operation(
        "settings",
        "Choose how the table runs (the referee): whether players take back their drawn "
        "rolls, who types the faces of physical dice, whether players' previews show the "
        "true odds against sheets they may not see. Settings left out stay as they are.",
        (
            Param(
                "take_back",
                "A player taking back their newest roll: never, ask (the referee answers "
                "each request; the default) or always.",
                TakeBack | None,
                None,
            ),
            Param(
                "typed_dice",
                "Who enters physical dice: referee (the default), approval (a player's roll "
                "with typed dice waits for the referee's approval) or everyone.",
                TypedDice | None,
                None,
            ),
            Param(
                "true_odds",
                "Players' previews of an action involving a sheet they may not see: the "
                "true odds (true), or what the chance depends on (false, the default).",
                bool | None,
                None,
            ),
            Param(
                "players_gauge",
                "Players see the gauge of who is winning the fight, where no sheet of it "
                "is kept from them (true), or the referees alone do (false, the default).",
                bool | None,
                None,
            ),
        ),
        method="set_settings",
    ),
    Operation(
        "answer",
        "Answer a request that waits for the referee (a player taking back a roll, a roll "
        "with typed dice): granted, it is done now; refused, it closes. Its asker may "
        "withdraw it (grant false).",
        (
            SEQ,
            Param("grant", "Grant it (true) or refuse it (false).", bool, True),
        ),
        who="participant",
    ),
    Operation(
        "gauge",
        "Who is winning the fight in progress: each side's chance to win from the table as "
        "it is now (exact where the whole chain fits the work budget, else simulated with "
        "its interval), who acts now and their side's chance for each way they may fight. "
        "A player is shown it only where the referee's setting allows and no sheet of the "
        "fight is kept from them.",
        (
            Param(
                "a",
                "A character on side a (its id; repeatable). Neither side named: the "
                "players' characters against the referee's, or two players' against each "
                "other.",
                list[str],
                [],
                min_length=0,
                max_length=8,
            ),
            Param(
                "b",
                "A character on side b (its id; repeatable).",
                list[str],
                [],
                min_length=0,
                max_length=8,
            ),
        ),
        reads=True,
        who="anyone",
    ),
    # -- roll requests (referee.table.requests)
    Operation(
        "request",
        "Ask characters for a roll (the referee): one of the game's rolled actions with its "
        "fields, a difficulty that may be secret, who sees the rolls. Each asked character's "
        "owner rolls it with one click; a secret difficulty is filled in by the table and "
        "never shown to a player, nor the rolls it decides.",
        (
            ACTION,
            Param(
                "fields",
                "The action's fields but the actor (on the command line: key=value words).",
                Object,
                {},
            ),
            Param(
                "characters",
                "Who is asked: characters' ids or names, or participants' names (all their "
                "characters); none: every player's character.",
                list[str],
                [],
                min_length=0,
                max_length=50,
            ),
            Param(
                "difficulty",
                "The difficulty, in the field the game declares for the action (none: the "
                "action's default).",
                int | None,
                None,
                ge=-1000,
                le=1000,
            ),
            Param(
                "secret",
                "Keep the difficulty from the players: each is shown the chance per "
                "difficulty the rules name, and the rolls are the referee's to see.",
                bool,
                False,
            ),
            Param(
                "visibility",
                "Who sees the rolls of an open difficulty: public, blind (the referee sees "
                "the results) or private (each roller and the referee).",
                Literal["public", "blind", "private"],
                "public",
            ),
        ),
        method="request",
        who="anyone",
    ),
    Operation(
        "requests",
        "The roll requests as you may know them: the referee's with the difficulty, each "
        "asked character's exact chance and each answer in order with the chance it had; a "
        "player's for their characters, with their chance (per named difficulty where it "
        "is secret).",
        reads=True,
        who="anyone",
    ),
    Operation(
        "roll",
        "Roll for a roll request: the referee's action for your asked character, with the "
        "difficulty the table holds.",
        (
            SEQ,
            Param(
                "character",
                "The asked character (default: your one character still to roll).",
                str | None,
                None,
                min_length=1,
                max_length=NAME,
            ),
        ),
        who="participant",
    ),
    Operation(
        "recall",
        "Withdraw a roll request (the referee); the rolls made stay.",
        (SEQ,),
        who="anyone",
    ),
    Operation(
        "join",
        "Add a participant.",
        (PARTICIPANT, Param("role", ROLE_HELP, Role, "player")),
    ),
    Operation(
        "role",
        "Change a participant's role (the referee).",
        (PARTICIPANT, Param("role", ROLE_HELP, Role)),
        method="set_role",
    ),
    Operation(
        "leave",
        "A participant leaves (themselves, or removed by the referee): their links are "
        "revoked, their characters stay.",
        (PARTICIPANT,),
    ),
    # -- characters
    Operation(
        "char add",
        "Seat a character: one of the game's examples or a sheet. A player seats their "
        "own; a sheet that breaks a rule is refused with every finding, unless the referee "
        "forces it in (marked, its findings travel with it).",
        (
            Param("example", "An example character's id.", str | None, None, max_length=64),
            Param("sheet", SHEET_HELP, Object | None, None),
            Param(
                "owner",
                "The participant who plays it.",
                str | None,
                None,
                min_length=1,
                max_length=NAME,
            ),
            Param(
                "cid",
                "Its id (default: from its name).",
                str | None,
                None,
                min_length=1,
                max_length=NAME,
            ),
            FORCE,
            VISIBILITY,
        ),
        method="add_character",
    ),
    Operation(
        "char bestiary",
        "Seat adversaries from the game's bestiary as the referee's characters, their sheets "
        "the referee's alone (under the table's sheets setting): an entry, how many, a name "
        "pattern and the numbers changed first. Every refusal comes before the first is "
        "seated (the referee).",
        (
            Param("entry", "The entry's id or name (`referee GAME bestiary`).", max_length=64),
            Param("count", "How many.", int, 1, ge=1, le=12),
            Param(
                "name",
                "A name pattern: `#` is the number (default: the entry's name, numbered).",
                str | None,
                None,
                min_length=1,
                max_length=NAME,
            ),
            Param(
                "dials",
                "The numbers changed before seating, by the entry's keys (on the command "
                "line: key=value words), e.g. armour=5.",
                Object,
                {},
            ),
            FORCE,
        ),
        method="seat_adversaries",
    ),
    Operation(
        "char update",
        "Replace a character's sheet (its owner or the referee); what the table tracks "
        "about it stays.",
        (CHARACTER, Param("sheet", SHEET_HELP, Object), FORCE),
        method="update_character",
    ),
    Operation(
        "char remove",
        "Take a character off the table (the referee).",
        (CHARACTER,),
        method="remove_character",
    ),
)
"""Every operation, in the order the API's documentation lists them."""

ELSEWHERE: Final[tuple[Operation, ...]] = (
    Operation(
        "new",
        "Create a table; its referee is its first participant.",
        (
            Param("game", "The game (`referee games`, `GET /api/games`).", max_length=40),
            Param("name", "The table's unique name.", min_length=1, max_length=NAME),
            Param("referee", "The referee's name.", str, "Referee", min_length=1, max_length=NAME),
            Param(
                "options",
                "House rules as JSON (on the command line: a file); options left out take "
                "their defaults.",
                Object | None,
                None,
            ),
            Param(
                "seed",
                "A playtest table: every roll comes from this seed (replayable).",
                int | None,
                None,
                ge=0,
                le=2**63 - 1,
            ),
            Param(
                "settings",
                "The table's settings from the start (take_back, typed_dice, true_odds; "
                "left out: their defaults; on the command line: `table settings`).",
                Object | None,
                None,
            ),
        ),
        method="create",
        who="referee",
    ),
    Operation(
        "import",
        "Import an export after verifying all of it (the hash chain, every event, every "
        "replayed roll, and its signed head if it has one): nothing is written unless it all "
        "holds; the answer says whether a trusted key signed it.",
        who="referee",
    ),
    Operation(
        "recap",
        "A readable recap of the table's log as you may see it: who did what, each roll with "
        "its dice and its exact chance of success, grouped by session date (UTC).",
        (
            Param(
                "format",
                "md: Markdown; html: a whole HTML page standing alone.",
                Literal["md", "html"],
                "md",
            ),
        ),
        reads=True,
    ),
)
"""The operations on no table yet (a new or imported table) or answered by a document (a
recap): the API serves them by routes of their own, their help and parameters declared
here for both edges all the same."""

BY_NAME: Final = {op.name: op for op in (*OPERATIONS, *ELSEWHERE)}
