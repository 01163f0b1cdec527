"""A bake-off's sample answers as Inspector calls (``application.inspector.foreign.CallSource``).

Each chosen sample row of a comparison is two calls, stepped with ``n``/``p``: the candidate's answer, then
the baseline's answer to the same prompt. Both carry both verdicts (the judge's reading with
the baseline shown first and with the candidate shown first, and the outcome they make), the
other side's answer, and the notes a person needs: a doubtful win, an answer cut at the cap.
``classify`` runs on each answer as on any call, so the diagnosis findings are the usual ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from api_client.errorbar.records import baseline_answer
from application.bakeoffs.samples import SampleRow
from application.bakeoffs.words import model_text
from application.inspector.foreign import ForeignCall, OrderedIds
from common.iso_time import iso_ms
from common.records import BakeoffAnswer, answer_call

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["PLATFORM", "SampleCalls", "verdicts_line"]

PLATFORM = "errorbar"
BASELINE_SUFFIX = "#baseline"
"""The baseline's call id: the row key and this ('#' is in no arm label, so no candidate's)."""
_READING = {"candidate": "the candidate", "baseline": "the baseline", "tie": "a tie", None: "no reading"}
_OUTCOME = {
    "win": "win: the candidate won both orderings",
    "loss": "loss: the baseline won both orderings",
    "tie": "tie: both readings said tie, or the two orderings disagreed",
    "failed": "failed: an ordering got no reading",
    "pass": "pass",
    "fail": "fail",
    "unparsed": "unparsed: the judge's answer could not be read",
}


def verdicts_line(answer: BakeoffAnswer) -> str:
    orderings = answer.orderings
    if orderings is None:
        return "the platform does not send the two orderings' readings"
    ab, ba = orderings.get("ab"), orderings.get("ba")
    return f"baseline shown first: {_READING.get(ab, str(ab))} · candidate shown first: {_READING.get(ba, str(ba))}"


def _preview(text: str | None) -> str:
    return "(no answer)" if not text else " ".join(text.split())


class SampleCalls:
    """The chosen rows (losses first) of one run, by id, for the Inspector."""

    platform = PLATFORM
    noun = "answer"

    def __init__(self, run: assumed.Run, rows: Sequence[SampleRow]) -> None:
        self.run = run
        self.rows = {row.key: row for row in rows}
        # A criterion run grades the baseline among the answers: it has no separate baseline call.
        pair = run.eval_kind != "criterion"
        self.ids = [
            call_id for row in rows for call_id in ((row.key, row.key + BASELINE_SUFFIX) if pair else (row.key,))
        ]
        self._order = OrderedIds(self.ids)

    def neighbours(self, call_id: str) -> tuple[str | None, str | None]:
        return self._order.neighbours(call_id)

    def call(self, call_id: str) -> ForeignCall | None:
        if call_id not in self._order:
            return None
        is_baseline = call_id not in self.rows  # then it is "<row key>#baseline"
        row = self.rows[call_id.removesuffix(BASELINE_SUFFIX) if is_baseline else call_id]
        run, sample, answer = self.run, row.sample, row.answer
        cap = run.max_output_tokens
        if is_baseline:
            this = baseline_answer(run, sample)
            if this.model:  # a stored baseline is your logged answers, never "__stored__" as a model
                this = replace(this, model=model_text(this.model))
            other, other_text = f"candidate {model_text(row.arm)}", answer.text
        else:
            this = replace(answer, model=model_text(row.arm) if row.arm else row.arm)
            other, other_text = f"baseline {model_text(run.baseline_model)}", sample.baseline_answer
        model, cut = this.model, this.truncated
        entry = answer_call(
            call_id, this, source=PLATFORM, prompt=sample.prompt, max_tokens=cap, created_at=iso_ms(run.created_at)
        )
        origin: list[tuple[str, str]] = [
            ("platform", PLATFORM),
            ("run", f"{run.id} · {run.name or '—'}"),
            ("sample", f"#{row.index + 1}"),  # from 1, as the samples table counts
            ("this answer", f"{'baseline' if is_baseline else 'candidate'} {model or '—'}"),
            ("outcome", _OUTCOME.get(row.outcome or "", row.outcome or "—")),
        ]
        if run.eval_kind != "criterion":
            origin.append(("verdicts", verdicts_line(answer)))
        if answer.human_verdict:
            origin.append(("human verdict", answer.human_verdict))
        if run.eval_kind != "criterion":
            origin.append(("other answer", f"{other}: {_preview(other_text)}"))
        notes = []
        if row.doubtful and not is_baseline:
            notes.append(f"Doubtful verdict: the candidate {row.doubtful}.")
        if cut is True:
            size = f"{cap:,}-token" if cap is not None else "output"
            notes.append(f"This answer was cut at the {size} cap.")
        elif cut is None:
            notes.append("The platform does not say whether this answer was cut at the cap.")
        return ForeignCall(entry, PLATFORM, tuple(origin), (), tuple(notes))
