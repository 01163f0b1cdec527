"""One call, diagnosed: the logged call read back, the detectors' findings and the
trained-template verdict, ready for a screen (the Playground shows them beside its answer).

No Textual. The screen hands in how to learn the trained template (it knows the session's
settings and caches the model); a log that cannot be read is said, never guessed at.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from api_client.errors import BlahError
from application.error_text import describe_error
from common.records import Call
from diagnosis import Finding, classify, template_name

__all__ = ["CallFindings", "read_call_findings"]


class LogReader(Protocol):
    async def get_log(self, log_id: str) -> Call: ...


@dataclass(frozen=True, slots=True)
class CallFindings:
    """``log``: the call as logged (None: not read); ``findings``: None when there was no log
    to diagnose; ``note``: the template verdict, or why the log could not be read."""

    log: Call | None
    findings: list[Finding] | None
    note: str | None


async def read_call_findings(
    client: LogReader | None,
    log_id: str | None,
    trained_template: Callable[[], Awaitable[tuple[str | None, str]]],
) -> CallFindings:
    """Read the call ``log_id`` and diagnose it with the trained template (and its source)."""
    log: Call | None = None
    note: str | None = None
    if client is not None and log_id:
        try:
            log = await client.get_log(log_id)
        except BlahError as error:
            note = f"couldn't load the log: {describe_error(error)}"
    if log is None:
        return CallFindings(None, None, note)
    template, source = await trained_template()
    findings = classify(log, trained_template=template)
    note = (
        f"trained template: {template_name(template)} ({source})"
        if template
        else "trained template unknown: no template verdict"
    )
    return CallFindings(log, findings, note)
