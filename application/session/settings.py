"""The session's settings, typed: the person's (``Config``, from the config file) and the app's
own tunables (poll pacing, page sizes, test and bench knobs) in one validated pydantic model.

Why a model and not a dict: a misspelt name is an error where it is written. ``Settings(
pol_interval=1)`` raises ``ValidationError``, ``settings.pol_interval`` raises
``AttributeError`` and ``settings.pol_interval = 1`` raises ``ValueError`` (and a type checker
sees all three); an assigned value is validated like the file's (``validate_assignment``).

Only ``Config``'s fields come from the config file: a tunable in the file is reported as an
unknown setting, as before it was silently ignored. ``AppContext.settings`` holds one of these.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, NonNegativeFloat, PositiveFloat, PositiveInt

from application.session.config import Config

__all__ = ["Settings", "TUNABLE_NAMES"]


class Settings(Config):
    """Every setting of a session. The person's come from ``Config`` (documented in the README,
    "Configuration"); the ones below are the app's own and are set only by code (tests,
    benches). ``None`` on a ``*_interval`` tunable means "the person's ``poll_interval``"."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, validate_default=True)

    # --- the session
    start_mode: str | None = None
    """Open this mode instead of Logs (e.g. ``"chatroom"``); an unknown mode opens Logs."""
    persist_theme: bool = True
    """Save a theme chosen in the palette to the config file (tests turn it off)."""
    timezone: Literal["local", "UTC"] = "local"
    """``"UTC"`` shows times in UTC (snapshots, shared screens); else local time."""

    # --- Logs
    logs_interval: PositiveFloat | None = None
    logs_max_interval: PositiveFloat = 30.0
    """The tail's back-off never waits longer (nor less than the interval itself)."""
    logs_initial_limit: PositiveInt = 200
    logs_older_page: PositiveInt = 500
    logs_plot: bool = True
    archive: bool = True
    """Keep the calls in the local archive (SQLite) as well as on screen."""

    # --- Diagnosis
    diagnosis_limit: PositiveInt | None = None
    """How many recent calls to read; ``None``: ``application.diagnosis.data.DEFAULT_LIMIT``."""

    # --- Chatroom
    chatroom_poll_interval: PositiveFloat | None = None
    chatroom_max_interval: PositiveFloat = 15.0
    chatroom_reply_timeout: PositiveFloat | None = None
    """Seconds to wait for replies to a post; ``None``: ``post.REPLY_TIMEOUT_S``."""
    chatroom_default_everyone: bool = False
    confirm_chat_post: bool = True

    # --- Runs
    run_poll_interval: PositiveFloat | None = None
    runs_idle_refresh_s: PositiveFloat = 60.0
    run_confirm_delay_s: NonNegativeFloat = 1.0

    # --- Playground
    chat_job_first_poll: PositiveFloat = 0.25

    # --- Webhooks ("listen here")
    webhook_listen_host: str = "127.0.0.1"
    webhook_listen_port: int = Field(default=0, ge=0, lt=65536)
    """0: any free port."""
    webhook_allow_remote: bool = False
    """Required for a non-loopback ``webhook_listen_host``."""
    webhook_public_url: str | None = None
    """The URL to register when the platform must reach this machine by another name."""

    def with_config(self, config: Config) -> Settings:
        """These settings with the person's (``config``, file and environment) applied."""
        data: dict[str, Any] = self.model_dump()
        data.update(config.model_dump(include=set(Config.model_fields)))
        return Settings.model_validate(data)


TUNABLE_NAMES: frozenset[str] = frozenset(Settings.model_fields) - frozenset(Config.model_fields)
"""The settings that are the app's own, not the person's (never read from the config file)."""
