"""The app's own readings of a finished bake-off, beside the queue's numbers (never instead):
the judge's biases from the swapped pairs, the paired difference against the incumbent (which
``application.bakeoffs.decision`` turns into one of the verdict's figures), and
(where a person labelled pairs) the prediction-powered win rate next to the queue's corrected
one. Built from the run, its samples and ``pairwise`` as the client parsed them (read as they
are, never dumped back to JSON); read through ``application.bakeoffs.decision`` by every view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from diagnosis.judge_bias import JudgeBiases, PairText, judge_biases
from diagnosis.paired import (
    COMPARISON_SCORE,
    HUMAN_SCORE,
    PairedDifference,
    PredictionPoweredReading,
    comparison_differences,
    criterion_differences,
    paired_difference,
    prediction_powered,
)

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

PAIRED_ASSUMPTION = (
    "paired reading: each prompt's difference (candidate minus incumbent) averaged, "
    "with a normal 95% interval on that mean; prompts without a reading left out"
)


@dataclass(frozen=True, slots=True)
class ArmReading:
    """One candidate arm's readings; None where the run holds nothing to compute it from."""

    arm: str
    model: str
    biases: JudgeBiases | None
    paired: PairedDifference | None
    paired_scale: str
    prediction_powered: PredictionPoweredReading | None
    queue_corrected: assumed.CorrectedWinRate | None

    def sentences(self) -> list[str]:
        """The readings beside the verdict. The paired difference is not among them: it is one
        of the verdict's own figures (``application.bakeoffs.decision``), printed there once
        with the question it answers."""
        said: list[str] = []
        if self.prediction_powered is not None:
            said += self.prediction_powered.sentences()
            corrected = self.queue_corrected
            rate = corrected.win_rate if corrected is not None else None
            ci = corrected.win_rate_ci if corrected is not None else None
            if rate is not None:
                interval = f" [{ci[0]:.1%}-{ci[1]:.1%}]" if ci is not None and len(ci) == 2 else ""
                said.append(f"the queue's corrected win rate (Rogan-Gladen style): {rate:.1%}{interval}")
            else:
                said.append("the queue gives no corrected win rate yet (its calibration is not usable)")
        if self.biases is not None:
            said += self.biases.sentences()
        return said


@dataclass(frozen=True, slots=True)
class SwitchReadings:
    run_id: str
    eval_kind: str
    arms: list[ArmReading]
    notes: list[str] = field(default_factory=list)


def _pairs_of(samples: list[assumed.Sample], arm: str) -> list[tuple[assumed.Sample, assumed.SampleAnswer]]:
    return [(s, a) for s in samples for a in s.candidates if a.model == arm]


def comparison_reading(
    run: assumed.Run,
    samples: list[assumed.Sample],
    pairwise: assumed.Pairwise | None,
    arm: str,
    model: str,
    margin: float | None,
) -> ArmReading:
    pairs = _pairs_of(samples, arm)
    outcomes = [a.outcome or "" for _, a in pairs]
    arm_block = pairwise.candidates.get(arm) if pairwise is not None else None
    biases = (
        judge_biases(
            arm,
            model,
            run.judge_model or "",
            pairs=[PairText(a.outcome or "", a.answer or "", s.baseline_answer or "") for s, a in pairs],
            spec_sheet=arm_block.spec_sheet if arm_block is not None else None,
        )
        if pairs
        else None
    )
    judged = [COMPARISON_SCORE[o] for o in outcomes if o in COMPARISON_SCORE]
    labelled = [
        (COMPARISON_SCORE[a.outcome], HUMAN_SCORE[a.human_verdict])
        for _, a in pairs
        if a.outcome in COMPARISON_SCORE and a.human_verdict in HUMAN_SCORE
    ]
    return ArmReading(
        arm=arm,
        model=model,
        biases=biases,
        paired=paired_difference(comparison_differences(outcomes), margin),
        paired_scale="win rate minus 50%",
        prediction_powered=prediction_powered(judged, labelled) if labelled else None,
        queue_corrected=arm_block.corrected if arm_block is not None else None,
    )


def criterion_reading(
    run: assumed.Run, samples: list[assumed.Sample], arm: str, model: str, margin: float | None
) -> ArmReading:
    incumbent = run.baseline_model or ""
    candidate_outcomes, incumbent_outcomes = [], []
    for sample in samples:
        by_key = {a.model: a.outcome or "" for a in sample.candidates}
        if arm in by_key and incumbent in by_key:
            candidate_outcomes.append(by_key[arm])
            incumbent_outcomes.append(by_key[incumbent])
    differences = criterion_differences(candidate_outcomes, incumbent_outcomes)
    return ArmReading(
        arm=arm,
        model=model,
        biases=None,
        paired=paired_difference(differences, margin),
        paired_scale="pass rate as judged, candidate minus incumbent",
        prediction_powered=None,
        queue_corrected=None,
    )


def switch_readings(
    run: assumed.Run, samples: list[assumed.Sample], pairwise: assumed.Pairwise | None, margin: float | None = None
) -> SwitchReadings:
    """The readings of every candidate arm of a run (see the module docstring)."""
    kind = run.eval_kind or "comparison"
    arms = [(a.key, a.model or a.key) for a in run.arms] or [(m, m) for m in run.candidate_models]
    notes = [PAIRED_ASSUMPTION]
    if kind == "criterion":
        readings = [
            criterion_reading(run, samples, key, model, margin) for key, model in arms if key != run.baseline_model
        ]
    else:
        readings = [comparison_reading(run, samples, pairwise, key, model, margin) for key, model in arms]
    if not samples:
        notes.append("the queue returned no samples for this run: nothing to read pair by pair")
    return SwitchReadings(run_id=run.id, eval_kind=kind, arms=readings, notes=notes)
