"""The errorbar eval-run queue client: bake-offs, criterion runs, the gate, compare.

``assumed`` holds every shape the contract leaves open; ``wire`` the fixed names;
``gate_verdict`` the gate's documented body; ``checks`` the rules checked before sending;
``client`` the calls (async); ``gate_blocking`` the gate alone as one blocking GET (a CI
job's start-up); ``errors`` the typed refusals with their sentences. ``ErrorbarClient`` and
``Created`` are imported on first use (they bring asyncio; the blocking gate does not).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import (
    CreateOutcomeUnknown,
    ErrorbarError,
    FundsError,
    KeyShapeError,
    NothingToScreenError,
    PreconditionError,
    RefusedLocally,
    RoleError,
)

if TYPE_CHECKING:
    from .client import Created, ErrorbarClient

__all__ = [
    "CreateOutcomeUnknown",
    "Created",
    "ErrorbarClient",
    "ErrorbarError",
    "FundsError",
    "KeyShapeError",
    "NothingToScreenError",
    "PreconditionError",
    "RefusedLocally",
    "RoleError",
]


def __getattr__(name: str) -> Any:
    if name in ("Created", "ErrorbarClient"):
        from . import client

        return getattr(client, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
