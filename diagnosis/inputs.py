"""What diagnosis reads of the platform's other records, as Protocols: a graded result, the
health checks, the platform's own diagnosis and failure clusters, a model's record and a Lens
bundle.

A call and a rollout are the product's own records (``common.records``); these are read as
the platform's client parsed them (``api_client.blahdev.shapes``: ``Result``, ``Health``,
``Diagnosis``, ``FailureClusters``, ``Model``, ``LensBundle`` satisfy them), so diagnosis
imports no client (an import-linter contract says so) and names only what it reads. A member
that is ``None`` was not given (never read it as 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = [
    "Clusters",
    "GradedResult",
    "HealthCheck",
    "HealthRecord",
    "LensRecord",
    "ModelRecord",
    "PlatformDiagnosis",
]


class GradedResult(Protocol):
    """A judged result: its score, the judge's breakdown, and the call it graded."""

    @property
    def id(self) -> str: ...
    @property
    def eval_id(self) -> str | None: ...
    @property
    def log_id(self) -> str | None: ...
    @property
    def response(self) -> str | None: ...
    @property
    def score(self) -> float | None: ...
    @property
    def score_details(self) -> str | None:
        """The judge's breakdown, verbatim."""

    @property
    def score_details_parsed(self) -> dict[str, Any] | list[Any] | None:
        """``score_details`` parsed when it is a JSON object or array, else ``None``."""


class HealthCheck(Protocol):
    @property
    def checked_at(self) -> int: ...
    @property
    def ok(self) -> bool | None: ...
    @property
    def status_code(self) -> int | None: ...
    @property
    def error(self) -> str | None: ...


class HealthRecord(Protocol):
    """The platform's health checks of a model's endpoint (newest first)."""

    @property
    def checks(self) -> Sequence[HealthCheck]: ...


class DiagnosisExample(Protocol):
    @property
    def log_id(self) -> str | None: ...


class DiagnosisFinding(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def count(self) -> int | None: ...
    @property
    def examples(self) -> Sequence[DiagnosisExample]: ...
    @property
    def usual_cause(self) -> str | None: ...


class PlatformDiagnosis(Protocol):
    """The platform's own reading of the model's failures, to compare ours with."""

    @property
    def calls_examined(self) -> int | None: ...
    @property
    def window_from(self) -> int | None: ...
    @property
    def window_to(self) -> int | None: ...
    @property
    def findings(self) -> Sequence[DiagnosisFinding]: ...


class Cluster(Protocol):
    @property
    def label(self) -> str | None: ...
    @property
    def size(self) -> int | None: ...
    @property
    def what_goes_wrong(self) -> str | None: ...
    @property
    def suggestion(self) -> str | None: ...
    @property
    def log_ids(self) -> Sequence[str]: ...


class Clusters(Protocol):
    """The platform's failure clusters (its judge's grouping of failing calls)."""

    @property
    def judge_model(self) -> str | None: ...
    @property
    def clusters(self) -> Sequence[Cluster]: ...


class ModelRecord(Protocol):
    """A model as the platform lists it."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str | None: ...
    @property
    def chat_template(self) -> str | None: ...


class LensRecord(Protocol):
    """A Lens bundle: what it says of the model's chat template."""

    @property
    def chat_template(self) -> str | None: ...
