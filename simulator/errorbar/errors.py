"""Refusals in the contract's envelope: ``{"error": {"message", "type", "code"}}``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from simulator.http import install_refusals, json_response

# type and code per status (402's and 404's are the contract's; the others ASSUMED)
KINDS: dict[int, tuple[str, str]] = {
    400: ("invalid_request_error", "invalid_request"),
    401: ("authentication_error", "invalid_api_key"),
    402: ("insufficient_quota", "insufficient_balance"),
    403: ("permission_error", "forbidden"),
    404: ("invalid_request_error", "not_found"),
    405: ("invalid_request_error", "method_not_allowed"),
    409: ("invalid_request_error", "conflict"),
    412: ("invalid_request_error", "precondition_failed"),
    422: ("invalid_request_error", "unprocessable"),
    429: ("rate_limit_error", "rate_limited"),
}


def envelope(status: int, message: str, code: str | None = None) -> dict[str, Any]:
    kind, default_code = KINDS.get(status, ("api_error", "server_error"))
    return {"error": {"message": message, "type": kind, "code": code or default_code}}


class QueueError(Exception):
    def __init__(
        self, status: int, message: str, code: str | None = None, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.message, self.code, self.headers = status, message, code, headers or {}

    def response(self) -> Response:
        return json_response(envelope(self.status, self.message, self.code), self.status, self.headers)


def install_error_handlers(app: FastAPI) -> None:
    def http_error(exc: StarletteHTTPException) -> Response:
        text = {404: "Not found", 405: "Method not allowed"}.get(exc.status_code, str(exc.detail))
        return QueueError(exc.status_code, text).response()

    install_refusals(app, QueueError, lambda text: QueueError(400, text).response(), http_error)
