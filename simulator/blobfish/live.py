"""``live=True``: the person's agents keep publishing, one evaluation every few seconds."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from simulator.blobfish.store import EvaluationStore

LIVE_PUBLISH_SECONDS = 20.0
"""Simulated seconds between two publications (divided by ``speed``)."""
log = logging.getLogger("simulator.blobfish.live")


class LivePublisher:
    def __init__(self, store: EvaluationStore, speed: float, live: bool) -> None:
        self.store = store
        self.speed = speed
        self.live = live
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.live:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(LIVE_PUBLISH_SECONDS / self.speed)
            try:
                self.store.publish_generated()
            except Exception:  # a bug here must not end the stream silently for good
                log.exception("live publication failed")
