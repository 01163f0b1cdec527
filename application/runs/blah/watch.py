"""Watching an eval run, one module per job (this one only gathers them for importers):

- :mod:`application.runs.eta`: the ETA estimator (how it estimates is documented there);
- :mod:`application.runs.blah.events`: the events worth telling the person (diffing two polls);
- :mod:`application.runs.blah.progress`: per-eval status of the results landed so far;
- :mod:`application.runs.blah.statuses`: which statuses are active, ended, resumable, cancellable;
- polling (the waits, Retry-After, fatal errors): :mod:`application.poller`, shared by
  every poll loop of the app.
"""

from __future__ import annotations

from application.runs.blah.events import RunEvent, RunWatch, ended_message
from application.runs.blah.progress import EvalProgress, eval_progress
from application.runs.blah.statuses import (
    ACTIVE_STATUSES,
    ATTENTION_STATUSES,
    CANCELLABLE_STATUSES,
    RESUMABLE_STATUSES,
)
from application.runs.eta import Eta, EtaEstimator
from common.format import format_duration

__all__ = [
    "ACTIVE_STATUSES",
    "ATTENTION_STATUSES",
    "CANCELLABLE_STATUSES",
    "RESUMABLE_STATUSES",
    "Eta",
    "EtaEstimator",
    "EvalProgress",
    "RunEvent",
    "RunWatch",
    "ended_message",
    "eval_progress",
    "format_duration",
]
