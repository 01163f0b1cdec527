"""What a webhook delivery is and how it is signed (no IO): the shared secret, the
``X-Blah-Signature`` HMAC, the verified event and the record of a refused request.
The server that receives them is ``application.webhooks.receiver`` (which re-exports these)."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SIGNATURE_HEADER = "x-blah-signature"


def generate_secret() -> str:
    """A fresh shared secret for one registration (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def sign(secret: str, body: bytes) -> str:
    """The header value the platform sends: ``sha256=<hex HMAC-SHA256(secret, body)>``."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def signature_ok(secret: str, body: bytes, header: str | None) -> bool:
    """True when ``header`` is the signature of ``body`` under ``secret`` (constant time)."""
    if not header:
        return False
    return hmac.compare_digest(sign(secret, body).encode(), header.strip().encode())


def is_loopback_host(host: str) -> bool:
    """``localhost``, 127.0.0.0/8 or ::1."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class WebhookDelivery:
    """One verified event: ``{"id", "event", "created_at", "data"}`` as the platform sent it."""

    event: str
    delivery_id: str | None
    created_at: int | None
    data: Mapping[str, Any]
    received_at_ms: int

    @property
    def run(self) -> Mapping[str, Any] | None:
        run = self.data.get("run")
        return run if isinstance(run, dict) else None

    @property
    def run_id(self) -> str | None:
        run = self.run
        value = run.get("id") if run is not None else None
        return value if isinstance(value, str) and value else None

    @property
    def run_status(self) -> str | None:
        run = self.run
        value = run.get("status") if run is not None else None
        return value if isinstance(value, str) else None

    @property
    def message(self) -> Mapping[str, Any] | None:
        message = self.data.get("message")
        return message if isinstance(message, dict) else None


@dataclass(frozen=True)
class Rejection:
    """A request that was answered with an error (kept for the screen: what was refused)."""

    status: int
    reason: str
    at_ms: int
