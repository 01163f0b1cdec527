"""The errorbar eval-run queue client: bake-offs, criterion runs, the gate, compare.

``shapes`` holds every wire shape the contract leaves open (ASSUMED, marked there; the
calibration, evidence and failure-cluster shapes defined in ``shapes_calibration``, all on
``shapes_base``, every one imported from ``shapes``) and ``shapes_fixed`` the documented fixed names
(no pydantic: the gate's start-up reads them);
``gate_verdict`` the gate's documented body; ``checks`` the rules checked before sending;
``client`` the calls (async); ``gate_blocking`` the gate alone as one blocking GET (a CI
job's start-up); ``errors`` the typed refusals with their sentences; ``keys`` the key check.
``ErrorbarClient`` and ``Created`` are imported on first use (they bring asyncio; the blocking
gate does not).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from api_client.errorbar.errors import (
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
    from api_client.errorbar.client import Created, ErrorbarClient

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
        from api_client.errorbar import client

        return getattr(client, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
