"""Where the Inspector reads a blah.dev call from, and the template it was trained with. No
Textual import.

A call is looked for where it costs least: what the opening screen already holds (``lookup``),
then the local archive, then the platform. The trained template comes from the person's
config, else from the model's platform record (asked once per Inspector).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from api_client.errors import BlahError
from application.chat_template import resolve_template
from application.session.context import AppContext
from common.records import Call

__all__ = ["CallReader", "Found"]


@dataclass(frozen=True)
class Found:
    """A read's answer: the call (None: nowhere to be found) and whether the platform was asked
    and answered (so the app can say it is connected)."""

    entry: Call | None
    platform_answered: bool


class CallReader:
    def __init__(self, ctx: AppContext, lookup: Callable[[str], Call | None] | None = None) -> None:
        self._ctx = ctx
        self._lookup = lookup
        self._trained: tuple[str | None, str] | None = None

    async def find(self, log_id: str) -> Found:
        """The call ``log_id``; raises ``BlahError`` only when the platform had to be asked and
        failed (``NotFoundError`` when it has no such call)."""
        if self._lookup is not None:
            found = self._lookup(log_id)
            if found is not None:
                return Found(found, platform_answered=False)
        archive = self._ctx.archive
        if archive is not None:
            found = await asyncio.to_thread(archive.find, log_id)
            if found is not None:
                return Found(found, platform_answered=False)
        client = self._ctx.client
        if client is None:
            return Found(None, platform_answered=False)
        return Found(await client.get_log(log_id), platform_answered=True)

    async def trained_template(self, entry: Call) -> tuple[str | None, str]:
        """(template, where that came from), as ``resolve_template`` says. A platform that
        cannot say leaves it to the config, or unknown."""
        if self._trained is None:
            model = None
            client = self._ctx.client
            if not self._ctx.trained_template and client is not None:
                try:
                    model = await client.get_model(entry.model_id or self._ctx.model_id)
                except BlahError:
                    model = None
            self._trained = resolve_template(self._ctx.trained_template, model)
        return self._trained
