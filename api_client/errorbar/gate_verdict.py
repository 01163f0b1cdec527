"""The gate's body (contract 3.9, documented, not assumed): ``{pass, status, checks:[{check,
model, required, actual, pass, note?}], reason?}``, the same on 200 (pass) and 412.

Read without pydantic (plain dataclasses), so a CI job's `blah-tui bakeoff gate` does not
pay for pydantic's model machinery at start-up. Read strictly where it matters: ``pass``
must be a boolean (anything else is not a verdict), a number must be a number; an absent
``actual`` stays None (the interval was unavailable), never 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from api_client.transport.responses import ShapeError


def _number(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ShapeError(f"{where} is not a number")
    return float(value)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


@dataclass(frozen=True)
class GateCheck:
    check: str | None
    model: str | None
    required: float | None
    actual: float | None  # the interval's lower bound (or the exact rate); None when unavailable
    passed: bool
    note: str | None = None


@dataclass(frozen=True)
class GateVerdict:
    passed: bool
    status: str | None
    checks: list[GateCheck]
    reason: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    def to_json(self) -> dict[str, Any]:
        """What the queue sent, as it sent it."""
        return self.raw

    @classmethod
    def model_validate(cls, data: Any) -> GateVerdict:
        if not isinstance(data, dict) or not isinstance(data.get("pass"), bool):
            raise ShapeError("the gate's answer has no boolean 'pass'")
        checks = data.get("checks") or []
        if not isinstance(checks, list):
            raise ShapeError("checks is not a list")
        parsed = []
        for i, item in enumerate(checks):
            if not isinstance(item, dict) or not isinstance(item.get("pass"), bool):
                raise ShapeError(f"checks[{i}] has no boolean 'pass'")
            parsed.append(
                GateCheck(
                    _text(item.get("check")),
                    _text(item.get("model")),
                    _number(item.get("required"), f"checks[{i}].required"),
                    _number(item.get("actual"), f"checks[{i}].actual"),
                    item["pass"],
                    _text(item.get("note")),
                )
            )
        return cls(data["pass"], _text(data.get("status")), parsed, _text(data.get("reason")), data)
