"""The platform's judge: scores one reply to an eval, and is sometimes wrong.

Rates (documented, per result): 12% of score_details are plain text (not JSON); 4% are
"overscores" (a high score for an empty, looping or refusing reply, reasoning praising it);
3% are "contradictions" (the reasoning says the opposite of the score). ``JudgeVerdict.flaw``
records which, for tests; it is never sent on the wire.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from simulator.blahdev.catalog import EvalSpec
from simulator.blahdev.small_model import Generation

JUDGE_MODEL = "blah-judge-large-2"
PLAIN_TEXT_RATE = 0.12
OVERSCORE_RATE = 0.04
CONTRADICTION_RATE = 0.03

_SCORE_RANGES: dict[str, tuple[float, float]] = {
    "ok": (0.8, 1.0),
    "wrong": (0.0, 0.2),
    "empty": (0.0, 0.0),
    "loop": (0.05, 0.2),
    "truncated": (0.3, 0.5),
    "continuation": (0.0, 0.15),
    "refusal": (0.0, 0.05),
    "leak": (0.4, 0.6),
}
_REASONS: dict[str, str] = {
    "ok": "The response answers the question correctly and follows the requested format.",
    "wrong": "The response is fluent but the answer is incorrect.",
    "empty": "The response is empty; nothing to evaluate.",
    "loop": "The response degenerates into repetition and does not answer.",
    "truncated": "The response starts on topic but is cut off before finishing.",
    "continuation": "The response continues the prompt instead of answering it.",
    "refusal": "The model refused a harmless request.",
    "leak": "The answer is present but followed by template tokens and unrelated text.",
}


@dataclass(frozen=True)
class JudgeVerdict:
    score: float | None
    score_details: str | None
    flaw: str | None
    """None, ``overscore`` or ``contradiction`` (ground truth for tests)."""


def not_judged(error: str) -> str:
    """The ``score_details`` of a result whose call failed: the judge had nothing to read, so
    there is no score (null, never invented), and the result says why in words. A result is
    stored whole, with its details, so a read at any moment after it exists (right at a run's
    completion too) sees them: it used to carry null here, which a reader took for details
    that had not landed yet (about one read in six at completion met a failed call)."""
    return f"Not judged: the model's call failed ({error}), so there is no score."


def judge(rng: random.Random, ev: EvalSpec, gen: Generation) -> JudgeVerdict:
    if gen.error is not None:
        return JudgeVerdict(None, not_judged(gen.error), None)
    kind = gen.kind if gen.kind in _SCORE_RANGES else "ok"
    if kind == "ok" and gen.correct is False:
        kind = "wrong"
    lo, hi = _SCORE_RANGES[kind]
    score = round(rng.uniform(lo, hi), 2)
    reasoning = _REASONS[kind]
    flaw: str | None = None
    roll = rng.random()
    if roll < OVERSCORE_RATE and kind in ("empty", "loop", "refusal", "continuation"):
        score, reasoning, flaw = round(rng.uniform(0.85, 0.95), 2), "Concise, accurate and well formatted.", "overscore"
    elif roll < OVERSCORE_RATE + CONTRADICTION_RATE:
        flaw = "contradiction"
        reasoning = _REASONS["wrong"] if score >= 0.5 else _REASONS["ok"]
    if rng.random() < PLAIN_TEXT_RATE:
        details = f"Score: {round(score * 10)}/10. {reasoning}"
    else:
        criteria = {name: round(min(1.0, max(0.0, score + rng.uniform(-0.1, 0.1))), 2) for name in ev.criteria}
        details = json.dumps(
            {
                "judge_model": JUDGE_MODEL,
                "reasoning": reasoning,
                "criteria": criteria,
                "verdict": "pass" if score >= 0.5 else "fail",
            }
        )
    return JudgeVerdict(score, details, flaw)
