"""`blah-tui report MODEL_ID [--json] [--limit N] [--base-url URL] [--api-key KEY]`.

Prints the blunt diagnosis report of a model (markdown, or JSON with ``--json``): it reads
the model record, its most recent calls (up to ``--limit``), the platform's ``/diagnose``,
the judged results, the health checks and the Lens bundle (for the trained template; the
person's config wins), then ``diagnosis.report`` writes it. The platform's failure clusters
are NOT asked for: they spend a judge call.

Every endpoint that failed or returned nothing is said so in the report. An unknown model
or an unreachable platform is one clear line on standard error and a non-zero exit
(:class:`cli.exit_codes.ExitCode`: 2 bad arguments, 4 unreachable, 6 an unknown model, 7 the
platform refused). Output is made inert for a
terminal: no control character (other than newline and tab) is ever printed.

No Textual import: this runs in plain shells and scripts.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import TextIO

from api_client.blahdev.client import BlahClient
from api_client.errors import BlahError, NotFoundError, UnreachableError
from application.diagnosis.analysis import DiagnosisView, analyse
from application.diagnosis.data import DiagnosisInputs, fetch_inputs, fetch_model
from cli.blah.report.output import fail, write_inert
from cli.errors import exit_for
from cli.exit_codes import ExitCode
from common.safe_strings import one_line

__all__ = ["build_report_text", "report_main"]

_ENDPOINTS = {
    "logs": "/models/{id}/logs",
    "model": "/models/{id}",
    "lens": "/models/{id}/lens",
    "diagnose": "/models/{id}/diagnose",
    "results": "/models/{id}/results",
    "health": "/models/{id}/health",
}


class ReportError(Exception):
    """A problem that ends the command with one line on stderr and ``code``."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


async def _gather(model_id: str, *, base_url: str, api_key: str | None, limit: int) -> DiagnosisInputs:
    from application.session.settings.config import load_config

    config = load_config().config
    async with BlahClient(base_url, api_key=api_key) as client:
        # One request first: an unknown model or an unreachable platform fails fast, alone.
        model = await fetch_model(client, model_id)
        if isinstance(model.exc, NotFoundError):
            raise ReportError(f"the platform at {base_url} does not know model {model_id!r}", ExitCode.NOT_FOUND)
        if isinstance(model.exc, UnreachableError):
            raise ReportError(f"cannot reach the platform at {base_url} ({_reason(model.exc)})", ExitCode.UNREACHABLE)
        inputs = await fetch_inputs(
            client, model_id, limit=limit, config_template=config.templates.get(model_id), model=model
        )
    if isinstance(inputs.entries_exc, NotFoundError):
        raise ReportError(f"the platform at {base_url} does not know model {model_id!r}", ExitCode.NOT_FOUND)
    return inputs


def _reason(error: BlahError) -> str:
    return one_line(error.message, max_len=200)


def _fetch_notes(inputs: DiagnosisInputs) -> dict[str, str]:
    """Endpoint path -> what went wrong or what came back empty (for the reader of the report)."""
    notes = {_ENDPOINTS[name]: why for name, why in inputs.errors().items()}
    if not inputs.entries_error and not inputs.entries:
        notes[_ENDPOINTS["logs"]] = "the platform returned no calls for this model"
    if inputs.entries_note:
        notes.setdefault(_ENDPOINTS["logs"], inputs.entries_note)
    if inputs.results.value == []:
        notes[_ENDPOINTS["results"]] = "the platform returned no results for this model"
    if inputs.health.value is not None and not inputs.health.value.checks:
        notes[_ENDPOINTS["health"]] = "the platform returned no health checks"
    if inputs.diagnose.value is not None and not inputs.diagnose.value.calls_examined:
        notes[_ENDPOINTS["diagnose"]] = "the platform's /diagnose examined no calls"
    return notes


def build_report_text(view: DiagnosisView, *, as_json: bool, limit: int) -> str:
    """The report as printed: diagnosis's markdown (or JSON) plus what could not be read."""
    from diagnosis import render_json, render_markdown

    notes = _fetch_notes(view.inputs)
    read = f"Read the {len(view.inputs.entries)} most recent calls (limit {limit}) from the platform."
    if as_json:
        doc = json.loads(render_json(view.report))
        doc["fetch_problems"] = notes
        doc["calls_limit"] = limit
        return json.dumps(doc, ensure_ascii=True, indent=2) + "\n"
    text = render_markdown(view.report)
    lines = ["", "## What the platform did not give", "", read]
    if notes:
        lines.append("")
        lines += [f"- `{path}`: {one_line(why, max_len=400)}" for path, why in notes.items()]
    else:
        lines.append("Every endpoint answered.")
    lines.append(
        "- `/models/{id}/failure-clusters` was not asked: it spends a judge call (use the app's Diagnosis screen)."
    )
    return text.rstrip("\n") + "\n" + "\n".join(lines) + "\n"


def report_main(
    model_id: str,
    *,
    base_url: str,
    api_key: str | None,
    as_json: bool,
    limit: int,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    if limit < 1:
        return fail(f"--limit must be at least 1 (got {limit})", ExitCode.USAGE, err)
    if not model_id.strip():
        return fail("MODEL_ID is empty", ExitCode.USAGE, err)
    try:
        inputs = asyncio.run(_gather(model_id, base_url=base_url, api_key=api_key, limit=limit))
    except ReportError as error:
        return fail(str(error), error.code, err)
    except UnreachableError as error:
        return fail(f"cannot reach the platform at {base_url}: {error}", ExitCode.UNREACHABLE, err)
    except NotFoundError as error:
        return fail(f"the platform at {base_url} does not know model {model_id!r} ({error})", ExitCode.NOT_FOUND, err)
    except BlahError as error:  # the exception's name helps no one reading this
        return fail(str(error), exit_for(error), err)
    except ValueError as error:
        return fail(str(error), ExitCode.REFUSED, err)
    except KeyboardInterrupt:
        return fail("interrupted", ExitCode.INTERRUPTED, err)
    if inputs.entries_error and inputs.model.value is None:
        return fail(
            f"{inputs.entries_error}; {inputs.model.error or 'the model record is missing'}", ExitCode.UNREACHABLE, err
        )
    view = analyse(inputs)
    text = build_report_text(view, as_json=as_json, limit=limit)
    # diagnosis's markdown is already inert; sanitising again costs nothing and guarantees that
    # no control character (other than newline and tab) reaches the terminal.
    write_inert(out, text)
    return ExitCode.OK
