"""What a new comparison bake-off is made of: the catalog to choose from, the defaults, the
request body the dialog's fields make, and why the queue would refuse it (checked here, before
anything is sent, by the client's own local checks)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from api_client.errorbar import shapes_fixed as wire
from api_client.errorbar.checks import check_create
from api_client.errorbar.errors import RefusedLocally

__all__ = ["CATALOG_MODELS", "DEFAULT_MAX_OUTPUT_TOKENS", "DEFAULT_SAMPLE_COUNT", "MAX_CANDIDATES", "NewBakeoff",
           "STORED", "candidates_problem", "whole_number"]

CATALOG_MODELS: tuple[str, ...] = (
    "you/tiny-sft-v3",
    "you/tiny-sft-v2",
    "Qwen/Qwen3-32B",
    "Qwen/Qwen3-235B-A22B",
    "meta-llama/Llama-3.1-8B-Instruct",
    "mistralai/Mistral-Small-24B",
    "anthropic/claude-sonnet-4",
)
"""The queue's chat-model catalog (contract 3.2 names catalog ids; the queue has no route that
lists them, so the ids the simulator serves are listed here). A model outside it is refused by
the queue with a 400 that names the field."""
STORED = wire.STORED
MAX_CANDIDATES = 6
DEFAULT_SAMPLE_COUNT = 40
DEFAULT_MAX_OUTPUT_TOKENS = 1024


@dataclass(frozen=True)
class NewBakeoff:
    """A comparison bake-off as the person asked for it."""

    name: str
    rubric: str
    baseline_model: str
    candidate_models: tuple[str, ...]
    sample_count: int = DEFAULT_SAMPLE_COUNT
    max_output_tokens: int = DEFAULT_MAX_OUTPUT_TOKENS

    def body(self) -> dict[str, Any]:
        """The create request's JSON body."""
        return {"name": self.name.strip(), "eval_kind": "comparison", "rubric": self.rubric,
                "baseline_model": self.baseline_model, "candidate_models": list(self.candidate_models),
                "sample_count": self.sample_count, "max_output_tokens": self.max_output_tokens}

    def problem(self) -> str | None:
        """Why the queue would refuse this (a sentence naming the field), or None."""
        try:
            check_create(self.body())
        except RefusedLocally as refused:
            return refused.message
        return None


def whole_number(text: str, field: str, default: int) -> tuple[int | None, str | None]:
    """An integer field's value (its default when empty), or why it is not one."""
    text = text.strip()
    if not text:
        return default, None
    try:
        return int(text), None
    except ValueError:
        return None, f"{field}: a whole number is required, not {text!r}; nothing was sent"


def candidates_problem(candidates: Sequence[str]) -> str | None:
    if not candidates:
        return "candidate_models: choose at least 1 candidate (space ticks one); nothing was sent"
    if len(candidates) > MAX_CANDIDATES:
        return f"candidate_models: at most {MAX_CANDIDATES} candidates, not {len(candidates)}; nothing was sent"
    return None
