"""Publish an evaluation's job to Blobfish from the evidence the app already holds (no Textual).

Before this, a person had to cut ``envelope`` out of `blah-tui blobfish show --json` by hand
and pass the file to `blobfish publish`. Here the ``blobfish.sdk-evaluation.v1`` envelope is
built from an :class:`~application.evaluations.evidence.Evaluation` (the Evaluations screen's
``P`` and `blah-tui blobfish publish --evaluation ID` both call :func:`plan_publication`):

- the job: ``{"schema": "blobfish.job.v1", job_id, status, taskset, metadata, rollouts}`` in
  the contract's order, each rollout verbatim as the platform sent it; the traces verbatim,
  in the envelope's order (the full set: a rollout's trace is never left out);
- checked here against the documented rules (completed, 1-256 rollouts, <= 1 MiB) and
  serialized ONCE: a retry resends the identical bytes (contract section 6, rule 5);
- sent once (:func:`publish_once`); a lost answer is settled by reading the list (is the job
  id there?), never by sending again.

What the evidence holds is what the platform keeps after masking secrets: Blobfish keys
evidence by job id, so the same job published again answers with the same evaluation when the
evidence is identical, and refuses it (409) when it differs (e.g. a field it masked).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from api_client.blobfish import shapes as assumed
from api_client.blobfish.errors import EnvelopeRefusedError, EvidenceChangedError, PublishRefusedLocally, TooLargeError
from api_client.blobfish.publication import MAX_BYTES, Publication, prepare
from api_client.errors import AuthError, BlahError, MissingKeyError, OutcomeUnknownError
from application.evaluations.evidence import Evaluation

__all__ = ["PublishOutcome", "PublishPlan", "Publisher", "build_envelope", "plan_publication", "publish_once"]

Json = dict[str, Any]


class Publisher(Protocol):
    """What publishing needs of a Blobfish client (``api_client.blobfish.BlobfishClient``)."""

    async def publish(self, envelope: Publication) -> assumed.Receipt: ...

    async def list_evaluations(self) -> list[assumed.Summary]: ...


def build_envelope(evaluation: Evaluation) -> Json:
    """The ``blobfish.sdk-evaluation.v1`` envelope of ``evaluation``'s job, from its evidence.

    Members the evidence did not record (no status, no taskset) stay absent: the local check
    (:func:`plan_publication`) then says why it cannot be published, nothing is made up. The
    job's ``metadata`` is the summary's (ASSUMED in the contract: the Summary's ``metadata`` is
    the job's)."""
    job: Json = {"schema": assumed.JOB_SCHEMA}
    if evaluation.summary.job_id is not None:
        job["job_id"] = evaluation.summary.job_id
    if evaluation.status is not None:
        job["status"] = evaluation.status
    if evaluation.taskset is not None:
        job["taskset"] = evaluation.taskset
    if evaluation.summary.metadata:
        job["metadata"] = dict(evaluation.summary.metadata)
    job["rollouts"] = [dict(rollout.raw.get("rollout") or {}) for rollout in evaluation.rollouts]
    traces = list(evaluation.traces)
    if not traces:  # an evidence reader that kept the traces only beside their rollouts
        traces = [r.raw["trace"] for r in evaluation.rollouts if isinstance(r.raw.get("trace"), Mapping)]
    return {"schema": assumed.ENVELOPE_SCHEMA, "traces": traces, "job": job}


@dataclass(frozen=True)
class PublishPlan:
    """What ``P`` (or ``publish --evaluation``) will send: the checked bytes and what they hold."""

    publication: Publication
    evaluation_id: str
    """The evaluation the envelope was built from."""
    taskset: str | None
    model: str | None
    trace_count: int

    @property
    def job_id(self) -> str:
        return self.publication.job_id

    @property
    def rollout_count(self) -> int:
        return self.publication.rollout_count

    @property
    def byte_count(self) -> int:
        return len(self.publication.body)

    def facts(self) -> list[tuple[str, str]]:
        """(label, value) pairs for a confirmation: untrusted values as sent (made inert by the caller)."""
        return [
            ("taskset", self.taskset or "not recorded"),
            ("model", self.model or "not recorded"),
            (
                "rollouts",
                (
                    f"{self.rollout_count:,} with {self.trace_count:,} trace{'s' if self.trace_count != 1 else ''}"
                    " (1-256 accepted)"
                ),
            ),
            ("size", f"{self.byte_count:,} bytes of JSON (at most {MAX_BYTES:,})"),
            ("built from", f"evaluation {self.evaluation_id}"),
        ]


def plan_publication(evaluation: Evaluation, previous: Publication | None = None) -> PublishPlan:
    """Build, check and serialize the envelope of ``evaluation`` (``PublishRefusedLocally`` with
    one sentence when a documented rule forbids it; nothing is sent). ``previous``: the bytes
    made for this job before, resent verbatim instead of serializing again."""
    if previous is not None and previous.job_id == evaluation.summary.job_id:
        publication = previous
    else:
        if evaluation.status != "completed":
            shown = repr(evaluation.status) if evaluation.status else "not recorded"
            raise PublishRefusedLocally(
                f"Job {evaluation.summary.job_id or 'without a job id'} is not completed (status {shown[:40]}): "
                "Blobfish publishes only completed jobs. Nothing was sent.",
                rule="completed",
            )
        publication = prepare(build_envelope(evaluation))
    traces = len(evaluation.traces) or sum(isinstance(r.raw.get("trace"), Mapping) for r in evaluation.rollouts)
    return PublishPlan(publication, evaluation.evaluation_id, evaluation.taskset, evaluation.model, traces)


PublishKind = Literal["published", "same", "refused", "not_done", "unknown", "failed"]


@dataclass(frozen=True)
class PublishOutcome:
    """What became of one publication, in one sentence (``message``).

    ``published``: a new evaluation (``settled``: the answer was lost and the list showed it);
    ``same``: the platform answered with the evaluation it already had for this evidence;
    ``refused``: the platform (or the local check) said no; ``not_done``: the answer was lost
    and the list shows the job is not there; ``unknown``: the answer was lost and the list
    could not be read; ``failed``: anything else."""

    kind: PublishKind
    message: str
    evaluation_id: str | None = None
    dashboard_url: str | None = None
    settled: bool = False

    @property
    def error(self) -> bool:
        return self.kind in ("refused", "not_done", "unknown", "failed")


def _refusal(error: BlahError, plan: PublishPlan) -> PublishOutcome:
    job = plan.job_id
    if isinstance(error, MissingKeyError):
        return PublishOutcome(
            "refused", "Publishing needs a Blobfish key (bf_...) and none is configured: nothing was sent."
        )
    if isinstance(error, AuthError):
        return PublishOutcome("refused", f"Blobfish refused the key ({error.status}): job {job} was not published.")
    if isinstance(error, EvidenceChangedError):
        return PublishOutcome(
            "refused",
            f"Blobfish refused it (409 job_conflict): job {job} is already published "
            "and these bytes differ from the first (a field it masked, or another "
            "serialization, counts as changed evidence); the platform keeps the first.",
        )
    if isinstance(error, TooLargeError):
        return PublishOutcome(
            "refused",
            f"Blobfish refused it as too large (413): job {job} is over 1 MiB of JSON; "
            "split the taskset into several jobs.",
        )
    if isinstance(error, EnvelopeRefusedError):
        return PublishOutcome(
            "refused", f"Blobfish refused the envelope ({error.status} invalid_envelope): {error.message.rstrip('.')}."
        )
    return PublishOutcome("failed", f"Publishing job {job} failed: {error}")


async def _settle(client: Publisher, plan: PublishPlan) -> PublishOutcome:
    """The answer was lost: read the list for the job id (never send again)."""
    try:
        summaries = await client.list_evaluations()
    except BlahError as error:
        return PublishOutcome(
            "unknown",
            f"The answer was lost and the list could not be read ({error}): outcome "
            "unknown. Reload the list (ctrl+r) before publishing job "
            f"{plan.job_id} again.",
        )
    mine = next((s for s in summaries if s.job_id == plan.job_id), None)
    if mine is None:
        return PublishOutcome(
            "not_done",
            f"The answer was lost and the list has no job {plan.job_id}: it was not "
            "published. You can publish it again.",
        )
    return PublishOutcome(
        "published",
        f"The answer was lost; the list shows job {plan.job_id} as evaluation {mine.evaluation_id}.",
        evaluation_id=mine.evaluation_id,
        settled=True,
    )


async def publish_once(client: Publisher, plan: PublishPlan) -> PublishOutcome:
    """Send ``plan`` once (the client resends the identical bytes once when an answer is lost,
    which the platform answers with the same evaluation); a still-lost answer is settled by
    reading the list."""
    try:
        receipt = await client.publish(plan.publication)
    except PublishRefusedLocally as error:
        return PublishOutcome("refused", error.message)
    except OutcomeUnknownError:
        return await _settle(client, plan)
    except BlahError as error:
        return _refusal(error, plan)
    url = receipt.dashboard_url
    where = f": {url}" if url else " (the receipt gave no dashboard URL)"
    if receipt.evaluation_id == plan.evaluation_id:
        return PublishOutcome(
            "same",
            f"Blobfish already holds this evidence: job {plan.job_id} is evaluation {receipt.evaluation_id}{where}",
            receipt.evaluation_id,
            url,
        )
    return PublishOutcome(
        "published",
        f"Published job {plan.job_id} as evaluation {receipt.evaluation_id}{where}",
        receipt.evaluation_id,
        url,
    )
