"""Request bodies read strictly: JSON's own grammar, finite numbers only.

Python's :mod:`json` accepts ``NaN``, ``Infinity`` and ``-Infinity`` (none of them
JSON) and reads ``1e400`` as infinity. A value like that would pass the field
checks of a free-form object (an action's fields, a sheet, options) and later fail
as the answer is written, a 500. Every body of the API is read by
:func:`loads_strict` instead, which refuses them where they stand, and the route
class :class:`StrictRoute` makes FastAPI use it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.routing import APIRoute
from starlette.responses import Response


class NotFinite(ValueError):
    """A number JSON cannot carry, found while reading a body."""


def _constant(text: str) -> float:
    raise NotFinite(f"{text} is not a JSON number (numbers must be finite)")


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotFinite(f"{text} is too large a number (numbers must be finite)")
    return value


_DECODER = json.JSONDecoder(parse_constant=_constant, parse_float=_number)


def loads_strict(body: bytes | str) -> Any:
    """``body`` parsed as JSON, refusing what is not finite with a
    :class:`json.JSONDecodeError` that says what and where (its ``pos``)."""
    text = body.decode("utf-8") if isinstance(body, bytes) else body
    try:
        return _DECODER.decode(text)
    except NotFinite as e:
        token = str(e).split(" ", 1)[0]
        raise json.JSONDecodeError(str(e), text, max(0, text.find(token))) from None
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, 0) from None


class StrictRequest(Request):
    """A request whose :meth:`json` is :func:`loads_strict`."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = loads_strict(await self.body())
        return self._json


class StrictRoute(APIRoute):
    """An API route that reads its JSON body with :class:`StrictRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictRequest(request.scope, request.receive))

        return strict
