"""A new bake-off as a person asks for it (TUI dialog and `blah-tui bakeoff create` alike):
every field of ``POST /v1/evals`` (contract 3.2), the request body it makes, and why the
queue would refuse it, said before anything is sent.

The queue's own rules are the client's (``api_client.errorbar.checks.check_create``: a regex
that does not compile, a schema that does not parse, a length that is not a whole number, 7
candidates, ...); on top of those, the page's certified-switch rules (a ``__stored__``
baseline needs a calibrated criterion) and the gate margin the person gives with it (a rate
0..1, not a percent). Text fields are parsed here too, so the CLI's flags and the dialog's
lines read the same way (:mod:`application.bakeoffs.new_run.fields`). What the
dialog suggests from the workspace is in :mod:`application.bakeoffs.new_run.hints`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from api_client.errorbar import shapes_fixed as wire
from api_client.errorbar.checks import check_create
from api_client.errorbar.errors import RefusedLocally
from application.bakeoffs.judge_quality import informedness, judge_reading
from common.safe_strings import clip

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = [
    "ASSERTION_HELP",
    "DEFAULT_MARGIN",
    "DEFAULT_MAX_OUTPUT_TOKENS",
    "DEFAULT_SAMPLE_COUNT",
    "MAX_ASSERTIONS",
    "MAX_CANDIDATES",
    "RUBRIC_TYPE_HELP",
    "STORED",
    "ArmSpec",
    "NewRun",
    "Problem",
    "SampleFilters",
    "field_problem",
    "judge_family_warning",
]

STORED = wire.STORED
MAX_CANDIDATES = 6
MAX_ASSERTIONS = 10
DEFAULT_SAMPLE_COUNT = 40
DEFAULT_MAX_OUTPUT_TOKENS = 1024
DEFAULT_MARGIN = 0.05
RUBRIC_TYPE_HELP = {
    "direct": "direct: the judge picks the answer that better satisfies the rubric",
    "adherence": "adherence: the judge picks the answer closer to the stored reference (the logged reply, "
    "or the dataset's assistant turn)",
}
ASSERTION_HELP = {
    "json_valid": "json_valid: the answer parses as JSON",
    "json_schema": "json_schema=SCHEMA: the answer's JSON fits this schema (a JSON string, at most 4000)",
    "regex_match": "regex_match=REGEX: the answer matches this regex (at most 200 characters)",
    "contains": "contains=TEXT: the answer contains this text",
    "not_contains": "not_contains=TEXT: the answer does not contain this text",
    "max_length": "max_length=N: at most N characters (a whole number)",
    "min_length": "min_length=N: at least N characters (a whole number)",
    "completed": "completed: the answer was not cut at the output cap",
    "tool_called": "tool_called=NAME: the answer calls this tool",
    "no_tool_call": "no_tool_call: the answer calls no tool",
}


@dataclass(frozen=True)
class Problem:
    """Why the queue would refuse the request: the field (a body key, e.g. ``assertions[2]``)
    and a sentence that ends in "nothing was sent"."""

    field: str
    message: str

    def __str__(self) -> str:
        return self.message


def field_problem(field_name: str, message: str) -> Problem:
    """The refusal of one field: "FIELD: MESSAGE; nothing was sent"."""
    return Problem(field_name, f"{field_name}: {message}; nothing was sent")


@dataclass(frozen=True)
class ArmSpec:
    """One candidate arm: a model, and for a versioned arm its label and overrides."""

    model: str
    label: str | None = None
    system: str | None = None
    """Replaces the logged system prompt ("" strips it); None: the logged one."""
    tools: list[Any] | None = None
    """Replaces the tool definitions ([] = none); None: the logged ones."""
    n: int | None = None
    """Best-of-N (2..8): N answers, N−1 knockouts, all paid."""

    @property
    def key(self) -> str:
        return self.label or self.model

    @property
    def plain(self) -> bool:
        return self.label is None and self.system is None and self.tools is None and self.n is None

    @property
    def answers(self) -> int:
        """Generations per sample."""
        return self.n or 1

    def body(self) -> dict[str, Any]:
        arm: dict[str, Any] = {"model": self.model}
        for name in ("label", "system", "tools", "n"):
            value = getattr(self, name)
            if value is not None:
                arm[name] = value
        return arm


@dataclass(frozen=True)
class SampleFilters:
    tag: str = ""
    model: str = ""
    segment: str = ""
    dataset_id: str = ""
    trace_replay: bool = False

    @classmethod
    def from_body(cls, filters: Mapping[str, Any]) -> SampleFilters:
        """The filters of a create body's (or a run's echoed) ``sample_filters``."""

        def text(key: str) -> str:
            return str(filters.get(key) or "")

        return cls(text("tag"), text("model"), text("segment"), text("dataset_id"), bool(filters.get("trace_replay")))

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            k: v.strip()
            for k, v in (
                ("tag", self.tag),
                ("model", self.model),
                ("segment", self.segment),
                ("dataset_id", self.dataset_id),
            )
            if v.strip()
        }
        if self.trace_replay:
            out["trace_replay"] = True
        return out

    def describe(self) -> str:
        parts = [f"{k} {v}" for k, v in self.body().items() if k != "trace_replay"]
        if self.trace_replay:
            parts.append("trace replay (one sample per step of completed agent runs)")
        source = "a managed dataset" if self.dataset_id.strip() else "recent logged traffic"
        return f"{source}" + (f": {', '.join(parts)}" if parts else ", unfiltered")


@dataclass(frozen=True)
class NewRun:
    """Every field of a new (non-screening) bake-off."""

    name: str
    baseline_model: str
    arms: tuple[ArmSpec, ...] = ()
    eval_kind: str = "comparison"
    rubric: str = ""
    rubric_type: str = "direct"
    criterion_id: str | None = None
    judge_model: str | None = None
    sample_count: int = DEFAULT_SAMPLE_COUNT
    max_output_tokens: int = DEFAULT_MAX_OUTPUT_TOKENS
    filters: SampleFilters = field(default_factory=SampleFilters)
    assertions: tuple[dict[str, Any], ...] = ()
    noninferiority_margin: float | None = None
    """The gate margin of a certified switch (not part of the create: the gate's threshold)."""

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> NewRun | None:
        """A create body (``--from RUN.json``) read back as a request, for its confirmation;
        None for a screening body or one whose fields are not of the documented types."""
        if body.get("screening") is True:
            return None
        try:
            raw_arms = body.get("candidates")
            arms = (
                tuple(
                    ArmSpec(str(a["model"]), a.get("label"), a.get("system"), a.get("tools"), a.get("n"))
                    for a in raw_arms
                )
                if raw_arms is not None
                else tuple(ArmSpec(str(m)) for m in body.get("candidate_models") or [])
            )
            filters = body.get("sample_filters") or {}
            return cls(
                name=str(body.get("name") or ""),
                baseline_model=str(body.get("baseline_model") or ""),
                arms=arms,
                eval_kind=str(body.get("eval_kind") or "comparison"),
                rubric=str(body.get("rubric") or ""),
                rubric_type=str(body.get("rubric_type") or "direct"),
                criterion_id=body.get("criterion_id"),
                judge_model=body.get("judge_model"),
                sample_count=int(body.get("sample_count") or DEFAULT_SAMPLE_COUNT),
                max_output_tokens=int(body.get("max_output_tokens") or 4096),
                filters=SampleFilters.from_body(filters),
                assertions=tuple(body.get("assertions") or ()),
            )
        except (TypeError, ValueError, KeyError, AttributeError):
            return None

    @property
    def certified(self) -> bool:
        """A certified switch: candidates judged against what was actually shipped (the page's
        shape: ``__stored__`` baseline, calibrated criterion, strict population, 412 when
        underpowered). A replay bake-off also needs ``__stored__`` but is not one."""
        return self.baseline_model == STORED and not self.filters.trace_replay

    @property
    def candidate_keys(self) -> list[str]:
        return [arm.key for arm in self.arms]

    def body(self) -> dict[str, Any]:
        """The create request's JSON body (``candidates`` only when an arm has a label or overrides)."""
        body: dict[str, Any] = {
            "name": self.name.strip(),
            "eval_kind": self.eval_kind,
            "baseline_model": self.baseline_model,
            "sample_count": self.sample_count,
            "max_output_tokens": self.max_output_tokens,
        }
        if all(arm.plain for arm in self.arms):
            body["candidate_models"] = [arm.model for arm in self.arms]
        else:
            body["candidates"] = [arm.body() for arm in self.arms]
        if self.eval_kind == "criterion":
            body["criterion_id"] = self.criterion_id
        else:
            body["rubric"] = self.rubric
        if self.rubric_type != "direct":
            body["rubric_type"] = self.rubric_type
        if self.judge_model and self.eval_kind != "criterion":
            body["judge_model"] = self.judge_model
        filters = self.filters.body()
        if filters:
            body["sample_filters"] = filters
        if self.assertions:
            body["assertions"] = [dict(a) for a in self.assertions]
        return body

    def problem(self, criterion: assumed.Criterion | None = None) -> Problem | None:
        """Why the queue would refuse this (the first reason, naming its field), or None.
        ``criterion``: the chosen criterion as listed, for the certified switch's rules."""
        if len(self.arms) > MAX_CANDIDATES:
            return field_problem("candidate_models", f"at most {MAX_CANDIDATES} candidates, not {len(self.arms)}")
        if len(self.assertions) > MAX_ASSERTIONS:
            return field_problem("assertions", f"at most {MAX_ASSERTIONS}, not {len(self.assertions)}")
        try:
            check_create(self.body())
        except RefusedLocally as refused:
            return Problem(refused.field, refused.message)
        if self.noninferiority_margin is not None and not 0.0 <= self.noninferiority_margin <= 1.0:
            return field_problem(
                "noninferiority_margin",
                f"a rate from 0 to 1 is required (0.05, not 5), not {self.noninferiority_margin:g}",
            )
        if self.certified:
            if self.eval_kind != "criterion":
                return field_problem(
                    "baseline_model",
                    "a certified switch (against what you shipped: your logged answers) is "
                    "judged by a calibrated criterion: choose a criterion run",
                )
            if self.noninferiority_margin is None:
                return field_problem(
                    "noninferiority_margin",
                    "a certified switch needs its noninferiority margin "
                    "(how much worse than what you shipped is still acceptable, e.g. 0.05)",
                )
            youden = informedness(criterion.tpr, criterion.tnr) if criterion is not None else 1.0
            if criterion is not None and youden is None:
                return field_problem(
                    "criterion_id",
                    f"{criterion.name or criterion.id} is not calibrated (no alignment "
                    "run): a certified switch needs a calibrated criterion",
                )
            if criterion is not None and youden is not None and youden <= 0:
                return field_problem(
                    "criterion_id",
                    f"{criterion.name or criterion.id} is no better than chance "
                    f"(TPR+TNR-1 is {youden:.2f}): a certified switch needs a calibrated criterion",
                )
        return None

    def warnings(self, criterion: assumed.Criterion | None = None) -> list[str]:
        """What the person should know before spending (the request is still valid)."""
        out = []
        if self.eval_kind == "criterion" and criterion is not None:
            reading = judge_reading(criterion.tpr, criterion.tnr, criterion.kappa)
            if reading:
                out.append(f"criterion {clip(criterion.name or criterion.id, 60)}: {reading}")
        family = judge_family_warning(
            self.judge_model if self.eval_kind != "criterion" else (criterion.judge_model if criterion else None),
            [a.model for a in self.arms],
        )
        if family:
            out.append(family)
        if self.rubric_type == "adherence" and self.baseline_model == STORED:
            out.append(
                "adherence against your logged answers: the logged answer is the reference itself, so a candidate "
                "can at best tie it"
            )
        return out


def judge_family_warning(judge: str | None, candidates: Sequence[str]) -> str | None:
    """The judge shares a family with a candidate: LLM judges measurably favour their own."""
    if not judge:
        return None
    from diagnosis.judge_bias import shares_family  # one family rule for the app; not on `bakeoff gate`'s path

    same = [c for c in candidates if shares_family(judge, c)]
    if not same:
        return None
    return (
        f"the judge {judge} shares a family with {', '.join(same)}: LLM judges measurably favour their own "
        "family; prefer a judge from another family"
    )
