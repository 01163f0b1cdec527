"""Reading calls from a JSONL file for ``blah-tui report MODEL --from FILE.jsonl`` (no Textual).

Accepted, as ``blah-tui open`` accepts them: one call as JSON per line (what ``blah-tui export``
writes), a line holding a JSON array of calls, or a line holding a whole ``GET /logs`` page
(``{"logs": [...]}``, what the platform answers; a file that is one such page pretty-printed
over many lines is read whole). Each line is read on its own: a line that is not JSON or not a
call is counted, the first few kept with their line numbers, and reading goes on; the report
says how many. A file whose first lines are all unreadable is not a dump (``NotADumpError``).
A call that appears twice is read once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from api_client.blahdev.records import parse_call
from common.records import Call
from common.safe_strings import one_line

__all__ = [
    "BAD_LINES_BEFORE_GIVING_UP",
    "BadLine",
    "DumpReading",
    "NotADumpError",
    "entries_at",
    "entries_in",
    "read_calls",
]

#: This many unreadable lines before the first call: the file is something else.
BAD_LINES_BEFORE_GIVING_UP = 5
MAX_BAD_KEPT = 20


@dataclass(frozen=True, slots=True)
class BadLine:
    line_no: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line_no}: {self.reason}"


class NotADumpError(ValueError):
    """The file holds no call at all: it is not a JSONL dump of calls."""

    def __init__(self, path: Path, first: BadLine | None) -> None:
        why = f" ({first})" if first is not None else " (it is empty)"
        super().__init__(
            f"{one_line(str(path), 200)} is not a JSONL dump of calls (one call as JSON per line, as "
            f"`blah-tui export` writes){why}"
        )


@dataclass
class DumpReading:
    """What reading the file found; filled in while the calls are read."""

    path: Path
    lines: int = 0
    calls: int = 0
    duplicates: int = 0
    bad_count: int = 0
    bad_lines: list[BadLine] = field(default_factory=list)
    model_ids: dict[str, int] = field(default_factory=dict)
    #: Where the line of the call just read starts in the file (``entries_at`` reads it again);
    #: -1 when the file is one pretty-printed page (its calls cannot be read again one by one).
    offset: int = -1

    def note(self) -> str | None:
        """One sentence on what could not be read, or None when every line was a call."""
        parts = []
        if self.bad_count:
            first = ", ".join(str(b) for b in self.bad_lines[:3])
            one = self.bad_count == 1
            parts.append(
                f"{self.bad_count} line{'' if one else 's'} of {self.lines} could not be read as "
                f"{'a call and was' if one else 'calls and were'} left out "
                f"({first}{', ...' if self.bad_count > 3 else ''})"
            )
        if self.duplicates:
            parts.append(f"{self.duplicates} repeated call{'s' if self.duplicates != 1 else ''} read once")
        return "; ".join(parts) or None


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "entry"
        return one_line(f"not a call ({where}: {first.get('msg', 'invalid')})", max_len=160)
    if isinstance(exc, orjson.JSONDecodeError):
        return "not valid JSON"
    return one_line(str(exc), max_len=160)


def entries_in(value: Any) -> list[Any]:
    """The call objects one parsed line holds: one object, an array of them, or a ``GET /logs``
    page (``{"logs": [...]}``); `blah-tui open` reads its lines the same way."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and "id" not in value and isinstance(value.get("logs"), list):
        return value["logs"]
    return [value]


def _calls_of(raw: bytes | str) -> list[Call]:
    out = []
    for item in entries_in(orjson.loads(raw)):
        if not isinstance(item, dict):
            raise TypeError(f"not a call (a JSON {type(item).__name__}, not an object)")
        out.append(parse_call(item))
    return out


def read_calls(path: Path | str, reading: DumpReading | None = None, *, limit: int | None = None) -> Iterator[Call]:
    """The calls of the file in file order (an export is newest first), ``limit`` at most.

    ``reading`` is filled in as lines are read. Raises OSError when the file cannot be read and
    NotADumpError when it holds no call."""
    path = Path(path)
    reading = reading if reading is not None else DumpReading(path)
    seen: set[str] = set()
    with open(path, "rb") as fh:
        head = fh.read(1)
        fh.seek(0)
        if head == b"{":
            whole = _whole_page(fh)
            if whole is not None:  # one pretty-printed ``GET /logs`` page
                reading.lines = 1
                reading.offset = -1
                for entry in whole[:limit]:
                    reading.calls += 1
                    yield entry
                return
        at = 0
        for line_no, raw in enumerate(fh, start=1):
            reading.lines = line_no
            reading.offset, at = at, at + len(raw)
            if not raw.strip():
                continue
            try:
                calls = _calls_of(raw)
            except (ValueError, TypeError, ValidationError) as exc:  # JSONDecodeError is a ValueError
                reading.bad_count += 1
                if len(reading.bad_lines) < MAX_BAD_KEPT:
                    reading.bad_lines.append(BadLine(line_no, _reason(exc)))
                if not reading.calls and reading.bad_count >= BAD_LINES_BEFORE_GIVING_UP:
                    raise NotADumpError(path, reading.bad_lines[0]) from None
                continue
            for entry in calls:
                if entry.id in seen:
                    reading.duplicates += 1
                    continue
                seen.add(entry.id)
                reading.calls += 1
                if entry.model_id:
                    reading.model_ids[entry.model_id] = reading.model_ids.get(entry.model_id, 0) + 1
                yield entry
                if limit is not None and reading.calls >= limit:
                    return
    if not reading.calls:
        raise NotADumpError(path, reading.bad_lines[0] if reading.bad_lines else None)


def _whole_page(fh: Any) -> list[Call] | None:
    """The calls of a file that is one JSON ``GET /logs`` page spread over several lines, else
    None (the file is read line by line then)."""
    first = fh.readline()
    if first.strip().endswith(b"}"):  # one object on its own line: JSONL
        fh.seek(0)
        return None
    fh.seek(0)
    try:
        value = orjson.loads(fh.read())
    except orjson.JSONDecodeError:
        fh.seek(0)
        return None
    if not (isinstance(value, dict) and isinstance(value.get("logs"), list)):
        fh.seek(0)
        return None
    try:
        return _calls_of(orjson.dumps(value))
    except (ValueError, TypeError, ValidationError):
        fh.seek(0)
        return None


def entries_at(path: Path | str, offsets: dict[str, int]) -> dict[str, Call]:
    """The calls with these ids, read again from the lines starting at their offsets (as
    ``DumpReading.offset`` gave them): the few calls a streamed report quotes."""
    out: dict[str, Call] = {}
    with open(path, "rb") as fh:
        for at in sorted(set(offsets.values())):
            fh.seek(at)
            for entry in _calls_of(fh.readline()):
                if offsets.get(entry.id) == at:
                    out[entry.id] = entry
    return out
