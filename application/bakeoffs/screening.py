"""A screening run ("is there a cheaper model worth testing?") as a person reads it, for the
CLI (`blah-tui bakeoff screen` / `show`) and the TUI's screening view alike. No Textual.

Every figure is the queue's own (``results.screening``, parsed once into
``api_client.errorbar.shapes.Screening``): nothing here computes a saving, a rate or an
interval, and a figure the queue did not send is the dash. The recommendation is said
plainly: "switch to X: 38% cheaper, answers match 91% [84-95]", or "keep the incumbent",
which is a good outcome (what runs today holds up). A switch leads to the next step, a full
bake-off of the recommended model against the incumbent (``prefill``): screening compares
answers with the logged ones; it does not judge which is better.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from common.format import DASH
from common.safe_strings import one_line

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = [
    "NOT_A_VERDICT",
    "SCREENING_BODY_HINT",
    "BakeoffPrefill",
    "CandidateLine",
    "Verdict",
    "candidate_lines",
    "is_screening",
    "money",
    "no_result_sentence",
    "percent_interval",
    "placement_text",
    "prefill",
    "report_head",
    "report_tail",
    "screening_body",
    "screening_of",
    "token_shape_text",
    "verdict",
]

SCREENING_BODY_HINT = (
    "The queue fills the run in itself: the incumbent is your dominant logged model and its logged answers are "
    "the baseline; the candidates are the cheapest model of each other family; up to 40 of its logged prompts. "
    "Every candidate answers every prompt and is judged (two readings per pair and one similarity reading): "
    "that spends the workspace's money. The queue gives no estimate before it runs."
)
NOT_A_VERDICT = (
    "Screening tells how often a cheaper model's answers match the ones you shipped; it does not judge "
    "which is better. A full bake-off of the recommended model does."
)


def is_screening(run: assumed.Run) -> bool:
    """A screening run: created with ``screening`` (echoed in ``sample_filters``), or carrying
    a screening result."""
    return bool((run.sample_filters or {}).get("screening")) or screening_of(run) is not None


def screening_of(run: assumed.Run) -> assumed.Screening | None:
    return run.results.screening if run.results is not None else None


def screening_body(
    *,
    name: str | None = None,
    sample_count: int | None = None,
    candidates: Sequence[str] = (),
    dataset_id: str | None = None,
) -> dict[str, Any]:
    """The create body of a screening run: only what the queue honours (contract 3.2)."""
    body: dict[str, Any] = {"screening": True}
    if name:
        body["name"] = name.strip()
    if sample_count is not None:
        body["sample_count"] = sample_count
    if candidates:
        body["candidate_models"] = list(candidates)
    if dataset_id:
        body["sample_filters"] = {"dataset_id": dataset_id}
    return body


# ---------------------------------------------------------------------- figures as text


def money(value: float | None, *, signed: bool = False, per_request: bool = False) -> str:
    """US dollars as sent: ``$0.000324`` per request (six places under a dollar), ``$38.82``
    otherwise; ``+``/``-`` when ``signed``; the dash for none."""
    if value is None:
        return DASH
    sign = ("+" if value > 0 else "-" if value < 0 else "") if signed else ("-" if value < 0 else "")
    size = abs(value)
    digits = 6 if per_request and 0 < size < 1 else 2
    return f"{sign}${size:,.{digits}f}"


def _pct(value: float) -> str:
    return f"{value * 100:.0f}"


def percent_interval(rate: float | None, ci: Sequence[float] | None) -> str:
    """``81% [65-90]``; the rate alone when no interval came; the dash for none."""
    if rate is None:
        return DASH
    return f"{_pct(rate)}% [{_pct(ci[0])}-{_pct(ci[1])}]" if ci else f"{_pct(rate)}% (no interval sent)"


def savings_text(pct: float | None) -> str:
    """``61% cheaper`` / ``67% dearer`` / ``the same price``."""
    if pct is None:
        return "savings not sent"
    if round(pct) == 0:
        return "about the same price"
    return f"{abs(pct):.0f}% {'cheaper' if pct > 0 else 'dearer'}"


def token_shape_text(shape: assumed.TokenShape | None) -> str:
    """The incumbent's traffic in tokens, from what the queue sent (unknown members as sent)."""
    if shape is None:
        return "the queue sent no token shape"
    parts = []
    if shape.median_prompt_tokens is not None:
        parts.append(f"prompts {shape.median_prompt_tokens:,.0f} tokens (median)")
    if shape.median_output_tokens is not None:
        answers = f"answers {shape.median_output_tokens:,.0f} tokens (median"
        if shape.p90_output_tokens is not None:
            answers += f", p90 {shape.p90_output_tokens:,.0f}"
        parts.append(answers + ")")
    if shape.requests is not None:
        parts.append(f"from {shape.requests:,} logged requests")
    extra: Mapping[str, Any] = shape.model_extra or {}
    parts += [f"{one_line(str(k), 40)}: {one_line(str(v), 60)}" for k, v in extra.items()]
    return ", ".join(parts) if parts else "the queue sent an empty token shape"


_PRICE = {"cheaper": "cheaper", "not_cheaper": "not cheaper"}
"""The queue's price placements in words. Its quality placements (``similar``, ``different``,
``uncertain``: how the answers' match rate sits against its bar) are words already and shown
as sent."""


def placement_text(status: str | None, quality: str | None, savings_pct: float | None) -> str:
    """A screened candidate's placement (the queue's ``status`` and ``quality``) in words that
    agree with its savings figure. The queue calls a candidate ``not_cheaper`` unless it saves
    enough to be worth a bake-off (the bar is the queue's own and not sent), so a small
    positive saving is "cheaper, too little", never "not cheaper" beside ``+0.5%``. Short
    enough for the screening table at 160 columns."""
    parts = []
    if status:
        if status == "not_cheaper" and savings_pct is not None and savings_pct > 0:
            parts.append("cheaper, too little")
        else:
            parts.append(_PRICE.get(status) or one_line(status, 30))
    if quality:
        parts.append(one_line(quality, 30))
    return " · ".join(parts) or DASH


# ---------------------------------------------------------------------- rows and the verdict


@dataclass(frozen=True)
class CandidateLine:
    """One screened candidate as shown (every cell text; the dash where nothing was sent)."""

    model: str
    matched: str
    differed: str
    unparsed: str
    match: str
    usd_per_request: str
    savings: str
    monthly: str
    monthly_savings: str
    placement: str
    recommended: bool


def _count(value: int | None) -> str:
    return DASH if value is None else str(value)


def candidate_lines(screening: assumed.Screening) -> list[CandidateLine]:
    recommended = verdict(screening).models
    lines = []
    for c in screening.per_candidate:
        sim = c.similarity
        placement = placement_text(c.status, c.quality, c.est_savings_pct)
        name = c.arm or c.model or DASH
        lines.append(
            CandidateLine(
                one_line(name, 80),
                _count(sim.matched if sim else None),
                _count(sim.differed if sim else None),
                _count(sim.unparsed if sim else None),
                percent_interval(sim.match_rate if sim else None, sim.ci95 if sim else None),
                money(c.est_usd_per_request, per_request=True),
                DASH if c.est_savings_pct is None else f"{c.est_savings_pct:+.1f}%",
                money(c.projected_monthly_usd),
                money(c.projected_monthly_savings_usd, signed=True),
                placement,
                name in recommended or (c.model is not None and c.model in recommended),
            )
        )
    return lines


@dataclass(frozen=True)
class Verdict:
    """The recommendation said plainly. ``action``: "switch", "keep", or "none" (not sent)."""

    action: str
    sentence: str
    reason: str | None
    """The queue's own words, verbatim (one line, inert), when it sent any."""
    models: tuple[str, ...]
    """The recommended candidates (empty unless "switch")."""

    @property
    def good_outcome(self) -> bool:
        return self.action == "keep"


def _named_candidate(recommendation: assumed.Recommendation, screening: assumed.Screening) -> str | None:
    """A recommendation that names its model under another key (the contract lists none):
    the one member whose value is a screened candidate's model id, else None."""
    known = {name for c in screening.per_candidate for name in (c.model, c.arm) if name}
    named = {v for v in (recommendation.model_extra or {}).values() if isinstance(v, str) and v in known}
    return named.pop() if len(named) == 1 else None


def verdict(screening: assumed.Screening) -> Verdict:
    recommendation = screening.recommendation
    incumbent = screening.incumbent.model if screening.incumbent and screening.incumbent.model else None
    reason = one_line(recommendation.reason, 300) if recommendation and recommendation.reason else None
    if recommendation is None or recommendation.action is None:
        return Verdict("none", "the queue sent no recommendation", reason, ())
    if not recommendation.switch:
        who = f" ({one_line(incumbent, 80)})" if incumbent else ""
        return Verdict(
            "keep",
            f"keep the incumbent{who}: no screened model is cheaper with answers close enough. "
            "A good outcome: what you run today holds up.",
            reason,
            (),
        )
    model = recommendation.model or _named_candidate(recommendation, screening)
    if not model:
        return Verdict("switch", "switch, says the queue, but it did not name the model", reason, ())
    shown = one_line(model, 80)
    candidate = screening.candidate(model)
    if candidate is None:
        return Verdict("switch", f"switch to {shown} (the queue sent no figures for it)", reason, (model,))
    sim = candidate.similarity
    match = percent_interval(sim.match_rate if sim else None, sim.ci95 if sim else None)
    matches = "answers match: not sent" if match == DASH else f"answers match {match}"
    return Verdict(
        "switch", f"switch to {shown}: {savings_text(candidate.est_savings_pct)}, {matches}", reason, (model,)
    )


@dataclass(frozen=True)
class BakeoffPrefill:
    """What the New bake-off dialog opens with, from a screening's recommendation."""

    name: str
    rubric: str
    baseline_model: str
    candidate_models: tuple[str, ...]


DEFAULT_RUBRIC = "Accurate, complete answers in the product's tone."


def prefill(run: assumed.Run) -> BakeoffPrefill | None:
    """A full bake-off of the recommended candidates against the incumbent (its fresh answers,
    judged both ways); None when there is nothing to follow (keep, or no recommendation)."""
    screening = screening_of(run)
    if screening is None:
        return None
    chosen = verdict(screening)
    incumbent = screening.incumbent.model if screening.incumbent else None
    if chosen.action != "switch" or not chosen.models or not incumbent:
        return None
    short = ", ".join(m.rsplit("/", 1)[-1] for m in chosen.models)
    name = f"{short} against {incumbent.rsplit('/', 1)[-1]} (from screening)"[:80]
    rubric = run.rubric if run.rubric and 10 <= len(run.rubric) <= 2000 else DEFAULT_RUBRIC
    return BakeoffPrefill(name, rubric, incumbent, chosen.models)


def report_head(screening: assumed.Screening) -> list[str]:
    """The incumbent, its token shape and the judge's family warning, as plain lines."""
    incumbent = screening.incumbent
    lines = [
        f"incumbent     {one_line(incumbent.model if incumbent and incumbent.model else DASH, 80)}"
        f" · {money(incumbent.est_usd_per_request if incumbent else None, per_request=True)}/request"
        f" · {money(incumbent.projected_monthly_usd if incumbent else None)}/month"
        + (f" ({incumbent.monthly_requests:,} requests)" if incumbent and incumbent.monthly_requests else ""),
        f"token shape   {token_shape_text(screening.token_shape)}",
    ]
    if screening.judge_shares_family:
        lines.append("judge         shares a family with a candidate: its readings may favour that model")
    return lines


def report_tail(screening: assumed.Screening) -> list[str]:
    """The recommendation, the queue's reason, and what screening is not, as plain lines."""
    chosen = verdict(screening)
    lines = [f"recommended   {chosen.sentence}"]
    if chosen.reason:
        lines.append(f"the queue     {chosen.reason}")
    lines.append(NOT_A_VERDICT)
    return lines


def no_result_sentence(run: assumed.Run) -> str:
    return (
        "no screening result: it comes when the run is DONE"
        if not run.terminal
        else "no screening result: the run did not finish DONE"
    )
