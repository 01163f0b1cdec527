"""A transport that breaks chosen requests on demand: the rest go to the network unchanged.

For pilot tests of what a screen does when the platform refuses or garbles one kind of
request (a refused key on the chatroom, a captive portal while a game is polled), without
breaking the requests around it as the simulator's global chaos would.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx

from tests.support import sim_http

Answer = Callable[[httpx.Request], httpx.Response]


def json_error(status: int, message: str) -> Answer:
    """The platform's own error shape (CONTRACT.md): ``{"error": ...}`` with ``status``."""
    return lambda request: httpx.Response(status, json={"error": message}, request=request)


def html_page(request: httpx.Request) -> httpx.Response:
    """A 200 that is not the platform's JSON (a captive portal, a proxy's page)."""
    return httpx.Response(200, text="<html>please log in to the hotel wifi</html>", request=request)


class FaultTransport(httpx.AsyncBaseTransport):
    """Passes every request on, except those :meth:`break_` names, answered by ``answer``."""

    def __init__(self) -> None:
        self._inner = sim_http.AsyncHTTPTransport()
        self._faults: list[tuple[str, str, Answer]] = []
        self.broken: list[tuple[str, str]] = []
        """(method, path) of each request answered by a fault."""

    def break_(self, method: str, path_part: str, answer: Answer) -> None:
        """Answer ``method`` requests whose path contains ``path_part`` with ``answer``."""
        self._faults.append((method, path_part, answer))

    def heal(self) -> None:
        self._faults.clear()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        for method, part, answer in self._faults:
            if request.method == method and part in request.url.path:
                self.broken.append((request.method, request.url.path))
                return answer(request)
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()
