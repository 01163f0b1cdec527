"""The person's settings: a TOML file (read with tomllib, written with tomli-w), overridden
by ``BLAH_*`` environment variables (read by pydantic-settings), validated as pydantic's
``ConfigModel`` (``application.session.settings.validation``) validates them.

The start path builds no pydantic model: ``Config`` holds the values in a plain object and a
file whose values the plain checks (``application.session.settings.fields``) accept is read without
pydantic (its import and first model builds were ~60-90 ms of the Logs screen's first frame).
A value they refuse, a ``BLAH_<SETTING>`` variable, and every write (``config set``, the app's
own saves) go through the pydantic model, whose verdicts and messages are the ones the
person reads.

A broken file never stops the app: ``load_config`` returns the defaults plus a message that
names the file and the line. No Textual import (the CLI's ``config`` subcommand uses this).
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from application.session.credentials.key_redaction import hide_keys, shown_address
from application.session.paths import config_file
from application.session.profile_names import IMPLICIT_PROFILE, profile_name_problem
from application.session.settings.fields import (
    REFUSED,
    FieldSpec,
    PlainModel,
    boolean,
    number,
    optional,
    profile_tables,
    string,
    string_table,
)
from common.atomic_write import write_atomic
from common.constants import KNOWN_TEMPLATES  # noqa: F401 - re-exported: palette_settings imports it from here

if TYPE_CHECKING:
    from pydantic import ValidationError

ENV_PREFIX = "BLAH_"


def _template_name(value: Any) -> Any:
    """A trained chat template's name: a non-empty string (checked per model, so one bad
    entry leaves the others usable)."""
    return value if type(value) is str and value.strip() else REFUSED


class Config(PlainModel):
    """Every setting, with its default. Environment variables ``BLAH_<FIELD>`` win over the
    file: build one with ``make_config`` (``Config(...)`` alone ignores the environment).
    ``Config(**data)`` raises pydantic's ``ValidationError`` naming a bad setting."""

    FIELDS: ClassVar[dict[str, FieldSpec]] = {
        "theme": FieldSpec(string, "blah-dark"),
        "poll_interval": FieldSpec(number(ge=0.2, le=300), 2.0),
        "default_model": FieldSpec(optional(string)),
        "base_url": FieldSpec(optional(string)),
        "bell_on_run_end": FieldSpec(boolean, True),
        "templates": FieldSpec(string_table(_template_name), factory=dict),  # model id -> trained chat template
        "keymap": FieldSpec(string_table(), factory=dict),  # binding id -> keys
        "profiles": FieldSpec(profile_tables(profile_name_problem), factory=dict),  # [profiles.NAME]: profiles.py
        "default_profile": FieldSpec(optional(string)),  # the profile used when --profile is not given
    }

    theme: str
    poll_interval: float
    default_model: str | None
    base_url: str | None
    bell_on_run_end: bool
    templates: dict[str, str]
    keymap: dict[str, str]
    profiles: dict[str, Any]  # name -> application.session.settings.profile_table.Profile
    default_profile: str | None

    @classmethod
    def pydantic_model(cls) -> Any:
        from application.session.settings.validation import ConfigModel

        return ConfigModel

    @classmethod
    def _whole_ok(cls, values: dict[str, Any]) -> bool:
        named = values.get("default_profile")
        return named is None or named in values.get("profiles", {}) or named == IMPLICIT_PROFILE


FIELD_NAMES: tuple[str, ...] = tuple(Config.FIELDS)
"""The settings of the file (``Config``'s fields), without building the pydantic model."""


def _env_overrides() -> bool:
    """Is a ``BLAH_<FIELD>`` variable set (case-insensitive, as pydantic-settings reads them)?"""
    wanted = {f"{ENV_PREFIX}{name}".lower() for name in FIELD_NAMES}
    return any(key.lower() in wanted for key in os.environ)


def make_config(**data: Any) -> Config:
    """The settings from the file's ``data`` with the environment's ``BLAH_*`` overrides.
    Raises ``ValidationError`` naming the bad setting."""
    if not _env_overrides():
        return Config(**data)
    from application.session.settings.validation import env_config_model, values_of

    return Config(**values_of(env_config_model()(**data)))


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
        import tomllib  # only with a file to read: a start without one does not load the parser

        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            problems.append(f"{path}: {error}; using the defaults")
        except (OSError, UnicodeDecodeError) as error:
            problems.append(f"{path}: cannot read it ({error}); using the defaults")
    usable: dict[str, Any] = {}
    for key, value in data.items():
        if key in FIELD_NAMES or key in RESERVED_KEYS:
            usable[key] = value
        else:
            problems.append(f"{path}: unknown setting {key!r}, ignored{_did_you_mean(key)}")
    config, invalid = _validate_leaving_out_bad_keys(usable, path)
    problems += invalid
    return LoadedConfig(config=config, path=path, problem="\n".join(problems) or None)


def _did_you_mean(key: str) -> str:
    close = difflib.get_close_matches(key, list(FIELD_NAMES), n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(FIELD_NAMES)})"


def _validate_leaving_out_bad_keys(data: dict[str, Any], path: Path) -> tuple[Config, list[str]]:
    """``make_config(**data)``; each setting that fails is named and left out (its default is
    used), the others are kept. A bad ``BLAH_*`` variable is named too, and the environment is
    then ignored rather than refusing to start."""
    if not _env_overrides() and Config._checked(data) is not None:
        return Config(**data), []  # the start path: the plain checks accept the whole file
    from pydantic import ValidationError

    try:
        return make_config(**data), []
    except ValidationError as error:
        problems, kept = _leave_out(error, data, path)
    try:
        return make_config(**kept), problems
    except ValidationError:
        pass
    try:  # still wrong: the environment was (it wins over the file); start without it
        return Config(**kept), [*problems, f"the {ENV_PREFIX}* environment variables are ignored"]
    except ValidationError:
        return Config(), [*problems, "using the defaults"]


def _leave_out(error: ValidationError, data: dict[str, Any], path: Path) -> tuple[list[str], dict[str, Any]]:
    """One message per refused setting, and ``data`` without them."""
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
    return problems, kept


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
    field = Config.FIELDS.get(name)
    if field is None:
        return ""
    if field.factory is not None:
        return " (empty)"
    return " (none)" if field.default is None else f" ({_toml_value(field.default)})"


def _parse_value(raw: str) -> Any:
    """A command-line value as TOML would read it (numbers, booleans), else a string."""
    import tomllib  # imported where used: load_config leaves it out when there is no file

    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw


def set_value(key: str, raw_value: str, path: Path | None = None) -> Path:
    """``blah-tui config set KEY VALUE``: dotted keys reach tables (``templates.my-model``).
    The new file is validated before it replaces the old one; the old one is never lost."""
    import tomllib  # imported where used: load_config leaves it out when there is no file

    path = path or config_file()
    data: dict[str, Any] = {}
    if path.exists():
        data = tomllib.loads(path.read_text(encoding="utf-8"))  # a broken file is reported, not overwritten
    parts = key.split(".")
    top = parts[0]
    if top not in FIELD_NAMES:
        raise KeyError(f"unknown setting {top!r}; known: {', '.join(sorted(FIELD_NAMES))}")
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
    import tomli_w  # writes only

    path = path or config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, tomli_w.dumps(data))


def save_setting(key: str | Sequence[str], value: Any, path: Path | None = None) -> bool:
    """The app's own writes (theme, poll interval...): same validation as ``set_value``.

    ``key`` is dotted (``"templates.my-model"``) or a sequence of parts (for table keys that
    contain dots themselves, e.g. a model id); ``value=None`` removes the setting. Returns False
    (and writes nothing) when the file is broken: the person has to fix it by hand first.
    Raises ``ValidationError`` when the result would not be a valid config."""
    import tomllib  # imported where used: load_config leaves it out when there is no file

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
