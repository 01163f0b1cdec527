"""Evaluations ready for the screens: listed, fetched and diagnosed, in one place.

The Evaluations screen asks for what it shows (the summaries, then each evaluation with its
diagnosis) and never orchestrates the fetch and the diagnosis itself: those are here,
Textual-free, so the CLI or a test reads the same thing the screen does. The evaluation is the
client's own parse (read once, at the edge); diagnosis reads its rollouts as they are. The
diagnosis (pure, CPU-bound) runs in a thread so the screen stays responsive.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from application.evaluations.evidence import Evaluation, EvaluationSummary
from application.evaluations.source import EvaluationSource
from diagnosis.rollouts import EvaluationDiagnosis, diagnose_evaluation

__all__ = ["DiagnosedEvaluation", "list_summaries", "read_diagnosed"]


@dataclass(frozen=True, slots=True)
class DiagnosedEvaluation:
    """One evaluation's evidence and what diagnosis found in it."""

    evaluation: Evaluation
    diagnosis: EvaluationDiagnosis


async def list_summaries(source: EvaluationSource) -> list[EvaluationSummary]:
    """Every evaluation's summary, newest first, each once."""
    return await source.list_evaluations()


async def read_diagnosed(source: EvaluationSource, evaluation_id: str) -> DiagnosedEvaluation:
    """One evaluation fetched (parsed once, by the client) and diagnosed."""
    evaluation = await source.get_evaluation(evaluation_id)
    diagnosis = await asyncio.to_thread(diagnose_evaluation, evaluation.rollouts)
    return DiagnosedEvaluation(evaluation, diagnosis)
