"""What every errorbar shape shares (the ASSUMED list is in :mod:`api_client.errorbar.shapes`):
the lenient pydantic base every platform's leniently read shapes share (``Lenient``, from
:mod:`api_client.transport.lenient`: unknown members kept, absent ones left absent), and the
readers of members the contract leaves loose (an interval, an object or nothing, an object or
a bare string)."""

from __future__ import annotations

from typing import Any

from api_client.transport.lenient import Lenient

__all__ = ["Json", "Lenient", "interval", "object_of", "object_or_none"]

Json = dict[str, Any]


def interval(value: Any) -> list[float] | None:
    """``[lo, hi]`` of numbers, else None (an interval the platform did not give is not made up)."""
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    ):
        return [float(value[0]), float(value[1])]
    return None


def object_or_none(value: Any) -> Any:
    """A member the contract leaves unshaped: read when it is an object, else None (never a
    failed read of the whole answer: the figures around it still count)."""
    return value if isinstance(value, dict) else None


def object_of(key: str) -> Any:
    """A bare string read as ``{key: string}`` (the contract does not say which form is sent)."""

    def read(value: Any) -> Any:
        return {key: value} if isinstance(value, str) else value

    return read
