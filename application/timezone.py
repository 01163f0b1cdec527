"""Which time zone the screens show times in (a setting; snapshots and shared screens use UTC)."""

from __future__ import annotations

from datetime import UTC, tzinfo
from typing import Any

__all__ = ["screen_tz"]


def screen_tz(settings: dict[str, Any]) -> tzinfo | None:
    """``timezone = "UTC"`` in the settings shows UTC times (snapshots, shared screens);
    otherwise local time."""
    value = str(settings.get("timezone") or "").upper()
    return UTC if value in ("UTC", "Z") else None
