"""How a bake-off's figures are written, the same in the CLI, the screens and the
application's own lines: a rate to three decimals, its interval as ``[low, high]``, a dash
where the queue gave none (never an invented number)."""

from __future__ import annotations

from collections.abc import Sequence

from common.format import DASH


def rate_text(value: float | None) -> str:
    return DASH if value is None else f"{value:.3f}"


def interval_text(value: Sequence[float] | None) -> str:
    return f"[{DASH}, {DASH}]" if not value else f"[{value[0]:.3f}, {value[1]:.3f}]"
