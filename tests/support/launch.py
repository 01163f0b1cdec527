"""Run ``blah-tui ARGV`` (``cli.main.main``) with the app driven headless: what a person gets
from the shell, config file and environment included, with a pilot to press keys (no tests here)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from cli.main import main
from tests.support.waiting import wait_for
from tui.app import BlahApp

Inspect = Callable[[BlahApp, Pilot[Any]], Awaitable[None]]


def launch_headless(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], inspect: Inspect, *, size: tuple[int, int] = (140, 45)
) -> int:
    """``main(argv)`` with ``BlahApp.run`` replaced by a headless run that waits for the first
    screen, then hands the app and its pilot to ``inspect``. Returns main's exit code."""

    def drive(self: BlahApp, *args: Any, **kwargs: Any) -> None:
        async def go() -> None:
            async with self.run_test(size=size) as pilot:
                await wait_for(pilot, lambda: self.screen is not None and self.is_running, what="the app")
                await pilot.pause()
                await inspect(self, pilot)

        asyncio.run(go())

    monkeypatch.setattr(BlahApp, "run", drive)
    return main(argv)
