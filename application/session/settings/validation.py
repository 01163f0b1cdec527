"""The settings as pydantic models: the one authority on what a setting accepts and what a
refusal says. Not on the start path: ``application.session.settings.config`` (``Config``) and
``application.session.settings.typed`` (``Settings``) hold the values in plain objects checked by
``application.session.settings.fields``, and come here only when a check refuses a value (the error
is then pydantic's own, as before), when ``BLAH_*`` variables are set (pydantic-settings
reads them), and when the person edits settings (``config set``, the palette, ``profiles``).

``tests/application/session/settings/test_settings_fields.py`` holds the two to the same fields,
defaults and verdicts.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeFloat,
    PositiveFloat,
    PositiveInt,
    field_validator,
    model_validator,
)

from application.session.profile_names import IMPLICIT_PROFILE, profile_name_problem
from application.session.settings.profile_table import Profile

if TYPE_CHECKING:
    from pydantic_settings import BaseSettings, PydanticBaseSettingsSource

__all__ = ["ENV_PREFIX", "ConfigModel", "SettingsModel", "env_config_model"]

ENV_PREFIX = "BLAH_"


def _non_empty(template: str) -> str:
    if not template.strip():
        raise ValueError("the template name is empty")
    return template


#: A trained chat template's name; checked per model, so one bad entry leaves the others usable.
TemplateName = Annotated[str, AfterValidator(_non_empty)]


class ConfigModel(BaseModel):
    """Every setting of the config file, with its default (``application.session.settings.config.Config``
    holds the values)."""

    model_config = ConfigDict(extra="ignore", validate_default=True, title="Config")

    theme: str = "blah-dark"
    poll_interval: float = Field(default=2.0, ge=0.2, le=300)
    default_model: str | None = None
    base_url: str | None = None
    bell_on_run_end: bool = True
    templates: dict[str, TemplateName] = Field(default_factory=dict)  # model id -> trained chat template
    keymap: dict[str, str] = Field(default_factory=dict)  # binding id -> keys
    profiles: dict[str, Profile] = Field(default_factory=dict)  # [profiles.NAME]: application.session.profiles.resolve
    default_profile: str | None = None  # the profile used when --profile is not given

    @field_validator("profiles")
    @classmethod
    def _profile_names(cls, value: dict[str, Profile]) -> dict[str, Profile]:
        for name in value:
            problem = profile_name_problem(name)
            if problem:
                raise ValueError(f"profile {name!r}: {problem}")
        return value

    @model_validator(mode="after")
    def _default_profile_exists(self) -> ConfigModel:
        named = self.default_profile
        if named is not None and named not in self.profiles and named != IMPLICIT_PROFILE:
            raise ValueError(f"default_profile {named!r} names no [profiles.*] table")
        return self


class SettingsModel(ConfigModel):
    """The person's settings and the app's tunables (``application.session.settings.typed.Settings``
    documents each one and holds the values)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, validate_default=True, title="Settings")

    start_mode: str | None = None
    persist_theme: bool = True
    timezone: Literal["local", "UTC"] = "local"
    logs_interval: PositiveFloat | None = None
    logs_max_interval: PositiveFloat = 30.0
    logs_initial_limit: PositiveInt = 200
    logs_older_page: PositiveInt = 500
    logs_plot: bool = True
    archive: bool = True
    diagnosis_limit: PositiveInt | None = None
    chatroom_poll_interval: PositiveFloat | None = None
    chatroom_max_interval: PositiveFloat = 15.0
    chatroom_reply_timeout: PositiveFloat | None = None
    chatroom_default_everyone: bool = False
    confirm_chat_post: bool = True
    run_poll_interval: PositiveFloat | None = None
    runs_idle_refresh_s: PositiveFloat = 60.0
    run_confirm_delay_s: NonNegativeFloat = 1.0
    chat_job_first_poll: PositiveFloat = 0.25
    webhook_listen_host: str = "127.0.0.1"
    webhook_listen_port: int = Field(default=0, ge=0, lt=65536)
    webhook_allow_remote: bool = False
    webhook_public_url: str | None = None


@functools.cache
def env_config_model() -> type[ConfigModel]:
    """``ConfigModel`` read through pydantic-settings: the environment wins over the file."""
    from pydantic_settings import BaseSettings, SettingsConfigDict

    class EnvConfig(BaseSettings, ConfigModel):
        model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore", validate_default=True, title="Config")

        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            # The file's values arrive as init kwargs; the environment must win over them.
            return (env_settings, init_settings)

    return EnvConfig


def values_of(model: BaseModel) -> dict[str, Any]:
    """A validated model's field values as they are (nested models stay models)."""
    return {name: getattr(model, name) for name in type(model).model_fields}
