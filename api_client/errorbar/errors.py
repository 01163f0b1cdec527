"""The queue's refusals as typed errors, each with a sentence a person can act on.

402, 403, 412 and 422 each say what went wrong in words (the server's own text follows);
401 is the client's ``AuthError``. A create refused locally was never sent. Messages never
hold the key: they are built from the status, the code and the server's text only.
"""

from __future__ import annotations

from api_client.errorbar import shapes_fixed as wire
from api_client.errors import AuthError, BadRequestError, BlahError, ErrorFacts
from api_client.transport.responses import safe_excerpt


class ErrorbarError(BlahError):
    """Root of what only the errorbar client raises."""


class KeyShapeError(ErrorbarError, ValueError):
    """The key is not an errorbar key (``sk_...``); nothing was sent."""


class RefusedLocally(ErrorbarError, ValueError):
    """The request breaks a documented rule; it was not sent. ``field`` names what is wrong."""

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message)
        self.field = field


class FundsError(ErrorbarError):
    """402: the workspace cannot pay."""

    SENTENCE = "the workspace's balance cannot pay for this: top up the wallet; nothing was queued"


class RoleError(AuthError):
    """403: the key's user is not a workspace OWNER/ADMIN, or the key has the read scope only."""

    SENTENCE = (
        "this needs a key minted by a workspace OWNER or ADMIN (creating, cancelling and deleting runs "
        "and aligning criteria do); nothing was changed"
    )
    SCOPE_SENTENCE = "this key has the read scope only: writes need an evals:write key; nothing was changed"

    @staticmethod
    def sentence(scope: bool, key_source: str | None) -> str:
        """The role (or scope) needed and which key was used, by where it came from: never the key."""
        used = f"the key used ({key_source})" if key_source else "the key used"
        if scope:
            return f"{used} has the read scope only: writes need an evals:write key; nothing was changed"
        return f"this needs a key minted by a workspace OWNER or ADMIN, and {used} is not one; nothing was changed"


class PreconditionError(ErrorbarError):
    """412 outside the gate: a precondition of the call failed (the sentence says which)."""

    SENTENCE = "a precondition failed"
    COMPARE = "both runs must be DONE, of the same kind, and judged by the same judge model to be compared"
    EVIDENCE = "the run is not DONE: evidence exists only for a finished run"


class NothingToScreenError(BadRequestError, ErrorbarError):
    """422: screening found nothing to screen."""

    SENTENCE = "there is nothing to screen: the workspace has no logged traffic to sample"


class CreateOutcomeUnknown(ErrorbarError):
    """The create's answer was lost and the run list shows no run like it: it may or may not
    have been queued. Never created again automatically (a run spends money)."""


def translate(error: BlahError, *, precondition: str | None = None, key_source: str | None = None) -> BlahError:
    """The error with this platform's sentence for 402/403/412/422; others unchanged."""
    status = error.status
    text = safe_excerpt(error.server_error, 300) if error.server_error else None
    said = f" (the queue said: {text})" if text else ""
    kw: ErrorFacts = {
        "status": status,
        "server_error": error.server_error,
        "method": error.method,
        "path": error.path,
        "code": error.code,
    }
    if status == 402:
        return FundsError(FundsError.SENTENCE + said, **kw)
    if status == 403:
        sentence = RoleError.sentence(error.code == wire.CODE_INSUFFICIENT_SCOPE, key_source)
        return RoleError(sentence + said, **kw)
    if status == 412:
        return PreconditionError((precondition or PreconditionError.SENTENCE) + said, **kw)
    if status == 422:
        return NothingToScreenError(NothingToScreenError.SENTENCE + said, **kw)
    return error
