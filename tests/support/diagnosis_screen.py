"""Helpers for the Diagnosis screen tests (no tests of its own).

- ``CountingTransport``: a real HTTP transport that records every request (method, path), so a
  test can count the POSTs that actually left the client.
- ``FaultyTransport``: the same, answering chosen paths with an error or a timeout instead.
- ``diagnosis_app`` / ``loaded``: build the app on the Diagnosis screen and wait for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from textual.pilot import Pilot

from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from simulator.server import SimulatorServer
from tests.support.logs_world import wait_for
from tests.support.settings import Settings, settings_with
from tui.app import BlahApp, create_app
from tui.screens.diagnosis.screen import DiagnosisScreen

SIZE = (140, 45)
LIMIT = 400  # calls read per test: enough for every kind, fast on 2 cores


class CountingTransport(httpx.AsyncHTTPTransport):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.calls.append((request.method, request.url.path))
        return await super().handle_async_request(request)

    def count(self, method: str, suffix: str) -> int:
        return sum(1 for m, p in self.calls if m == method and p.endswith(suffix))


class FaultyTransport(CountingTransport):
    """``faults``: path suffix -> an ``httpx.Response`` to answer with, or an exception to raise."""

    def __init__(self, faults: dict[str, httpx.Response | Exception]) -> None:
        super().__init__()
        self.faults = faults

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        for suffix, fault in self.faults.items():
            if request.url.path.endswith(suffix):
                self.calls.append((request.method, request.url.path))
                if isinstance(fault, Exception):
                    raise fault
                return httpx.Response(fault.status_code, headers=fault.headers, content=fault.content, request=request)
        return await super().handle_async_request(request)


def client_for(
    sim: SimulatorServer, transport: httpx.AsyncBaseTransport, *, key: str | None = None, deadline: float = 30.0
) -> BlahClient:
    return BlahClient(
        sim.base_url,
        api_key=key if key is not None else sim.council_key,
        transport=transport,
        deadline=deadline,
        sleep=_no_sleep,
    )


async def _no_sleep(_seconds: float) -> None:
    return None


def diagnosis_app(sim: SimulatorServer, client: BlahClient | None, **settings: Any) -> BlahApp:
    ctx = AppContext(
        model_id=sim.person_model_id,
        client=client,
        base_url=sim.base_url,
        settings=settings_with(
            Settings(start_mode="diagnosis", archive=False, timezone="UTC", diagnosis_limit=LIMIT), **settings
        ),
    )
    return create_app(ctx)


def screen_of(app: BlahApp) -> DiagnosisScreen:
    for screen in app.screen_stack:
        if isinstance(screen, DiagnosisScreen):
            return screen
    raise AssertionError(f"no DiagnosisScreen in {app.screen_stack}")


async def loaded(pilot: Pilot[Any], app: BlahApp) -> DiagnosisScreen:
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, DiagnosisScreen) and app.screen.view is not None and not app.screen.busy,
        timeout=30,
        what="the diagnosis",
    )
    await pilot.pause()
    return screen_of(app)


async def until(pilot: Pilot[Any], predicate: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    await wait_for(pilot, predicate, timeout=timeout, what=what)
