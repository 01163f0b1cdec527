"""The gate panel's lines: each check's required value against the interval's lower bound,
from the queue's own gate (``ErrorbarClient.gate``, the same call `blah-tui bakeoff gate`
makes); it fails closed until the run is DONE."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from api_client.errorbar.gate_verdict import GateVerdict

__all__ = ["GateLine", "gate_headline", "gate_lines"]


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


@dataclass(frozen=True)
class GateLine:
    check: str
    model: str
    required: str
    lower_bound: str
    passed: bool
    note: str


def gate_headline(status: int, verdict: GateVerdict) -> str:
    word = "PASS" if status == 200 and verdict.passed else "FAIL"
    run_status = verdict.status or "status unknown"
    closed = "" if verdict.status == "DONE" else " (fails closed until the run is DONE)"
    reason = f": {verdict.reason}" if verdict.reason else ""
    return f"gate {word} · run {run_status}{closed}{reason}"


def gate_lines(verdict: GateVerdict) -> list[GateLine]:
    return [GateLine(c.check or "—", c.model or "—", _rate(c.required),
                     _rate(c.actual) if c.actual is not None else "— (no interval)", c.passed, c.note or "")
            for c in verdict.checks]
