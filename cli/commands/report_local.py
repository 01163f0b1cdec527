"""`blah-tui report MODEL --offline` and `blah-tui report MODEL --from FILE.jsonl`: the blunt
report of a local history, without asking the platform.

``--offline`` reads the profile's local archive of the model (every call the app or ``export``
stored), ``--from`` a JSONL dump (what ``export`` writes, or the platform's ``GET /logs``
pages). ``--limit`` defaults to everything the source holds. The diagnosis is the same as
from the platform for the same calls (application.diagnosis.whole streams them; the
platform-only inputs, /diagnose, /results, /health and the Lens bundle, are said to be
missing). The trained template comes from the person's config, as with the platform.

Failures are one line on standard error: no archive, a file that cannot be read or is not a
dump: exit 1; bad arguments: exit 2. Lines of a dump that are not calls are counted and said
in the report, and on standard error with exit 3 (the report of the other lines is printed),
never dropped silently. No Textual import.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from api_client.archives.schema import ArchiveError
from application.diagnosis.dump import DumpReading, NotADumpError, entries_at, read_calls
from common.format import format_utc
from widgets.safe_text import one_line, sanitize

if TYPE_CHECKING:
    from application.diagnosis.whole import WholeDiagnosis

__all__ = ["UNREADABLE_LINES", "local_report_main"]

#: Exit code: the report was printed, but some lines of the file were not calls.
UNREADABLE_LINES = 3

#: What a local source cannot give (the platform's own answers).
PLATFORM_ONLY = ("/models/{id}/diagnose", "/models/{id}/results", "/models/{id}/health", "/models/{id}/lens")


def _fail(message: str, code: int, err: TextIO) -> int:
    err.write(f"blah-tui report: {sanitize(message, keep_newlines=False)}\n")
    return code


def _when(ms: int | None) -> str:
    return format_utc(ms, zone=" UTC", missing="unknown")


def _template(model_id: str) -> tuple[str | None, str]:
    from application.session.config import load_config

    template = load_config().config.templates.get(model_id)
    return template, ("config" if template else "unknown")


def local_report_main(
    model_id: str,
    *,
    archive_path: Path | None = None,
    dump_path: Path | None = None,
    as_json: bool,
    limit: int | None,
    out: TextIO,
    err: TextIO,
) -> int:
    """One of ``archive_path`` (``--offline``) or ``dump_path`` (``--from``)."""
    from application.diagnosis.whole import diagnose_archive, diagnose_calls

    if limit is not None and limit < 1:
        return _fail(f"--limit must be at least 1 (got {limit})", 2, err)
    template, template_source = _template(model_id)
    reading: DumpReading | None = None
    try:
        if archive_path is not None:
            whole, span = diagnose_archive(
                archive_path, model=model_id, trained_template=template, template_source=template_source, limit=limit
            )
            held = span.calls
            where = (f"the local archive {one_line(str(archive_path), 300)}, which holds {held} calls from "
                     f"{_when(span.oldest_ms)} to {_when(span.newest_ms)}"
                     + ("" if span.history_complete else " (it does not reach back to the model's first call)"))
            source = "archive"
        else:
            assert dump_path is not None
            reading = DumpReading(dump_path)
            dump = reading
            whole = diagnose_calls(
                read_calls(dump_path, reading, limit=limit), model=model_id, trained_template=template,
                template_source=template_source, locate=lambda: dump.offset,
                reread=lambda where: entries_at(dump_path, where),
            )
            held = reading.calls
            where = f"the file {one_line(str(dump_path), 300)} ({reading.lines} lines)"
            source = "file"
    except ArchiveError as error:
        if not Path(error.path).exists():
            return _fail(f"there is no local archive of model {model_id!r} for this profile ({error.path}); open the "
                         "model in the app or run `blah-tui export` first to fill it", 1, err)
        return _fail(f"cannot read the local archive: {error}", 1, err)
    except NotADumpError as error:
        return _fail(str(error), 1, err)
    except OSError as error:
        return _fail(f"cannot read {dump_path}: {error.strerror or error}", 1, err)
    except KeyboardInterrupt:
        return _fail("interrupted", 130, err)
    unreadable = reading.note() if reading is not None else None
    text = _text(whole, as_json=as_json, source=source, where=where, held=held, limit=limit, unreadable=unreadable,
                 reading=reading)
    out.write(sanitize(text, keep_newlines=True))
    out.flush()
    if unreadable:  # the report is made of the lines that were calls; the exit code says some were not
        return _fail(unreadable, UNREADABLE_LINES, err)
    return 0


def _text(
    whole: WholeDiagnosis, *, as_json: bool, source: str, where: str, held: int, limit: int | None,
    unreadable: str | None, reading: DumpReading | None,
) -> str:
    from diagnosis import render_json, render_markdown

    read = (f"Read {'all ' if limit is None or whole.calls >= held else 'the '}{whole.calls} "
            f"{'most recent ' if limit is not None and whole.calls < held else ''}calls of {where}"
            + (f"; the calls read run from {_when(whole.oldest_ms)} to {_when(whole.newest_ms)}" if whole.calls else "")
            + ".")
    if as_json:
        doc = json.loads(render_json(whole.report))
        doc["source"] = {
            "kind": source, "described": read, "calls_held": held, "calls_read": whole.calls,
            "oldest_ms": whole.oldest_ms, "newest_ms": whole.newest_ms,
            "unreadable_lines": reading.bad_count if reading is not None else 0,
            "unreadable": [str(b) for b in reading.bad_lines] if reading is not None else [],
            "duplicates": reading.duplicates if reading is not None else 0,
        }
        doc["fetch_problems"] = {path: "not asked: the report was made from a local source" for path in PLATFORM_ONLY}
        doc["calls_limit"] = limit
        return json.dumps(doc, ensure_ascii=True, indent=2) + "\n"
    lines = ["", "## Where the calls came from", "", read]
    if unreadable:
        lines += ["", f"- {one_line(unreadable, max_len=600)}."]
    lines += ["", "The platform was not asked (" + ", ".join(f"`{p}`" for p in PLATFORM_ONLY)
              + "): its own diagnosis, the judged results, the health checks and the Lens bundle are not in this "
              "report."]
    return render_markdown(whole.report).rstrip("\n") + "\n" + "\n".join(lines) + "\n"
