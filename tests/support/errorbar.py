"""What the errorbar (eval-run queue) tests share: a queue simulator whose runs never finish
on their own (``finish`` ends one), request bodies, and a way to queue a run over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from simulator.errorbar.server import ErrorbarServer
from tests.support import sim_http

Json = dict[str, Any]

SLOW = 0.0001
"""Simulated-time speed at which a run stays PENDING for hours: tests decide when it ends."""

COMPARISON: Json = {
    "name": "tiny v3 and v2 against Qwen3-32B",
    "rubric": "Accurate, concise answers in the support tone.",
    "baseline_model": "Qwen/Qwen3-32B",
    "candidate_models": ["you/tiny-sft-v3", "you/tiny-sft-v2"],
    "sample_count": 40,
    "max_output_tokens": 1024,
    "assertions": [{"type": "json_valid"}, {"type": "completed"}],
}
CRITERION: Json = {
    "name": "helpfulness of the tiny models",
    "eval_kind": "criterion",
    "criterion_id": "crit_helpful",
    "baseline_model": "Qwen/Qwen3-32B",
    "candidate_models": ["you/tiny-sft-v3"],
    "sample_count": 60,
}


@contextmanager
def queue_server(seed: int = 7, speed: float = SLOW) -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=seed, speed=speed) as server:
        yield server


def headers(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def queue_run(server: ErrorbarServer, body: Json, *, finish: bool = True) -> Json:
    """Create a run with the admin key (and end it at once, by default); the run as created."""
    answer = sim_http.post(f"{server.base_url}/v1/evals", json=body, headers=headers(server.admin_key), timeout=30)
    assert answer.status_code == 201, answer.text
    run: Json = answer.json()
    if finish:
        server.finish(run["id"])
    return run


def get(server: ErrorbarServer, path: str, key: str | None = None, **params: Any) -> httpx.Response:
    return sim_http.get(f"{server.base_url}{path}", params=params, headers=headers(key or server.admin_key), timeout=30)


@contextmanager
def queue_that_ran_one_comparison() -> Iterator[ErrorbarServer]:
    """A queue whose workspace already ran one comparison (Qwen3-32B against both tiny models),
    its request log cleared: what the New bake-off dialog's tests start from."""
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        queue_run(server, COMPARISON)
        server.requests.clear()
        yield server
