"""The gate panel's lines: each check's required value against the interval's lower bound,
from the queue's own gate (``ErrorbarClient.gate``, the same call `blah-tui bakeoff gate`
makes); it fails closed until the run is DONE."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from application.bakeoffs.figures import rate_text
from application.bakeoffs.words import METRIC_WORDS, model_text

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.gate_verdict import GateVerdict

__all__ = [
    "ASSERTION_PASS_RATE",
    "CHECK_WORDS",
    "NONINFERIORITY_MARGIN",
    "GateLine",
    "actual_word",
    "gate_headline",
    "gate_lines",
    "gate_question",
    "gate_thresholds",
    "thresholds_text",
]

ASSERTION_PASS_RATE = 0.90
"""The screens' assertion gate: at least this share of answers passes every assertion."""
NONINFERIORITY_MARGIN = 0.05
"""The screens' noninferiority margin for a certified switch (the CLI takes any)."""

CHECK_WORDS = {**METRIC_WORDS, "noninferiority": "noninferiority"}
"""Each check kind the queue's gate returns (contract 3.9), in words."""
_ACTUAL = {
    "win_rate": "lower bound",
    "pass_rate": "lower bound",
    "assertion_pass_rate": "exact rate",
    "noninferiority": "candidate's floor",
}
_REQUIRED = {"noninferiority": "what you shipped − margin"}


def actual_word(check: str | None) -> str:
    """What a check's ``actual`` is: an interval's lower bound, or the exact rate."""
    return _ACTUAL.get(check or "", "actual")


def gate_question(check: str | None, required: float | None) -> str:
    """The question one gate check asks ("is its lower bound at or above 0.500?"): the queue's
    own rule, said beside the app's verdict (``application.bakeoffs.decision``) so a person sees
    which question each answers."""
    return f"is its {actual_word(check)} at or above {rate_text(required)}?"


@dataclass(frozen=True)
class GateLine:
    check: str
    model: str
    required: str
    lower_bound: str
    passed: bool
    note: str
    kind: str = ""
    """The check in words (``assertion pass rate``)."""
    actual_word: str = "actual"
    required_word: str = "required"


def gate_headline(status: int, verdict: GateVerdict) -> str:
    word = "PASS" if status == 200 and verdict.passed else "FAIL"
    run_status = verdict.status or "status unknown"
    closed = "" if verdict.status == "DONE" else " (fails closed until the run is DONE)"
    reason = f": {verdict.reason}" if verdict.reason else ""
    return f"gate {word} · run {run_status}{closed}{reason}"


def gate_lines(verdict: GateVerdict) -> list[GateLine]:
    return [
        GateLine(
            c.check or "—",
            model_text(c.model),
            rate_text(c.required),
            rate_text(c.actual) if c.actual is not None else "— (none)",
            c.passed,
            c.note or "",
            CHECK_WORDS.get(c.check or "", c.check or "—"),
            actual_word(c.check),
            _REQUIRED.get(c.check or "", "required"),
        )
        for c in verdict.checks
    ]


def gate_thresholds(
    run: assumed.Run, rate: float, *, assertion_rate: float = ASSERTION_PASS_RATE, margin: float = NONINFERIORITY_MARGIN
) -> dict[str, float]:
    """Every check that applies to ``run``: its win or pass rate at ``rate``; the assertion
    pass rate when it has assertions; noninferiority when it is a certified switch (a
    criterion run against ``__stored__``)."""
    criterion = run.eval_kind == "criterion"
    thresholds = {"min_pass_rate" if criterion else "min_win_rate": rate}
    if run.assertions:
        thresholds["min_assertion_pass_rate"] = assertion_rate
    if criterion and run.baseline_model == "__stored__":
        thresholds["noninferiority_margin"] = margin
    return thresholds


def thresholds_text(thresholds: dict[str, float]) -> str:
    words = {
        "min_win_rate": "min win rate",
        "min_pass_rate": "min pass rate",
        "min_assertion_pass_rate": "assertion pass rate ≥",
        "noninferiority_margin": "noninferiority margin",
    }
    return " · ".join(f"{words[k]} {v:.2f}" for k, v in thresholds.items())
