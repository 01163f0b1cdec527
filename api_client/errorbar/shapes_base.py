"""What every errorbar shape shares (the ASSUMED list is in :mod:`api_client.errorbar.shapes`):
a lenient pydantic base that keeps unknown members and leaves absent ones absent, and the
readers of members the contract leaves loose (an interval, an object or nothing, an object or
a bare string)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

Json = dict[str, Any]


def interval(value: Any) -> list[float] | None:
    """``[lo, hi]`` of numbers, else None (an interval the platform did not give is not made up)."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
    ):
        return [float(value[0]), float(value[1])]
    return None


class Lenient(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)

    def to_json(self) -> Json:
        """What the platform sent (unknown members too, absent members still absent)."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


def object_or_none(value: Any) -> Any:
    """A member the contract leaves unshaped: read when it is an object, else None (never a
    failed read of the whole answer: the figures around it still count)."""
    return value if isinstance(value, dict) else None


def object_of(key: str) -> Any:
    """A bare string read as ``{key: string}`` (the contract does not say which form is sent)."""

    def read(value: Any) -> Any:
        return {key: value} if isinstance(value, str) else value

    return read
