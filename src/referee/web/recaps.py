"""A table's recap on the web: ``GET /api/tables/{tid}/recap`` and the page ``/t/{tid}/recap``.

Both are :mod:`referee.table.recap` for the participant who asks (their own
redacted view of the log); the edge only picks the format and the wrapping.
The HTML answer of the API is a page standing alone (for saving or printing),
its one inline style allowed by its hash in the Content-Security-Policy and no
script at all; the page under ``/t/`` sits in the site's own look, with a
print stylesheet.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Annotated, Final, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from referee.table.operations import BY_NAME
from referee.table.recap import recap_of
from referee.web.app import WebError, web_of
from referee.web.deps import TABLE_ID, Reader, authenticate
from referee.web.strict import StrictRoute
from referee.writers.recap import RECAP_CSS, html_document, to_html, to_markdown

router = APIRouter(route_class=StrictRoute)

STANDALONE_CSP: Final = (
    "default-src 'none'; style-src 'sha256-"
    + base64.b64encode(hashlib.sha256(RECAP_CSS.encode()).digest()).decode()
    + "'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
"""The policy of the stand-alone HTML recap: its own inline style, nothing else."""
RECAP = BY_NAME["recap"]
"""The recap's help and parameters, the command line's too."""


def _filename(name: str, ext: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "table"
    return f"{safe}-recap.{ext}"


@router.get(
    "/api/tables/{tid}/recap",
    tags=["table"],
    response_class=Response,
    responses={
        200: {
            "description": "The recap: Markdown (format=md) or a whole HTML page (format=html).",
            "content": {"text/markdown": {}, "text/html": {}},
        }
    },
    description=RECAP.help,
)
def recap_api(
    caller: Reader,
    request: Request,
    format: Annotated[Literal["md", "html"], Query(description=RECAP.params[0].help)] = "md",
) -> Response:
    made = recap_of(web_of(request).service, caller.table_id, caller.name)
    if format == "md":
        return PlainTextResponse(
            to_markdown(made),
            media_type="text/markdown; charset=utf-8",
            headers={"content-disposition": f'inline; filename="{_filename(made.table, "md")}"'},
        )
    return HTMLResponse(
        html_document(made),
        headers={
            "content-security-policy": STANDALONE_CSP,
            "content-disposition": f'inline; filename="{_filename(made.table, "html")}"',
        },
    )


@router.get("/t/{tid}/recap", response_class=HTMLResponse, include_in_schema=False)
def recap_page(request: Request, tid: Annotated[str, Path(pattern=TABLE_ID)]) -> HTMLResponse:
    """The recap as a page of the site (print-friendly), with its downloads."""
    web = web_of(request)
    try:
        caller = authenticate(request, tid, write=False)
    except WebError as e:
        page = web.renderer.page("error.html", status=e.status, detail=e.detail)
        return HTMLResponse(page, status_code=e.status)
    made = recap_of(web.service, caller.table_id, caller.name)
    return HTMLResponse(
        web.renderer.page(
            "recap.html", title=f"{made.table}: recap", tid=tid, body=to_html(made), me=caller
        )
    )
