"""Criteria (saved judges) and their alignment, for the CLI and the TUI (contract section 4).

- ``criterion_row``: what a person needs to trust a criterion: the queue's trust word, TPR
  and TNR with their intervals, kappa, the drift signal, and the app's own reading
  (``judge_quality.judge_reading``);
- ``alignment_lines``: a criterion's last alignment, every disagreement verbatim (the
  caller shows them inert);
- ``align_and_wait``: align SPENDS one judge call per label: the caller confirms first; the
  POST is sent once (never resent: a lost answer is looked up with a free
  ``GET .../alignment``), then a queued run is polled while the queue says "in progress".
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from api_client.errors import BadRequestError, OutcomeUnknownError
from application.bakeoffs.figures import interval_text, rate_text
from application.bakeoffs.judge_quality import informedness, judge_reading
from application.bakeoffs.words import drift_text
from common.format import plural

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.client import ErrorbarClient

__all__ = [
    "AlignProgress",
    "CriterionRow",
    "align_and_wait",
    "align_confirmation",
    "alignment_lines",
    "criterion_row",
    "in_progress",
]

POLL_S = 2.0
_PROGRESS = re.compile(r"in progress\D*(\d+)", re.IGNORECASE)


def _pair(value: list[float] | None) -> tuple[float, float] | None:
    return (value[0], value[1]) if value else None


@dataclass(frozen=True)
class CriterionRow:
    id: str
    name: str | None
    judge_model: str | None
    trust: str | None
    tpr: float | None
    tpr_ci: tuple[float, float] | None
    tnr: float | None
    tnr_ci: tuple[float, float] | None
    kappa: float | None
    labels: int | None
    aligned_at: str | None
    drift: str
    informedness: float | None
    reading: str | None  # the app's plain reading; None when the judge is usable


def criterion_row(criterion: assumed.Criterion) -> CriterionRow:
    drift = drift_text(criterion.drift_signal, criterion.drift_status, criterion.drift_reason)
    return CriterionRow(
        criterion.id,
        criterion.name,
        criterion.judge_model,
        criterion.trust,
        criterion.tpr,
        _pair(criterion.tpr_ci),
        criterion.tnr,
        _pair(criterion.tnr_ci),
        criterion.kappa,
        criterion.alignment_n,
        criterion.aligned_at,
        drift,
        informedness(criterion.tpr, criterion.tnr),
        judge_reading(criterion.tpr, criterion.tnr, criterion.kappa),
    )


def alignment_lines(report: assumed.Alignment) -> list[str]:
    """The report as lines; disagreements verbatim (show them with an inert writer)."""
    metrics = report.metrics
    lines = [f"aligned at {report.aligned_at or '— (not sent)'} · tier {report.tier or '—'}"]
    if metrics is None:
        lines.append("metrics: not sent")
    else:
        lines.append(
            f"{plural(metrics.n, 'label') if metrics.n is not None else '— labels'} · TPR {rate_text(metrics.tpr)} "
            f"{interval_text(metrics.tpr_ci)} · TNR {rate_text(metrics.tnr)} {interval_text(metrics.tnr_ci)} · "
            f"kappa {rate_text(metrics.kappa)}"
        )
        reading = judge_reading(metrics.tpr, metrics.tnr, metrics.kappa)
        if reading:
            lines.append(f"the app's reading: {reading}")
    lines.append(
        plural(len(report.disagreements), "disagreement")
        + (f" ({plural(report.agreements, 'agreement')})" if report.agreements is not None else "")
    )
    for item in report.disagreements:
        lines.append(
            f"  {item.request_id or '—'} · judge {item.judge_verdict or '—'} · person "
            f"{item.human_verdict or '—'} · tag {item.tag or '—'}"
        )
        lines.append(f"    critique: {item.critique if item.critique is not None else '(none)'}")
        lines.append(f"    answer: {item.response_excerpt if item.response_excerpt is not None else '(not sent)'}")
    return lines


def align_confirmation(criterion: assumed.Criterion) -> str:
    labels = plural(criterion.alignment_n, "label") if criterion.alignment_n else "every in-scope label"
    return (
        f"align {criterion.name or criterion.id}? It re-judges {labels} with "
        f"{criterion.judge_model or 'its judge'}: one metered judge call per label (it spends money), sent once"
    )


def in_progress(error: BaseException) -> int | None:
    """Labels judged so far when ``error`` is the queue's "Alignment run in progress" 400."""
    if isinstance(error, BadRequestError):
        match = _PROGRESS.search(error.message or "")
        if match:
            return int(match.group(1))
        if "in progress" in (error.message or "").lower():
            return 0
    return None


@dataclass(frozen=True)
class AlignProgress:
    judged: int | None  # labels judged so far (None: not said)
    total: int | None


async def align_and_wait(
    client: ErrorbarClient,
    criterion_id: str,
    *,
    sleep: Callable[[float], Awaitable[None]],
    on_progress: Callable[[AlignProgress], None] | None = None,
    interval: float = POLL_S,
    max_polls: int = 900,
) -> assumed.Alignment:
    """Align once (the caller has confirmed), then the report: at once for <=50 labels,
    else after polling ``GET .../alignment`` while it says "in progress". A lost answer to
    the POST is settled by reading the alignment (free), never by sending again."""
    total: int | None = None
    try:
        answer = await client.align(criterion_id)
    except OutcomeUnknownError:
        answer = None  # settle it below with free reads
    if answer is not None and not answer.queued:
        return answer
    if answer is not None:
        total = answer.total_labels
    for _ in range(max_polls):
        try:
            return await client.alignment(criterion_id)
        except BadRequestError as error:
            judged = in_progress(error)
            if judged is None:
                raise
            if on_progress is not None:
                on_progress(AlignProgress(judged, total))
        await sleep(interval)
    raise TimeoutError(
        f"the alignment of {criterion_id} was still in progress after {max_polls} reads; "
        "it was not sent again: read it later with `bakeoff criterion`"
    )
