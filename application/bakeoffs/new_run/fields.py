"""The New bake-off's text fields parsed one way for the dialog's lines and the CLI's flags:
a whole number, the noninferiority margin, an assertion (``TYPE`` or ``TYPE=VALUE``) and an
arm (``model=M; label=L; n=3; system=TEXT; tools=JSON``; a bare model id is a plain arm).
Each gives the value, or the :class:`Problem` the queue would refuse it for."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from api_client.errorbar.checks import ASSERTION_TYPES, VALUED_ASSERTIONS
from application.bakeoffs.new_run.request import ASSERTION_HELP, ArmSpec, Problem, field_problem

__all__ = ["parse_arm", "parse_assertion", "parse_each_line", "parse_margin", "whole_number"]

T = TypeVar("T")


def whole_number(text: str, field_name: str, default: int) -> tuple[int | None, Problem | None]:
    """An integer field's value (its default when empty), or why it is not one."""
    text = text.strip()
    if not text:
        return default, None
    try:
        return int(text), None
    except ValueError:
        return None, field_problem(field_name, f"a whole number is required, not {text!r}")


def parse_margin(text: str) -> tuple[float | None, Problem | None]:
    """The noninferiority margin (empty: none), a rate 0..1."""
    text = text.strip()
    if not text:
        return None, None
    try:
        value = float(text)
    except ValueError:
        return None, field_problem("noninferiority_margin", f"a number from 0 to 1 is required, not {text!r}")
    if not 0.0 <= value <= 1.0:
        return None, field_problem("noninferiority_margin", f"a rate from 0 to 1 is required (0.05, not 5), not {text}")
    return value, None


def parse_assertion(text: str, index: int) -> tuple[dict[str, Any] | None, Problem | None]:
    """``TYPE`` or ``TYPE=VALUE`` as an assertion config (the value's own checks are the
    queue's, made in :meth:`NewRun.problem`)."""
    kind, sep, value = text.strip().partition("=")
    kind = kind.strip()
    where = f"assertions[{index}]"
    if kind not in ASSERTION_TYPES:
        return None, field_problem(
            where, f"{kind!r} is not an assertion type (one of {', '.join(sorted(ASSERTION_TYPES))})"
        )
    if kind in VALUED_ASSERTIONS:
        if not sep:
            return None, field_problem(where, f"{kind} needs a value: {ASSERTION_HELP[kind]}")
        return {"type": kind, "value": value}, None
    if sep:
        return None, field_problem(where, f"{kind} takes no value")
    return {"type": kind}, None


def parse_arm(text: str, index: int) -> tuple[ArmSpec | None, Problem | None]:
    """``model=M; label=L; n=3; system=TEXT; tools=JSON`` (a bare model id is a plain arm)."""
    where = f"candidates[{index}]"
    text = text.strip()
    if "=" not in text:
        return (ArmSpec(text), None) if text else (None, field_problem(where, "a model id is required"))
    parts: dict[str, str] = {}
    for piece in text.split(";"):
        if not piece.strip():
            continue
        key, sep, value = piece.partition("=")
        key = key.strip()
        if not sep or key not in ("model", "label", "n", "system", "tools"):
            return None, field_problem(where, f"{piece.strip()!r}: use model=, label=, n=, system= or tools=")
        parts[key] = value.strip()
    if not parts.get("model"):
        return None, field_problem(where, "model= is required")
    n = None
    if "n" in parts:
        try:
            n = int(parts["n"])
        except ValueError:
            return None, field_problem(f"{where}.n", f"best-of-N takes a whole number 2..8, not {parts['n']!r}")
        if not 2 <= n <= 8:
            return None, field_problem(f"{where}.n", f"best-of-N takes 2..8, not {n}")
    tools = None
    if "tools" in parts:
        try:
            tools = json.loads(parts["tools"])
        except ValueError as exc:
            return None, field_problem(f"{where}.tools", f"the tool definitions do not parse as JSON ({exc.args[0]})")
        if not isinstance(tools, list) or len(tools) > 64:
            return None, field_problem(f"{where}.tools", "a JSON list of at most 64 tool definitions is required")
    system = parts.get("system")
    if system is not None and len(system) > 20000:
        return None, field_problem(f"{where}.system", "at most 20000 characters")
    return ArmSpec(parts["model"], parts.get("label") or None, system, tools, n), None


def parse_each_line(
    text: str, parse: Callable[[str, int], tuple[T | None, Problem | None]], into: list[T]
) -> Problem | None:
    """Each non-blank line of ``text`` read by ``parse`` (:func:`parse_arm`, :func:`parse_assertion`; given the
    line and its index in ``into``) and added to ``into``; the first line's problem stops it and is returned."""
    for line in text.splitlines():
        if line.strip():
            value, problem = parse(line, len(into))
            if value is None:
                return problem
            into.append(value)
    return None
