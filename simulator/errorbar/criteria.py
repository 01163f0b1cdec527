"""Criteria alignment (``POST /v1/criteria/{id}/align``, ``GET .../alignment``) and failure
clusters (``GET /v1/evals/failure_clusters``), computed from the seeded human labels.

Each criterion holds the pass/fail labels people gave on logged answers (the contract has no
route to add them; they are seeded). Align has the judge grade every labelled answer (one
metered call each) and measures it against the labels: TPR = judged pass among human passes,
TNR = judged fail among human fails, each with its Wilson interval, Cohen's kappa over the
2x2 table, and every disagreement verbatim. At most 50 labels answer at once; more are
queued, and the alignment reads "in progress" until their simulated time has passed
(``UNIT_S`` per label, scaled by the store's speed).

ASSUMED (not stated): the report's keys beyond ``metrics``, ``tier``, ``holdout`` and
``disagreements``; the trust rule (misaligned when kappa <= 0.2 or TPR+TNR-1 <= 0.1,
trustworthy when kappa >= 0.6, else borderline; under-measured below 30 labels); clusters
group a criterion's failed answers by whether the answer was cut at the output cap.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from typing import Any

from simulator.errorbar.errors import QueueError
from simulator.errorbar.results import wilson
from simulator.errorbar.world import Criterion

SYNC_LIMIT = 50
MIN_LABELS = 30
UNIT_S = 0.1
CACHE_S = 3600.0


@dataclass(frozen=True)
class CriterionLabel:
    request_id: str
    human_verdict: str  # pass | fail
    judge_verdict: str  # what the criterion's judge says when asked
    critique: str | None
    tag: str
    response_excerpt: str


@dataclass
class AlignState:
    labels: list[CriterionLabel]
    started: float | None = None  # clock reading of a queued run in progress
    report: dict[str, Any] | None = None
    calls: int = 0  # metered judge calls made by align


@dataclass
class ClusterCache:
    bodies: dict[int, tuple[float, dict[str, Any]]] = field(default_factory=dict)
    metered_calls: int = 0


# (positives, negatives, judged pass among positives, judged fail among negatives):
# the seeded aligned criteria's labels reproduce their stored TPR/TNR exactly.
_SEEDED = {"crit_helpful": (50, 50, 45, 42), "crit_concise": (40, 40, 22, 16), "crit_tone": (18, 18, 15, 14)}
_CRITIQUES = (
    "misses the refund window",
    "right answer, rude tone",
    "[bold]ignores the question[/bold]",
    "invents a product feature",
    None,
)


def seeded_labels(criterion: Criterion, seed: int) -> list[CriterionLabel]:
    positives, negatives, tp, tn = _SEEDED.get(criterion.id, (0, 0, 0, 0))
    rng = random.Random(f"errorbar-labels:{seed}:{criterion.id}")
    labels = []
    for k in range(positives + negatives):
        human = "pass" if k < positives else "fail"
        agrees = k < tp if human == "pass" else k - positives < tn
        judge = human if agrees else ("fail" if human == "pass" else "pass")
        critique = None if human == "pass" else _CRITIQUES[k % len(_CRITIQUES)]
        labels.append(
            CriterionLabel(
                f"req_{seed}_lbl_{criterion.id}_{k:03d}",
                human,
                judge,
                critique,
                ("support", "billing")[k % 2],
                f"Answer {k}: {'here is how to fix it' if human == 'pass' else 'maybe try again'}",
            )
        )
    rng.shuffle(labels)
    return labels


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def measure(labels: list[CriterionLabel]) -> dict[str, Any]:
    positives = [lab for lab in labels if lab.human_verdict == "pass"]
    negatives = [lab for lab in labels if lab.human_verdict == "fail"]
    tp = sum(1 for lab in positives if lab.judge_verdict == "pass")
    tn = sum(1 for lab in negatives if lab.judge_verdict == "fail")
    n = len(labels)
    agreement = (tp + tn) / n
    judge_pass = (tp + len(negatives) - tn) / n
    human_pass = len(positives) / n
    expected = judge_pass * human_pass + (1 - judge_pass) * (1 - human_pass)
    kappa = (agreement - expected) / (1 - expected) if expected < 1 else None
    return {
        "n": n,
        "tpr": tp / len(positives) if positives else None,
        "tpr_ci": wilson(tp, len(positives)),
        "tnr": tn / len(negatives) if negatives else None,
        "tnr_ci": wilson(tn, len(negatives)),
        "kappa": kappa,
        "positives": len(positives),
        "negatives": len(negatives),
    }


def trust_of(metrics: dict[str, Any]) -> str:
    tpr, tnr, kappa = metrics["tpr"], metrics["tnr"], metrics["kappa"]
    if metrics["n"] < MIN_LABELS or tpr is None or tnr is None or kappa is None:
        return "under-measured"
    if kappa <= 0.2 or tpr + tnr - 1 <= 0.1:
        return "misaligned"
    return "trustworthy" if kappa >= 0.6 else "borderline"


def _report(labels: list[CriterionLabel], metrics: dict[str, Any], trust: str, aligned_at: str) -> dict[str, Any]:
    disagreements = [
        {
            "request_id": lab.request_id,
            "judge_verdict": lab.judge_verdict,
            "human_verdict": lab.human_verdict,
            "critique": lab.critique,
            "tag": lab.tag,
            "response_excerpt": lab.response_excerpt,
        }
        for lab in labels
        if lab.judge_verdict != lab.human_verdict
    ]
    tier = {"trustworthy": "aligned", "misaligned": "misaligned", "borderline": "weak"}.get(trust, "unmeasured")
    return {
        "aligned_at": aligned_at,
        "metrics": {k: metrics[k] for k in ("n", "tpr", "tpr_ci", "tnr", "tnr_ci", "kappa")},
        "tier": tier,
        "trust": trust,
        "holdout": None,
        "threshold_analysis": None,
        "agreements": len(labels) - len(disagreements),
        "disagreements": disagreements,
    }


def _apply(criterion: Criterion, state: AlignState) -> dict[str, Any]:
    metrics = measure(state.labels)
    trust = trust_of(metrics)
    aligned_at = _now()
    criterion.tpr, criterion.tnr, criterion.kappa = metrics["tpr"], metrics["tnr"], metrics["kappa"]
    criterion.positives_labelled, criterion.negatives_labelled = metrics["positives"], metrics["negatives"]
    criterion.trust, criterion.aligned_at = trust, aligned_at
    state.report = _report(state.labels, metrics, trust, aligned_at)
    state.started = None
    return state.report


class Alignments:
    """Every criterion's labels and alignment state, read against the store's clock."""

    def __init__(self, criteria: dict[str, Criterion], seed: int, clock: Any, speed: float) -> None:
        self.criteria, self.clock, self.speed = criteria, clock, speed
        self.states = {cid: AlignState(seeded_labels(c, seed)) for cid, c in criteria.items()}
        for cid, criterion in criteria.items():
            state = self.states[cid]
            if criterion.aligned and state.labels:  # the stored alignment, as its labels give it
                state.report = _report(
                    state.labels, measure(state.labels), criterion.trust, criterion.aligned_at or _now()
                )
                state.report["metrics"].update(tpr=criterion.tpr, tnr=criterion.tnr, kappa=criterion.kappa)
        self.clusters = ClusterCache()

    def _settle(self, criterion: Criterion) -> int | None:
        """Labels judged so far when a queued run is still in progress; else None (done)."""
        state = self.states[criterion.id]
        if state.started is None:
            return None
        judged = int((self.clock() - state.started) * self.speed / UNIT_S)
        if judged >= len(state.labels):
            _apply(criterion, state)
            return None
        return judged

    def align(self, criterion: Criterion) -> dict[str, Any]:
        state = self.states[criterion.id]
        if self._settle(criterion) is not None:
            raise QueueError(400, "An alignment run is already in progress.")
        if len(state.labels) < MIN_LABELS:
            raise QueueError(
                400, f"Fewer than {MIN_LABELS} in-scope labels ({len(state.labels)}): label more answers first."
            )
        state.calls += len(state.labels)
        if len(state.labels) > SYNC_LIMIT:
            state.started = self.clock()
            return {"queued": True, "total_labels": len(state.labels)}
        return _apply(criterion, state)

    def alignment(self, criterion: Criterion) -> dict[str, Any]:
        judged = self._settle(criterion)
        if judged is not None:
            raise QueueError(400, f"Alignment run in progress — {judged} labels judged so far")
        report = self.states[criterion.id].report
        if report is None:
            raise QueueError(400, "This criterion has no alignment run yet")
        return report

    def finish(self, criterion_id: str) -> None:
        """Test hook: a queued alignment's time has all passed."""
        state = self.states[criterion_id]
        if state.started is not None:
            state.started -= len(state.labels) * UNIT_S / self.speed + 1

    def in_progress(self, criterion: Criterion) -> bool:
        return self._settle(criterion) is not None


def failure_clusters(store: Any, window_days: int, force: bool) -> dict[str, Any]:
    """One metered call per criterion with at least 4 failure reasons on a fresh clustering;
    an hour's cache per window otherwise."""
    cache = store.alignments.clusters
    now = store.clock()
    hit = cache.bodies.get(window_days)
    if hit is not None and not force and now - hit[0] < CACHE_S / max(store.speed, 1e-9):
        return {**hit[1], "cached": True}
    criteria = []
    for criterion in store.criteria.values():
        fails = []
        for run_id in store.ids():
            run = store._runs[run_id]
            snapshot = run.spec.get("criterion_snapshot") or {}
            if snapshot.get("criterion_id") == criterion.id:
                fails += [(s, g) for s in store.visible_samples(run) for g in s.graded if g.outcome == "fail"]
        clusters = []
        if len(fails) >= 4:
            cache.metered_calls += 1
            for truncated, name in ((True, "Answer cut at the output cap"), (False, "Wrong or vague answer")):
                group = [f for f in fails if f[1].answer.truncated == truncated]
                if group:
                    clusters.append(
                        {
                            "name": name,
                            "count": len(group),
                            "share": round(len(group) / len(fails), 4),
                            "request_ids": [s.request.id for s, _ in group[:5]],
                            "example": group[0][1].answer.text[:200],
                        }
                    )
        criteria.append(
            {
                "criterion_id": criterion.id,
                "criterion_name": criterion.name,
                "failures": len(fails),
                "without_reason": 0,
                "clusters": clusters,
            }
        )
    generated = store.wall_clock().isoformat().replace("+00:00", "Z")
    body = {"window_days": window_days, "generated_at": generated, "cached": False, "criteria": criteria}
    cache.bodies[window_days] = (now, body)
    return body
