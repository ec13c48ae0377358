"""The API's participants at one table: a referee changes one's role or removes them
(their links revoked), and makes, lists and revokes invite links."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from referee.web.app import WebError, web_of
from referee.web.deps import (
    Reader,
    Writer,
    at_path,
    call,
    command,
    link_for,
    referee_only,
    rules_call,
    values,
)
from referee.web.models import InviteIn, InviteOut, SetRoleIn
from referee.web.routes import serves
from referee.web.strict import StrictRoute

router = APIRouter(route_class=StrictRoute)
"""The invites' routes (``/api`` is the API's prefix: :mod:`referee.web.api`)."""


@serves("role")
async def set_role(
    caller: Writer, request: Request, name: Annotated[str, at_path("role", "name")], body: SetRoleIn
) -> Response:
    """Change participant ``name``'s role."""
    return await command(request, caller, "role", values("role", body, name=name))


@serves("leave")
async def leave(
    caller: Writer, request: Request, name: Annotated[str, at_path("leave", "name")]
) -> Response:
    """Participant ``name`` leaves; their links are revoked."""
    given = values("leave", name=name)

    def left() -> Response:
        done = call(request, caller, "leave", given)
        web_of(request).tokens.revoke_name(caller.table_id, name)
        return done

    return await run_in_threadpool(rules_call, left)


@router.get("/tables/{tid}/invites", tags=["referee"])
def invites(caller: Reader, request: Request) -> list[InviteOut]:
    """Every invite link made for this table (the secrets are never shown again)."""
    referee_only(caller, "see the invites")
    return [
        InviteOut(id=g.id, name=g.name, kind=g.kind, created=g.created, revoked=g.revoked)
        for g in web_of(request).tokens.list(caller.table_id)
    ]


@router.post("/tables/{tid}/invites", status_code=201, tags=["referee"])
def invite(caller: Writer, body: InviteIn, request: Request) -> InviteOut:
    """Make an invite link for one participant (joining them with ``role`` if they are
    new). Send it to them privately: whoever opens it acts as them."""
    referee_only(caller, "invite")
    web = web_of(request)
    web.quotas.invite(sum(g.kind == "invite" for g in web.tokens.list(caller.table_id)))
    ts = web.service.load(caller.table_id)
    name = body.name.strip()
    if name not in ts.participants:
        web.service.join(caller.table_id, name, body.role, by=caller.name)
    token, grant = web.tokens.issue(caller.table_id, name, "invite")
    return InviteOut(
        id=grant.id,
        name=grant.name,
        kind=grant.kind,
        created=grant.created,
        link=link_for(request, token),
        token=token,
    )


@router.delete("/tables/{tid}/invites/{kid}", tags=["referee"])
def revoke(
    caller: Writer,
    request: Request,
    kid: Annotated[
        str,
        Path(min_length=1, max_length=24, description="The link's id (GET .../invites)."),
    ],
) -> dict[str, Any]:
    """Revoke an invite link: it opens nothing from now on (browsers holding it included)."""
    referee_only(caller, "revoke invites")
    web = web_of(request)
    if not web.tokens.revoke(caller.table_id, kid):
        raise WebError(404, f"no live invite {kid!r} at this table")
    web.hub.close_grants_soon({kid})  # its open sockets close now (other processes: a sweep)
    return {"revoked": kid}
