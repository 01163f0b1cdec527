"""``blah-tui profiles add | use | remove``: change the config file's profiles and nothing else.

Each change is made as a small text edit (append a ``[profiles.NAME]`` table, set or drop
one ``default_profile = ...`` line, cut one table out), so comments, order and every other
setting stay as the person wrote them. The edit is then checked: the edited file must read
back (tomllib) as exactly the old settings plus the change, and be a valid config. When a
file is laid out so that a text edit cannot do it (say ``profiles = { ... }`` inline), the
whole file is rewritten with tomli-w instead, which loses comments: the old file is first
copied to ``config.toml.bak`` and the caller is told so. A file that does not parse is never
touched.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from application.session.paths import config_file
from application.session.settings.config import make_config
from application.session.settings.profile_table import IMPLICIT_PROFILE, Profile
from common.atomic_write import write_atomic

__all__ = ["ConfigEditError", "ProfileEdit", "add_profile", "remove_profile", "use_profile"]

_HEADER = re.compile(r"^\s*\[")  # a table header ([x] or [[x]]) starts a line
_DEFAULT_LINE = re.compile(r"^\s*default_profile\s*=")


class ConfigEditError(ValueError):
    """The change cannot be made (the message says why); nothing was written."""


@dataclass(frozen=True)
class ProfileEdit:
    path: Path
    backup: Path | None = None  # set when the file had to be rewritten whole (comments lost)


def _read(path: Path) -> tuple[str, dict[str, Any]]:
    if not path.exists():
        return "", {}
    try:
        text = path.read_text(encoding="utf-8")
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigEditError(f"{path}: {error}; fix the file first, nothing written") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigEditError(f"{path}: cannot read it ({error}); nothing written") from None


def _normal(data: dict[str, Any]) -> dict[str, Any]:
    """An empty ``profiles`` table and none at all read the same."""
    return {k: v for k, v in data.items() if not (k == "profiles" and not v)}


def _validate(data: dict[str, Any]) -> None:
    """The result must be a valid config (raises pydantic's ValidationError, naming the key)."""
    make_config(**data)


def _apply(path: Path, text: str, wanted: dict[str, Any], edit: Callable[[str], str]) -> ProfileEdit:
    _validate(wanted)
    try:
        edited = edit(text)
        fits = _normal(tomllib.loads(edited)) == _normal(wanted)
    except (tomllib.TOMLDecodeError, ValueError):
        fits = False
    backup = None
    if not fits:  # laid out so that a line edit cannot do it: rewrite whole, keep the old file
        edited = tomli_w.dumps(wanted)
        if path.exists():
            backup = path.with_name(path.name + ".bak")
            shutil.copy2(path, backup)
    _write(path, edited)
    return ProfileEdit(path, backup)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text)


def _line(key: str, value: Any) -> str:
    return tomli_w.dumps({key: value})  # TOML's own quoting of any string: ``key = "..."\n``


def _with_default_line(text: str, name: str | None) -> str:
    """``text`` with its top-level ``default_profile`` line set to ``name`` (None: removed)."""
    lines = text.splitlines(keepends=True)
    top_end = next((i for i, line in enumerate(lines) if _HEADER.match(line)), len(lines))
    new = [] if name is None else [_line("default_profile", name)]
    for i in range(top_end):
        if _DEFAULT_LINE.match(lines[i]):
            return "".join(lines[:i] + new + lines[i + 1 :])
    if not new:
        return text
    if top_end == len(lines) and lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return "".join(lines[:top_end] + new + lines[top_end:])


def _table_text(name: str, profile: Profile) -> str:
    body = "".join(_line(k, v) for k, v in profile.model_dump(exclude_none=True).items())
    return f"[profiles.{name}]\n{body}"


def add_profile(name: str, profile: Profile, path: Path | None = None, *, make_default: bool = False) -> ProfileEdit:
    """Append ``[profiles.NAME]``; refuses a name in use (a stored key belongs to it and must
    not follow it to another address: remove it first)."""
    path = path or config_file()
    text, data = _read(path)
    profiles = dict(data.get("profiles") or {})
    if name in profiles or name == IMPLICIT_PROFILE:
        raise ConfigEditError(
            f"profile {name!r} exists already: `blah-tui profiles remove {name}` first; nothing written"
        )
    profiles[name] = profile.model_dump(exclude_none=True)
    wanted = {**data, "profiles": profiles}
    if make_default:
        wanted["default_profile"] = name

    def edit(old: str) -> str:
        new = old if not old or old.endswith("\n") else old + "\n"
        new += ("\n" if new.strip() else "") + _table_text(name, profile)
        return _with_default_line(new, name) if make_default else new

    return _apply(path, text, wanted, edit)


def use_profile(name: str, path: Path | None = None) -> ProfileEdit:
    """Set ``default_profile``; ``default`` with no table of that name means "today's settings"
    and drops the line."""
    path = path or config_file()
    text, data = _read(path)
    profiles = data.get("profiles") or {}
    if name not in profiles and name != IMPLICIT_PROFILE:
        known = ", ".join([IMPLICIT_PROFILE, *profiles]) if IMPLICIT_PROFILE not in profiles else ", ".join(profiles)
        raise ConfigEditError(f"no profile {name!r} (known: {known}); nothing written")
    wanted = dict(data)
    value = None if name == IMPLICIT_PROFILE and name not in profiles else name
    if value is None:
        wanted.pop("default_profile", None)
    else:
        wanted["default_profile"] = value
    return _apply(path, text, wanted, lambda old: _with_default_line(old, value))


def _without_table(text: str, name: str) -> str:
    header = re.compile(rf'^\s*\[\s*profiles\s*\.\s*(?:{re.escape(name)}|"{re.escape(name)}")\s*\]\s*(?:#.*)?$')
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if header.match(line)), None)
    if start is None:
        raise ValueError("no such table header")
    end = next((i for i in range(start + 1, len(lines)) if _HEADER.match(lines[i])), len(lines))
    while end == len(lines) and start > 0 and not lines[start - 1].strip():  # the last table: no blank tail
        start -= 1
    return "".join(lines[:start] + lines[end:])


def remove_profile(name: str, path: Path | None = None) -> ProfileEdit:
    """Cut ``[profiles.NAME]`` out; a ``default_profile`` naming it goes too."""
    path = path or config_file()
    text, data = _read(path)
    profiles = dict(data.get("profiles") or {})
    if name not in profiles:
        raise ConfigEditError(f"no profile {name!r} in {path}; nothing written")
    del profiles[name]
    wanted = {**data, "profiles": profiles}
    drops_default = data.get("default_profile") == name
    if drops_default:
        wanted.pop("default_profile")

    def edit(old: str) -> str:
        new = _without_table(old, name)
        return _with_default_line(new, None) if drops_default else new

    return _apply(path, text, wanted, edit)
