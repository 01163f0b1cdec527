"""``Authorization: Bearer sk_...`` -> who is calling. Three demo keys: an admin's (every
call), a member's (reads, pair labels; create, cancel, delete and align are 403), and a
``read`` key (GETs only). No key or an unknown key: 401 (ASSUMED: not stated). Keys are
never echoed."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from simulator.errorbar.errors import QueueError
from simulator.errorbar.runs import RunStore


@dataclass(frozen=True)
class Caller:
    role: str  # "admin" | "member"
    scopes: frozenset[str]


def store_of(request: Request) -> RunStore:
    store: RunStore = request.app.state.store
    return store


def caller(request: Request) -> Caller:
    header = request.headers.get("authorization", "")
    scheme, _, key = header.strip().partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key:
        raise QueueError(401, "Missing API key: send Authorization: Bearer sk_...", "invalid_api_key")
    keys = store_of(request).keys
    known = {
        keys.admin: Caller("admin", frozenset({"read", "evals:write"})),
        keys.member: Caller("member", frozenset({"read", "evals:write"})),
        keys.read: Caller("admin", frozenset({"read"})),
    }
    found = known.get(key)
    if found is None:
        raise QueueError(401, "Invalid API key.", "invalid_api_key")
    return found


def reader(request: Request) -> Caller:
    return caller(request)


def writer(request: Request) -> Caller:
    found = caller(request)
    if "evals:write" not in found.scopes:
        raise QueueError(403, "This key has the read scope only; this call needs evals:write.", "insufficient_scope")
    return found


def admin(request: Request) -> Caller:
    found = writer(request)
    if found.role != "admin":
        raise QueueError(403, "Only a workspace OWNER or ADMIN can do this; the key's user is a member.", "forbidden")
    return found
