"""``POST /v1/evals``: the body checked as the contract says (each refusal a 400 naming the
field, except an unknown criterion or dataset: 404), then filled with its defaults."""

from __future__ import annotations

import json
import re
from typing import Any

from simulator.errorbar.errors import QueueError
from simulator.errorbar.population import DATASETS, check_certified, check_criterion_binding, check_population
from simulator.errorbar.population import population as sampled_rows
from simulator.errorbar.world import CATALOG_BY_ID, DEFAULT_JUDGE, STORED, Criterion, LoggedRequest

LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.:+\-]{0,63}$")
ASSERTION_TYPES = {
    "json_valid",
    "json_schema",
    "regex_match",
    "contains",
    "not_contains",
    "max_length",
    "min_length",
    "completed",
    "tool_called",
    "no_tool_call",
}
SCREENING_RUBRIC = "Which answer serves the user better: accurate, complete, and in the product's tone."


def bad(message: str) -> QueueError:
    return QueueError(400, message)


def _model(model: Any, what: str) -> str:
    if not isinstance(model, str) or model not in CATALOG_BY_ID:
        raise bad(f"Model '{model}' is not available." if isinstance(model, str) else f"{what} must be a string")
    return model


def _int(body: dict[str, Any], name: str, low: int, high: int, default: int) -> int:
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise bad(f"{name} must be an integer {low}..{high}")
    return value


def _assertions(configs: Any) -> list[dict[str, Any]]:
    if configs is None:
        return []
    if not isinstance(configs, list) or len(configs) > 10:
        raise bad("assertions must be a list of at most 10")
    out = []
    for i, config in enumerate(configs):
        kind = config.get("type") if isinstance(config, dict) else None
        value = config.get("value") if isinstance(config, dict) else None
        if kind not in ASSERTION_TYPES:
            raise bad(f"assertions[{i}].type must be one of {', '.join(sorted(ASSERTION_TYPES))}")
        if kind == "json_schema":
            try:
                if len(str(value)) > 4000:
                    raise ValueError
                json.loads(str(value))
            except ValueError:
                raise bad(f"assertions[{i}]: the JSON schema does not parse") from None
        elif kind == "regex_match":
            try:
                if len(str(value)) > 200:
                    raise re.error("too long")
                re.compile(str(value))
            except re.error:
                raise bad(f"assertions[{i}]: the regex does not compile") from None
        elif kind in ("contains", "not_contains", "tool_called") and not value:
            raise bad(f"assertions[{i}].value is required for {kind}")
        elif kind in ("max_length", "min_length") and not str(value or "").isdigit():
            raise bad(f"assertions[{i}].value must be a non-negative integer")
        out.append({"type": kind, **({"value": value} if value is not None else {})})
    return out


def _arms(body: dict[str, Any], baseline: str, minimum: int) -> list[dict[str, Any]]:
    raw = body.get("candidates")
    if raw is None:
        models = body.get("candidate_models", [])
        if not isinstance(models, list):
            raise bad("candidate_models must be a list")
        raw = [{"model": m} for m in models]
    if not isinstance(raw, list) or len(raw) > 6:
        raise bad("at most 6 candidates")
    if len(raw) < minimum:
        raise bad("a comparison run needs at least 1 candidate")
    arms, keys = [], set()
    for arm in raw:
        if not isinstance(arm, dict):
            raise bad("each candidate must be an object")
        model = _model(arm.get("model"), "candidate model")
        custom = any(arm.get(k) is not None for k in ("system", "tools", "n"))
        label = arm.get("label")
        if custom and not label:
            raise bad(f"candidate {model}: an arm with system, tools or n needs a label")
        if label is not None and (not isinstance(label, str) or not LABEL.match(label)):
            raise bad("candidate label must match ^[A-Za-z0-9][A-Za-z0-9 _.:+\\-]{0,63}$")
        key = label or model
        if key in keys:
            raise bad(f"candidate '{key}' is listed twice")
        if key == baseline:
            raise bad(f"candidate '{key}' is the baseline")
        keys.add(key)
        n = arm.get("n")
        if n is not None and (not isinstance(n, int) or not 2 <= n <= 8):
            raise bad("candidate n must be 2..8")
        arms.append(
            {
                "key": key,
                "model": model,
                "label": label,
                "system": arm.get("system") is not None,
                "tools": arm.get("tools") is not None,
                "n": n or 1,
            }
        )
    return arms


def population(
    traffic: list[LoggedRequest], filters: dict[str, Any], needs_reference: bool = False
) -> list[LoggedRequest]:
    """The rows a run samples (logged traffic, a dataset, or agent steps: ``population``);
    ``needs_reference``: only rows with a text reply to compare against."""
    rows = sampled_rows(traffic, filters)
    return [r for r in rows if r.text_reply] if needs_reference else rows


def validate_create(body: Any, traffic: list[LoggedRequest], criteria: dict[str, Criterion]) -> dict[str, Any]:
    """The run's spec (every field with its default) or a QueueError."""
    if not isinstance(body, dict):
        raise bad("the body must be a JSON object")
    if body.get("screening") is True:
        return screening_spec(body, traffic)
    name = body.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 80:
        raise bad("name must be 1..80 characters")
    kind = body.get("eval_kind", "comparison")
    if kind not in ("comparison", "criterion"):
        raise bad("eval_kind must be comparison or criterion")
    rubric_type = body.get("rubric_type", "direct")
    if rubric_type not in ("direct", "adherence"):
        raise bad("rubric_type must be direct or adherence")
    rubric = body.get("rubric")
    criterion = None
    if kind == "comparison":
        if not isinstance(rubric, str) or not 10 <= len(rubric) <= 2000:
            raise bad("rubric must be 10..2000 characters for a comparison run")
    else:
        criterion_id = body.get("criterion_id")
        if not criterion_id:
            raise bad("criterion_id is required for a criterion run")
        criterion = criteria.get(str(criterion_id))
        if criterion is None:
            raise QueueError(404, "Criterion not found", "not_found")
    baseline = body.get("baseline_model")
    if baseline != STORED:
        baseline = _model(baseline, "baseline_model")
    arms = _arms(body, baseline, 1 if kind == "comparison" else 0)
    filters = body.get("sample_filters") or {}
    if not isinstance(filters, dict):
        raise bad("sample_filters must be an object")
    filters = {k: v for k, v in filters.items() if v not in ("", None)}
    if filters.get("trace_replay") and baseline != STORED:
        raise bad('trace_replay needs baseline_model "__stored__"')
    needs_reference = rubric_type == "adherence"  # adherence needs text replies to compare with
    check_population(sampled_rows(traffic, filters), filters, needs_reference=needs_reference)
    if criterion is not None:
        check_criterion_binding(criterion, filters, certified=baseline == STORED)
    judge = _model(body.get("judge_model", DEFAULT_JUDGE), "judge_model")
    sample_count = _int(body, "sample_count", 5, 500, 20)
    if baseline == STORED and not filters.get("trace_replay"):
        check_certified(criterion, kind, sample_count)
    return {
        "name": name.strip(),
        "rubric": rubric if kind == "comparison" else (criterion.judge_prompt if criterion else ""),
        "rubric_type": rubric_type,
        "eval_kind": kind,
        "criterion": criterion,
        "baseline_model": baseline,
        "arms": arms,
        "judge_model": criterion.judge_model if criterion else judge,
        "sample_count": sample_count,
        "max_output_tokens": _int(body, "max_output_tokens", 256, 16384, 4096),
        "assertions": _assertions(body.get("assertions")),
        "sample_filters": filters,
        "screening": False,
        "needs_reference": needs_reference,
    }


def screening_spec(body: dict[str, Any], traffic: list[LoggedRequest]) -> dict[str, Any]:
    """The screening run the queue fills in (see ``simulator.errorbar.screening``); only
    ``name``, ``sample_count``, ``candidate_models``, ``judge_model`` and
    ``sample_filters.dataset_id`` are honoured."""
    from simulator.errorbar.screening import (
        MAX_SCREENING_SAMPLES,
        default_candidates,
        incumbent_of,
        nothing_to_screen,
        screening_pool,
    )

    filters = body.get("sample_filters") or {}
    if not isinstance(filters, dict):
        raise bad("sample_filters must be an object")
    dataset = filters.get("dataset_id") or None
    if dataset is not None and dataset not in DATASETS:
        raise QueueError(404, "Dataset not found", "not_found")
    echo: dict[str, Any] = {"screening": True, **({"dataset_id": dataset} if dataset else {})}
    incumbent = incumbent_of(traffic)
    if incumbent is None:
        raise nothing_to_screen("no logged traffic in this workspace.")
    pool = population(screening_pool(traffic, incumbent), {k: v for k, v in echo.items() if k != "screening"})
    if len({r.prompt for r in pool}) < 5:
        raise nothing_to_screen(f"fewer than 5 distinct logged prompts of the incumbent {incumbent}.")
    if "candidate_models" in body:
        models = body["candidate_models"]
        if not isinstance(models, list) or not 1 <= len(models) <= 6 or len(set(models)) != len(models):
            raise bad("candidate_models must list 1..6 distinct models")
        for model in models:
            _model(model, "candidate model")
            if model == incumbent:
                raise bad(f"candidate '{model}' is the incumbent")
    else:
        models = default_candidates(incumbent)
        if not models:
            raise nothing_to_screen(f"no model of another family than {incumbent} in the catalog.")
    size = min(MAX_SCREENING_SAMPLES, len(pool))
    name = body.get("name")
    if name is not None and (not isinstance(name, str) or not 1 <= len(name.strip()) <= 80):
        raise bad("name must be 1..80 characters")
    return {
        "name": (name or f"Screening of {incumbent}").strip()[:80],
        "rubric": SCREENING_RUBRIC,
        "rubric_type": "direct",
        "eval_kind": "comparison",
        "criterion": None,
        "baseline_model": STORED,
        "arms": [{"key": m, "model": m, "label": None, "system": False, "tools": False, "n": 1} for m in models],
        "judge_model": _model(body.get("judge_model", DEFAULT_JUDGE), "judge_model"),
        "sample_count": _int(body, "sample_count", 5, 500, max(5, min(500, size))),
        "max_output_tokens": 4096,
        "assertions": [],
        "sample_filters": echo,
        "screening": True,
        "incumbent": incumbent,
    }
