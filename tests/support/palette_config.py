"""The config file as a person meets it, for pilot tests: write it, read back what the app
saved, and run `blah-tui ARGV` with the app driven headless."""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path
from typing import Any

import pytest

from application.session.paths import config_file
from cli.main import main
from tests.support.waiting import wait_for
from tui.app import BlahApp

SIZE = (140, 45)


def write_config(text: str) -> Path:
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def saved() -> dict[str, Any]:
    return tomllib.loads(config_file().read_text(encoding="utf-8"))


def launch(monkeypatch: pytest.MonkeyPatch, argv: list[str], inspect: Any) -> None:
    """Run `blah-tui ARGV` with the app driven headless; ``inspect(app, pilot)`` looks at it."""

    def drive(self: BlahApp, *args: Any, **kwargs: Any) -> None:
        async def go() -> None:
            async with self.run_test(size=SIZE) as pilot:
                await wait_for(pilot, lambda: self.screen is not None and self.is_running, what="the app")
                await pilot.pause()
                await inspect(self, pilot)

        asyncio.run(go())

    monkeypatch.setattr(BlahApp, "run", drive)
    assert main(argv) == 0
