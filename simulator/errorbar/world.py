"""The seeded workspace: its keys, the model catalog, logged traffic, the judge and the criteria.

Every model has a hidden quality (the chance that its answer is good), a typical answer length
(so a small cap cuts the verbose ones), a latency and a price. The judge's readings are that
truth blurred by a set true-positive and true-negative rate and a position bias (contract
section 5); criteria carry the alignment figures a criterion run freezes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]

STORED = "__stored__"
DEFAULT_JUDGE = "openai/gpt-4.1"
DEMO_EMAIL = "owner@errorbar.invalid"


@dataclass(frozen=True)
class CatalogModel:
    id: str
    family: str
    quality: float  # chance an answer is good (the truth the judge blurs)
    tokens: int  # typical answer length; an answer over the cap is cut
    latency_ms: int
    micros_per_token: int  # the simulated price
    chat: bool = True


CATALOG: tuple[CatalogModel, ...] = (
    CatalogModel("Qwen/Qwen3-32B", "qwen", 0.60, 420, 900, 2),
    CatalogModel("Qwen/Qwen3-235B-A22B", "qwen", 0.74, 520, 2100, 6),
    CatalogModel("meta-llama/Llama-3.1-8B-Instruct", "llama", 0.42, 300, 400, 1),
    CatalogModel("mistralai/Mistral-Small-24B", "mistral", 0.55, 380, 700, 2),
    CatalogModel("you/tiny-sft-v2", "tiny", 0.38, 1400, 300, 1),  # the person's model: verbose, loops
    CatalogModel("you/tiny-sft-v3", "tiny", 0.52, 700, 320, 1),
    CatalogModel(DEFAULT_JUDGE, "openai", 0.80, 400, 1500, 8),
    CatalogModel("anthropic/claude-sonnet-4", "anthropic", 0.82, 450, 1800, 9),
)
CATALOG_BY_ID = {m.id: m for m in CATALOG}


@dataclass(frozen=True)
class JudgeBehaviour:
    """How the judge reads a pair: right with ``tpr`` when the candidate is better and ``tnr``
    when the baseline is, picks whichever came first with ``position_bias``, and gives no
    reading with ``failure_rate``."""

    tpr: float = 0.90
    tnr: float = 0.85
    position_bias: float = 0.10
    failure_rate: float = 0.02
    tie_when_equal: float = 0.6


PROMPTS = (
    "How do I reset my password?",
    "Summarize this refund policy in two sentences.",
    "Return the order status as JSON with keys id and status.",
    "Why was I charged twice?",
    "Translate 'thank you for waiting' into French.",
    "What are your support hours?",
    "Write a haiku about late deliveries.",
    "List three ways to speed up checkout.",
    "Explain the difference between a refund and a credit.",
    "Is my data shared with third parties?",
    "Draft a polite reply to an angry customer.",
    "What does error E42 mean?",
    "Give me the tracking link format.",
    "Can I change my shipping address after ordering?",
    "How do I cancel my subscription?",
    "Explain our SLA in plain words.",
)
TAGS = ("support", "billing")


@dataclass
class Criterion:
    id: str
    name: str
    judge_prompt: str
    judge_model: str
    tpr: float | None
    tnr: float | None
    kappa: float | None
    positives_labelled: int = 0  # human "pass" labels the alignment judged (for the Wilson CIs)
    negatives_labelled: int = 0
    trust: str = "unmeasured"
    unit: str = "request"
    population: Json = field(default_factory=dict)
    aligned_at: str | None = None

    @property
    def aligned(self) -> bool:
        return self.tpr is not None and self.tnr is not None


def seeded_criteria() -> list[Criterion]:
    return [
        Criterion(
            "crit_helpful",
            "Helpful and correct",
            "PASS if the answer solves the user's problem correctly.",
            DEFAULT_JUDGE,
            0.90,
            0.84,
            0.72,
            50,
            50,
            "trustworthy",
            aligned_at="2026-11-20T10:00:00Z",
        ),
        Criterion(
            "crit_concise",
            "Concise",
            "PASS if the answer is under 120 words and on topic.",
            DEFAULT_JUDGE,
            0.55,
            0.40,
            -0.05,
            40,
            40,
            "misaligned",
            aligned_at="2026-11-21T10:00:00Z",
        ),
        Criterion(
            "crit_tone",
            "Brand tone",
            "PASS if the tone matches the style guide.",
            DEFAULT_JUDGE,
            None,
            None,
            None,
            trust="unmeasured",
        ),
        Criterion(
            "crit_support_resolved",
            "Support issue resolved",
            "PASS if the support answer resolves the customer's issue.",
            "anthropic/claude-sonnet-4",
            0.88,
            0.86,
            0.70,
            60,
            60,
            "trustworthy",
            population={"tag": "support"},
            aligned_at="2026-11-25T10:00:00Z",
        ),
    ]


@dataclass(frozen=True)
class LoggedRequest:
    id: str
    prompt: str
    model: str
    tag: str
    reply: str
    reference_good: bool | None = None
    """Whether the stored reply (or the dataset's assistant turn) is a good answer; None: as
    likely as its model's quality says."""
    text_reply: bool = True
    """False for an agent step that answered with a tool call (no text to adhere to)."""
    trace_id: str | None = None
    step: int | None = None


def seeded_traffic(seed: int) -> list[LoggedRequest]:
    """Successful logged requests of the workspace: mostly the incumbent Qwen3-32B, some from
    the person's small model."""
    rng = random.Random(f"errorbar-traffic:{seed}")
    rows = []
    for index in range(48):
        model = "you/tiny-sft-v2" if index % 4 == 3 else "Qwen/Qwen3-32B"
        prompt = PROMPTS[index % len(PROMPTS)] if index < len(PROMPTS) else f"{rng.choice(PROMPTS)} (case {index})"
        rows.append(
            LoggedRequest(
                f"req_{seed}_{index:03d}",
                f"SYSTEM: You are a support agent.\nUSER: {prompt}",
                model,
                TAGS[index % 2],
                f"Logged reply {index}: here is what to do.",
            )
        )
    return rows


@dataclass(frozen=True)
class Keys:
    admin: str
    member: str
    read: str


def demo_keys(seed: int) -> Keys:
    return Keys(
        f"sk_sovereign_admin_{seed:04d}demo", f"sk_sovereign_member_{seed:04d}demo", f"sk_sovereign_read_{seed:04d}demo"
    )


def price(model: str, tokens: int) -> int:
    spec = CATALOG_BY_ID.get(model)
    return tokens * (spec.micros_per_token if spec else 1)
