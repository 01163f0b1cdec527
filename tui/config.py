"""The person's settings: a TOML file (read with tomllib, written with tomli-w), overridden
by ``BLAH_*`` environment variables, validated by pydantic-settings.

A broken file never stops the app: ``load_config`` returns the defaults plus a message that
names the file and the line. No Textual import (the CLI's ``config`` subcommand uses this).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from tui.paths import config_file

KNOWN_TEMPLATES = ("chatml", "llama2", "llama3", "alpaca", "gemma", "phi3", "mistral", "vicuna", "none")


class Config(BaseSettings):
    """Every setting, with its default. Environment variables ``BLAH_<FIELD>`` win over the file."""

    model_config = SettingsConfigDict(env_prefix="BLAH_", extra="ignore", validate_default=True)

    theme: str = "blah-dark"
    poll_interval: float = Field(2.0, ge=0.2, le=300)
    default_model: str | None = None
    base_url: str | None = None
    bell_on_run_end: bool = True
    templates: dict[str, str] = Field(default_factory=dict)  # model id -> trained chat template
    keymap: dict[str, str] = Field(default_factory=dict)  # binding id -> keys

    @field_validator("templates")
    @classmethod
    def _known_templates(cls, value: dict[str, str]) -> dict[str, str]:
        for model, template in value.items():
            if not template.strip():
                raise ValueError(f"template for {model!r} is empty")
        return value

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
        config = Config(**data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        problem = f"{path}: setting {where!r}: {first['msg']}; using the defaults"
        config = _defaults_with_env()
    return LoadedConfig(config=config, path=path, problem=problem)


def _defaults_with_env() -> Config:
    try:
        return Config()
    except ValidationError:
        # A bad environment variable: ignore the environment rather than refuse to start.
        saved = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith("BLAH_") and not k.startswith("BLAH_TUI_")}
        try:
            return Config()
        finally:
            os.environ.update(saved)


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
    Config(**data)  # raises ValidationError with a clear message before anything is written
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
    Config(**data)
    write_config(data, path)
    return True
