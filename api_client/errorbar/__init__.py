"""The errorbar eval-run queue client: bake-offs, criterion runs, the gate, compare.

``assumed`` holds every shape the contract leaves open; ``checks`` the rules checked before
sending; ``client`` the calls; ``errors`` the typed refusals with their sentences.
"""

from __future__ import annotations

from .client import Created, ErrorbarClient
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
