"""The published evaluations, per key scope (thread-safe: tests publish from their own thread).

Two demo keys: ``account_key`` belongs to the signed-in demo account, which holds the seeded
history; ``isolated_key`` was created under an unverified contact email, so it lives in its own
empty scope (contract section 1) and sees nothing of the account's, nor the account of its.

Paging: the list is newest first (ASSUMED, shapes.NEWEST_FIRST) over plain offsets, and
evaluations are never deleted. So a new evaluation published while a client pages shifts every
later offset by one: the client sees the evaluation at the page boundary twice, and misses none
that existed when it started (an item can only move towards the end). Offset paging cannot
give "exactly once" by itself; the client must de-duplicate by ``evaluation_id``, and to pick up
what was published meanwhile, read again from offset 0 until it meets an id it already holds.
(Were the real list oldest first, offsets would stay stable and new evaluations would come
after the last page instead; de-duplicating by id is right for both orders.)
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from simulator.blobfish import shapes
from simulator.blobfish.envelope import Envelope, encode, parse
from simulator.blobfish.errors import BlobfishError
from simulator.blobfish.redact import redact
from simulator.blobfish.seed import SEEDED_JOBS, EvidenceFactory
from simulator.blobfish.shapes import ERROR_JOB_CONFLICT, Json
from simulator.http import dump_json


@dataclass
class Scope:
    """One key scope's evaluations, oldest first (the order they were published)."""

    name: str
    evaluations: list[Json] = field(default_factory=list)
    by_id: dict[str, Json] = field(default_factory=dict)
    by_job: dict[str, Json] = field(default_factory=dict)
    jsonl: dict[str, bytes] = field(default_factory=dict)
    """Each evaluation's ``?format=jsonl`` body once served (an evaluation never changes)."""


def mean_reward(rollouts: list[Json]) -> float | None:
    """The mean of the recorded rewards; None when no rollout recorded one (never 0)."""
    rewards = [
        r["reward"]
        for r in rollouts
        if isinstance(r.get("reward"), int | float) and not isinstance(r.get("reward"), bool)
    ]
    return sum(rewards) / len(rewards) if rewards else None


class EvaluationStore:
    def __init__(
        self, seed: int = 7, anchor_s: float | None = None, seeded: bool = True, clock: Callable[[], float] = time.time
    ) -> None:
        """``anchor_s``: when "now" is for the seeded history (default: now); same seed and
        anchor, same history. ``seeded=False``: an empty account."""
        self.seed = seed
        self.lock = threading.RLock()
        self.clock = clock
        keys = random.Random(f"blobfish:{seed}:keys")
        self.account_key = f"bf_demo_{keys.getrandbits(128):032x}"
        self.isolated_key = f"bf_unverified_{keys.getrandbits(128):032x}"
        self.account = Scope("demo-account")
        self.isolated = Scope("unverified-contact-email")
        self._keys = {self.account_key: self.account, self.isolated_key: self.isolated}
        self._ids = random.Random(f"blobfish:{seed}:evaluation-ids")
        self.factory = EvidenceFactory(seed, anchor_s if anchor_s is not None else clock())
        self._next_job = SEEDED_JOBS
        if seeded:
            for index in range(SEEDED_JOBS):
                published = self.factory.seeded_time(index)
                self._store(self.account, parse(encode(self.factory.envelope(index, published))), published)

    # ------------------------------------------------------------------ keys

    def scope_for_key(self, key: str) -> Scope | None:
        return self._keys.get(key)

    # ------------------------------------------------------------------ writes

    def publish(self, scope: Scope, raw: bytes) -> tuple[Json, bool]:
        """Publish the body ``raw``: (the evaluation, True) when new; (the same evaluation,
        False) for the identical bytes under a published job id; ``BlobfishError`` otherwise."""
        envelope = parse(raw)
        with self.lock:
            existing = scope.by_job.get(envelope.job_id)
            if existing is not None:
                if existing["digest"] == envelope.digest:
                    return existing, False
                raise BlobfishError(
                    409,
                    ERROR_JOB_CONFLICT,
                    "this job id is already published with other evidence; a retry must resend "
                    "the identical bytes, and a changed job needs a new job id",
                )
            return self._store(scope, envelope, self.clock()), True

    def publish_generated(self) -> Json:
        """Publish the next job of the seeded stream into the demo account, now (what the
        ``live`` flag does every few seconds; tests call it between two pages)."""
        with self.lock:
            index = self._next_job
            self._next_job += 1
            now = self.clock()
            evaluation = self._store(self.account, parse(encode(self.factory.envelope(index, now))), now)
        return shapes.summary(evaluation)

    def _store(self, scope: Scope, envelope: Envelope, published_s: float) -> Json:
        clean = redact(envelope.data)
        job = clean["job"]
        with self.lock:
            evaluation: Json = {
                "evaluation_id": shapes.evaluation_id(self._ids.getrandbits(128)),
                "job_id": envelope.job_id,
                "created_at": shapes.iso_utc(published_s),
                "rollout_count": len(job["rollouts"]),
                "mean_reward": mean_reward(job["rollouts"]),
                "metadata": shapes.job_metadata(job),
                "envelope": clean,
                "digest": envelope.digest,
            }
            scope.evaluations.append(evaluation)
            scope.by_id[evaluation["evaluation_id"]] = evaluation
            scope.by_job[envelope.job_id] = evaluation
        return evaluation

    # ------------------------------------------------------------------ reads

    def page(self, scope: Scope, offset: int, limit: int) -> tuple[list[Json], int | None]:
        """Summaries ``offset``..``offset+limit`` of the list, and the ``next_offset``."""
        with self.lock:
            ordered = scope.evaluations[::-1] if shapes.NEWEST_FIRST else scope.evaluations
            chosen = ordered[offset : offset + limit]
            return [shapes.summary(e) for e in chosen], shapes.next_offset(offset, len(chosen), len(ordered))

    def get(self, scope: Scope, evaluation_id: str) -> Json | None:
        with self.lock:
            return scope.by_id.get(evaluation_id)

    def jsonl(self, scope: Scope, evaluation_id: str) -> bytes | None:
        """The evaluation's traces, one JSON per line (``?format=jsonl``), or None when ``scope``
        holds no such evaluation. Serialized once per evaluation, then served from memory."""
        with self.lock:
            body = scope.jsonl.get(evaluation_id)
            if body is not None:
                return body
            evaluation = scope.by_id.get(evaluation_id)
            if evaluation is None:
                return None
            body = scope.jsonl[evaluation_id] = b"".join(
                dump_json(trace) + b"\n" for trace in evaluation["envelope"]["traces"]
            )
            return body

    def ids(self, scope: Scope) -> list[str]:
        """Every evaluation id of ``scope`` in list order (for tests)."""
        with self.lock:
            ordered = scope.evaluations[::-1] if shapes.NEWEST_FIRST else scope.evaluations
            return [e["evaluation_id"] for e in ordered]
