"""Where a benchmark run's ``full_suite_command`` comes from (issue 31, Seed 002).

The platform documents ``full_suite_command`` (the exact command that runs the frozen release
on Harbor with the same model) on the single-task run's record only; a suite record may carry
it too (then it is used as sent). For a suite run without one, the command of a single run of
the same benchmark, provider and model is shown, named by that run's id: the platform's own
text, never one built here. Without either, the run has none to show, and the caller says how
to get one (a sandbox-task run)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["FullSuiteCommand", "full_suite_command"]


@dataclass(frozen=True)
class FullSuiteCommand:
    command: str | None
    from_run: str | None = None
    """The single run whose record gave the command, when it is not the run's own."""


def full_suite_command(record: Any, listing: Any = None) -> FullSuiteCommand:
    """``record``'s full-suite command, its own or (a suite run) a same-model single run's in
    ``listing`` (a ``RunList``, newest first)."""
    own = getattr(record, "full_suite_command", None) or (getattr(record, "model_extra", None) or {}).get(
        "full_suite_command"
    )
    if isinstance(own, str) and own:
        return FullSuiteCommand(own)
    for run in getattr(listing, "runs", None) or []:
        if run.full_suite_command and run.model == record.model and run.provider == record.provider:
            return FullSuiteCommand(run.full_suite_command, run.run_id)
    return FullSuiteCommand(None)
