"""``GET /healthz``: whether this server process can serve, for a load balancer or systemd.

200 ``{"status": "ok", "database": "ok", "version": "0.2.0"}`` when a ``SELECT 1``
reaches the database within :data:`TIMEOUT` seconds; 503 with ``"status":
"unavailable"`` and the database's state in words otherwise. No token is needed and
no quota applies; the answer names no URL, host or password.
"""

from __future__ import annotations

import asyncio
from typing import Final, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import text
from starlette.concurrency import run_in_threadpool

from referee import version

TIMEOUT: Final = 5.0
"""Seconds the database has to answer before the server counts it unreachable."""

router = APIRouter()


class Health(BaseModel):
    """What ``GET /healthz`` answers."""

    status: Literal["ok", "unavailable"] = Field(description="ok: this process can serve.")
    database: Literal["ok", "unreachable", "timeout"] = Field(
        description="Whether a SELECT 1 reached the database in time."
    )
    version: str = Field(description="The release of referee answering (e.g. 0.2.0).")


def _ping(request: Request) -> None:
    """One round trip to the database (raises if it is unreachable)."""
    engine = request.app.state.web.service.store.reader
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


@router.get(
    "/healthz",
    tags=["server"],
    response_model=Health,
    responses={503: {"model": Health, "description": "The database did not answer."}},
)
async def healthz(request: Request) -> JSONResponse:
    """The server's health: 200 when the database answers, 503 when it does not (with
    ``database`` saying how: ``"unreachable"`` or ``"timeout"``). For load balancers and
    service managers; no token needed."""
    state = "ok"
    try:
        await asyncio.wait_for(run_in_threadpool(_ping, request), TIMEOUT)
    except TimeoutError:
        state = "timeout"
    except Exception:
        state = "unreachable"
    ok = state == "ok"
    return JSONResponse(
        {"status": "ok" if ok else "unavailable", "database": state, "version": version()},
        status_code=200 if ok else 503,
        headers={"cache-control": "no-store"},
    )
