"""Typed settings for tests: ``Settings(timezone="UTC", persist_theme=False)`` for one app, and
``settings_with(PRESET, **changes)`` to start from a shared preset (a dict of keyword arguments,
e.g. a quick log tail) with changes on top. Both validate: a misspelt name or a wrong type fails
where the test writes it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from application.session.settings.typed import Settings

__all__ = ["Settings", "settings_with"]


def settings_with(preset: Mapping[str, Any] | Settings | None = None, /, **changes: Any) -> Settings:
    """A new ``Settings`` from ``preset`` with ``changes`` winning over it. Each call returns a
    fresh object, so one app changing its settings (a theme chosen, a poll interval set) never
    reaches another test's."""
    base = preset.model_dump(exclude_unset=True) if isinstance(preset, Settings) else dict(preset or {})
    return Settings.model_validate({**base, **changes})
