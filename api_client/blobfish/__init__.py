"""The Blobfish (blobfish.ai) client: SDK evaluations (list, detail, JSONL export, publish),
benchmark runs and the community board.

``shapes`` holds every wire shape the client reads, the contract's ASSUMED ones marked there
(the benchmark runs' and the board's in ``shapes_bench``; an evaluation's evidence, parsed once
into the rollouts the whole app reads, in ``shapes_evidence``); ``client`` the calls; ``benchmarks``
the benchmark runs and the board; ``keys``, ``publication`` the checks made before anything is
sent; ``errors`` the typed refusals; ``files`` the export's atomic writer.
"""

from __future__ import annotations

from api_client.blobfish.client import BlobfishClient, ExportResult
from api_client.blobfish.errors import (
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
