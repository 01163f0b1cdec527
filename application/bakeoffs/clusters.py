"""Failure clusters (``GET /v1/evals/failure_clusters``, contract 3.4): why each criterion's
answers failed, grouped, with an example.

A read is free while the queue's one-hour cache holds; a fresh clustering is metered (one
call per criterion with at least 4 failure reasons). ``force`` skips the cache, so it SPENDS:
the caller confirms it and sends it once (never in a loop, never on a timer).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from common.format import plural

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["FORCE_CONFIRMATION", "ClusterRow", "cluster_rows", "freshness"]

FORCE_CONFIRMATION = (
    "re-cluster the failures now, skipping the hour's cache? It makes one metered call per "
    "criterion with 4 or more failure reasons (it spends money), sent once"
)
MIN_REASONS = 4


@dataclass(frozen=True)
class ClusterRow:
    criterion_id: str | None
    criterion_name: str | None
    failures: int | None
    without_reason: int | None
    name: str | None = None  # None: the criterion has no clusters (the note says why)
    count: int | None = None
    share: float | None = None
    example: str | None = None
    request_ids: tuple[str, ...] = ()
    note: str | None = None


def cluster_rows(answer: assumed.FailureClusters, criterion_id: str | None = None) -> list[ClusterRow]:
    rows = []
    for item in answer.criteria:
        if criterion_id is not None and item.criterion_id != criterion_id:
            continue
        criterion = ClusterRow(item.criterion_id, item.criterion_name, item.failures, item.without_reason)
        if not item.clusters:
            failures = item.failures or 0
            note = (
                "no failures in the window"
                if failures == 0
                else f"{plural(failures, 'failure')}: fewer than {MIN_REASONS} reasons, so no clusters"
                if failures < MIN_REASONS
                else "no clusters sent"
            )
            rows.append(replace(criterion, note=note))
            continue
        rows.extend(
            replace(
                criterion,
                name=cluster.name,
                count=cluster.count,
                share=cluster.share,
                example=cluster.example,
                request_ids=tuple(cluster.request_ids),
            )
            for cluster in item.clusters
        )
    return rows


def freshness(answer: assumed.FailureClusters) -> str:
    when = answer.generated_at or "— (not sent)"
    days = answer.window_days if answer.window_days is not None else "—"
    if answer.cached is True:
        return f"last {days} days · from the queue's cache, generated {when} (free)"
    if answer.cached is False:
        return f"last {days} days · freshly clustered {when} (metered when a criterion had {MIN_REASONS}+ reasons)"
    return f"last {days} days · generated {when} (cached or fresh: not said)"
