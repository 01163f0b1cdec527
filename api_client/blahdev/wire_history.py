"""A model's history as the platform sent it (``WireEntry`` pages), for ``export``."""

from __future__ import annotations

import asyncio
from typing import Any

from api_client.blahdev.log_history import LogHistory


class WireLogHistory(LogHistory):
    """``LogHistory`` (newest first, each call once, the same paging and read ahead) whose
    pages hold ``WireEntry`` calls with their JSONL lines instead of validated ``LogEntry``
    objects (see ``api_client.blahdev.wire_logs``). ``api`` needs ``get_logs_wire``."""

    _bulk: Any = None
    _bulk_made = False

    def _fetch(self, before: int | None) -> asyncio.Future[Any]:
        if not self._bulk_made:  # pages go over one light connection where it applies
            self._bulk_made = True
            make = getattr(self._api, "wire_bulk_getter", None)
            self._bulk = make() if make is not None else None
        # the api here has get_logs_wire too (BlahClient); LogHistory's protocol names only get_logs
        return asyncio.ensure_future(
            self._api.get_logs_wire(  # type: ignore[attr-defined]
                self._model_id,
                source=self._source,
                before=before,
                errors_only=self._errors_only,
                limit=self._page_size,
                **({"bulk": self._bulk} if self._bulk is not None else {}),
            )
        )

    async def aclose(self) -> None:
        try:
            await super().aclose()
        finally:
            if self._bulk is not None:
                await self._bulk.aclose()
