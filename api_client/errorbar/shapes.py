"""Every shape the errorbar client reads (pydantic v2), with what is ASSUMED: import them from here.

Source: /work/shared/platform/evalqueue-CONTRACT.md. Documented there: the routes, the run
object's members, the results' member names, the gate's body and its 200-only-when-pass rule,
the compare rows, the samples' ``{prompt, baseline_answer, candidates:[{model, answer,
outcome, human_verdict?}]}``. Read leniently: unknown members are kept (``extra="allow"``, so
``--json`` prints what the platform sent) and an absent member stays ``None``, never 0.

ASSUMED (the contract is silent or says "not stated"):

- intervals (``ci95``, ``observed_ci``, ``corrected_ci``, ``ci``, ``delta_ci``) are
  ``[lo, hi]`` fractions or null; any other shape reads as null (no interval), never invented;
- rates are fractions 0..1 (the gate compares them with 0..1 thresholds);
- the status of a missing or refused key is 401, of a ``read`` key on a write 403
  (code ``insufficient_scope``); 403 for the role has no stated code;
- ``assertion_results`` is ``{per_model:[{model, answers, passed_all, pass_rate,
  per_assertion:[{type, passed}]}]}`` (the page names it only);
- ``criterion_snapshot`` holds ``criterion_id, name, judge_prompt, judge_model, tpr, tnr,
  kappa`` (keys not stated);
- on samples, the simulator's extras ``index``, ``truncated``, ``latency_ms``,
  ``cost_micros``, ``orderings:{ab, ba}``, ``assertions:[bool]`` and, on screening runs,
  ``similarity`` (``matched``/``differed``/``unparsed``) (absent on the real
  service as far as the contract says; read as None then);
- timestamps other than ``created_at`` are kept as the strings sent;
- the pairwise block's ``calibration`` sides (``wins``, ``losses``, ``decided``) are
  ``{positives, negatives, sensitivity, sensitivity_ci, specificity, specificity_ci}``;
  ``GET .../pair_labels`` is ``{object, data:[label]}`` or a bare array of labels; an align
  of more than 50 labels answers ``{queued, total_labels}``, otherwise the alignment report;
  the evidence bundle's ``attestation.problems`` items are ``{seq, kind, detail}``;
- ``results.screening`` (``Screening``): the contract lists ``incumbent``, ``token_shape``,
  ``per_candidate[{model, similarity:{matched, differed, unparsed, judged, match_rate, ci95},
  est_usd_per_request, est_savings_pct, projected_monthly_usd, projected_monthly_savings_usd,
  ...placement}]`` and ``recommendation`` (with ``action`` = ``"switch"``) and names the
  placement keys ``status`` and ``quality``. ASSUMED: ``incumbent`` is ``{model,
  est_usd_per_request, projected_monthly_usd, monthly_requests}`` or a bare model id;
  ``token_shape`` is ``{requests, median_prompt_tokens, median_output_tokens,
  p90_output_tokens}`` (other members kept and shown as sent); a candidate's ``arm``;
  ``status``/``quality`` are strings shown verbatim, never interpreted; ``recommendation`` is
  ``{action, model, reason}`` or a bare action string, any action but ``"switch"`` meaning keep;
  ``judge_shares_family`` a bool; money is US dollars (the field names say ``usd``);
- ``eval_cost_micros``, ``judge_cost_micros`` and a sample's ``cost_micros`` are millionths of
  a US dollar (``MICROS_PER_USD``): the contract does not state their currency; the name says
  micros and the screening's ``usd`` figures are dollars, so the app shows every cost in
  dollars, one unit, rather than a bare count in an unnamed unit;
- a 412 on create (an underpowered certified switch) names the sample count that would do as
  "at least N samples" in its message when it names one (read in
  ``application.bakeoffs.refusals``; absent, the app says the answer does not tell);
- a population-mismatch 400 says "population" in its message.

Here: a run, its results, samples, comparisons and criteria. A screening's results are in
``shapes_screening``; calibration, evidence and failure clusters in ``shapes_calibration`` (both
imported from here as well);
both are on the lenient base of ``shapes_base``. The gate's
body is documented whole (contract 3.9): it is read in ``gate_verdict`` without pydantic, for
the CI gate's start-up. The paths and fixed names are in ``shapes_fixed``.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from api_client.errorbar.shapes_base import Json, Lenient, interval
from api_client.errorbar.shapes_calibration import (
    AlignAnswer,
    Alignment,
    AlignmentMetrics,
    ArmPairwise,
    Attestation,
    AttestationProblem,
    Calibration,
    CalibrationSide,
    CorrectedWinRate,
    CriterionClusters,
    Disagreement,
    Evidence,
    EvidenceContent,
    EvidenceGate,
    FailureCluster,
    FailureClusters,
    PairLabel,
    Pairwise,
    parse_pair_labels,
)
from api_client.errorbar.shapes_fixed import (
    CODE_INSUFFICIENT_SCOPE,
    CRITERIA_PATH,
    EVALS_PATH,
    LIST_LIMIT,
    MICROS_PER_USD,
    STORED,
    TERMINAL,
)
from api_client.errorbar.shapes_screening import (
    Incumbent,
    Recommendation,
    Screening,
    ScreeningCandidate,
    Similarity,
    TokenShape,
)

__all__ = [
    "CODE_INSUFFICIENT_SCOPE",
    "CRITERIA_PATH",
    "EVALS_PATH",
    "LIST_LIMIT",
    "MICROS_PER_USD",
    "STORED",
    "TERMINAL",
    "AlignAnswer",
    "Alignment",
    "AlignmentMetrics",
    "Arm",
    "ArmPairwise",
    "Attestation",
    "AttestationProblem",
    "BaselineResult",
    "Calibration",
    "CalibrationSide",
    "CandidateResult",
    "CompareRow",
    "CompareSide",
    "Comparison",
    "CorrectedWinRate",
    "Criterion",
    "CriterionClusters",
    "CriterionList",
    "Disagreement",
    "Document",
    "Evidence",
    "EvidenceContent",
    "EvidenceGate",
    "FailureCluster",
    "FailureClusters",
    "Incumbent",
    "Json",
    "Lenient",
    "ModelResult",
    "PairLabel",
    "Pairwise",
    "Recommendation",
    "Results",
    "Run",
    "RunList",
    "Sample",
    "SampleAnswer",
    "Screening",
    "ScreeningCandidate",
    "Similarity",
    "TokenShape",
    "parse_pair_labels",
    "parse_samples",
]


class Arm(Lenient):
    key: str
    model: str | None = None
    label: str | None = None
    system: bool | None = None
    tools: bool | None = None
    n: int | None = None


class CandidateResult(Lenient):
    model: str | None = None
    arm: str | None = None
    wins: int | None = None
    losses: int | None = None
    ties: int | None = None
    failed: int | None = None
    attempted: int | None = None
    judged_share: float | None = None
    unreportable: bool | None = None
    win_rate: float | None = None
    ci95: list[float] | None = None
    inconclusive: bool | None = None
    truncated: int | None = None
    avg_latency_ms: float | None = None
    eval_cost_micros: int | None = None
    savings_pct: float | None = None

    _ci = field_validator("ci95", mode="before")(interval)

    @property
    def key(self) -> str:
        """The arm key (the model id unless the arm has a label)."""
        return self.arm or self.model or ""


class BaselineResult(Lenient):
    model: str | None = None
    stored_answers: bool | None = None
    truncated: int | None = None
    avg_latency_ms: float | None = None
    eval_cost_micros: int | None = None


class ModelResult(Lenient):
    """One model of a criterion run (the baseline included)."""

    model: str
    judged_pass: int | None = None
    judged_fail: int | None = None
    unparsed: int | None = None
    truncated: int | None = None
    observed_pass_rate: float | None = None
    observed_ci: list[float] | None = None
    corrected_pass_rate: float | None = None
    corrected_ci: list[float] | None = None
    avg_latency_ms: float | None = None
    eval_cost_micros: int | None = None

    _cis = field_validator("observed_ci", "corrected_ci", mode="before")(interval)


class Results(Lenient):
    eval_kind: str | None = None
    sample_count: int | None = None
    clipped_samples: int | None = None
    baseline: BaselineResult | None = None
    per_candidate: list[CandidateResult] = Field(default_factory=list)
    per_model: list[ModelResult] = Field(default_factory=list)
    judge_cost_micros: int | None = None
    judge_youden: float | None = None
    criterion: Any = None
    assertion_results: Json | None = None
    pairwise: Json | None = None
    screening: Screening | None = None

    @field_validator("screening", mode="before")
    @classmethod
    def _screening_object(cls, value: Any) -> Any:
        """A screening block that is not an object reads as absent (the run still reads)."""
        return value if isinstance(value, dict) else None


class Run(Lenient):
    id: str
    name: str | None = None
    rubric: str | None = None
    rubric_type: str | None = None
    eval_kind: str | None = None
    criterion_snapshot: Json | None = None
    baseline_model: str | None = None
    candidate_models: list[str] = Field(default_factory=list)
    arms: list[Arm] = Field(default_factory=list)
    judge_model: str | None = None
    sample_count: int | None = None
    max_output_tokens: int | None = None  # the page lists it, the manifest does not
    sample_filters: Json | None = None
    status: str | None = None
    error: str | None = None
    progress_ratio: float | None = None
    assertions: list[Json] | None = None
    created_at: str | None = None
    results: Results | None = None

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL


class RunList(Lenient):
    object: str | None = None
    data: list[Run] = Field(default_factory=list)


class SampleAnswer(Lenient):
    model: str
    answer: str | None = None
    outcome: str | None = None
    human_verdict: str | None = None
    truncated: bool | None = None  # simulator extra
    latency_ms: int | None = None  # simulator extra
    cost_micros: int | None = None  # simulator extra
    orderings: dict[str, str | None] | None = None  # simulator extra: {"ab", "ba"}
    assertions: list[bool] | None = None  # simulator extra
    similarity: str | None = None  # simulator extra, screening runs: matched|differed|unparsed


class Sample(Lenient):
    index: int | None = None  # simulator extra; otherwise the position in the array
    prompt: str | None = None
    baseline_answer: str | None = None
    candidates: list[SampleAnswer] = Field(default_factory=list)


def parse_samples(data: Any) -> list[Sample]:
    """The bare array of samples, each given its 0-based position as ``index`` when absent."""
    from api_client.transport.responses import ShapeError

    if not isinstance(data, list):
        raise ShapeError("expected an array of samples")
    samples = [Sample.model_validate(item) for item in data]
    for position, sample in enumerate(samples):
        if sample.index is None:
            sample.index = position
    return samples


class CompareSide(Lenient):
    rate: float | None = None
    n: int | None = None
    ci: list[float] | None = None

    _ci = field_validator("ci", mode="before")(interval)


class CompareRow(Lenient):
    arm: str | None = None
    metric: str | None = None
    a: CompareSide | None = None
    b: CompareSide | None = None
    delta: float | None = None
    delta_ci: list[float] | None = None
    significant: bool | None = None

    _ci = field_validator("delta_ci", mode="before")(interval)


class Comparison(Lenient):
    a: Json | None = None
    b: Json | None = None
    rows: list[CompareRow] = Field(default_factory=list)
    unmatched: Json | None = None


class Criterion(Lenient):
    id: str
    name: str | None = None
    judge_model: str | None = None
    trust: str | None = None
    tier: str | None = None
    tpr: float | None = None
    tnr: float | None = None
    kappa: float | None = None
    tpr_ci: list[float] | None = None
    tnr_ci: list[float] | None = None
    alignment_n: int | None = None
    aligned_at: str | None = None
    description: str | None = None
    judge_prompt: str | None = None
    drift_status: str | None = None
    drift_signal: str | None = None
    drift_reason: str | None = None

    _cis = field_validator("tpr_ci", "tnr_ci", mode="before")(interval)


class CriterionList(Lenient):
    data: list[Criterion] = Field(default_factory=list)


class Document(Lenient):
    """A body read as it is (pairwise, evidence, alignment, failure clusters, a pair label):
    the screens read its members; nothing here assumes more than that it is an object."""
