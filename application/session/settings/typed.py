"""The session's settings, typed: the person's (``Config``, from the config file) and the app's
own tunables (poll pacing, page sizes, test and bench knobs) in one validated pydantic model.

Why a model and not a dict: a misspelt name is an error where it is written. ``Settings(
pol_interval=1)`` raises ``ValidationError``, ``settings.pol_interval`` raises
``AttributeError`` and ``settings.pol_interval = 1`` raises ``ValueError`` (and a type checker
sees all three); an assigned value is validated like the file's (``validate_assignment``).

Only ``Config``'s fields come from the config file: a tunable in the file is reported as an
unknown setting, as before it was silently ignored. ``AppContext.settings`` holds one of these.

A plain object, not a pydantic model (every session builds one on the start path): the values
are checked by ``application.session.settings.fields`` and anything those checks refuse is decided by
``settings_model.SettingsModel``, so a wrong name or value raises pydantic's
``ValidationError`` as it always did.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from application.session.settings.config import Config
from application.session.settings.fields import FieldSpec, boolean, choice, number, optional, string, whole_number

__all__ = ["TUNABLE_NAMES", "Settings"]


class Settings(Config):
    """Every setting of a session. The person's come from ``Config`` (documented in the README,
    "Configuration"); the ones below are the app's own and are set only by code (tests,
    benches). ``None`` on a ``*_interval`` tunable means "the person's ``poll_interval``"."""

    EXTRA_FORBIDDEN = True
    CHECK_ASSIGNMENT = True

    FIELDS: ClassVar[dict[str, FieldSpec]] = {
        **Config.FIELDS,
        "start_mode": FieldSpec(optional(string)),
        "persist_theme": FieldSpec(boolean, True),
        "timezone": FieldSpec(choice("local", "UTC"), "local"),
        "logs_interval": FieldSpec(optional(number(gt=0))),
        "logs_max_interval": FieldSpec(number(gt=0), 30.0),
        "logs_initial_limit": FieldSpec(whole_number(gt=0), 200),
        "logs_older_page": FieldSpec(whole_number(gt=0), 500),
        "logs_plot": FieldSpec(boolean, True),
        "archive": FieldSpec(boolean, True),
        "diagnosis_limit": FieldSpec(optional(whole_number(gt=0))),
        "chatroom_poll_interval": FieldSpec(optional(number(gt=0))),
        "chatroom_max_interval": FieldSpec(number(gt=0), 15.0),
        "chatroom_reply_timeout": FieldSpec(optional(number(gt=0))),
        "chatroom_default_everyone": FieldSpec(boolean, False),
        "confirm_chat_post": FieldSpec(boolean, True),
        "run_poll_interval": FieldSpec(optional(number(gt=0))),
        "runs_idle_refresh_s": FieldSpec(number(gt=0), 60.0),
        "run_confirm_delay_s": FieldSpec(number(ge=0), 1.0),
        "chat_job_first_poll": FieldSpec(number(gt=0), 0.25),
        "webhook_listen_host": FieldSpec(string, "127.0.0.1"),
        "webhook_listen_port": FieldSpec(whole_number(ge=0, lt=65536), 0),
        "webhook_allow_remote": FieldSpec(boolean, False),
        "webhook_public_url": FieldSpec(optional(string)),
    }

    # --- the session
    start_mode: str | None
    """Open this mode instead of Logs (e.g. ``"chatroom"``); an unknown mode opens Logs."""
    persist_theme: bool
    """Save a theme chosen in the palette to the config file (tests turn it off)."""
    timezone: Literal["local", "UTC"]
    """``"UTC"`` shows times in UTC (snapshots, shared screens); else local time."""

    # --- Logs
    logs_interval: float | None
    logs_max_interval: float
    """The tail's back-off never waits longer (nor less than the interval itself)."""
    logs_initial_limit: int
    logs_older_page: int
    logs_plot: bool
    archive: bool
    """Keep the calls in the local archive (SQLite) as well as on screen."""

    # --- Diagnosis
    diagnosis_limit: int | None
    """How many recent calls to read; ``None``: ``application.diagnosis.data.DEFAULT_LIMIT``."""

    # --- Chatroom
    chatroom_poll_interval: float | None
    chatroom_max_interval: float
    chatroom_reply_timeout: float | None
    """Seconds to wait for replies to a post; ``None``: ``post.REPLY_TIMEOUT_S``."""
    chatroom_default_everyone: bool
    confirm_chat_post: bool

    # --- Runs
    run_poll_interval: float | None
    runs_idle_refresh_s: float
    run_confirm_delay_s: float

    # --- Playground
    chat_job_first_poll: float

    # --- Webhooks ("listen here")
    webhook_listen_host: str
    webhook_listen_port: int
    """0: any free port."""
    webhook_allow_remote: bool
    """Required for a non-loopback ``webhook_listen_host``."""
    webhook_public_url: str | None
    """The URL to register when the platform must reach this machine by another name."""

    @classmethod
    def pydantic_model(cls) -> Any:
        from application.session.settings.validation import SettingsModel

        return SettingsModel

    def with_config(self, config: Config) -> Settings:
        """These settings with the person's (``config``, file and environment) applied."""
        data: dict[str, Any] = {name: getattr(self, name) for name in self.FIELDS}
        data.update({name: getattr(config, name) for name in Config.FIELDS})
        return Settings.model_validate(data)


TUNABLE_NAMES: frozenset[str] = frozenset(Settings.FIELDS) - frozenset(Config.FIELDS)
"""The settings that are the app's own, not the person's (never read from the config file)."""
