"""Which time zone the screens show times in (a setting; snapshots and shared screens use UTC)."""

from __future__ import annotations

from datetime import UTC, tzinfo
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from application.session.settings.typed import Settings

__all__ = ["screen_tz"]


def screen_tz(settings: Settings) -> tzinfo | None:
    """``Settings(timezone="UTC")`` shows UTC times (snapshots, shared screens); otherwise local time."""
    return UTC if settings.timezone == "UTC" else None
