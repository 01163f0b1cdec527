"""A screening run's results (``results.screening``): how often each candidate's answer matched
the incumbent's logged one, what it would cost, and the queue's recommendation. What is ASSUMED
of them is listed in ``shapes``' docstring; import them from ``shapes``."""

from __future__ import annotations

from pydantic import Field, field_validator

from api_client.errorbar.shapes_base import Lenient, interval, object_of

__all__ = ["Incumbent", "Recommendation", "Screening", "ScreeningCandidate", "Similarity", "TokenShape"]


class Similarity(Lenient):
    """How often a candidate's answer matched the incumbent's logged one (never win/loss)."""

    matched: int | None = None
    differed: int | None = None
    unparsed: int | None = None
    judged: int | None = None
    match_rate: float | None = None
    ci95: list[float] | None = None

    _ci = field_validator("ci95", mode="before")(interval)


class ScreeningCandidate(Lenient):
    model: str | None = None
    arm: str | None = None  # ASSUMED
    similarity: Similarity | None = None
    est_usd_per_request: float | None = None
    est_savings_pct: float | None = None
    projected_monthly_usd: float | None = None
    projected_monthly_savings_usd: float | None = None
    status: str | None = None  # placement: named by the contract, values not stated
    quality: str | None = None  # placement: named by the contract, values not stated


class Incumbent(Lenient):
    model: str | None = None
    est_usd_per_request: float | None = None  # ASSUMED
    projected_monthly_usd: float | None = None  # ASSUMED
    monthly_requests: int | None = None  # ASSUMED


class TokenShape(Lenient):
    requests: int | None = None  # ASSUMED
    median_prompt_tokens: float | None = None  # ASSUMED
    median_output_tokens: float | None = None  # ASSUMED
    p90_output_tokens: float | None = None  # ASSUMED


class Recommendation(Lenient):
    action: str | None = None  # documented value: "switch"
    model: str | None = None  # ASSUMED
    reason: str | None = None  # ASSUMED

    @property
    def switch(self) -> bool:
        return self.action == "switch"


class Screening(Lenient):
    incumbent: Incumbent | None = None
    token_shape: TokenShape | None = None
    per_candidate: list[ScreeningCandidate] = Field(default_factory=list)
    recommendation: Recommendation | None = None
    judge_shares_family: bool | None = None

    _incumbent = field_validator("incumbent", mode="before")(object_of("model"))
    _recommendation = field_validator("recommendation", mode="before")(object_of("action"))

    def candidate(self, model: str | None) -> ScreeningCandidate | None:
        """The screened candidate of ``model`` (by model id or arm key)."""
        return next((c for c in self.per_candidate if model is not None and model in (c.model, c.arm)), None)
