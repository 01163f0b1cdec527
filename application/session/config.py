"""The person's settings: a TOML file (read with tomllib, written with tomli-w), overridden
by ``BLAH_*`` environment variables (read by pydantic-settings), validated by pydantic.

pydantic-settings is imported only when a ``BLAH_<SETTING>`` variable is set: without one it
would only hand the file's values through (and its import is ~0.08 s of the app's start-up).

A broken file never stops the app: ``load_config`` returns the defaults plus a message that
names the file and the line. No Textual import (the CLI's ``config`` subcommand uses this).
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import tomli_w
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from application.session.key_redaction import hide_keys, shown_address
from application.session.paths import config_file
from application.session.profile_table import IMPLICIT_PROFILE, Profile, profile_name_problem
from common.constants import KNOWN_TEMPLATES  # noqa: F401 - re-exported: palette_settings imports it from here

if TYPE_CHECKING:
    from pydantic_settings import BaseSettings, PydanticBaseSettingsSource



ENV_PREFIX = "BLAH_"


def _non_empty(template: str) -> str:
    if not template.strip():
        raise ValueError("the template name is empty")
    return template


#: A trained chat template's name; checked per model, so one bad entry leaves the others usable.
TemplateName = Annotated[str, AfterValidator(_non_empty)]


class Config(BaseModel):
    """Every setting, with its default. Environment variables ``BLAH_<FIELD>`` win over the
    file: build one with ``make_config`` (``Config(...)`` alone ignores the environment)."""

    model_config = ConfigDict(extra="ignore", validate_default=True)

    theme: str = "blah-dark"
    poll_interval: float = Field(default=2.0, ge=0.2, le=300)
    default_model: str | None = None
    base_url: str | None = None
    bell_on_run_end: bool = True
    templates: dict[str, TemplateName] = Field(default_factory=dict)  # model id -> trained chat template
    keymap: dict[str, str] = Field(default_factory=dict)  # binding id -> keys
    profiles: dict[str, Profile] = Field(default_factory=dict)  # [profiles.NAME]: application.session.profiles
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


#: Tables another part of the app reads from the file (``[profiles.NAME]``, ``default_profile``):
#: accepted here, never reported as unknown, not interpreted by ``Config``.
RESERVED_KEYS: frozenset[str] = frozenset({"profiles", "default_profile"})


@dataclass
class LoadedConfig:
    config: Config
    path: Path
    problem: str | None = None  # a human message (one line per problem) when part or all of the file was not used


def load_config(path: Path | None = None) -> LoadedConfig:
    """Read the config file (missing is fine); the file is only read, never rewritten here.

    A syntax error (or an unreadable file) gives the defaults (still with environment
    overrides) and a message naming the line. A setting with a wrong value, or one the app does
    not know (a typo), is left out and named in the message (which key, what was expected, which
    file); every other setting of the file is still used."""
    path = path or config_file()
    data: dict[str, Any] = {}
    problems: list[str] = []
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            problems.append(f"{path}: {error}; using the defaults")
        except (OSError, UnicodeDecodeError) as error:
            problems.append(f"{path}: cannot read it ({error}); using the defaults")
    usable: dict[str, Any] = {}
    for key, value in data.items():
        if key in Config.model_fields or key in RESERVED_KEYS:
            usable[key] = value
        else:
            problems.append(f"{path}: unknown setting {key!r}, ignored{_did_you_mean(key)}")
    config, invalid = _validate_leaving_out_bad_keys(usable, path)
    problems += invalid
    return LoadedConfig(config=config, path=path, problem="\n".join(problems) or None)


def _did_you_mean(key: str) -> str:
    close = difflib.get_close_matches(key, list(Config.model_fields), n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(Config.model_fields)})"


def _validate_leaving_out_bad_keys(data: dict[str, Any], path: Path) -> tuple[Config, list[str]]:
    """``make_config(**data)``; each setting that fails is named and left out (its default is
    used), the others are kept. A bad ``BLAH_*`` variable is named too, and the environment is
    then ignored rather than refusing to start."""
    try:
        return make_config(**data), []
    except ValidationError as error:
        problems: list[str] = []
        kept = {key: dict(value) if isinstance(value, dict) else value for key, value in data.items()}
        for item in error.errors():
            loc = item["loc"]
            top = str(loc[0]) if loc else ""
            table = kept.get(top)
            if len(loc) >= 2 and isinstance(table, dict) and loc[1] in table:
                del table[loc[1]]  # one bad entry of a table: the table's other entries are kept
                what = "leaving it out"
            else:
                kept.pop(top, None)
                what = f"using the default{_default_text(top)}"
            problems.append(_describe(item, path, what))
    try:
        return make_config(**kept), problems
    except ValidationError:
        pass
    try:  # still wrong: the environment was (it wins over the file); start without it
        return Config(**kept), [*problems, f"the {ENV_PREFIX}* environment variables are ignored"]
    except ValidationError:
        return Config(), [*problems, "using the defaults"]


def _describe(item: Any, path: Path, what: str) -> str:
    """``<file>: poll_interval = 0.001: should be greater than or equal to 0.2; using the default (2.0)``:
    which key, the value found, what was expected, which file (or environment variable)."""
    loc = item["loc"]
    env_name = f"{ENV_PREFIX}{loc[0] if loc else ''}".upper()
    where = f"${env_name}" if any(name.upper() == env_name for name in os.environ) else str(path)
    key = ".".join(_toml_key(str(part)) for part in loc) or "(the file)"
    expected = str(item["msg"]).removeprefix("Value error, ").replace("Input should be", "should be")
    value = _toml_value(item.get("input"))
    if loc and loc[-1] == "base_url":  # an address may carry a key (user:key@host, ?key=...)
        value = _toml_value(shown_address(str(item.get("input"))))
    return hide_keys(f"{where}: {key} = {value}: {expected}; {what}")


def _toml_key(part: str) -> str:
    return part if part and all(ch.isascii() and (ch.isalnum() or ch in "_-") for ch in part) else json.dumps(part)


def _toml_value(value: Any, max_len: int = 60) -> str:
    """A value as the file spells it (near enough: JSON and TOML agree on scalars), escaped, cut short."""
    text = json.dumps(value, ensure_ascii=True, default=str)
    return text if len(text) <= max_len else text[: max_len - 1] + "…"


def _default_text(name: str) -> str:
    field = Config.model_fields.get(name)
    if field is None:
        return ""
    if field.default_factory is not None:
        return " (empty)"
    return " (none)" if field.default is None else f" ({_toml_value(field.default)})"


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
