"""Checks made before anything is sent, mirroring the queue's documented 400s (contract 3.2,
3.9): a run that would be refused is refused here, for free, naming the field."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from api_client.errorbar import shapes_fixed as wire
from api_client.errorbar.errors import RefusedLocally
from common.constants import QUEUE_SAMPLE_CAP, QUEUE_SAMPLE_FLOOR

LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.:+\-]{0,63}$")
ASSERTION_TYPES = frozenset(
    {
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
)
#: The assertion types that stand alone; every other one carries a ``value`` (a regex, a text,
#: a length, a schema, a tool's name).
UNVALUED_ASSERTIONS = frozenset({"json_valid", "completed", "no_tool_call"})
VALUED_ASSERTIONS = ASSERTION_TYPES - UNVALUED_ASSERTIONS
GATE_THRESHOLDS = ("min_win_rate", "min_pass_rate", "min_assertion_pass_rate", "noninferiority_margin")


def _refuse(field: str, message: str) -> RefusedLocally:
    return RefusedLocally(f"{field}: {message}; nothing was sent", field=field)


def _int_in(body: Mapping[str, Any], field: str, low: int, high: int) -> None:
    if field not in body or body[field] is None:
        return
    value = body[field]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _refuse(field, f"must be a whole number {low}..{high}, not {value!r}")


def _check_assertions(configs: Any) -> None:
    if configs is None:
        return
    if not isinstance(configs, list) or len(configs) > 10:
        raise _refuse("assertions", "at most 10, as a list")
    for i, config in enumerate(configs):
        where = f"assertions[{i}]"
        kind = config.get("type") if isinstance(config, Mapping) else None
        if kind not in ASSERTION_TYPES:
            raise _refuse(where, f"type must be one of {', '.join(sorted(ASSERTION_TYPES))}")
        value = config.get("value")
        if kind == "regex_match":
            if not isinstance(value, str) or len(value) > 200:
                raise _refuse(where, "a regex of at most 200 characters is required")
            try:
                re.compile(value)
            except re.error as exc:
                raise _refuse(where, f"the regex does not compile ({exc})") from None
        elif kind == "json_schema":
            if not isinstance(value, str) or len(value) > 4000:
                raise _refuse(where, "a JSON schema string of at most 4000 characters is required")
            try:
                json.loads(value)
            except ValueError as exc:
                raise _refuse(where, f"the JSON schema does not parse ({exc.args[0]})") from None
        elif kind in ("contains", "not_contains", "tool_called") and not value:
            raise _refuse(where, f"{kind} needs a value")
        elif kind in ("max_length", "min_length") and not (isinstance(value, str) and value.isdigit()):
            raise _refuse(where, f"{kind} needs a non-negative whole number as a string")


def _arm_keys(body: Mapping[str, Any]) -> list[str]:
    arms = body.get("candidates")
    if arms is None:
        models = body.get("candidate_models") or []
        if not isinstance(models, list) or not all(isinstance(m, str) and m for m in models):
            raise _refuse("candidate_models", "must be a list of model ids")
        return list(models)
    if not isinstance(arms, list):
        raise _refuse("candidates", "must be a list of arms")
    keys = []
    for i, arm in enumerate(arms):
        if not isinstance(arm, Mapping) or not isinstance(arm.get("model"), str):
            raise _refuse(f"candidates[{i}]", "each arm needs a model")
        label = arm.get("label")
        if any(arm.get(k) is not None for k in ("system", "tools", "n")) and not label:
            raise _refuse(f"candidates[{i}]", "an arm with system, tools or n needs a label")
        if label is not None and (not isinstance(label, str) or not LABEL.match(label)):
            raise _refuse(f"candidates[{i}].label", "letters, digits, space and _ . : + - only, at most 64, no /")
        keys.append(label or arm["model"])
    return keys


def check_create(body: Mapping[str, Any]) -> None:
    """``RefusedLocally`` for a body the queue would answer 400 (or a criterion run with no
    ``criterion_id``); screening bodies are checked only for what the queue honours."""
    if body.get("screening") is True:
        _int_in(body, "sample_count", QUEUE_SAMPLE_FLOOR, QUEUE_SAMPLE_CAP)
        return
    name = body.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 80:
        raise _refuse("name", "1 to 80 characters are required")
    kind = body.get("eval_kind", "comparison")
    if kind not in ("comparison", "criterion"):
        raise _refuse("eval_kind", "comparison or criterion")
    if body.get("rubric_type", "direct") not in ("direct", "adherence"):
        raise _refuse("rubric_type", "direct or adherence")
    if kind == "comparison":
        rubric = body.get("rubric")
        if not isinstance(rubric, str) or not 10 <= len(rubric) <= 2000:
            raise _refuse("rubric", "a comparison run needs a rubric of 10 to 2000 characters")
    elif not body.get("criterion_id"):
        raise _refuse("criterion_id", "a criterion run needs the criterion's id")
    baseline = body.get("baseline_model")
    if not isinstance(baseline, str) or not baseline:
        raise _refuse("baseline_model", f"a catalog model id or {wire.STORED} is required")
    keys = _arm_keys(body)
    if len(keys) > 6:
        raise _refuse("candidate_models", f"at most 6 candidates, not {len(keys)}")
    if kind == "comparison" and not keys:
        raise _refuse("candidate_models", "a comparison run needs at least 1 candidate")
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            raise _refuse("candidate_models", f"{key!r} is listed twice")
        if key == baseline:
            raise _refuse("candidate_models", f"{key!r} is the baseline")
        seen.add(key)
    _int_in(body, "sample_count", QUEUE_SAMPLE_FLOOR, QUEUE_SAMPLE_CAP)
    _int_in(body, "max_output_tokens", 256, 16384)
    _check_assertions(body.get("assertions"))
    filters = body.get("sample_filters") or {}
    if not isinstance(filters, Mapping):
        raise _refuse("sample_filters", "must be an object")
    if filters.get("trace_replay") and baseline != wire.STORED:
        raise _refuse("sample_filters.trace_replay", f"a replay bake-off needs baseline_model {wire.STORED}")


def gate_params(
    thresholds: Mapping[str, float | None], *, ties: str | None = None, model: str | None = None
) -> dict[str, str]:
    """The gate's query. Each threshold must be a number in 0..1 (the queue drops any other
    silently, which can turn into a "no threshold" 412): refused here instead; at least one
    is required; ``ties`` is ``half`` or ``decided``."""
    params: dict[str, str] = {}
    for name in GATE_THRESHOLDS:
        value = thresholds.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= float(value) <= 1.0:
            raise _refuse(name, f"must be a number from 0 to 1 (a rate, not a percent), not {value!r}")
        params[name] = repr(float(value))
    if not params:
        raise _refuse("threshold", "give at least one of " + ", ".join(GATE_THRESHOLDS))
    if ties is not None:
        if ties not in ("half", "decided"):
            raise _refuse("win_rate_ties", "half or decided")
        params["win_rate_ties"] = ties
    if model:
        params["model"] = model
    return params
