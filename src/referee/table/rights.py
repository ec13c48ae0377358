"""Who may do what at a table: the checks every command makes on the table as it is now.

A referee does anything; a player acts for their own characters (never the referee's
actions, never the referee's secret rolls) and adds or updates their own characters; an
observer only reads. Each check raises :class:`Forbidden` (the message says who may) or
:class:`~referee.errors.RulesError`, before anything is built or a die drawn (principle
10: a participant spends and decides only for what they own, checked for their current
role at every entry). ``by`` ``None`` is the local operator, who runs the table as a
referee.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from referee.errors import RulesError
from referee.systems.base import Action, Problem
from referee.table.events import Visibility
from referee.table.state import ROLES, Role, TableState

ASKS_THE_REFEREE: Final = ""
"""In a proposal's ``ask``, the character a field is asked of when it is the referee's own
value to give (the GM's modifier a player proposed): nobody's but the referee's."""


class Forbidden(RulesError):
    """The participant may not do this (the message says who may)."""


def check_role(role: str) -> None:
    """Refuse a role that is none of referee, player, observer."""
    if role not in ROLES:
        raise RulesError(f"unknown role {role!r}; known: referee, player, observer")


def referee(ts: TableState, by: str | None, what: str) -> None:
    """Refuse ``by`` unless they referee (``what``: what only the referee may do)."""
    if by is not None and ts.role_of(by) != "referee":
        raise Forbidden(f"only the referee may {what}")


def keeps_a_referee(ts: TableState, name: str, role: Role | None) -> None:
    """Refuse taking the table's only referee away (``role``: their new one, ``None``: gone)."""
    referees = [n for n, r in ts.participants.items() if r == "referee"]
    if referees == [name] and role != "referee":
        raise RulesError(f"{name!r} is the table's only referee")


def active(ts: TableState, by: str | None) -> Role:
    """The role of ``by`` (the operator: a referee's) for a command that changes the
    table: checked at every entry on the table as it is now, so a player made an
    observer (or removed) acts, answers, withdraws, undoes and edits no more."""
    if by is None:
        return "referee"
    role = ts.role_of(by)
    if role == "observer":
        raise Forbidden("an observer only reads")
    return role


def may_act(ts: TableState, by: str, action: Action) -> None:
    """Refuse ``action`` unless ``by`` may take it: a referee any; a player a free roll of
    the dice tray, or an action whose actors are all their own characters."""
    role = ts.role_of(by)
    if role == "observer":
        raise Forbidden("an observer only reads")
    if role == "referee":
        return
    name = ts.ruleset.action_name(action)
    actors = action.actors()
    if action.free:
        return  # the dice tray: anyone at the table rolls it
    if action.referee_only or not actors:
        raise Forbidden(f"{name} is the referee's action")
    for cid in actors:
        ts.state.character(cid)
        if ts.owners.get(cid) != by:
            raise Forbidden(f"{cid!r} is not {by}'s character")


def owns_or_referee(ts: TableState, by: str | None, cid: str, what: str) -> None:
    """Refuse ``by`` unless they own character ``cid`` or referee."""
    if by is None or ts.role_of(by) == "referee":
        return
    if ts.owners.get(cid) != by:
        raise Forbidden(f"only {cid!r}'s owner or the referee may {what} it")


def owner_for(ts: TableState, by: str | None, owner: str | None) -> str | None:
    """Who owns a character ``by`` seats (``owner`` asked for): a player seats only for
    themselves."""
    if owner is not None:
        ts.role_of(owner)
    if by is None or ts.role_of(by) == "referee":
        return owner
    if ts.role_of(by) == "observer":
        raise Forbidden("an observer only reads")
    if owner not in (None, by):
        raise Forbidden("a player adds characters for themselves")
    return by


def allow_findings(
    ts: TableState, by: str | None, problems: Sequence[Problem], force: bool
) -> None:
    """Refuse a sheet that breaks the rules, unless the referee forces it in."""
    if not problems:
        return
    listed = "; ".join(str(p) for p in problems)
    if not force:
        raise RulesError(
            f"the sheet breaks {len(problems)} rule(s): {listed} "
            "(the referee may seat it anyway, marked, with force)"
        )
    referee(ts, by, "seat a character that breaks the rules")


def visibility(ts: TableState, by: str | None, asked: str, *, tray: bool = False) -> Visibility:
    """The visibility ``asked`` checked for ``by``: a player rolls blind or private, never
    in the referee's secret; ``self`` (its roller alone) is the dice tray's only."""
    if asked not in ("public", "referee", "blind", "private", "self"):
        raise RulesError(
            f"unknown visibility {asked!r}; known: public, referee, blind, private, self"
        )
    if asked == "self" and not tray:
        raise RulesError(
            "only a free roll of the dice tray is seen by its roller alone; "
            "this is at least the referee's to see"
        )
    refereeing = by is None or ts.role_of(by) == "referee"
    if asked == "referee" and not refereeing:
        raise Forbidden("only the referee rolls in secret; a player rolls blind or private")
    if asked == "blind" and refereeing:
        return "referee"
    return cast(Visibility, asked)


def hidden_sheets(ts: TableState, by: str | None, chosen: Action) -> list[str]:
    """The characters ``chosen`` involves whose sheets ``by`` may not see."""
    if by is None:
        return []
    viewer = ts.viewer(by)
    if viewer.sees_all:
        return []
    return [
        cid
        for cid in chosen.characters()
        if cid in ts.state.characters and not ts.sees_sheet(viewer, cid)
    ]


def asked(ts: TableState, by: str | None, chosen: Action) -> dict[str, str]:
    """The fields of ``chosen`` that wait for someone else's decision (field -> the
    character whose choice it is); refuses a player's value for another's choice."""
    if by is None:
        return {}  # the system (a script, the command line without --as) decides all
    refereeing = ts.role_of(by) == "referee"
    found: dict[str, str] = {}
    if not refereeing:
        for path, ids in chosen.nested_choices().items():
            for cid in ids:
                if ts.owners.get(cid) != by:
                    raise Forbidden(
                        f"{path.replace('.', ' ').replace('_', ' ')} is "
                        f"{names(ts, [cid]) if cid in ts.state.characters else cid}'s "
                        "choice: only their owner or the referee sets it (leave it out: "
                        "their own default applies)"
                    )
        for name in chosen.referee_fields():
            found[name] = ASKS_THE_REFEREE  # the GM's value: the referee approves it
    for name, (ids, given) in chosen.deciders().items():
        for cid in ids:
            owner = ts.owners.get(cid)
            if owner == by or (refereeing and (given or owner is None)):
                continue
            if given:
                raise Forbidden(
                    f"{name} is {cid!r}'s choice: only their owner or the referee sets it "
                    "(leave it out, and they are asked)"
                )
            found.setdefault(name, cid)
    return found


def names(ts: TableState, cids: Sequence[str]) -> str:
    """The characters' names, joined for a sentence."""
    said = [str(getattr(ts.state.characters[c].sheet, "name", "") or c) for c in cids]
    return " and ".join(dict.fromkeys(said))


def sheet_refusal(ts: TableState, cids: Sequence[str]) -> str:
    """A refusal that names nothing of the sheets it depends on."""
    return (
        f"this cannot be done as asked, for a reason in {names(ts, cids)}'s sheet, which "
        "only the referee sees: ask the referee"
    )
