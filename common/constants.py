"""Values fixed by the platform, defined once (platform contract: /work/shared/platform/CONTRACT.md)."""

from __future__ import annotations

__all__ = ["DEFAULT_BASE_URL", "KNOWN_TEMPLATES", "QUEUE_SAMPLE_CAP", "QUEUE_SAMPLE_FLOOR"]

DEFAULT_BASE_URL = "https://evals.blah.dev"
"""Where the app talks to when neither ``--base-url``, ``BLAH_BASE_URL`` nor the config says."""

KNOWN_TEMPLATES: tuple[str, ...] = (
    "chatml",
    "llama2",
    "llama3",
    "alpaca",
    "gemma",
    "phi3",
    "mistral",
    "vicuna",
    "none",
)
"""The values of a model's ``chat_template`` the platform documents (``none``: raw text)."""

QUEUE_SAMPLE_FLOOR = 5
QUEUE_SAMPLE_CAP = 500
"""The errorbar queue's range for a run's ``sample_count`` (contract 3.2: 5..500). Defined here
once: the request checks, the plan and every "what would settle it" read it, so advice never
names a run larger than the queue takes."""
