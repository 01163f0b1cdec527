"""`blah-tui open FILE.jsonl`: load a saved dump into a temporary archive to browse offline.

A dump is what ``blah-tui export`` writes: one Call JSON object per line (any order).
Also accepted, because people save what they have: a line holding a JSON array of entries,
or a whole ``GET /logs`` page (``{"logs": [...]}``); and Blobfish JSONL (the platform's
``blobfish.trace.v1`` lines, as `blah-tui blobfish export` and the app's export write them, or
the app's older export lines), each step read as one call (``application.evaluations.dump_lines``).
Each line is validated on its own; a
bad line (broken JSON, not UTF-8, missing ``id``/``created_at``, wrong types) is skipped
and reported with its line number, and loading goes on. Blank lines are ignored. An entry
that appears twice is stored once.

The archive lives in a private temporary directory, removed when it is closed (and at
interpreter exit at the latest). No Textual import.
"""

from __future__ import annotations

import atexit
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import orjson
from pydantic import ValidationError

from api_client.archives.archive import Archive
from api_client.archives.ingest import BadgesFn
from api_client.blahdev.records import parse_call
from application.diagnosis.dump import entries_in
from common.records import Call, order_key
from common.safe_strings import one_line

BATCH = 5000
MAX_BAD_KEPT = 1000
MAX_BAD_PRINTED = 20
#: This many bad lines before the first good one: the file is something else (a report, a
#: log, a CSV), and reading on would only print one complaint per line.
BAD_LINES_BEFORE_GIVING_UP = 5


class NotADumpError(ValueError):
    """The file holds no log entries at all: not a JSONL dump of calls. ``bad_lines`` are the
    first lines read (why each is not an entry)."""

    def __init__(self, path: Path, bad_lines: list[BadLine]) -> None:
        first = bad_lines[0] if bad_lines else None
        why = f"; {first}" if first else "; it holds no lines"
        super().__init__(
            f"{one_line(str(path), 200)}: this is not a JSONL dump of calls "
            f"(one call as JSON per line, as `blah-tui export` writes){why}"
        )
        self.path = path
        self.bad_lines = bad_lines


@dataclass(frozen=True, slots=True)
class BadLine:
    """A skipped line: 1-based ``line_no``, why, and a sanitised excerpt (safe to print)."""

    line_no: int
    reason: str
    excerpt: str

    def __str__(self) -> str:
        return f"line {self.line_no}: {self.reason}" + (f": {self.excerpt}" if self.excerpt else "")


@dataclass
class DumpLoad:
    """What loading a dump did. ``bad_lines`` keeps the first MAX_BAD_KEPT problems;
    ``bad_count`` counts all of them."""

    archive: Archive
    path: Path
    lines: int = 0
    entries: int = 0
    loaded: int = 0
    duplicates: int = 0
    bad_count: int = 0
    bad_lines: list[BadLine] = field(default_factory=list)
    model_ids: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        parts = [f"{self.loaded} calls loaded from {one_line(self.path.name, 200)}"]
        if self.duplicates:
            parts.append(f"{self.duplicates} duplicates skipped")
        if self.bad_count:
            parts.append(f"{self.bad_count} bad lines skipped")
        return "; ".join(parts)


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "entry"
        return f"not a log entry ({where}: {first.get('msg', 'invalid')})"
    if isinstance(exc, orjson.JSONDecodeError):
        return f"not valid JSON ({exc.msg})" if hasattr(exc, "msg") else "not valid JSON"
    return str(exc)


def _parse_line(raw: bytes) -> Iterator[Call]:
    from application.evaluations.dump_lines import blobfish_entries, is_blobfish_line

    for item in entries_in(orjson.loads(raw)):
        if not isinstance(item, dict):
            raise TypeError(f"not a JSON object (got {type(item).__name__})")
        if is_blobfish_line(item):
            yield from blobfish_entries(item)
            continue
        yield parse_call(item)


def read_dump(
    path: Path | str,
    *,
    badges_fn: BadgesFn | None = None,
    on_bad_line: Callable[[BadLine], None] | None = None,
    archive: Archive | None = None,
) -> DumpLoad:
    """Load a dump into ``archive`` (a new temporary one by default); never raises for
    bad lines among good ones. Raises OSError when the file itself cannot be read, and
    NotADumpError when it holds bad lines and no entry (it is some other kind of file)."""
    path = Path(path)
    with open(path, "rb") as fh:  # opened first: an unreadable file creates no archive
        if archive is None:
            archive = Archive.create_temporary(prefix="blah-tui-dump-")
            atexit.register(archive.close)
        result = DumpLoad(archive=archive, path=path)
        try:
            _load(fh, result, badges_fn, on_bad_line)
        except BaseException:
            archive.close()
            raise
    if result.model_ids:
        archive.set_meta("model_id", result.model_ids.most_common(1)[0][0])
    archive.set_meta("source_file", str(path))
    return result


def _load(
    fh: IO[bytes],
    result: DumpLoad,
    badges_fn: BadgesFn | None,
    on_bad_line: Callable[[BadLine], None] | None,
) -> None:
    batch: list[Call] = []
    # A dump in time order (an export is newest first) fills the archive at one end, batch
    # after batch. Once the order breaks, the rest is stored unnumbered and placed in one
    # pass at the end, rather than every batch shifting the rows around it.
    trend = 0
    prev: int | None = None
    in_order = True

    def flush() -> None:
        nonlocal batch
        if batch:
            # Indexing for text search is deferred to one pass at the end: faster in bulk.
            added = result.archive.add(batch, badges_fn, index_text=False, number=in_order)
            result.loaded += added
            result.duplicates += len(batch) - added
            batch = []

    for line_no, raw in enumerate(fh, start=1):
        result.lines = line_no
        if not raw.strip():
            continue
        try:
            parsed = list(_parse_line(raw))
        except (ValueError, TypeError, ValidationError) as exc:  # JSONDecodeError is a ValueError
            bad = BadLine(line_no, _reason(exc), one_line(raw[:200].decode("utf-8", "replace"), 80))
            result.bad_count += 1
            if len(result.bad_lines) < MAX_BAD_KEPT:
                result.bad_lines.append(bad)
            if on_bad_line is not None:
                on_bad_line(bad)
            if result.entries == 0 and result.bad_count >= BAD_LINES_BEFORE_GIVING_UP:
                raise NotADumpError(result.path, result.bad_lines) from exc
            continue
        for entry in parsed:
            result.entries += 1
            if entry.model_id:
                result.model_ids[entry.model_id] += 1
            at = order_key(entry.created_at, entry.id)[0]  # a step without a time comes first, as stored
            if prev is not None and at != prev:
                step = 1 if at > prev else -1
                if trend and step != trend:
                    in_order = False
                trend = trend or step
            prev = at
            batch.append(entry)
        if len(batch) >= BATCH:
            flush()
    flush()
    if result.entries == 0 and result.bad_count:
        raise NotADumpError(result.path, result.bad_lines)
    result.archive.number_pending()
    result.archive.index_pending()


def load_dump(
    path: Path | str,
    *,
    badges_fn: BadgesFn | None = None,
    report: IO[str] | None = None,
) -> Archive:
    """Load a dump into a temporary archive for offline browsing. Bad lines are skipped and
    reported on ``report`` (standard error by default): the first MAX_BAD_PRINTED with
    their line numbers, then a count of the rest."""
    out = sys.stderr if report is None else report
    result = read_dump(path, badges_fn=badges_fn)
    if result.bad_count:
        name = one_line(str(result.path), 200)
        for bad in result.bad_lines[:MAX_BAD_PRINTED]:
            print(f"blah-tui: {name}: {bad} (skipped)", file=out)
        if result.bad_count > MAX_BAD_PRINTED:
            print(f"blah-tui: {name}: {result.bad_count - MAX_BAD_PRINTED} more bad lines skipped", file=out)
        print(f"blah-tui: {result.summary()}", file=out)
    return result.archive
