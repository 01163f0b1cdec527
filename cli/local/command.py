"""The parsers and the start of the commands about this machine's own state: `profiles`,
`login`, `logout`, `status`, `config` and `archives`. Each command's code (:mod:`cli.local.profiles`,
:mod:`cli.local.account`, :mod:`cli.local.archives`) is imported only when it runs."""

from __future__ import annotations

import argparse

from cli.global_options import add_global_options, parse_command
from cli.parsing import OneLineParser, describe_subcommands


def build_parser_profiles() -> argparse.ArgumentParser:
    from application.session.platforms import PLATFORM_NAMES

    profiles = OneLineParser(
        prog="blah-tui profiles",
        description=(
            "A profile names a platform (blah, blobfish or errorbar), its address and, for blah.dev, "
            "the model to open. `--profile NAME` picks one for the app or a command; `use` sets the "
            "default. With no profiles, the app uses the top-level settings (profile 'default')."
        ),
    )
    actions = profiles.add_subparsers(dest="profiles_command", metavar="ACTION")
    actions.add_parser("list", help="print every profile, its address and where its key comes from (the default)")
    add = actions.add_parser("add", help="add a profile")
    add.add_argument("name", metavar="NAME", help="letters, digits, '-' or '_'")
    add.add_argument("--platform", choices=PLATFORM_NAMES, default="blah", help="the platform (default blah)")
    add.add_argument(
        "--base-url",
        dest="profile_base_url",
        metavar="URL",
        help="the origin, scheme://host[:port] (default: the platform's own address)",
    )
    add.add_argument("--default-model", metavar="ID", help="blah.dev: the model the app opens on")
    add.add_argument("--use", action="store_true", help="make it the default profile too")
    use = actions.add_parser("use", help="make NAME the default profile")
    use.add_argument("name", metavar="NAME")
    remove = actions.add_parser("remove", help="remove a profile and forget its stored key")
    remove.add_argument("name", metavar="NAME")
    describe_subcommands(actions)  # `profiles ACTION --help` opens with its one-line help
    add_global_options(profiles, ("--profile",))
    return profiles


def run_profiles(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui profiles ...` (:mod:`cli.tree`)."""
    args = parse_command(build_parser_profiles(), argv, given)  # --help ends here
    from cli.local.profiles import profiles_main

    return profiles_main(args)


def build_parser_login() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="blah-tui login",
        description=(
            "Store the API key for later runs: in the system keyring when one works (asked for at "
            "most 3 s), else in credentials.toml beside the config file, readable only by you (0600)."
        ),
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--keyring",
        dest="where",
        action="store_const",
        const="keyring",
        help="the system keyring only (fail rather than write a file)",
    )
    where.add_argument(
        "--file", dest="where", action="store_const", const="file", help="the private file only (never ask the keyring)"
    )
    add_global_options(parser, ("--profile",))
    return parser


def build_parser_logout() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="blah-tui logout", description="Forget the stored API key.")
    add_global_options(parser, ("--profile",))
    return parser


def build_parser_status() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="blah-tui status",
        description=("Where each profile's API key comes from (never the key) and which config file is read."),
    )
    add_global_options(parser, ("--profile",))
    return parser


def build_parser_config() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="blah-tui config", description="Show or change settings.")
    actions = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    config_set = actions.add_parser("set", help="set KEY to VALUE (dotted keys reach tables: templates.MODEL)")
    config_set.add_argument(
        "key",
        help="a setting: theme, poll_interval, default_model, base_url, bell_on_run_end, "
        "templates.MODEL, keymap.BINDING_ID",
    )
    config_set.add_argument("value", help="read as TOML when it can be (numbers, true/false), else as text")
    actions.add_parser("show", help="print the effective settings")
    actions.add_parser("path", help="print the config file's path")
    describe_subcommands(actions)
    return parser


def _run(name: str, parser: argparse.ArgumentParser, argv: list[str], given: argparse.Namespace) -> int:
    args = parse_command(parser, argv, given)
    args.command = name
    from cli.local.account import account_main

    return account_main(args)


def run_login(argv: list[str], given: argparse.Namespace) -> int:
    return _run("login", build_parser_login(), argv, given)


def run_logout(argv: list[str], given: argparse.Namespace) -> int:
    return _run("logout", build_parser_logout(), argv, given)


def run_status(argv: list[str], given: argparse.Namespace) -> int:
    return _run("status", build_parser_status(), argv, given)


def run_config(argv: list[str], given: argparse.Namespace) -> int:
    return _run("config", build_parser_config(), argv, given)


def build_parser_archives() -> argparse.ArgumentParser:
    archives = OneLineParser(
        prog="blah-tui archives",
        description=(
            "The app keeps every call it sees of a model in a local archive (one file per model "
            "and platform). With no action, or `list`, print them: platform, model, calls, size, "
            "last used. `prune` deletes those named, or those unused for DAYS days."
        ),
    )
    actions = archives.add_subparsers(dest="archives_command", metavar="ACTION")
    actions.add_parser("list", help="print every archive (the default)")
    prune = actions.add_parser(
        "prune",
        help="delete the archives of the models named, or those unused for DAYS days",
        description=(
            "Delete archives: those of each MODEL named (a model id, or an archive's file name), "
            "and/or those not used for --older-than DAYS days. Says what it will delete first, "
            "then asks (or deletes at once with --yes)."
        ),
    )
    prune.add_argument(
        "models", nargs="*", metavar="MODEL", help="a model id (every platform's archive of it) or a file name"
    )
    prune.add_argument("--older-than", type=float, metavar="DAYS", help="archives not used for this many days")
    prune.add_argument("-y", "--yes", action="store_true", help="delete without asking")
    return archives


def run_archives(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui archives ...` (:mod:`cli.tree`)."""
    args = parse_command(build_parser_archives(), argv, given)  # --help ends here
    from cli.local.archives import archives_main

    return archives_main(args)
