"""`blah-tui login | logout | status | config ...`: the key and the settings, from the shell."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import TYPE_CHECKING, Any

import tomli_w
from pydantic import ValidationError

from application.session.credentials.keyring_store import KeyringUnavailable
from application.session.credentials.stored_key import credentials_file, forget_key, login_key
from application.session.platforms import foreign_key_problem
from application.session.profiles.resolve import describe_key_source
from application.session.settings.config import Config, load_config, set_value
from cli.exit_codes import ExitCode

if TYPE_CHECKING:
    from application.session.credentials.stored_key import Where
    from application.session.profiles.resolve import ResolvedProfile


def account_main(args: argparse.Namespace) -> int:
    profile = getattr(args, "profile", None)
    if args.command == "login":
        return _login(getattr(args, "where", None) or "auto", profile)
    if args.command == "logout":
        chosen = _profile_or_fail(profile)
        if chosen is None:
            return ExitCode.USAGE
        print("Stored key removed." if forget_key(profile=chosen.name) else "No key was stored.")
        return ExitCode.OK
    if args.command == "status":
        return _status(profile)
    return _config(args)


def _profile_or_fail(name: str | None) -> ResolvedProfile | None:
    """The profile ``login``/``logout`` act on (``--profile``, else the default one), read
    without its key; None (said on stderr) when there is no such profile."""
    from application.session.profiles.resolve import ProfileError, inspect_profile

    try:
        return inspect_profile(name, read_stored=False)
    except ProfileError as error:
        print(f"blah-tui: {error}", file=sys.stderr)
        return None


def _login(where: Where, profile_name: str | None) -> int:
    profile = _profile_or_fail(profile_name)
    if profile is None:
        return ExitCode.USAGE
    spec = profile.spec
    whose = "" if profile.label == "" else f" for profile {profile.name}"
    if sys.stdin.isatty():
        key = getpass.getpass(f"{spec.title} API key{whose} (input hidden): ")
    else:
        key = sys.stdin.readline()
    refusal = foreign_key_problem(key, spec, source="standard input")
    if refusal:
        print(f"blah-tui: {refusal}; nothing stored", file=sys.stderr)
        return ExitCode.USAGE
    try:
        stored = login_key(key, where=where, profile=profile.name)
    except (ValueError, KeyringUnavailable) as error:
        print(f"blah-tui: {error}; nothing stored", file=sys.stderr)
        return ExitCode.USAGE
    if stored.kind == "keyring":
        print(f"Key{whose} stored in the system keyring ({stored.detail}).")
    else:
        why = f" ({stored.fallback})" if stored.fallback else ""
        print(f"Key{whose} stored in {stored.detail} (readable only by you){why}.")
    return ExitCode.OK


def _key_line(profile: ResolvedProfile) -> str:
    """Whether the profile has a key and where it comes from; never any part of the key."""
    if profile.key_refusal:
        return f"API key: refused ({profile.key_refusal})"
    names = {
        "config": f"the stored key ({credentials_file()})",
        "keyring": "the system keyring (blah-tui login"
        + ("" if profile.label == "" else f" --profile {profile.name}")
        + ")",
    }
    source = names.get(profile.key_source) or describe_key_source(profile.key_source, profile.spec)
    return f"API key: {'set' if profile.has_key else 'not set'}; source: {source}"


def _status(profile_name: str | None) -> int:
    from application.session.profiles.resolve import (
        ProfileError,
        inspect_profile,
        known_profiles,
    )

    loaded = load_config()
    try:
        chosen = inspect_profile(profile_name, config=loaded.config)
    except ProfileError as error:
        print(f"blah-tui: {error}", file=sys.stderr)
        return ExitCode.USAGE
    print(_key_line(chosen))
    if chosen.key_problem:
        print(f"API key problem: {chosen.key_problem}")
    print(f"Config file: {loaded.path}{'' if loaded.path.exists() else ' (not created yet)'}")
    if loaded.problem:
        print("Config problem: " + loaded.problem.replace("\n", "\n                "))
    if not loaded.config.profiles and profile_name is None:
        return 0  # no profiles: today's lines only
    names = [chosen.name] if profile_name is not None else list(known_profiles(loaded.config))
    for name in names:
        try:
            profile = chosen if name == chosen.name else inspect_profile(name, config=loaded.config)
        except ProfileError as error:
            print(f"Profile {name}: {error}")
            continue
        mark = " (in use)" if name == chosen.name else ""
        print(f"Profile {name}{mark}: {profile.spec.title} at {profile.origin}; {_key_line(profile)}")
        if profile.key_problem and profile is not chosen:
            print(f"  API key problem: {profile.key_problem}")
    return ExitCode.OK


def _config(args: argparse.Namespace) -> int:
    if args.config_command == "path":
        print(load_config().path)
        return ExitCode.OK
    if args.config_command == "show":
        loaded = load_config()
        if loaded.problem:
            for line in loaded.problem.splitlines():
                print(f"# {line}", file=sys.stderr)
        print(tomli_w.dumps(_effective_settings(loaded.config)), end="")
        return ExitCode.OK
    if args.key == "theme" and args.value not in (names := theme_names()):
        print(f"blah-tui: no theme {args.value!r}; nothing written. Themes: {', '.join(names)}", file=sys.stderr)
        return ExitCode.USAGE
    try:
        path = set_value(args.key, args.value)
    except KeyError as error:
        print(f"blah-tui: {error.args[0]}", file=sys.stderr)
        return ExitCode.USAGE
    except ValidationError as error:
        first = error.errors()[0]
        print(f"blah-tui: {args.key}: {first['msg']}; nothing written", file=sys.stderr)
        return ExitCode.USAGE
    except Exception as error:  # a broken file: say where, write nothing
        print(f"blah-tui: cannot update {error}; nothing written", file=sys.stderr)
        return ExitCode.USAGE
    print(f"{args.key} = {args.value}  ({path})")
    return ExitCode.OK


def _effective_settings(config: Config) -> dict[str, Any]:
    """What the app will use, defaults included: ``base_url`` is shown even when the file does
    not set it (the app then talks to the default platform, which the person should see)."""
    from common.constants import DEFAULT_BASE_URL

    shown = config.model_dump(exclude_none=True)
    shown["base_url"] = config.base_url or DEFAULT_BASE_URL
    if not shown.get("profiles"):
        shown.pop("profiles", None)  # no profiles: the output is what it was before they existed
    return shown


def theme_names() -> list[str]:
    """Every theme ``theme = ...`` may name: blah-tui's, Textual's and the person's own files
    (those that load). Textual is imported here only, for ``config set theme``."""
    from textual.theme import BUILTIN_THEMES as TEXTUAL_THEMES

    from application.session.paths import data_dir
    from themes.builtin import BUILTIN_THEMES, load_user_themes

    names = [theme.name for theme in BUILTIN_THEMES]
    names += [loaded.theme.name for loaded in load_user_themes(data_dir() / "themes") if loaded.theme is not None]
    names += [name for name in TEXTUAL_THEMES if name not in names]
    return names
