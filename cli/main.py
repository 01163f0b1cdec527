"""`blah-tui`: the one entry of the command line.

    blah-tui [GLOBAL OPTIONS]                 the app (--demo, --base-url URL, --model ID, --log ID, ...)
    blah-tui [GLOBAL OPTIONS] COMMAND ...     a command of :data:`cli.tree.COMMANDS`

One router: the global options typed before the command are read (:func:`cli.global_options.split`),
refused when the command does not take them, and handed to the command, whose module is
imported only then (``blah-tui bakeoff gate`` never loads Textual, nor any other command).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from cli.exit_codes import ExitCode
from cli.output import end_quietly_on_closed_pipe
from cli.tree import build_parser, find, root_parser, version

__all__ = ["build_parser", "main", "resolve_api_key", "run"]
_version = version  # `blah-tui --version`'s, read by tests


def resolve_api_key(flag: str | None) -> tuple[str | None, str]:
    """(key, source name) as :func:`application.session.credentials.resolve_key`; a problem with the stored key
    is said on stderr."""
    from application.session.credentials.stored_key import resolve_key

    found = resolve_key(flag)
    if found.problem:
        print(f"blah-tui: {found.problem}; going on without a key", file=sys.stderr)
    return found.key, found.source


def main(argv: Sequence[str] | None = None) -> int:
    """`blah-tui ...`; the exit code (:class:`cli.exit_codes.ExitCode`). A closed standard
    output (``| head``) ends any command quietly with 141."""
    if argv is None and "_ARGCOMPLETE" in os.environ:  # the shell asking what may come next
        from cli.completion import complete_if_asked

        complete_if_asked()
    from cli.migration_progress import migration_progress_bar

    try:
        try:
            with migration_progress_bar():  # an archive of an older layout is rewritten on first open
                code = _route(list(sys.argv[1:] if argv is None else argv))
        except SystemExit:  # --help, --version or a usage error: what argparse wrote is flushed here
            sys.stdout.flush()
            raise
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return end_quietly_on_closed_pipe()


def _route(argv: list[str]) -> int:
    from cli.global_options import Refused, refuse_unused, split

    parts = split(argv)
    command = find(parts[1]) if parts is not None else None
    if parts is None or command is None:  # the app, or a command line only the app's parser can explain
        parser, _ = root_parser()
        args = parser.parse_args(argv)  # --help, --version and every mistake end here
        if getattr(args, "json", False):
            parser.error("the app has no JSON form; --json goes with a command (blah-tui COMMAND --json)")
        problem = _base_url_problem(getattr(args, "base_url", None))
        if problem:  # said before the app's modules are imported
            print(f"blah-tui: {problem}", file=sys.stderr)
            return ExitCode.USAGE
        from common.gc_tuning import collector_off_for_startup

        with collector_off_for_startup():  # from here on, the app's start (common/gc_tuning.py)
            from cli.app.launch import run_app

            return run_app(args)
    given, _, rest = parts
    try:
        refuse_unused(command.name, command.takes, given, verb=command.verb)
    except Refused as refused:
        print(f"blah-tui: {refused}", file=sys.stderr)
        return ExitCode.USAGE
    return command.entry()(rest, given)


def _base_url_problem(raw: str | None) -> str | None:
    """A plain sentence when ``--base-url`` cannot be a platform address, else None."""
    if raw is None:
        return None
    from application.session.base_url import base_url_problem, explain_bad_base_url

    problem = base_url_problem(raw)
    return explain_bad_base_url(raw, problem) if problem else None


def run() -> None:
    """The ``blah-tui`` program (its console script, and ``python -m cli.main``): ``main``, then
    the interpreter's exit without its last full collection (:func:`common.gc_tuning.exit_without_collection`)."""
    code = main()
    from common.gc_tuning import exit_without_collection

    exit_without_collection(code)


if __name__ == "__main__":
    run()
