"""`blah-tui report MODEL --offline` and `blah-tui report MODEL --from FILE.jsonl`: the blunt
report of a local history, without asking the platform.

``--offline`` reads the profile's local archive of the model (every call the app or ``export``
stored), ``--from`` a JSONL dump (what ``export`` writes, or the platform's ``GET /logs``
pages). ``--limit`` defaults to everything the source holds. The diagnosis is the same as
from the platform for the same calls (application.diagnosis.whole streams them; the
platform-only inputs, /diagnose, /results, /health and the Lens bundle, are said to be
missing). The trained template comes from the person's config, as with the platform.

Failures are one line on standard error (:class:`cli.exit_codes.ExitCode`): bad arguments
2, or a file that is not a dump; no archive of the model 6; a file that cannot be read 8. Lines of a dump
that are not calls are counted and said in the report, and on standard error with exit 9
(the report of the other lines is printed), never dropped silently. No Textual import.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from api_client.archives.schema import ArchiveError
from application.diagnosis.archive_report import (
    PLATFORM_ONLY,
    read_sentence,
    source_note,
)
from application.diagnosis.dump import (
    DumpReading,
    NotADumpError,
    entries_at,
    read_calls,
)
from cli.blah.report.output import fail, write_inert
from cli.exit_codes import ExitCode
from common.gc_tuning import collector_off
from common.safe_strings import one_line

if TYPE_CHECKING:
    from application.diagnosis.whole import WholeDiagnosis

__all__ = ["UNREADABLE_LINES", "local_report_main"]

#: Exit code: the report was printed, but some lines of the file were not calls.
UNREADABLE_LINES = ExitCode.SKIPPED_INPUT


def _template(model_id: str) -> tuple[str | None, str]:
    from application.session.settings.config import load_config

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
    from application.diagnosis.archive_report import diagnose_model_archive
    from application.diagnosis.whole import diagnose_calls

    if limit is not None and limit < 1:
        return fail(f"--limit must be at least 1 (got {limit})", ExitCode.USAGE, err)
    template, template_source = _template(model_id)
    reading: DumpReading | None = None
    # Digesting without the cyclic collector (common/gc_tuning.py says why).
    stop_digesting = ExitStack()
    stop_digesting.enter_context(collector_off())
    try:
        if archive_path is not None:
            local = diagnose_model_archive(archive_path, model_id=model_id, trained_template=template, limit=limit)
            whole, held, where = local.whole, local.span.calls, local.where
            source = "archive"
        else:
            assert dump_path is not None
            reading = DumpReading(dump_path)
            dump = reading
            whole = diagnose_calls(
                read_calls(dump_path, reading, limit=limit),
                model=model_id,
                trained_template=template,
                template_source=template_source,
                locate=lambda: dump.offset,
                reread=lambda where: entries_at(dump_path, where),
            )
            held = reading.calls
            where = f"the file {one_line(str(dump_path), 300)} ({reading.lines} lines)"
            source = "file"
    except ArchiveError as error:
        if not Path(error.path).exists():
            return fail(
                f"there is no local archive of model {model_id!r} for this profile ({error.path}); open the "
                "model in the app or run `blah-tui export` first to fill it",
                ExitCode.NOT_FOUND,
                err,
            )
        return fail(f"cannot read the local archive: {error}", ExitCode.LOCAL_FILE, err)
    except NotADumpError as error:
        return fail(str(error), ExitCode.USAGE, err)  # a file, but not a dump of calls: the wrong file named
    except OSError as error:
        return fail(f"cannot read {dump_path}: {error.strerror or error}", ExitCode.LOCAL_FILE, err)
    except KeyboardInterrupt:
        return fail("interrupted", ExitCode.INTERRUPTED, err)
    finally:
        stop_digesting.close()
    unreadable = reading.note() if reading is not None else None
    text = _text(
        whole,
        as_json=as_json,
        source=source,
        where=where,
        held=held,
        limit=limit,
        unreadable=unreadable,
        reading=reading,
    )
    write_inert(out, text)
    if unreadable:  # the report is made of the lines that were calls; the exit code says some were not
        return fail(unreadable, UNREADABLE_LINES, err)
    return ExitCode.OK


def _text(
    whole: WholeDiagnosis,
    *,
    as_json: bool,
    source: str,
    where: str,
    held: int,
    limit: int | None,
    unreadable: str | None,
    reading: DumpReading | None,
) -> str:
    from diagnosis import render_json, render_markdown

    read = read_sentence(whole, where=where, held=held, limit=limit)
    if as_json:
        doc = json.loads(render_json(whole.report))
        doc["source"] = {
            "kind": source,
            "described": read,
            "calls_held": held,
            "calls_read": whole.calls,
            "oldest_ms": whole.oldest_ms,
            "newest_ms": whole.newest_ms,
            "unreadable_lines": reading.bad_count if reading is not None else 0,
            "unreadable": [str(b) for b in reading.bad_lines] if reading is not None else [],
            "duplicates": reading.duplicates if reading is not None else 0,
        }
        doc["fetch_problems"] = dict.fromkeys(PLATFORM_ONLY, "not asked: the report was made from a local source")
        doc["calls_limit"] = limit
        return json.dumps(doc, ensure_ascii=True, indent=2) + "\n"
    lines = ["", "## Where the calls came from", "", read]
    if unreadable:
        lines += ["", f"- {one_line(unreadable, max_len=600)}."]
    lines += ["", source_note()]
    return render_markdown(whole.report).rstrip("\n") + "\n" + "\n".join(lines) + "\n"
