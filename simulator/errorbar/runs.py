"""The workspace's runs: created from a checked spec, progressing with (simulated) time,
finished from their samples, cancelled, deleted; plus the faults a test can ask for.

A run is PENDING for its first simulated second, then RUNNING while ``progress_ratio`` climbs
(0.1 s of simulated time per inference unit: every generation and judge call), then DONE.
Time is read from ``clock`` at every request (no background task), scaled by ``speed``.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simulator.errorbar.errors import QueueError
from simulator.errorbar.results import comparison_results, criterion_results
from simulator.errorbar.samples import Sample, draw_samples, sample_json
from simulator.errorbar.screening import estimated_spend_usd, read_similarity, screening_block, screening_pool
from simulator.errorbar.validate import population, validate_create
from simulator.errorbar.world import (
    DEMO_EMAIL,
    JudgeBehaviour,
    LoggedRequest,
    demo_keys,
    seeded_criteria,
    seeded_traffic,
)

PENDING_S = 1.0
UNIT_S = 0.1
LIST_LIMIT = 50
TERMINAL = ("DONE", "ERROR", "CANCELLED")


@dataclass
class Run:
    id: str
    spec: dict[str, Any]
    created_at: str
    started: float  # clock reading at creation
    samples: list[Sample]
    units: int
    status_override: str | None = None  # CANCELLED / ERROR once decided
    error: str | None = None
    frozen_ratio: float | None = None
    fail_at_ratio: float | None = None  # the workspace ran out of funds: ERROR at this ratio
    results: dict[str, Any] | None = None
    labels: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)


class RunStore:
    def __init__(self, seed: int = 7, speed: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.seed, self.speed, self.clock = seed, speed, clock
        self.wall_clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC)
        """The ``created_at`` of a new run (tests stop it, so a snapshot's times never move)."""
        self.keys = demo_keys(seed)
        self.traffic: list[LoggedRequest] = seeded_traffic(seed)
        self.criteria = {c.id: c for c in seeded_criteria()}
        from simulator.errorbar.criteria import Alignments

        self.alignments = Alignments(self.criteria, seed, clock, speed)
        self.judge = JudgeBehaviour()
        self.balance_usd = 250.0
        self._runs: dict[str, Run] = {}
        self._order: list[str] = []
        self._lock = threading.RLock()
        self._next = 1

    # ------------------------------------------------------------------ time

    def ratio(self, run: Run) -> float:
        if run.frozen_ratio is not None:
            return run.frozen_ratio
        elapsed = (self.clock() - run.started) * self.speed - PENDING_S
        return max(0.0, min(1.0, elapsed / (run.units * UNIT_S)))

    def status(self, run: Run) -> str:
        if run.status_override:
            return run.status_override
        ratio = self.ratio(run)
        if run.fail_at_ratio is not None and ratio >= run.fail_at_ratio:
            run.status_override, run.error = "ERROR", "Insufficient balance: the wallet ran out mid-run."
            run.frozen_ratio = run.fail_at_ratio
            return "ERROR"
        if ratio >= 1.0:
            if run.results is None:
                compute = criterion_results if run.spec["eval_kind"] == "criterion" else comparison_results
                run.results = compute(run.samples, run.spec)
                if run.spec.get("screening"):
                    run.results["screening"] = screening_block(run.samples, run.spec, self.traffic)
            return "DONE"
        elapsed = (self.clock() - run.started) * self.speed
        return "PENDING" if elapsed < PENDING_S else "RUNNING"

    def finish(self, run_id: str) -> None:
        """Test hook: the run's time has all passed."""
        with self._lock:
            run = self.get(run_id)
            run.started -= (PENDING_S + run.units * UNIT_S) / self.speed + 1

    # ------------------------------------------------------------------ reads

    def get(self, run_id: str) -> Run:
        run = self._runs.get(run_id)
        if run is None:
            raise QueueError(404, f"Eval run '{run_id}' not found", "not_found")
        return run

    def ids(self) -> list[str]:
        return list(reversed(self._order))

    def listing(self) -> list[dict[str, Any]]:
        with self._lock:
            return [self.run_json(self._runs[i]) for i in self.ids()[:LIST_LIMIT]]

    def visible_samples(self, run: Run) -> list[Sample]:
        status = self.status(run)
        if status == "DONE":
            return run.samples
        return run.samples[: int(self.ratio(run) * len(run.samples))]

    def samples_json(self, run_id: str) -> list[dict[str, Any]]:
        with self._lock:
            run = self.get(run_id)
            return [sample_json(s) for s in self.visible_samples(run)]

    def run_json(self, run: Run) -> dict[str, Any]:
        spec = run.spec
        status = self.status(run)
        filters = dict(spec["sample_filters"])
        return {
            "id": run.id,
            "name": spec["name"],
            "rubric": spec["rubric"],
            "rubric_type": spec["rubric_type"],
            "eval_kind": spec["eval_kind"],
            "criterion_snapshot": spec.get("criterion_snapshot"),
            "baseline_model": spec["baseline_model"],
            "candidate_models": [a["key"] for a in spec["arms"]],
            "arms": [{k: a[k] for k in ("key", "model", "label", "system", "tools", "n")} for a in spec["arms"]],
            "judge_model": spec["judge_model"],
            "sample_count": spec["sample_count"],
            "max_output_tokens": spec["max_output_tokens"],
            "sample_filters": filters,
            "status": status,
            "error": run.error,
            "progress_ratio": round(self.ratio(run), 4),
            "assertions": spec["assertions"] or None,
            "created_at": run.created_at,
            "results": self._results_json(run) if status == "DONE" else None,
        }

    def _results_json(self, run: Run) -> dict[str, Any] | None:
        """``results``; a comparison run's carry ``pairwise``, recomputed like the route's."""
        if run.results is None or run.spec["eval_kind"] == "criterion":
            return run.results
        from simulator.errorbar.calibration import pairwise_block

        return {**run.results, "pairwise": pairwise_block(run, run.samples)}

    # ------------------------------------------------------------------ writes

    def create(self, body: Any) -> dict[str, Any]:
        with self._lock:
            spec = validate_create(body, self.traffic, self.criteria)
            pool = screening_pool(self.traffic, spec["incumbent"]) if spec["screening"] else []
            if spec["screening"] and (self.balance_usd <= 0 or estimated_spend_usd(spec, pool) > self.balance_usd):
                raise QueueError(402, "Insufficient balance to screen: top up the wallet.", "insufficient_balance")
            criterion = spec.pop("criterion")
            rates = None
            if criterion is not None:
                spec["criterion_snapshot"] = {
                    "criterion_id": criterion.id,
                    "name": criterion.name,
                    "judge_prompt": criterion.judge_prompt,
                    "judge_model": criterion.judge_model,
                    "tpr": criterion.tpr,
                    "tnr": criterion.tnr,
                    "kappa": criterion.kappa,
                    "trust": criterion.trust,
                    "aligned_at": criterion.aligned_at,
                    "positives_labelled": criterion.positives_labelled,
                    "negatives_labelled": criterion.negatives_labelled,
                }
                rates = (criterion.tpr or 0.5, criterion.tnr or 0.5)
            run_id = f"ev_{self.seed}_{self._next:04d}"
            self._next += 1
            if spec["screening"]:
                rows = population(pool, {k: v for k, v in spec["sample_filters"].items() if k != "screening"})
            else:
                rows = (
                    population(self.traffic, spec["sample_filters"], spec.get("needs_reference", False)) or self.traffic
                )
            samples = draw_samples(run_id, self.seed, spec, rows, self.judge, rates)
            if spec["screening"]:
                read_similarity(samples, spec, self.seed, run_id, self.judge)
            models = 1 + len(spec["arms"])
            judge_calls = len(spec["arms"]) * 2 if spec["eval_kind"] == "comparison" else models
            if spec["screening"]:
                judge_calls += len(spec["arms"])  # the similarity reading of each answer
            run = Run(
                run_id,
                spec,
                self.wall_clock().isoformat().replace("+00:00", "Z"),
                self.clock(),
                samples,
                spec["sample_count"] * (models + judge_calls),
            )
            if self.balance_usd <= 0:
                run.fail_at_ratio = 0.3  # ASSUMED: plain runs are funds-checked per tick
            self._runs[run_id] = run
            self._order.append(run_id)
            return self.run_json(run)

    def cancel(self, run_id: str) -> dict[str, Any]:
        with self._lock:
            run = self.get(run_id)
            if self.status(run) in TERMINAL:
                raise QueueError(400, "This run is already done — only a pending or running eval can be cancelled.")
            run.frozen_ratio = self.ratio(run)
            run.status_override, run.error = "CANCELLED", f"Cancelled by {DEMO_EMAIL}"
            return self.run_json(run)

    def delete(self, run_id: str) -> dict[str, Any]:
        with self._lock:
            run = self.get(run_id)
            if self.status(run) not in TERMINAL:
                raise QueueError(400, "Cancel it first — a live run can't be deleted.")
            del self._runs[run_id]
            self._order.remove(run_id)
            return {"id": run_id}

    def fail(self, run_id: str, message: str = "Generation failed: the provider returned errors.") -> None:
        """Test hook: the run ends in ERROR now."""
        with self._lock:
            run = self.get(run_id)
            run.frozen_ratio, run.status_override, run.error = self.ratio(run), "ERROR", message

    def label(self, run_id: str, body: Any) -> dict[str, Any]:
        with self._lock:
            run = self.get(run_id)
            if run.spec["eval_kind"] == "criterion":
                raise QueueError(400, "Pair labels are for comparison runs only.")
            if not isinstance(body, dict):
                raise QueueError(400, "the body must be a JSON object")
            index, arm, verdict = body.get("sample_index"), body.get("candidate"), body.get("verdict")
            if not isinstance(index, int) or not 0 <= index < len(self.visible_samples(run)):
                raise QueueError(400, "sample_index is not a sample of this run")
            sample = run.samples[index]
            graded = next((g for g in sample.graded if g.arm == arm), None)
            if graded is None:
                raise QueueError(400, "candidate is not an arm of this run")
            if verdict not in ("candidate", "baseline", "tie"):
                raise QueueError(400, "verdict must be candidate, baseline or tie")
            critique = body.get("critique")
            if critique is not None and (not isinstance(critique, str) or len(critique) > 2000):
                raise QueueError(400, "critique must be at most 2000 characters")
            graded.human_verdict = verdict
            label = {"sample_index": index, "candidate": arm, "verdict": verdict, "critique": critique}
            run.labels[(index, str(arm))] = label
            return label
