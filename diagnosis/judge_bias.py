"""The judge's own biases, read from the swapped pairs a comparison run already paid for.

Every comparison pair is judged twice, the answers swapped (``ab``: the baseline shown
first, ``ba``: the candidate first). From the queue's spec sheet (``GET .../pairwise``) and
the samples (``GET .../samples``) this module works out, per candidate arm:

* how often the two orderings disagreed (the judge changed its mind when the answers swapped);
* the share of picks that went to the first slot (0.5 for a judge with no position bias),
  with its Wilson interval, from ``picks_first`` / ``picks_second``;
* ties from disagreement (the queue turns a split verdict into a tie) against ties the judge
  gave itself;
* the win rate by length: among decided pairs whose two answers differ in length, how often
  the longer answer won (0.5 for a judge with no length bias); texts the queue clipped at
  2,000 characters are left out, since their true lengths are unknown;
* whether the judge shares a family with the candidate (a model grading its own kin).

Pure: the inputs are plain values (the application layer reads them off the wire shapes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from common.format import plural
from diagnosis.stats import Interval, wilson_interval

CLIP_MARKER = "…[clipped]"

# Families by the name's stem after any "org/" prefix; a few vendors publish several stems.
_FAMILY_ALIASES = {
    "mixtral": "mistral",
    "codestral": "mistral",
    "ministral": "mistral",
    "chatgpt": "gpt",
    "o1": "gpt",
    "o3": "gpt",
    "o4": "gpt",
    "codellama": "llama",
    "qwq": "qwen",
}
_ORG_FAMILIES = {
    "meta-llama": "llama",
    "mistralai": "mistral",
    "openai": "gpt",
    "anthropic": "claude",
    "google": "gemini",
    "qwen": "qwen",
    "deepseek-ai": "deepseek",
    "microsoft": "phi",
}


def model_family(model_id: str) -> str:
    """A model's family from its id: ``Qwen/Qwen3-32B`` and ``qwen2.5-7b`` are both ``qwen``,
    ``gpt-4o-mini`` is ``gpt``, ``meta-llama/Llama-3.1-8B`` is ``llama``."""
    org, _, name = model_id.strip().lower().rpartition("/")
    stem = re.match(r"[a-z]+|o\d", name)
    family = stem.group(0) if stem else name
    family = _FAMILY_ALIASES.get(family, family)
    if family in ("", "model") and org:
        return _ORG_FAMILIES.get(org, org)
    return family


def shares_family(judge_model: str, candidate_model: str) -> bool:
    """Whether the judge grades a model of its own family."""
    return model_family(judge_model) == model_family(candidate_model)


@dataclass(frozen=True, slots=True)
class PairText:
    """One judged pair of a candidate arm: the queue's outcome and the two answers' texts
    (as the samples route returns them, possibly clipped)."""

    outcome: str  # win | loss | tie | failed (the candidate's)
    candidate_answer: str
    baseline_answer: str


@dataclass(frozen=True, slots=True)
class JudgeBiases:
    """One arm's bias figures; None where the run holds nothing to compute it from."""

    arm: str
    judge_model: str
    pairs: int
    read_pairs: int | None
    disagreement_rate: float | None
    first_slot_share: float | None
    first_slot_ci: Interval | None
    ties_total: int
    ties_from_disagreement: int | None
    ties_given: int | None
    longer_won: int
    length_decided: int
    longer_win_rate: float | None
    longer_win_ci: Interval | None
    length_left_out: int
    judge_shares_family: bool

    def sentences(self) -> list[str]:
        """The figures in plain words, each only where it was measured."""
        said: list[str] = []
        if self.disagreement_rate is not None and self.read_pairs:
            said.append(
                f"the two orderings disagreed on {self.disagreement_rate:.0%} of "
                f"{plural(self.read_pairs, 'pair')} (each counted as a tie)"
            )
        if self.first_slot_share is not None and self.first_slot_ci is not None:
            low, high = self.first_slot_ci
            lean = (
                "leans to the first slot"
                if low > 0.5
                else "leans to the second slot"
                if high < 0.5
                else "no position bias shown"
            )
            said.append(f"first slot got {self.first_slot_share:.0%} of picks [{low:.0%}-{high:.0%}]: {lean}")
        if self.ties_from_disagreement is not None and self.ties_given is not None:
            said.append(f"ties: {self.ties_from_disagreement} from disagreement, {self.ties_given} given by the judge")
        if self.longer_win_rate is not None and self.longer_win_ci is not None:
            low, high = self.longer_win_ci
            lean = (
                "favours the longer answer"
                if low > 0.5
                else "favours the shorter answer"
                if high < 0.5
                else "no length bias shown"
            )
            said.append(
                f"the longer answer won {self.longer_won} of {self.length_decided} decided pairs "
                f"({self.longer_win_rate:.0%} [{low:.0%}-{high:.0%}]): {lean}"
            )
        elif self.length_decided == 0:
            said.append("length bias: no decided pair with answers of different, unclipped lengths")
        if self.judge_shares_family:
            said.append(f"the judge ({self.judge_model}) is of the candidate's family: it may favour its kin")
        return said


def _count(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def judge_biases(
    arm: str,
    candidate_model: str,
    judge_model: str,
    pairs: Iterable[PairText],
    spec_sheet: Mapping[str, Any] | None,
) -> JudgeBiases:
    """The bias figures for one arm (see the module docstring)."""
    rows = list(pairs)
    sheet = spec_sheet or {}
    first, second = _count(sheet.get("picks_first")), _count(sheet.get("picks_second"))
    first_share = first_ci = None
    if first is not None and second is not None and first + second > 0:
        first_share = first / (first + second)
        first_ci = wilson_interval(first, first + second)
    pairs_count = _count(sheet.get("pairs"))
    failed_pairs = _count(sheet.get("failed_pairs"))
    read = pairs_count - failed_pairs if pairs_count is not None and failed_pairs is not None else None
    disagreements = _count(sheet.get("disagreement_ties"))
    disagreement_rate = disagreements / read if disagreements is not None and read else None
    ties_total = sum(1 for row in rows if row.outcome == "tie")
    ties_given = None if disagreements is None else max(0, ties_total - disagreements)
    longer_won = decided = left_out = 0
    for row in rows:
        if row.outcome not in ("win", "loss"):
            continue
        if CLIP_MARKER in row.candidate_answer or CLIP_MARKER in row.baseline_answer:
            left_out += 1
            continue
        cand, base = len(row.candidate_answer), len(row.baseline_answer)
        if cand == base:
            continue
        decided += 1
        longer_won += (row.outcome == "win") == (cand > base)
    rate = longer_won / decided if decided else None
    return JudgeBiases(
        arm=arm,
        judge_model=judge_model,
        pairs=len(rows),
        read_pairs=read,
        disagreement_rate=disagreement_rate,
        first_slot_share=first_share,
        first_slot_ci=first_ci,
        ties_total=ties_total,
        ties_from_disagreement=disagreements,
        ties_given=ties_given,
        longer_won=longer_won,
        length_decided=decided,
        longer_win_rate=rate,
        longer_win_ci=wilson_interval(longer_won, decided) if decided else None,
        length_left_out=left_out,
        judge_shares_family=shares_family(judge_model, candidate_model),
    )
