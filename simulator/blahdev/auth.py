"""Bearer-key auth: reads are open; writes need a known key; council endpoints need the tier.

The key itself is never logged, echoed or put in an error text.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from simulator.http import ApiError

_bearer = HTTPBearer(auto_error=False, description="`Authorization: Bearer blah_...`")


def require_key(
    request: Request, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> dict[str, Any]:
    """The caller's account ({"user", "tier"}); 401 without a key or with an unknown one."""
    if creds is None or not creds.credentials:
        raise ApiError(401, "missing API key: send Authorization: Bearer <key>")
    info = request.app.state.world.key_info(creds.credentials)
    if info is None:
        raise ApiError(401, "invalid API key")
    return dict(info)


def require_council(account: Annotated[dict[str, Any], Depends(require_key)]) -> dict[str, Any]:
    """403 unless the key has the council tier."""
    if account.get("tier") != "council":
        raise ApiError(403, "this endpoint needs the council tier")
    return account


Account = Annotated[dict[str, Any], Depends(require_key)]
Council = Annotated[dict[str, Any], Depends(require_council)]
