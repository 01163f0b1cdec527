"""`blah-tui profiles list | add | use | remove`: the platforms this person talks to.

No Textual import. The config file is edited in place (``application.session.profiles.edit``): a
change that a line edit cannot make rewrites the file after copying it to ``.bak``, and
this command says so.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from application.session.platforms import platform_spec
from cli.exit_codes import ExitCode

if TYPE_CHECKING:
    from application.session.profiles.edit import ProfileEdit

# The parser is built on every start (`blah-tui --help`, `blah-tui export`): what the actions
# need (pydantic, the config, the credentials) is imported when one runs.


def profiles_main(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from application.session.credentials.stored_key import forget_key
    from application.session.profiles.edit import (
        ConfigEditError,
        remove_profile,
        use_profile,
    )

    action = getattr(args, "profiles_command", None) or "list"
    try:
        if action == "list":
            return _list()
        if action == "add":
            return _add(args)
        if action == "use":
            edit = use_profile(args.name)
            _say(f"Default profile: {args.name}", edit)
            return ExitCode.OK
        edit = remove_profile(args.name)
        # The stored key went with the profile: a new profile of the same name (maybe at another
        # address) must never inherit it.
        forgot = forget_key(profile=args.name)
        _say(f"Profile {args.name} removed" + ("; its stored key forgotten" if forgot else ""), edit)
        return ExitCode.OK
    except ConfigEditError as error:
        return _fail(str(error))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return _fail(f"{where}: {first['msg']}; nothing written")


def _add(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from application.session.profiles.edit import add_profile
    from application.session.settings.profile_table import Profile, profile_name_problem

    problem = profile_name_problem(args.name)
    if problem:
        return _fail(f"profile {args.name!r}: {problem}; nothing written")
    try:
        profile = Profile(platform=args.platform, base_url=args.profile_base_url, default_model=args.default_model)
    except ValidationError as error:
        return _fail(
            f"profile {args.name!r}: {error.errors()[0]['msg'].removeprefix('Value error, ')}; nothing written"
        )
    edit = add_profile(args.name, profile, make_default=args.use)
    spec = platform_spec(profile.platform)
    _say(f"Profile {args.name} added ({spec.title})" + ("; it is the default now" if args.use else ""), edit)
    login = f"blah-tui login --profile {args.name}"
    print(f"Its key: --api-key, ${spec.key_env}, or `{login}`.")
    return ExitCode.OK


def _list() -> int:
    from application.session.profiles.resolve import (
        ProfileError,
        inspect_profile,
        known_profiles,
    )
    from application.session.settings.config import load_config
    from application.session.settings.profile_table import IMPLICIT_PROFILE
    from common.format import DASH
    from common.safe_strings import one_line

    loaded = load_config()
    if loaded.problem:
        print(f"blah-tui: {loaded.problem}", file=sys.stderr)
    config = loaded.config
    current = config.default_profile or IMPLICIT_PROFILE
    rows = [("", "NAME", "PLATFORM", "ADDRESS", "DEFAULT MODEL", "KEY")]
    for name in known_profiles(config):
        try:
            resolved = inspect_profile(name, config=config, read_stored=False)
        except ProfileError as error:
            rows.append(("*" if name == current else "", name, DASH, one_line(str(error), 60), DASH, DASH))
            continue
        key = "refused: another platform's key" if resolved.key_refusal else resolved.key_source_text
        rows.append(
            (
                "*" if name == current else "",
                name,
                resolved.spec.title,
                resolved.origin,
                one_line(resolved.default_model, 40) if resolved.default_model else DASH,
                key,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    return ExitCode.OK


def _say(message: str, edit: ProfileEdit) -> None:
    print(f"{message}  ({edit.path})")
    if edit.backup is not None:
        print(
            f"The file was rewritten whole (its layout did not allow a small edit): comments are lost; "
            f"the old file is kept as {edit.backup}"
        )


def _fail(message: str) -> int:
    print(f"blah-tui: {message}", file=sys.stderr)
    return ExitCode.USAGE
