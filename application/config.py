"""The person's settings: a TOML file (read with tomllib, written with tomli-w), overridden
by ``BLAH_*`` environment variables (read by pydantic-settings), validated by pydantic.

pydantic-settings is imported only when a ``BLAH_<SETTING>`` variable is set: without one it
would only hand the file's values through (and its import is ~0.08 s of the app's start-up).

A broken file never stops the app: ``load_config`` returns the defaults plus a message that
names the file and the line. No Textual import (the CLI's ``config`` subcommand uses this).
"""

from __future__ import annotations

import functools
import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from common.constants import KNOWN_TEMPLATES  # noqa: F401 - re-exported: palette_settings imports it from here
from application.paths import config_file
from application.profile_table import IMPLICIT_PROFILE, Profile, profile_name_problem

if TYPE_CHECKING:
    from pydantic_settings import BaseSettings, PydanticBaseSettingsSource



ENV_PREFIX = "BLAH_"


class Config(BaseModel):
    """Every setting, with its default. Environment variables ``BLAH_<FIELD>`` win over the
    file: build one with ``make_config`` (``Config(...)`` alone ignores the environment)."""

    model_config = ConfigDict(extra="ignore", validate_default=True)

    theme: str = "blah-dark"
    poll_interval: float = Field(default=2.0, ge=0.2, le=300)
    default_model: str | None = None
    base_url: str | None = None
    bell_on_run_end: bool = True
    templates: dict[str, str] = Field(default_factory=dict)  # model id -> trained chat template
    keymap: dict[str, str] = Field(default_factory=dict)  # binding id -> keys
    profiles: dict[str, Profile] = Field(default_factory=dict)  # [profiles.NAME]: application.profiles
    default_profile: str | None = None  # the profile used when --profile is not given

    @field_validator("templates")
    @classmethod
    def _known_templates(cls, value: dict[str, str]) -> dict[str, str]:
        for model, template in value.items():
            if not template.strip():
                raise ValueError(f"template for {model!r} is empty")
        return value

    @field_validator("profiles")
    @classmethod
    def _profile_names(cls, value: dict[str, Profile]) -> dict[str, Profile]:
        for name in value:
            problem = profile_name_problem(name)
            if problem:
                raise ValueError(f"profile {name!r}: {problem}")
        return value

    @model_validator(mode="after")
    def _default_profile_exists(self) -> Config:
        named = self.default_profile
        if named is not None and named not in self.profiles and named != IMPLICIT_PROFILE:
            raise ValueError(f"default_profile {named!r} names no [profiles.*] table")
        return self



def _env_overrides() -> bool:
    """Is a ``BLAH_<FIELD>`` variable set (case-insensitive, as pydantic-settings reads them)?"""
    wanted = {f"{ENV_PREFIX}{name}".lower() for name in Config.model_fields}
    return any(key.lower() in wanted for key in os.environ)


@functools.cache
def _env_config_class() -> type[Config]:
    """``Config`` read through pydantic-settings: the environment wins over the file."""
    from pydantic_settings import BaseSettings, SettingsConfigDict

    class EnvConfig(BaseSettings, Config):
        model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore", validate_default=True)

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


def make_config(**data: Any) -> Config:
    """The settings from the file's ``data`` with the environment's ``BLAH_*`` overrides.
    Raises ``ValidationError`` naming the bad setting."""
    return _env_config_class()(**data) if _env_overrides() else Config(**data)


@dataclass
class LoadedConfig:
    config: Config
    path: Path
    problem: str | None = None  # a human message when the file could not be used


def load_config(path: Path | None = None) -> LoadedConfig:
    """Read the config file (missing is fine). On a syntax or validation error, return the
    defaults (still with environment overrides) and a message naming the line or field."""
    path = path or config_file()
    data: dict[str, Any] = {}
    problem: str | None = None
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            problem = f"{path}: {error}; using the defaults"
        except (OSError, UnicodeDecodeError) as error:
            problem = f"{path}: cannot read it ({error}); using the defaults"
    try:
        config = make_config(**data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        problem = f"{path}: setting {where!r}: {first['msg']}; using the defaults"
        config = _defaults_with_env()
    return LoadedConfig(config=config, path=path, problem=problem)


def _defaults_with_env() -> Config:
    try:
        return make_config()
    except ValidationError:
        # A bad environment variable: ignore the environment rather than refuse to start.
        return Config()


def _parse_value(raw: str) -> Any:
    """A command-line value as TOML would read it (numbers, booleans), else a string."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw


def set_value(key: str, raw_value: str, path: Path | None = None) -> Path:
    """``blah-tui config set KEY VALUE``: dotted keys reach tables (``templates.my-model``).
    The new file is validated before it replaces the old one; the old one is never lost."""
    path = path or config_file()
    data: dict[str, Any] = {}
    if path.exists():
        data = tomllib.loads(path.read_text(encoding="utf-8"))  # a broken file is reported, not overwritten
    parts = key.split(".")
    top = parts[0]
    if top not in Config.model_fields:
        raise KeyError(f"unknown setting {top!r}; known: {', '.join(sorted(Config.model_fields))}")
    table = data
    for part in parts[:-1]:
        table = table.setdefault(part, {})
        if not isinstance(table, dict):
            raise KeyError(f"{key!r}: {part!r} is not a table")
    table[parts[-1]] = _parse_value(raw_value)
    make_config(**data)  # raises ValidationError with a clear message before anything is written
    write_config(data, path)
    return path


def write_config(data: dict[str, Any], path: Path | None = None) -> None:
    path = path or config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(tomli_w.dumps(data), encoding="utf-8")
    tmp.replace(path)


def save_setting(key: str | Sequence[str], value: Any, path: Path | None = None) -> bool:
    """The app's own writes (theme, poll interval...): same validation as ``set_value``.

    ``key`` is dotted (``"templates.my-model"``) or a sequence of parts (for table keys that
    contain dots themselves, e.g. a model id); ``value=None`` removes the setting. Returns False
    (and writes nothing) when the file is broken: the person has to fix it by hand first.
    Raises ``ValidationError`` when the result would not be a valid config."""
    path = path or config_file()
    data: dict[str, Any] = {}
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
            return False  # never overwrite a file the person has to fix by hand
    parts = key.split(".") if isinstance(key, str) else list(key)
    table = data
    for part in parts[:-1]:
        table = table.setdefault(part, {})
    if value is None:
        table.pop(parts[-1], None)
    else:
        table[parts[-1]] = value
    make_config(**data)
    write_config(data, path)
    return True
