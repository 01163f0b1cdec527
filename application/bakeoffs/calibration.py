"""Pair labels and the calibration they buy (contract 3.11, 3.12), for the CLI and the TUI.

A person labels a pair (one candidate's answer against the baseline's, one sample): the
candidate was better, the baseline was, or a tie. The queue measures its judge against those
labels (``GET .../pairwise``: agreement, Cohen's kappa, per side sensitivity/specificity) and,
once that calibration is usable, corrects each arm's win rate for the judge's error. This
module:

- checks a label before it is sent (``check_label``): only a verdict a person gave, on a
  comparison run, for one of its arms and samples; a criterion run is refused in a sentence;
- turns the queue's pairwise block into rows a screen or a command prints (``panel``), the
  printed win rate beside the corrected one, and how many more labels are needed;
- recomputes the calibration's counts from the samples (``recompute``: each sample's
  ``outcome`` is the judge's reading, ``human_verdict`` the person's), so a screen can say
  whether the queue's figures match what it was sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from application.bakeoffs.figures import interval_text, rate_text
from common.format import DASH, plural

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from common.records import BakeoffAnswer

__all__ = [
    "JUDGE_VERDICT",
    "LABELS_NEEDED",
    "VERDICTS",
    "ArmCalibration",
    "CalibrationPanel",
    "LabelRefused",
    "Recomputed",
    "SideFigures",
    "check_label",
    "labels_needed_sentence",
    "next_pair",
    "panel",
    "recompute",
]

LABELS_NEEDED = 30
"""The queue's rule: the corrected win rate needs at least 30 human pair labels (contract 3.9)."""
VERDICTS = ("candidate", "baseline", "tie")
JUDGE_VERDICT = {"win": "candidate", "loss": "baseline", "tie": "tie"}
CRITERION_REFUSAL = (
    "pair labels are for comparison runs: a criterion run grades each answer alone against "
    "its criterion, so there is no pair to label (align the criterion instead); nothing was sent"
)


class LabelRefused(ValueError):
    """The label would be refused by the queue (or is not a person's verdict); not sent."""


def check_label(
    run: assumed.Run,
    sample_index: int,
    arm: str,
    verdict: str | None,
    critique: str | None = None,
    *,
    sample_count: int | None = None,
) -> None:
    """``LabelRefused`` with a sentence when the label cannot be posted; nothing is sent.
    ``verdict`` None means a removal (still refused on a criterion run)."""
    if run.eval_kind == "criterion":
        raise LabelRefused(CRITERION_REFUSAL)
    if verdict is not None and verdict not in VERDICTS:
        raise LabelRefused(f"verdict must be candidate, baseline or tie (the person's own call), not {verdict!r}")
    keys = run.candidate_models or [a.key for a in run.arms]
    if arm not in keys:
        raise LabelRefused(f"{arm!r} is not an arm of {run.id}: its arms are {', '.join(keys) or 'none'}")
    if sample_index < 0 or (sample_count is not None and sample_index >= sample_count):
        # people count samples from #1 (`bakeoff samples`, the app's # column); the wire from 0
        span = f" (its samples are #1..#{sample_count})" if sample_count else ""
        raise LabelRefused(f"sample #{sample_index + 1} is not a sample of {run.id}{span}")
    if critique is not None and len(critique) > 2000:
        raise LabelRefused(f"a critique is at most 2000 characters, not {len(critique)}")


@dataclass(frozen=True)
class SideFigures:
    name: str  # wins | losses | decided
    positives: int | None
    negatives: int | None
    sensitivity: float | None
    sensitivity_ci: tuple[float, float] | None
    specificity: float | None
    specificity_ci: tuple[float, float] | None

    def line(self) -> str:
        """``wins     sensitivity 0.900 [0.800, 0.950] (of 20) · specificity ...``: the CLI's line and the panel's."""
        positives = self.positives if self.positives is not None else DASH
        negatives = self.negatives if self.negatives is not None else DASH
        return (
            f"{self.name:<8} sensitivity {rate_text(self.sensitivity)} {interval_text(self.sensitivity_ci)} "
            f"(of {positives}) · specificity {rate_text(self.specificity)} {interval_text(self.specificity_ci)} "
            f"(of {negatives})"
        )


@dataclass(frozen=True)
class ArmCalibration:
    key: str
    labelled: int | None
    printed: float | None
    printed_ci: tuple[float, float] | None
    corrected: float | None
    corrected_ci: tuple[float, float] | None
    floor_half_width: float | None


@dataclass(frozen=True)
class CalibrationPanel:
    labelled: int
    counted: int | None  # pairs with a judge reading (the calibration's n)
    agreement: float | None
    kappa: float | None
    usable: bool
    reason: str | None
    sides: tuple[SideFigures, ...]
    arms: tuple[ArmCalibration, ...]

    @property
    def labels_needed(self) -> int:
        """More labels before the queue can correct (0 once it has enough; a usable
        calibration needs none)."""
        return 0 if self.usable else max(0, LABELS_NEEDED - (self.counted or 0))


def _pair(value: Sequence[float] | None) -> tuple[float, float] | None:
    return (value[0], value[1]) if value else None


def panel(run: assumed.Run, pairwise: assumed.Pairwise | None) -> CalibrationPanel:
    cal = pairwise.calibration if pairwise is not None else None
    sides = []
    if cal is not None:
        for name in ("wins", "losses", "decided"):
            side = getattr(cal, name)
            if side is not None:
                sides.append(
                    SideFigures(
                        name,
                        side.positives,
                        side.negatives,
                        side.sensitivity,
                        _pair(side.sensitivity_ci),
                        side.specificity,
                        _pair(side.specificity_ci),
                    )
                )
    printed = {row.key: row for row in (run.results.per_candidate if run.results else [])}
    arms = []
    for key in run.candidate_models or list(printed):
        entry = pairwise.candidates.get(key) if pairwise is not None else None
        fixed = entry.corrected if entry is not None else None
        row = printed.get(key)
        arms.append(
            ArmCalibration(
                key,
                entry.labelled_pairs if entry is not None else None,
                row.win_rate if row else None,
                _pair(row.ci95) if row else None,
                fixed.win_rate if fixed else None,
                _pair(fixed.win_rate_ci) if fixed else None,
                fixed.floor_half_width if fixed else None,
            )
        )
    labelled = (pairwise.labelled_pairs if pairwise is not None else None) or 0
    reason = cal.reason if cal is not None else "no pair labelled yet"
    return CalibrationPanel(
        labelled,
        cal.n if cal else 0,
        cal.agreement if cal else None,
        cal.kappa if cal else None,
        bool(cal and cal.usable),
        reason,
        tuple(sides),
        tuple(arms),
    )


def labels_needed_sentence(figures: CalibrationPanel) -> str:
    """What stands between the printed and the corrected win rate, in words."""
    if figures.usable:
        return f"calibration usable ({figures.counted} labelled pairs): the corrected win rate is shown"
    if figures.labels_needed:
        return (
            f"label {plural(figures.labels_needed, 'more pair', 'more pairs')} for a corrected "
            f"win rate ({figures.counted or 0} of {LABELS_NEEDED} counted so far)"
        )
    return f"not usable yet: {figures.reason or 'the queue did not say why'}"


@dataclass(frozen=True)
class Recomputed:
    """The calibration's headline figures, recomputed here from the samples."""

    n: int
    agreement: float | None
    kappa: float | None

    def matches(self, figures: CalibrationPanel, tolerance: float = 1e-6) -> bool:
        def same(a: float | None, b: float | None) -> bool:
            return (a is None and b is None) or (a is not None and b is not None and abs(a - b) <= tolerance)

        return (
            self.n == (figures.counted or 0)
            and same(self.agreement, figures.agreement)
            and same(self.kappa, figures.kappa)
        )


def recompute(answers: Iterable[BakeoffAnswer]) -> Recomputed:
    """n, agreement and Cohen's kappa over the labelled pairs that have a judge reading
    (``answers``: the candidates' answers of a run's samples)."""
    pairs = [
        (JUDGE_VERDICT[answer.outcome], answer.human_verdict)
        for answer in answers
        if answer.human_verdict in VERDICTS and answer.outcome in JUDGE_VERDICT
    ]
    n = len(pairs)
    if not n:
        return Recomputed(0, None, None)
    agreement = sum(1 for judge, person in pairs if judge == person) / n
    expected = sum(
        (sum(1 for j, _ in pairs if j == v) / n) * (sum(1 for _, h in pairs if h == v) / n) for v in VERDICTS
    )
    kappa = (agreement - expected) / (1 - expected) if expected < 1 else None
    return Recomputed(n, agreement, kappa)


def next_pair(rows: Sequence[Any], current: str | None) -> str | None:
    """The key of the pair to label after ``current``: the next one in sample order (then
    arm order) that has a judge reading and no label yet, wrapping around; None when every
    pair is labelled. Sample order, not the view's losses-first order: labels taken down a
    list sorted by the judge's outcome would measure the judge on a skewed set of pairs.
    ``rows``: ``SampleRow``-like (``key``, ``index``, ``arm``, ``outcome``, ``answer.human_verdict``)."""
    ordered = sorted(rows, key=lambda r: (r.index, r.arm))
    keys = [r.key for r in ordered]
    start = keys.index(current) + 1 if current in keys else 0
    for row in ordered[start:] + ordered[:start]:
        if row.key != current and row.outcome in JUDGE_VERDICT and row.answer.human_verdict is None:
            return str(row.key)
    return None
