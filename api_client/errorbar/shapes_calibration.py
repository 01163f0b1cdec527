"""Calibration, evidence and failure clusters (contract 3.4, 3.8, 3.11, 3.12, 4): the person's
pair labels against the judge, a criterion's alignment, the evidence bundle and its
attestation, and why answers failed grouped per criterion. What is ASSUMED here (the
calibration sides, the pair labels' list, an align's queued answer, attestation problems) is
listed in :mod:`api_client.errorbar.shapes`."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from api_client.errorbar.shapes_base import Json, Lenient, interval, object_or_none

__all__ = [
    "AlignAnswer",
    "Alignment",
    "AlignmentMetrics",
    "ArmPairwise",
    "Attestation",
    "AttestationProblem",
    "Calibration",
    "CalibrationSide",
    "CorrectedWinRate",
    "CriterionClusters",
    "Disagreement",
    "Evidence",
    "EvidenceContent",
    "EvidenceGate",
    "FailureCluster",
    "FailureClusters",
    "PairLabel",
    "Pairwise",
    "parse_pair_labels",
]


class CalibrationSide(Lenient):
    """The judge against the person on one side: said it when the person did (sensitivity),
    did not when the person did not (specificity)."""

    positives: int | None = None
    negatives: int | None = None
    sensitivity: float | None = None
    sensitivity_ci: list[float] | None = None
    specificity: float | None = None
    specificity_ci: list[float] | None = None

    _cis = field_validator("sensitivity_ci", "specificity_ci", mode="before")(interval)


class Calibration(Lenient):
    n: int | None = None
    agreement: float | None = None
    kappa: float | None = None
    usable: bool | None = None
    reason: str | None = None
    wins: CalibrationSide | None = None
    losses: CalibrationSide | None = None
    decided: CalibrationSide | None = None

    _sides = field_validator("wins", "losses", "decided", mode="before")(object_or_none)


class CorrectedWinRate(Lenient):
    win_rate: float | None = None
    win_rate_ci: list[float] | None = None
    floor_half_width: float | None = None
    calibration_variance_share: float | None = None
    decided: float | None = None

    _ci = field_validator("win_rate_ci", mode="before")(interval)


class ArmPairwise(Lenient):
    spec_sheet: Json | None = None
    labelled_pairs: int | None = None
    corrected: CorrectedWinRate | None = None

    _objects = field_validator("spec_sheet", "corrected", mode="before")(object_or_none)


class Pairwise(Lenient):
    v: int | None = None
    computed_at: str | None = None
    labelled_pairs: int | None = None
    calibration: Calibration | None = None
    candidates: dict[str, ArmPairwise] = Field(default_factory=dict)

    _calibration = field_validator("calibration", mode="before")(object_or_none)

    @field_validator("candidates", mode="before")
    @classmethod
    def _arms(cls, value: Any) -> Any:
        return {k: v for k, v in value.items() if isinstance(v, dict)} if isinstance(value, dict) else {}


class PairLabel(Lenient):
    sample_index: int
    candidate: str
    verdict: str | None = None
    critique: str | None = None
    pairwise: Pairwise | None = None


def parse_pair_labels(data: Any) -> list[PairLabel]:
    """``{object, data:[...]}`` or a bare array (the shape is not stated)."""
    from api_client.transport.responses import ShapeError

    items = data.get("data") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ShapeError("expected a list of pair labels")
    return [PairLabel.model_validate(item) for item in items]


class AlignmentMetrics(Lenient):
    n: int | None = None
    tpr: float | None = None
    tpr_ci: list[float] | None = None
    tnr: float | None = None
    tnr_ci: list[float] | None = None
    kappa: float | None = None

    _cis = field_validator("tpr_ci", "tnr_ci", mode="before")(interval)


class Disagreement(Lenient):
    request_id: str | None = None
    judge_verdict: str | None = None
    human_verdict: str | None = None
    critique: str | None = None
    tag: str | None = None
    response_excerpt: str | None = None


class Alignment(Lenient):
    """A criterion's alignment report (``GET .../alignment``, or a synchronous align)."""

    aligned_at: str | None = None
    metrics: AlignmentMetrics | None = None
    tier: str | None = None
    agreements: int | None = None
    disagreements: list[Disagreement] = Field(default_factory=list)


class AlignAnswer(Alignment):
    """``POST .../align``: the report (<=50 labels), or ``queued`` with ``total_labels``."""

    queued: bool | None = None
    total_labels: int | None = None


# ---------------------------------------------------------------- evidence (contract 3.8)


class AttestationProblem(Lenient):
    seq: int | None = None
    kind: str | None = None
    detail: str | None = None


class Attestation(Lenient):
    ok: bool | None = None
    checked_rows: int | None = None
    head_seq: int | None = None
    problems: list[AttestationProblem] = Field(default_factory=list)
    acknowledged: bool | None = None
    statement: str | None = None

    @field_validator("problems", mode="before")
    @classmethod
    def _problems(cls, value: Any) -> Any:
        if not isinstance(value, list):
            return []
        return [item if isinstance(item, dict) else {"detail": str(item)} for item in value]


class EvidenceContent(Lenient):
    included: bool | None = None
    reason: str | None = None


class EvidenceGate(Lenient):
    params: Json | None = None
    verdict: Json | None = None


class Evidence(Lenient):
    signature: Any = None
    unsigned: bool | None = None
    bundle_v: int | None = None
    generated_at: str | None = None
    run: Json | None = None
    results: Json | None = None
    gate: EvidenceGate | None = None
    instrument: Json | None = None
    samples: Json | None = None
    content: EvidenceContent | None = None
    refusals: Json | None = None
    attestation: Attestation | None = None

    _objects = field_validator(
        "run", "results", "gate", "instrument", "samples", "content", "refusals", "attestation", mode="before"
    )(object_or_none)


# ---------------------------------------------------------------- failure clusters (contract 3.4)


class FailureCluster(Lenient):
    name: str | None = None
    count: int | None = None
    share: float | None = None
    request_ids: list[str] = Field(default_factory=list)
    example: str | None = None


class CriterionClusters(Lenient):
    criterion_id: str | None = None
    criterion_name: str | None = None
    failures: int | None = None
    without_reason: int | None = None
    clusters: list[FailureCluster] = Field(default_factory=list)


class FailureClusters(Lenient):
    window_days: int | None = None
    generated_at: str | None = None
    cached: bool | None = None
    criteria: list[CriterionClusters] = Field(default_factory=list)
