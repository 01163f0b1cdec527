"""Blobfish's refusals as typed errors (each keeps the code the body named, ``.code``)."""

from __future__ import annotations

from typing import Unpack

from api_client.blobfish import shapes as assumed
from api_client.errors import AuthError, BadRequestError, BlahError, ConflictError, ErrorFacts


class BlobfishError(BlahError):
    """Root of what only the Blobfish client raises."""


class KeyShapeError(BlobfishError, ValueError):
    """The key given is not a Blobfish key (``bf_...``); nothing was sent. The message names
    the kind of key it looks like, never the key."""


class PublishRefusedLocally(BlobfishError, ValueError):
    """The envelope breaks a documented publish rule (not completed, 0 or more than 256
    rollouts, over 1 MiB); it was not sent. ``rule`` names which."""

    def __init__(self, message: str, *, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


class EvidenceChangedError(ConflictError):
    """409 ``job_conflict``: other evidence is already published under this job id."""

    PLAIN = (
        "this job id is already published with different evidence; the platform keeps the first. "
        "Publish a changed job under a new job id (a retry must resend the identical bytes)"
    )

    def __init__(self, message: str, **kw: Unpack[ErrorFacts]) -> None:
        super().__init__(self.PLAIN, **kw)


class EnvelopeRefusedError(BadRequestError):
    """400 ``invalid_envelope``: the platform refused the envelope's schema or content."""


class TooLargeError(BadRequestError):
    """413 ``too_large``: over 1 MiB of JSON."""


class BlobfishAuthError(AuthError):
    """401 from Blobfish: no key, an unknown key, or a key that is not ``bf_...``."""


ERROR_TYPES: dict[str, type[BlahError]] = {
    assumed.CODE_JOB_CONFLICT: EvidenceChangedError,
    assumed.CODE_INVALID_ENVELOPE: EnvelopeRefusedError,
    assumed.CODE_TOO_LARGE: TooLargeError,
    assumed.CODE_UNAUTHORIZED: BlobfishAuthError,
}
"""Error code (from the body) -> the error raised for it; other codes keep the status's class
and their ``.code``."""
