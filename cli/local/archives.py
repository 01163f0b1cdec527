"""`blah-tui archives [list]` and `blah-tui archives prune [MODEL ...] [--older-than DAYS] [--yes]`.

The app keeps one archive per model and platform (a SQLite file of every call seen) so that
the Logs screen and search reach the whole history. They add up: this lists them (platform,
model, calls, size, last used) and deletes the ones a person names, or those unused for a
number of days. Nothing is deleted without first saying what, and without a yes (asked on
a terminal, or ``--yes``). No Textual import.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from api_client.archives.files import (
    ArchiveInfo,
    archives_dir,
    delete_archive,
    list_archives,
)
from application.session.settings.profile_table import IMPLICIT_PROFILE
from cli.exit_codes import ExitCode
from common.format import format_size
from common.safe_strings import one_line

DAY = 86_400.0


def archives_main(
    args: argparse.Namespace,
    *,
    data_dir: Path | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    ask: Callable[[str], str] | None = None,
    now: float | None = None,
) -> int:
    """Run ``blah-tui archives ...``; ``ask`` reads the confirmation (``input`` on a terminal)."""
    from application.session.paths import data_dir as default_data_dir

    out = out or sys.stdout
    err = err or sys.stderr
    folder = data_dir or default_data_dir()
    now = time.time() if now is None else now
    if getattr(args, "archives_command", None) == "prune":
        if ask is None and sys.stdin.isatty():
            ask = input
        return _prune(list_archives(folder), args.models, args.older_than, args.yes, folder, out, err, ask, now)
    return _list(list_archives(folder), folder, out, now)


# --------------------------------------------------------------------------- list


def _list(found: list[ArchiveInfo], folder: Path, out: TextIO, now: float) -> int:
    if not found:
        out.write(f"No archives in {archives_dir(folder)}.\n")
        return ExitCode.OK
    out.write(_table(found, now))
    total = sum(info.size for info in found)
    out.write(
        f"\n{len(found)} archive{'s' if len(found) != 1 else ''}, {format_size(total)} in {archives_dir(folder)}\n"
    )
    out.write("Delete some with: blah-tui archives prune MODEL ...  or  blah-tui archives prune --older-than DAYS\n")
    return ExitCode.OK


def _table(rows: Sequence[ArchiveInfo], now: float) -> str:
    header = ("PROFILE", "PLATFORM", "MODEL", "CALLS", "SIZE", "OF JSON", "LAST USED")
    by_profile = sorted(rows, key=lambda info: info.profile)  # stable: most recently used first in each
    cells = [header] + [
        (
            profile_of(info),
            platform_of(info),
            one_line(info.model_id, max_len=60) if info.model_id else f"? {one_line(info.path.name, 60)}",
            "?" if info.calls is None else f"{info.calls:,}",
            format_size(info.size),
            "?" if info.to_json is None else f"{info.to_json:.2f}x",
            last_used(info.last_used, now),
        )
        for info in by_profile
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    right = {3, 4, 5}  # numbers line up on the right
    lines = []
    for row in cells:
        parts = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  ".join(parts).rstrip())
    problems = [f"  {one_line(info.path.name, 100)}: {one_line(info.problem, 200)}" for info in rows if info.problem]
    return "\n".join(lines + (["", "Damaged:", *problems] if problems else [])) + "\n"


def profile_of(info: ArchiveInfo) -> str:
    """The profile whose archive it is: ``default`` for today's implicit blah.dev profile."""
    return one_line(info.profile or IMPLICIT_PROFILE, max_len=40)


def platform_of(info: ArchiveInfo) -> str:
    """The platform's address (what tells two platforms apart), else its label, else '?'."""
    return one_line(info.base_url or info.platform or "?", max_len=50)


def last_used(when: float, now: float) -> str:
    """``2026-12-01 14:35 (3 days ago)``: the date, and how long ago in the largest whole unit."""
    ago = max(0.0, now - when)
    if ago < 60:
        rel = "just now"
    elif ago < 3600:
        rel = f"{int(ago // 60)} min ago"
    elif ago < DAY:
        rel = f"{int(ago // 3600)} h ago"
    else:
        days = int(ago // DAY)
        rel = f"{days} day{'s' if days != 1 else ''} ago"
    return f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(when))} ({rel})"


# --------------------------------------------------------------------------- prune


def _prune(
    found: list[ArchiveInfo],
    models: list[str],
    older_than: float | None,
    yes: bool,
    folder: Path,
    out: TextIO,
    err: TextIO,
    ask: Callable[[str], str] | None,
    now: float,
) -> int:
    if not models and older_than is None:
        err.write("blah-tui archives prune: name the models (MODEL ...) or give --older-than DAYS; nothing deleted\n")
        return ExitCode.USAGE
    if older_than is not None and older_than < 0:
        err.write(
            f"blah-tui archives prune: --older-than must be 0 or more days (got {older_than:g}); nothing deleted\n"
        )
        return ExitCode.USAGE
    chosen: list[ArchiveInfo] = []
    for name in models:
        matched = [info for info in found if name in (info.model_id, info.path.name)]
        if not matched:
            err.write(f"blah-tui archives prune: no archive of {one_line(name, 100)!r} in {archives_dir(folder)}\n")
        chosen += [info for info in matched if info not in chosen]
    if older_than is not None:
        cutoff = now - older_than * DAY
        chosen += [info for info in found if info.last_used < cutoff and info not in chosen]
    if not chosen:
        out.write("Nothing to delete.\n")
        return ExitCode.NOT_FOUND if models else ExitCode.OK
    freed = sum(info.size for info in chosen)
    plural = "s" if len(chosen) != 1 else ""
    out.write(f"To delete ({len(chosen)} archive{plural}, {format_size(freed)}):\n")
    out.write(_table(chosen, now))
    if not yes:
        if ask is None:
            err.write("blah-tui archives prune: nothing deleted: not a terminal to ask on; add --yes to delete\n")
            return ExitCode.USAGE
        try:
            answer = ask(f"Delete these {len(chosen)} archives? [y/N] " if plural else "Delete this archive? [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            out.write("Nothing deleted.\n")
            return ExitCode.USAGE
    deleted = 0
    for info in chosen:
        try:
            deleted += delete_archive(info)
        except OSError as error:
            err.write(f"blah-tui archives prune: cannot delete {info.path}: {error.strerror or error}\n")
            return ExitCode.LOCAL_FILE
    out.write(f"Deleted {len(chosen)} archive{plural} ({format_size(deleted)} freed).\n")
    return ExitCode.OK
