"""Where the key may go: the configured origin, and never in clear text across the network.

``HttpCore`` sends ``Authorization`` only to the origin the client was made for (redirects are
not followed; an absolute URL to another host goes without it), and refuses at construction
an ``http://`` base URL that is not a loopback address when a key is set.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Generator
from dataclasses import dataclass

import httpx

from api_client.transport.secret import Secret
from api_client.transport.url_paths import API_PREFIX

__all__ = [
    "BEARER",
    "KeyHeader",
    "OriginBearerAuth",
    "OriginKeyAuth",
    "is_loopback_host",
    "normalize_base_url",
    "origin_of",
    "refuse_clear_text_key",
]


def origin_of(url: httpx.URL) -> tuple[str, str, int | None]:
    """(scheme, host, port) with the scheme's default port made explicit."""
    default = {"http": 80, "https": 443}.get(url.scheme)
    return (url.scheme, url.host.lower(), url.port or default)


def normalize_base_url(base_url: str) -> httpx.URL:
    """``https://host[/prefix]`` without a trailing slash or a trailing ``/api/v1``."""
    url = httpx.URL(base_url.strip())
    if url.scheme not in ("http", "https") or not url.host:
        raise ValueError("base_url must be an http(s) URL with a host")
    if url.query or url.fragment:
        raise ValueError("base_url must not carry a query or a fragment")
    path = url.path.rstrip("/")
    path = path.removesuffix(API_PREFIX)
    return url.copy_with(path=path or "", query=None, fragment=None)


def is_loopback_host(host: str) -> bool:
    """``localhost`` or an address in 127.0.0.0/8 or ::1 (traffic that never leaves the machine)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def refuse_clear_text_key(url: httpx.URL) -> None:
    """The key would cross the network readable by anyone on the path: refuse before sending."""
    if url.scheme == "http" and not is_loopback_host(url.host):
        raise ValueError(
            f"refusing to send the API key in clear text to http://{url.host}: use https:// "
            "(plain http is only allowed for a loopback address such as 127.0.0.1)"
        )


@dataclass(frozen=True)
class KeyHeader:
    """How a platform wants its key: the header's name and what goes before the key.
    blah.dev: ``Authorization: Bearer <key>``; Blobfish: ``X-API-Key: <key>``."""

    name: str
    prefix: str = ""


BEARER = KeyHeader("Authorization", "Bearer ")


class OriginKeyAuth(httpx.Auth):
    """The key in its header (``KeyHeader``), added by httpx itself as the request goes out,
    and only when the request is for ``origin``.

    Why an auth flow rather than a headers dict: nothing of ours ever holds the header in a
    plain local variable or attribute. Textual prints a crashed app's traceback WITH the
    locals of every frame; a ``headers = {"Authorization": "Bearer ..."}`` local in the
    request loop would put the key on the person's screen (and in any pasted bug report).
    The key stays a ``Secret`` here, and httpx's ``Headers`` repr masks the header.
    """

    def __init__(self, key: Secret, origin: tuple[str, str, int | None], header: KeyHeader = BEARER) -> None:
        self._key = key
        self._origin = origin
        self._header = header

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        if origin_of(request.url) == self._origin:
            request.headers[self._header.name] = self._header.prefix + self._key.get_secret_value()
        yield request

    def __repr__(self) -> str:
        return f"{type(self).__name__}(key=[secret])"


class OriginBearerAuth(OriginKeyAuth):
    """``Authorization: Bearer <key>`` for ``origin`` only (blah.dev)."""

    def __init__(self, key: Secret, origin: tuple[str, str, int | None]) -> None:
        super().__init__(key, origin, BEARER)
