"""The errorbar queue's sample answers read as the product's ``BakeoffAnswer``: the one place
that maps them (``answer_from_sample`` a candidate's, ``baseline_answer`` the baseline's)."""

from __future__ import annotations

from api_client.errorbar.shapes import Run, Sample, SampleAnswer
from common.records import BakeoffAnswer

__all__ = ["answer_from_sample", "baseline_answer"]


def answer_from_sample(answer: SampleAnswer) -> BakeoffAnswer:
    """A candidate's answer to one sample; a member the queue did not send stays ``None``."""
    return BakeoffAnswer(
        model=answer.model,
        text=answer.answer,
        outcome=answer.outcome,
        human_verdict=answer.human_verdict,
        truncated=answer.truncated,
        latency_ms=answer.latency_ms,
        cost_micros=answer.cost_micros,
        orderings=answer.orderings,
        assertions=None if answer.assertions is None else tuple(answer.assertions),
        similarity=answer.similarity,
    )


def baseline_answer(run: Run, sample: Sample) -> BakeoffAnswer:
    """The baseline's answer to one sample. The queue sends its text and (an extra) whether
    it was cut at the cap; nothing else of it (no latency, no outcome: it is what is compared
    against)."""
    cut = (sample.model_extra or {}).get("baseline_truncated")
    return BakeoffAnswer(
        model=run.baseline_model,
        text=sample.baseline_answer,
        truncated=cut if isinstance(cut, bool) else None,
    )
