"""`blah-tui login | logout | status | config ...`: the key and the settings, from the shell."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

import tomli_w
from pydantic import ValidationError

from application.config import Config, load_config, set_value
from application.credentials import credentials_file, forget_key, login_key
from application.keyring_store import KeyringUnavailable


def account_main(args: argparse.Namespace) -> int:
    if args.command == "login":
        return _login(getattr(args, "where", None) or "auto")
    if args.command == "logout":
        print("Stored key removed." if forget_key() else "No key was stored.")
        return 0
    if args.command == "status":
        return _status()
    return _config(args)


def _login(where: str) -> int:
    if sys.stdin.isatty():
        key = getpass.getpass("blah.dev API key (input hidden): ")
    else:
        key = sys.stdin.readline()
    try:
        stored = login_key(key, where=where)  # type: ignore[arg-type]
    except (ValueError, KeyringUnavailable) as error:
        print(f"blah-tui: {error}; nothing stored", file=sys.stderr)
        return 2
    if stored.kind == "keyring":
        print(f"Key stored in the system keyring ({stored.detail}).")
    else:
        why = f" ({stored.fallback})" if stored.fallback else ""
        print(f"Key stored in {stored.detail} (readable only by you){why}.")
    return 0


def _status() -> int:
    from application.credentials import resolve_key

    found = resolve_key(None)
    names = {"env": "$EVALS_BLAH_API_KEY", "config": f"the stored key ({credentials_file()})",
             "keyring": "the system keyring (blah-tui login)", "none": "none"}
    print(f"API key: {'set' if found.key else 'not set'}; source: {names.get(found.source, found.source)}")
    if found.problem:
        print(f"API key problem: {found.problem}")
    loaded = load_config()
    print(f"Config file: {loaded.path}{'' if loaded.path.exists() else ' (not created yet)'}")
    if loaded.problem:
        print("Config problem: " + loaded.problem.replace("\n", "\n                "))
    return 0


def _config(args: argparse.Namespace) -> int:
    if args.config_command == "path":
        print(load_config().path)
        return 0
    if args.config_command == "show":
        loaded = load_config()
        if loaded.problem:
            for line in loaded.problem.splitlines():
                print(f"# {line}", file=sys.stderr)
        print(tomli_w.dumps(_effective_settings(loaded.config)), end="")
        return 0
    if args.key == "theme" and args.value not in (names := theme_names()):
        print(f"blah-tui: no theme {args.value!r}; nothing written. Themes: {', '.join(names)}", file=sys.stderr)
        return 2
    try:
        path = set_value(args.key, args.value)
    except KeyError as error:
        print(f"blah-tui: {error.args[0]}", file=sys.stderr)
        return 2
    except ValidationError as error:
        first = error.errors()[0]
        print(f"blah-tui: {args.key}: {first['msg']}; nothing written", file=sys.stderr)
        return 2
    except Exception as error:  # a broken file: say where, write nothing
        print(f"blah-tui: cannot update {error}; nothing written", file=sys.stderr)
        return 2
    print(f"{args.key} = {args.value}  ({path})")
    return 0


def _effective_settings(config: Config) -> dict[str, Any]:
    """What the app will use, defaults included: ``base_url`` is shown even when the file does
    not set it (the app then talks to the default platform, which the person should see)."""
    from common.constants import DEFAULT_BASE_URL

    shown = config.model_dump(exclude_none=True)
    shown["base_url"] = config.base_url or DEFAULT_BASE_URL
    return shown


def theme_names() -> list[str]:
    """Every theme ``theme = ...`` may name: blah-tui's, Textual's and the person's own files
    (those that load). Textual is imported here only, for ``config set theme``."""
    from textual.theme import BUILTIN_THEMES as TEXTUAL_THEMES

    from themes.builtin import BUILTIN_THEMES, load_user_themes
    from application.paths import data_dir

    names = [theme.name for theme in BUILTIN_THEMES]
    names += [loaded.theme.name for loaded in load_user_themes(data_dir() / "themes") if loaded.theme is not None]
    names += [name for name in TEXTUAL_THEMES if name not in names]
    return names
