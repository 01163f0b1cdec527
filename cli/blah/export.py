"""`blah-tui export MODEL_ID [--source S] [--errors-only] [--since MS] [-o FILE]`.

Writes a model's whole call history as JSONL: one LogEntry per line, with the platform's
own field names (every field of the wire contract, ``null`` when absent), **newest first**
(the order the platform pages in, so nothing is held in memory). ``--since MS`` keeps
calls with ``created_at > MS``, as the platform's ``since`` does.

- Output goes to a temporary file beside FILE, renamed over it only when the export
  finished: a failure (network, disk, Ctrl-C) leaves an existing FILE as it was. Without
  ``-o`` (or with ``-o -``) lines go to standard output as they arrive.
- A progress bar goes to standard error; its total is the platform's ``stats.total`` for
  the same source/errors filter, and is left blank (never guessed) with ``--since`` (the
  contract does not say whether stats honour ``since``) or when the platform sends none.
- Each line is cut from the platform's JSON (``api_client.blahdev.wire_logs``): the bytes
  ``LogEntry``'s serializer would write, without building a validated model per call.
- A full export (no filter) also fills the model's local archive, which the app reads:
  with everything when the archive was empty (and moves its cursor to the newest call,
  where the app's live tail then starts), else with the history older than what it holds
  (newer calls are fetched by the app's tail as usual). A filtered export does not touch
  the archive: it would leave holes the archive cannot tell from quiet periods.
  The archive is filled while the pages arrive, on both cores (``api_client.archives.fill``:
  one thread compresses the next batch while another stores the last, their words indexed
  20,000 calls a transaction), rather than after the file: that would hold the whole history
  in memory or parse the file again. The pages run up to ``FILL_DEPTH`` batches ahead of the
  archive, and the file is put in place as soon as its last line is written: the archive's
  last batches and full-text index are finished after it, before the command exits.
- Errors print one clear line on standard error and exit with their code
  (:class:`cli.exit_codes.ExitCode`: 6 an unknown model, 8 a file that cannot be written, ...;
  130 on Ctrl-C, 141 when the reader closes the pipe early).

No Textual import: this runs in plain shells and scripts.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from api_client.archives.archive import Archive, ArchiveError
from api_client.archives.fill import ArchiveFill
from api_client.blahdev.wire_logs import WireEntry
from api_client.blahdev.wire_logs import page_lines as wire_lines
from api_client.errors import BlahError, NotFoundError
from cli.errors import exit_for
from cli.exit_codes import ExitCode
from cli.output import draws_progress, end_quietly_on_closed_pipe
from common.atomic_write import commit, temp_beside
from common.gc_tuning import few_cycle_collections
from common.safe_strings import one_line

ARCHIVE_BATCH = 5000
"""Entries handed to the archive at a time, each batch stored in one transaction (its words
indexed with the next ones, ``archives.fill.INDEX_AFTER``); an interrupted export leaves at
most a few batches out of the archive, which the next export fetches again."""
FILL_DEPTH = 6
"""Batches handed to the archive and not stored yet, at most (``ArchiveFill``'s ``depth``): the
pages run up to 30,000 calls ahead of the archive, so the person's file is not held back by it.
With 2 (one batch compressed, one stored) the page reader waited for the store at every batch,
and the two threads took the GIL from each other all along (a thread storing rows takes it back
after each row). Measured on 103,639 natural calls, 4 alternated pairs at load 9-11 (2 cores):
file in place 8.7-11.4 s against 12.6-15.4 s with 2, the process's exit 11.5-14.6 s against
14.0-16.8 s, its CPU 6.3 against 6.8-7.2 s; peak RSS 286 against 195 MB (the batches waiting: it
stays bounded, whatever the export's size)."""
TEXT_INDEX_CHUNK = 50_000
"""Rows added to the full-text index per transaction at the export's end, for rows an
earlier, interrupted bulk load left unindexed (FTS5 writes a segment per transaction and
merges them: fewer, bigger ones cost less)."""


@dataclass
class ExportStats:
    written: int = 0
    archived: int = 0
    newest_ms: int | None = None
    complete: bool = False
    may_have_missed: bool = False
    missed_reason: str | None = None
    archive_was_empty: bool = False


async def export_logs(
    client: Any,
    model_id: str,
    sink: IO[bytes],
    *,
    source: str | None = None,
    errors_only: bool = False,
    since: int | None = None,
    archive: Archive | None = None,
    on_entry: Callable[[int], None] | None = None,
    on_written: Callable[[], None] | None = None,
    page_size: int = 500,
) -> ExportStats:
    """Stream the history (newest first) into ``sink``; store it in ``archive`` too when
    given. ``on_entry(written)`` is called after each page with the lines written so far;
    ``on_written()`` once the last line is written, before the archive's last batch and
    its full-text index are done (the CLI commits the file then: the person's file does
    not wait for the archive). Raises BlahError/OSError.

    Works a page at a time (one write, one archive hand-over per page, no per-entry
    await): the next page is already requested while this one is written. Each page's
    lines are cut from the platform's JSON, not re-serialized from validated models
    (``api_client.blahdev.wire_logs``: the same bytes). The archive is filled by
    ``ArchiveFill`` in two threads of its own (zstd and SQLite release the GIL: the
    compression, the rows and the full-text index are done on the other core while pages
    arrive, not after the last one)."""
    stats = ExportStats()
    pending: list[WireEntry] = []
    # Only history at or below the archive's oldest entry is added (all of it when the
    # archive is empty): newest first, each batch then lands below the last, which is
    # cheap, and the archive stays one unbroken stretch. Newer calls are the tail's job.
    floor = None if archive is None else await asyncio.to_thread(archive.oldest_ms)
    stats.archive_was_empty = floor is None
    history = client.iter_logs_wire(  # read ahead unless `since` may stop it early
        model_id, source=source, errors_only=errors_only, page_size=page_size, read_ahead=since is None
    )
    fill = None if archive is None else ArchiveFill(archive, depth=FILL_DEPTH)
    try:
        async for page in history.pages():
            if since is not None:
                kept = [entry for entry in page if entry.created_at > since]
                stop = len(kept) < len(page)  # newest first: everything after is older still
                page = kept
            else:
                stop = False
            if page:
                sink.write(wire_lines(page))
                stats.written += len(page)
                newest = page[0].created_at
                if stats.newest_ms is None or newest > stats.newest_ms:
                    stats.newest_ms = newest
                if fill is not None:
                    pending.extend(page if floor is None else [e for e in page if e.created_at <= floor])
                    if len(pending) >= ARCHIVE_BATCH:
                        # (a WireEntry has the fields the archive stores: a NamedTuple made at run time)
                        await fill.add(pending)  # type: ignore[arg-type]
                        pending = []
                if on_entry is not None:
                    on_entry(stats.written)
            if stop:
                break
        stats.complete = True
        if on_written is not None:
            on_written()
    finally:
        await history.aclose()
        if fill is not None:
            if stats.complete and pending:
                await fill.add(pending)  # type: ignore[arg-type]  # (WireEntry rows: see above)
            stats.archived = await fill.finish()
    if archive is not None:
        await asyncio.to_thread(archive.index_pending, None, TEXT_INDEX_CHUNK)  # the last rows, and any left before
    stats.may_have_missed = bool(getattr(history, "may_have_missed", False))
    stats.missed_reason = getattr(history, "missed_reason", None)
    return stats


def export_main(
    model_id: str,
    *,
    base_url: str,
    api_key: str | None,
    source: str | None = None,
    errors_only: bool = False,
    since: int | None = None,
    output: str | None = None,
    fill_archive: bool = True,
    data_dir: Path | None = None,
    profile: str = "",
) -> int:
    """Run the export command; returns the process exit code (:class:`cli.exit_codes.ExitCode`).
    ``profile``: whose archive is filled ("": today's implicit blah.dev profile)."""
    err = Console(stderr=True, highlight=False, markup=False, emoji=False)
    try:
        with few_cycle_collections(_YOUNG_COLLECTION_PAGES) as after_page:
            return asyncio.run(
                _run(
                    model_id,
                    base_url,
                    api_key,
                    source,
                    errors_only,
                    since,
                    output,
                    fill_archive,
                    data_dir,
                    err,
                    profile,
                    after_page,
                )
            )
    except KeyboardInterrupt:
        err.print("blah-tui export: interrupted; nothing was replaced", soft_wrap=True)
        return ExitCode.INTERRUPTED


_YOUNG_COLLECTION_PAGES = 10
"""Pages (of 500 calls) between two collections of the young generations during an export."""


async def _run(
    model_id: str,
    base_url: str,
    api_key: str | None,
    source: str | None,
    errors_only: bool,
    since: int | None,
    output: str | None,
    fill_archive: bool,
    data_dir: Path | None,
    err: Console,
    profile: str = "",
    after_page: Callable[[], None] | None = None,
) -> int:
    from api_client.blahdev.client import BlahClient

    def fail(message: str, code: ExitCode) -> int:
        err.print(f"blah-tui export: {one_line(message, 500)}", soft_wrap=True)
        return code

    target = None if output is None or output == "-" else Path(output)
    if target is not None and target.is_dir():
        return fail(f"{target} is a directory", ExitCode.USAGE)
    try:
        client = BlahClient(base_url, api_key=api_key)
    except ValueError as exc:
        return fail(f"bad base URL: {exc}", ExitCode.USAGE)
    temp: Path | None = None
    if target is not None:
        try:  # before any request: a bad path fails at once
            temp = temp_beside(target)
        except OSError as exc:
            await client.aclose()
            return fail(f"cannot write {target}: {exc.strerror or exc}", ExitCode.LOCAL_FILE)
    full = source is None and not errors_only and since is None
    archive: Archive | None = None
    try:
        async with client:
            # The model first: an unknown one is one plain line (and leaves no archive behind).
            try:
                await client.get_model(model_id)
            except NotFoundError:
                return fail(f"no model {model_id!r} on {base_url}", ExitCode.NOT_FOUND)
            if full and fill_archive:
                archive = _open_archive(data_dir, client, base_url, model_id, err, profile)
            total = await _total(client, model_id, source, errors_only, since)
            sink: IO[bytes] = sys.stdout.buffer if temp is None else open(temp, "wb")  # noqa: SIM115 - a CLI: nothing else runs on this loop

            def finish_file() -> None:
                """Flush, and put a complete file in place (before the archive's last work)."""
                nonlocal temp
                if sink.closed:
                    return
                sink.flush()
                if target is not None and temp is not None:
                    os.fsync(sink.fileno())
                    sink.close()
                    commit(temp, target)
                    temp = None

            try:
                stats = await _with_progress(
                    client, model_id, sink, source, errors_only, since, archive, total, err, finish_file, after_page
                )
                finish_file()
            finally:
                if target is not None:
                    sink.close()
        if archive is not None and stats.complete:
            _advance(archive, stats)
    except BlahError as exc:
        return fail(str(exc), exit_for(exc))
    except BrokenPipeError:
        # The reader (e.g. `head`) went away: not worth a message; the one closed-pipe ending.
        return end_quietly_on_closed_pipe()
    except OSError as exc:
        return fail(f"cannot write {output or 'standard output'}: {exc.strerror or exc}", ExitCode.LOCAL_FILE)
    finally:
        if temp is not None:
            temp.unlink(missing_ok=True)
        if archive is not None:
            archive.close()
    where = "standard output" if target is None else str(target)
    err.print(f"Exported {stats.written} calls of {one_line(model_id, 100)} to {where} (newest first).", soft_wrap=True)
    if stats.may_have_missed:
        err.print(f"Warning: some calls may be missing: {one_line(stats.missed_reason, 300)}", soft_wrap=True)
    return ExitCode.OK


async def _total(client: Any, model_id: str, source: str | None, errors_only: bool, since: int | None) -> int | None:
    if since is not None:
        return None
    page = await client.get_logs(model_id, source=source, errors_only=errors_only, limit=1, stats=True)
    return None if page.stats is None else page.stats.total


async def _with_progress(
    client: Any,
    model_id: str,
    sink: IO[bytes],
    source: str | None,
    errors_only: bool,
    since: int | None,
    archive: Archive | None,
    total: int | None,
    err: Console,
    on_written: Callable[[], None] | None = None,
    after_page: Callable[[], None] | None = None,
) -> ExportStats:
    columns = [TextColumn("exporting"), BarColumn(), MofNCompleteColumn()]
    if total is not None:
        columns += [TaskProgressColumn(), TimeRemainingColumn()]
    columns.append(TimeElapsedColumn())
    # Drawn only on a terminal: piped or redirected, standard error gets no bar (cli.output).
    with Progress(*columns, console=err, transient=False, disable=not draws_progress()) as progress:
        task = progress.add_task("export", total=total)

        def tick(written: int) -> None:
            progress.update(task, completed=written)
            if after_page is not None:
                after_page()

        stats = await export_logs(
            client,
            model_id,
            sink,
            source=source,
            errors_only=errors_only,
            since=since,
            archive=archive,
            on_entry=tick,
            on_written=on_written,
        )
        progress.update(task, completed=stats.written, total=total if total is not None else stats.written)
    return stats


def _open_archive(
    data_dir: Path | None, client: Any, base_url: str, model_id: str, err: Console, profile: str = ""
) -> Archive | None:
    from application.session.paths import data_dir as default_data_dir

    try:
        return Archive.for_model(data_dir or default_data_dir(), client.platform, base_url, model_id, profile)
    except (ArchiveError, OSError, ValueError) as exc:
        err.print(f"Note: not filling the local archive ({one_line(str(exc), 300)}); exporting anyway.", soft_wrap=True)
        return None


def _advance(archive: Archive, stats: ExportStats) -> None:
    """After a complete full export the archive reaches the platform's oldest call; when it
    started empty, it also holds everything up to ``newest_ms`` (the tail's next start)."""
    if stats.archive_was_empty and stats.newest_ms is not None:
        cursor = archive.get_cursor()
        if cursor is None or stats.newest_ms > cursor:
            archive.set_cursor(stats.newest_ms)
    if not stats.may_have_missed:
        archive.history_complete = True
