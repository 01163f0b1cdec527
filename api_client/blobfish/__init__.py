"""The Blobfish (blobfish.ai) client: SDK evaluations (list, detail, JSONL export, publish).

``assumed`` holds every shape the contract leaves open; ``client`` the calls; ``keys``,
``publication`` the checks made before anything is sent; ``errors`` the typed refusals.
"""

from __future__ import annotations

from .client import BlobfishClient, ExportResult
from .errors import (
    BlobfishAuthError,
    BlobfishError,
    EnvelopeRefusedError,
    EvidenceChangedError,
    KeyShapeError,
    PublishRefusedLocally,
    TooLargeError,
)

__all__ = [
    "BlobfishAuthError",
    "BlobfishClient",
    "BlobfishError",
    "EnvelopeRefusedError",
    "EvidenceChangedError",
    "ExportResult",
    "KeyShapeError",
    "PublishRefusedLocally",
    "TooLargeError",
]
