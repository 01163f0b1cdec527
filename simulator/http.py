"""Errors as ``{"error": "<text>"}`` (blah.dev), the way every platform installs its refusals, and fast
JSON responses (orjson)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol, cast

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response


class ApiError(Exception):
    """Raise from a route to answer ``{"error": message}`` with ``status``."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}

    def response(self) -> Response:
        return error_response(self.status, self.message, self.headers)


def dump_json(data: Any) -> bytes:
    """orjson, except for text holding a lone UTF-16 surrogate (a model can emit one; a JS
    platform's JSON.stringify then sends it as a ``\\udXXX`` escape): stdlib json escapes it
    the same way instead of failing the whole answer with a 500."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return json.dumps(data, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(dump_json(data), status_code=status, media_type="application/json", headers=headers)


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    return json_response({"error": message}, status, headers)


def not_found(what: str) -> ApiError:
    return ApiError(404, f"{what} not found")


class Refusal(Protocol):
    """A platform's error, raised from a route: it answers itself in the platform's shape."""

    def response(self) -> Response: ...


def describe_invalid(exc: RequestValidationError) -> str:
    """What was wrong with a request's query or body, in at most three "where: what" parts."""
    parts: list[str] = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path"))
        parts.append(f"{loc or 'request'}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def install_refusals(
    app: FastAPI,
    refusal: type[Exception],
    invalid: Callable[[str], Response],
    http: Callable[[StarletteHTTPException], Response],
) -> None:
    """Every platform answers its own ``refusal`` (a :class:`Refusal`) as it says, a request
    FastAPI could not validate with ``invalid(description)``, and Starlette's own errors (404
    of an unknown path, 405, a body that is not JSON) with ``http``."""

    async def refused(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, refusal)
        return cast(Refusal, exc).response()

    async def validation_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return invalid(describe_invalid(exc))

    async def http_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        return http(exc)

    app.add_exception_handler(refusal, refused)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)


def _http_error(exc: StarletteHTTPException) -> Response:
    if exc.status_code == 400:
        # FastAPI answers a body that is not JSON at all with 400; the contract (and the spec)
        # say a bad body is 422, like a body of the wrong shape.
        return error_response(422, f"invalid request: {exc.detail}")
    text = {404: "not found", 405: "method not allowed"}.get(exc.status_code, str(exc.detail))
    return error_response(exc.status_code, text, dict(exc.headers or {}))


def install_error_handlers(app: FastAPI) -> None:
    """blah.dev's: ``{"error": text}``; a bad query or body is 422."""
    install_refusals(app, ApiError, lambda text: error_response(422, f"invalid request: {text}"), _http_error)
