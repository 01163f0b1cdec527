"""What the New bake-off dialog (and `bakeoff create`, `bakeoff show`) says from what the
workspace already knows: the models it ran, each criterion's trust in a line, and where a
run's prompts came from."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from application.bakeoffs.figures import rate_text
from application.bakeoffs.judge_quality import judge_reading
from application.bakeoffs.new_run.request import STORED, SampleFilters
from application.bakeoffs.words import drift_text, judged_text
from common.format import plural
from common.safe_strings import clip

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["criterion_line", "population_text", "used_models"]


def used_models(runs: Iterable[assumed.Run]) -> list[str]:
    """The models the workspace already ran (earlier runs' arms and baselines, and the
    screening catalog of any screening run), most used first: what the dialog offers. Any
    other id is accepted as typed; the queue says whether it is in its catalog."""
    counts: dict[str, int] = {}

    def add(model: Any) -> None:
        if isinstance(model, str) and model and model != STORED:
            counts[model] = counts.get(model, 0) + 1

    for run in runs:
        add(run.baseline_model)
        for arm in run.arms:
            add(arm.model)
        if not run.arms:
            for model in run.candidate_models:
                add(model)
        screening = run.results.screening if run.results is not None else None
        if screening is not None:
            add(screening.incumbent.model if screening.incumbent is not None else None)
            for entry in screening.per_candidate:
                add(entry.model)
    return sorted(counts, key=lambda m: (-counts[m], m))


def criterion_line(criterion: assumed.Criterion) -> str:
    """One line per criterion: trust, TPR/TNR, kappa, drift, and the plain reading."""
    extra = criterion.model_extra or {}
    signal, status = extra.get("drift_signal"), extra.get("drift_status")
    drift = clip(drift_text(str(signal) if signal else None, str(status) if status else "—", None), 40)
    line = (
        f"{clip(criterion.name or criterion.id, 60)} ({clip(criterion.id, 40)}): trust "
        f"{clip(criterion.trust or '—', 20)} · TPR {rate_text(criterion.tpr)} "
        f"· TNR {rate_text(criterion.tnr)} · kappa "
        f"{rate_text(criterion.kappa)} · drift {drift}"
    )
    reading = judge_reading(criterion.tpr, criterion.tnr, criterion.kappa)
    return f"{line}\n  ! {reading}" if reading else line


def population_text(run: assumed.Run) -> str:
    """Where a run's prompts came from (its ``sample_filters`` echo) and how they were judged
    (``rubric_type``, or a criterion's frozen judge), in words."""
    filters = run.sample_filters or {}
    if filters.get("screening"):
        where = "a screening sample of logged traffic"
    else:
        where = SampleFilters.from_body(filters).describe()
    replay = next(
        (
            (row.model_extra or {}).get("replay")
            for row in (run.results.per_candidate if run.results else [])
            if isinstance((row.model_extra or {}).get("replay"), dict)
        ),
        None,
    )
    if replay:
        runs, steps = replay.get("runs"), replay.get("steps")
        where += (
            f" ({plural(runs, 'agent run') if isinstance(runs, int) else '? agent runs'}, "
            f"{plural(steps, 'step') if isinstance(steps, int) else '? steps'} replayed)"
        )
    return f"prompts from {where}; {judged_text(run)}"
