"""The members of a request (a JSON body, a query) that the caller gave: an optional member
left out is absent from what is sent, never sent as ``null`` (the platforms read an absent
member as "use the default", and a ``null`` may be refused or read otherwise)."""

from __future__ import annotations

from typing import Any

__all__ = ["given", "whole"]


def given(**members: Any) -> dict[str, Any]:
    """The members whose value is not None, in the order given."""
    return {name: value for name, value in members.items() if value is not None}


def whole(value: int | None) -> int | None:
    """``value`` as a whole number for the wire (a bool or float a caller passed becomes an
    int), None left None."""
    return None if value is None else int(value)
