"""One decision per bake-off, for every view (issue 41, item 3): the TUI's verdict panel,
`bakeoff show`, `bakeoff verdict`, `bakeoff gate` and their ``--json`` all call :func:`decide`
with the same :class:`DecisionInputs` and print what it returns, so the same run cannot get two
answers to the same question.

A :class:`Decision` holds the verdict (switch / don't / not enough evidence, why, and what would
settle it, never past the queue's cap), every figure it rests on or shows beside it, each with
the question that figure answers (``Figure``: "paired difference on the 94 samples both
answered … is the candidate worse than the baseline?"), the app's other readings of the run
(the judge's biases, the prediction-powered win rate: ``application.bakeoffs.readings``) and,
when the queue's gate was read, its checks with the question each asks. The rules are in
``application.bakeoffs.verdict``; a run stopped early whose anytime-valid readings had settled
(``application.bakeoffs.early_stop``) is decided on those readings, the same ones `bakeoff watch
--stop-when-decided` stopped on.

Pure: no IO, no Textual. The caller reads the run, its samples, its pairwise block and (when it
shows it) the gate; :func:`fetch_inputs` does the reading for the CLI's async views.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from application.bakeoffs.early_stop import run_readings
from application.bakeoffs.gate import CHECK_WORDS, actual_word, gate_question
from application.bakeoffs.readings import SwitchReadings, switch_readings
from application.bakeoffs.verdict import DONT, SWITCH, Figure, Verdict, question, verdict

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.client import ErrorbarClient
    from api_client.errorbar.gate_verdict import GateVerdict
    from diagnosis.early_stop import EarlyReading
    from diagnosis.paired import PairedDifference

__all__ = ["Decision", "DecisionInputs", "decide", "fetch_inputs", "figure_lines", "gate_figures"]


@dataclass(frozen=True)
class DecisionInputs:
    """Everything a decision reads: the run as the queue sent it, its samples (empty when not
    read: the verdict then rests on the queue's intervals alone), its pairwise block (a
    comparison's calibration and corrected rates), a noninferiority margin (None: "is the
    candidate worse at all?") and the queue's gate (HTTP status, verdict) when a view shows it."""

    run: assumed.Run
    samples: Sequence[assumed.Sample] = ()
    pairwise: assumed.Pairwise | None = None
    margin: float | None = None
    gate: tuple[int, GateVerdict] | None = None


@dataclass(frozen=True)
class Decision:
    run_id: str
    verdict: Verdict
    readings: SwitchReadings | None
    gate: tuple[Figure, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def figures(self) -> tuple[Figure, ...]:
        return self.verdict.figures

    @property
    def question(self) -> str:
        return question(self.verdict.margin)

    def lines(self) -> list[str]:
        """The decision as plain lines, the same in every view: the answer, what would settle
        it, the judge's reading, then each figure with its question."""
        said = [f"verdict: {self.verdict.sentence}"]
        if self.verdict.settle:
            said.append(f"what would settle it: {self.verdict.settle}")
        if self.verdict.reading:
            said.append(f"the app's reading of the judge: {self.verdict.reading}")
        said += figure_lines(self.verdict)
        said += [f"  {f.line}" for f in self.gate]
        return said

    def to_json(self) -> dict[str, Any]:
        v = self.verdict
        return {
            "run": self.run_id,
            "answer": v.answer,
            "candidate": v.candidate,
            "why": v.why,
            "settle": v.settle,
            "reading": v.reading,
            "sentence": v.sentence,
            "exit_code": v.exit_code,
            "question": self.question,
            "margin": v.margin,
            "candidates": [{"candidate": arm, "answer": answer} for arm, answer in v.arms],
            "figures": [f.to_json() for f in self.figures],
            "gate": [f.to_json() for f in self.gate],
        }


def figure_lines(verdict: Verdict) -> list[str]:
    """The verdict's figures: the question they answer said once, then one line each (a figure
    asking another question says its own). The same lines in the TUI's verdict panel."""
    asked = question(verdict.margin)
    if not verdict.figures:
        return []
    return [f"each figure answers: {asked}"] + [
        f"  {f.short}" if f.question == asked else f"  {f.line}" for f in verdict.figures
    ]


def gate_figures(gate: GateVerdict) -> tuple[Figure, ...]:
    """The queue's gate checks, each with the question it asks ("is its lower bound at or
    above 0.500?"): the queue's own rule, shown beside the app's verdict, never instead."""
    figures = []
    for check in gate.checks:
        kind = CHECK_WORDS.get(check.check or "", check.check or "check")
        actual = "— (none)" if check.actual is None else f"{check.actual:.3f}"
        figures.append(
            Figure(
                check.model or "the run",
                f"the queue's gate, {kind} check:",
                f"{actual_word(check.check)} {actual}",
                gate_question(check.check, check.required),
                "yes: pass" if check.passed else "no: FAIL",
                False,
            )
        )
    if not gate.checks:
        status = gate.status or "status unknown"
        figures.append(
            Figure(
                "the run",
                "the queue's gate:",
                f"run {status}",
                "does the gate pass?",
                "no: it fails closed until the run is DONE" if gate.status != "DONE" else "no checks returned",
                False,
            )
        )
    return tuple(figures)


def _paired(readings: SwitchReadings | None) -> dict[str, PairedDifference | None]:
    found: dict[str, PairedDifference | None] = {}
    for arm in readings.arms if readings is not None else []:
        found[arm.arm] = arm.paired
        found.setdefault(arm.model, arm.paired)
    return found


def _stopped_early(run: assumed.Run, early: list[EarlyReading], margin: float | None) -> Verdict | None:
    """A cancelled run whose anytime-valid readings had settled: the verdict they give."""
    if not early or not all(r.decided for r in early):
        return None
    figures = tuple(
        Figure(
            r.subject,
            f"anytime-valid {r.quantity} after {r.read} of {r.planned} samples (stopped early)",
            r.interval_text(),
            question(margin),
            {"loss": "yes: worse", "win": "no: better", "noninferior": "no: within the margin"}[r.settled],
            True,
        )
        for r in early
    )
    winners = [r for r in early if r.settled != "loss"]
    if winners:
        best = max(winners, key=lambda r: r.sequence.interval[0] if r.sequence is not None else -1.0)
    each = tuple((r.subject, DONT if r.settled == "loss" else SWITCH) for r in early)
    if winners:
        best = max(winners, key=lambda r: r.sequence.interval[0] if r.sequence is not None else -1.0)
        why = f"stopped early, decided: {best.sentence()}"
        return Verdict(SWITCH, best.subject, why, None, None, figures, margin, each)
    why = "stopped early, decided: " + "; ".join(r.sentence() for r in early)
    return Verdict(DONT, None, why, None, None, figures, margin, each)


def decide(inputs: DecisionInputs) -> Decision:
    """The decision on ``inputs.run`` (see the module docstring)."""
    run, margin = inputs.run, inputs.margin
    readings = switch_readings(run, list(inputs.samples), inputs.pairwise, margin) if run.status == "DONE" else None
    answer = verdict(run, inputs.pairwise, paired=_paired(readings), margin=margin)
    if run.status == "CANCELLED" and inputs.samples:
        early = _stopped_early(run, run_readings(run, inputs.samples, margin), margin)
        answer = early or answer
    gate = gate_figures(inputs.gate[1]) if inputs.gate is not None else ()
    return Decision(run.id, answer, readings, gate)


async def fetch_inputs(
    client: ErrorbarClient, run_id: str, margin: float | None = None, *, run: assumed.Run | None = None
) -> DecisionInputs:
    """Read what a decision needs: the run (unless given), its samples once it is DONE or
    CANCELLED, and a finished comparison's pairwise block."""
    run = run or await client.get_run(run_id)
    samples = await client.samples(run.id) if run.status in ("DONE", "CANCELLED") else []
    pairwise = (
        await client.pairwise(run.id)
        if run.status == "DONE" and (run.eval_kind or "comparison") != "criterion"
        else None
    )
    return DecisionInputs(run, samples, pairwise, margin)
