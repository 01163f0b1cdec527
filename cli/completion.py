"""`blah-tui completion bash|zsh|fish`: the shell's completion script for `blah-tui`.

The scripts are argcomplete's: the shell asks `blah-tui` itself what may come next, so they
complete every command, action and flag of the tree (:func:`cli.tree.build_parser`) and never
go stale. Install (once, then open a new shell):

    bash   blah-tui completion bash > ~/.local/share/bash-completion/completions/blah-tui
    zsh    blah-tui completion zsh > "${fpath[1]}/_blah-tui"
    fish   blah-tui completion fish > ~/.config/fish/completions/blah-tui.fish

While completing, the shell runs `blah-tui` with ``_ARGCOMPLETE`` set: :func:`complete_if_asked`
answers then, before any command runs; at any other time it costs one environment look-up.
"""

from __future__ import annotations

import argparse
import os
import sys

from cli.exit_codes import ExitCode

__all__ = ["SHELLS", "build_parser", "complete_if_asked", "run", "script"]

SHELLS = ("bash", "zsh", "fish")
PROG = "blah-tui"


def build_parser() -> argparse.ArgumentParser:
    from cli.parsing import OneLineParser

    parser = OneLineParser(
        prog="blah-tui completion",
        description=(
            "Print the shell completion script for blah-tui: `blah-tui completion bash > "
            "~/.local/share/bash-completion/completions/blah-tui` (zsh and fish: see docs/commands.md)."
        ),
    )
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    return parser


def script(shell: str) -> str:
    """The completion script for ``shell`` (argcomplete's)."""
    import argcomplete

    return argcomplete.shellcode([PROG], shell=shell)


def run(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui completion SHELL` (:mod:`cli.tree`)."""
    from cli.global_options import parse_command

    args = parse_command(build_parser(), argv, given)
    sys.stdout.write(script(args.shell))
    return ExitCode.OK


def complete_if_asked() -> None:
    """When the shell is asking for completions (``_ARGCOMPLETE`` set), answer from the whole
    tree and exit; otherwise return at once."""
    if "_ARGCOMPLETE" not in os.environ:
        return
    import argcomplete

    from cli.tree import build_parser as whole_tree

    argcomplete.autocomplete(whole_tree())
