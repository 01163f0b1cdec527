"""The runs `blah-tui --demo` finds on its errorbar queue: three finished bake-offs (two
comparisons of the person's checkpoints, so compare has a pair, and one criterion run) and
one still running, so the bake-off view has something to watch."""

from __future__ import annotations

from typing import Any

from simulator.errorbar.server import ErrorbarServer

DEMO_RUNS: tuple[tuple[dict[str, Any], bool], ...] = (
    (
        {
            "name": "tiny v2 against Qwen3-32B",
            "rubric": "Accurate, concise answers in the support tone.",
            "baseline_model": "Qwen/Qwen3-32B",
            "candidate_models": ["you/tiny-sft-v2"],
            "sample_count": 40,
            "max_output_tokens": 1024,
        },
        True,
    ),
    (
        {
            "name": "tiny v3 and v2 against Qwen3-32B",
            "rubric": "Accurate, concise answers in the support tone.",
            "baseline_model": "Qwen/Qwen3-32B",
            "candidate_models": ["you/tiny-sft-v3", "you/tiny-sft-v2"],
            "sample_count": 40,
            "max_output_tokens": 1024,
        },
        True,
    ),
    (
        {
            "name": "helpfulness of the tiny models",
            "eval_kind": "criterion",
            "criterion_id": "crit_helpful",
            "baseline_model": "Qwen/Qwen3-32B",
            "candidate_models": ["you/tiny-sft-v3"],
            "sample_count": 60,
        },
        True,
    ),
    (
        {
            "name": "tiny v3 against Mistral-Small",
            "rubric": "Accurate, concise answers in the support tone.",
            "baseline_model": "mistralai/Mistral-Small-24B",
            "candidate_models": ["you/tiny-sft-v3"],
            "sample_count": 100,
            "max_output_tokens": 1024,
        },
        False,
    ),
)


def queue_demo_runs(server: ErrorbarServer) -> list[str]:
    """Queue the demo's runs straight in the store (no request is logged); their ids."""
    ids = []
    for body, finished in DEMO_RUNS:
        run = server.store.create(dict(body))
        if finished:
            server.finish(run["id"])
        ids.append(run["id"])
    return ids
