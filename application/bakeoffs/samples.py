"""A bake-off's samples as rows, losses first, with what a person should doubt.

- Order: losses, then failed readings, ties, wins (a comparison); fails, unparsed, passes
  (a criterion run); then by sample index.
- The doubtful-verdict rule: a WIN whose answer is empty (``diagnosis.text.is_blank_reply``)
  or loops (``diagnosis.loop.find_loop``) is flagged: the judge preferred an answer nobody
  would want, so the verdict says more about the judge than the candidate.
- The answer is the product's ``common.records.BakeoffAnswer`` (mapped from the queue's wire
  answer in ``api_client.errorbar.records``, the one place that reads it), so the labelling flow,
  the Inspector and the CLI read one form; a label taken here makes a new row, never edits the
  wire object.
- The cap sentence: how many of an arm's losses were cut at ``max_output_tokens`` ("9 of 14
  losses were cut at the 1,024-token cap"), only from the samples' own ``truncated`` marks;
  when the platform does not mark cut answers it says so instead of guessing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from api_client.errorbar.records import answer_from_sample
from common.format import plural
from common.records import BakeoffAnswer
from diagnosis.loop import find_loop
from diagnosis.text import is_blank_reply

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["SampleRow", "cap_sentence", "doubtful_reason", "sample_rows", "with_label"]

_ORDER = {"loss": 0, "fail": 0, "failed": 1, "unparsed": 1, "tie": 2, "win": 3, "pass": 3}


@dataclass(frozen=True)
class SampleRow:
    """One candidate's answer to one sample."""

    key: str  # "<sample index>:<arm>" (unique in a run)
    index: int
    arm: str
    outcome: str | None
    truncated: bool | None
    doubtful: str | None  # why the verdict is doubtful, or None
    sample: assumed.Sample
    answer: BakeoffAnswer

    def labelled(self, verdict: str | None) -> SampleRow:
        """This row once a person's label (``None``: removed) is saved."""
        return replace(self, answer=replace(self.answer, human_verdict=verdict))


def doubtful_reason(outcome: str | None, answer: str | None) -> str | None:
    """Why a win is doubtful (an empty or looping answer won), else None."""
    if outcome != "win":
        return None
    if answer is None or is_blank_reply(answer):
        return "won with an empty answer"
    if find_loop(answer) is not None:
        return "won with a looping answer"
    return None


def row_key(index: int, arm: str) -> str:
    return f"{index}:{arm}"


def sample_rows(samples: Sequence[assumed.Sample]) -> list[SampleRow]:
    rows = []
    for position, sample in enumerate(samples):
        index = sample.index if sample.index is not None else position
        for wire in sample.candidates:
            answer = answer_from_sample(wire)
            rows.append(
                SampleRow(
                    row_key(index, wire.model),
                    index,
                    wire.model,
                    answer.outcome,
                    answer.truncated,
                    doubtful_reason(answer.outcome, answer.text),
                    sample,
                    answer,
                )
            )
    return sorted(rows, key=lambda r: (_ORDER.get(r.outcome or "", 1), r.index))


def with_label(samples: Sequence[assumed.Sample], row: SampleRow) -> list[assumed.Sample]:
    """The samples as the queue sent them but with ``row``'s label (its answer's human verdict)
    on its candidate, for what still reads the queue's samples (the switch readings): new
    objects, the ones read from the queue left as they were."""
    out = []
    for position, sample in enumerate(samples):
        index = sample.index if sample.index is not None else position
        if index != row.index:
            out.append(sample)
            continue
        verdict = row.answer.human_verdict
        candidates = [
            a.model_copy(update={"human_verdict": verdict}) if a.model == row.arm else a for a in sample.candidates
        ]
        out.append(sample.model_copy(update={"candidates": candidates}))
    return out


def cap_sentence(rows: Sequence[SampleRow], arm: str, cap: int | None) -> str | None:
    """How many of ``arm``'s losses were cut at the cap; None when it has no loss."""
    losses = [r for r in rows if r.arm == arm and r.outcome == "loss"]
    if not losses:
        return None
    what = plural(len(losses), "loss", "losses")
    if any(r.truncated is None for r in losses):
        return f"{what}: the platform does not say which answers were cut at the output cap"
    cut = sum(1 for r in losses if r.truncated)
    at = f"the {cap:,}-token cap" if cap is not None else "the output cap (its size was not sent)"
    if cut == 0:
        return f"none of the {what} was cut at {at}"
    return f"{cut} of {what} {'was' if cut == 1 else 'were'} cut at {at}"
