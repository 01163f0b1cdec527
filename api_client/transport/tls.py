"""One verified TLS context for every client in the process, its CA bundle loaded when it is
first needed.

httpx builds a new ``ssl.SSLContext`` for each client it makes, and building one loads the
whole CA bundle (49 ms of CPU each, measured here; 0.4 ms per client with the shared one). The app makes a client
per platform and per session, the CLI several per command; they all verify against the same
bundle, so they share one context, made on first use. Verification is unchanged: this is
httpx's own ``create_ssl_context()`` (certifi's bundle, or ``SSL_CERT_FILE`` /
``SSL_CERT_DIR`` when set), with hostname checks on. An ``SSLContext`` may be shared by
connections on any thread.

The bundle itself (~24 ms of CPU here) is loaded just before the context's first TLS
connection (``wrap_socket`` / ``wrap_bio``, which every TLS connection of httpx, httpcore,
anyio and asyncio goes through), not when a client is made: a command that talks to a
platform over plain ``http`` on loopback (the simulators, the benches) never loads it. Until
then the context trusts no CA at all, so a connection that somehow skipped the load would be
refused, never let through.
"""

from __future__ import annotations

import os
import ssl
import sys
import threading
from typing import Any

_lock = threading.Lock()
_load_lock = threading.Lock()
_context: ssl.SSLContext | None = None


class _CertificatesOnFirstUse(ssl.SSLContext):
    """``ssl.create_default_context(cafile=..., capath=...)`` whose ``load_verify_locations``
    runs before its first TLS connection instead of at once."""

    _cafile: str | None = None
    _capath: str | None = None
    _loaded = False

    def _load(self) -> None:
        if self._loaded:
            return
        with _load_lock:
            if not self._loaded:
                self.load_verify_locations(cafile=self._cafile, capath=self._capath)
                self._loaded = True

    def wrap_socket(self, *args: Any, **kwargs: Any) -> Any:
        self._load()
        return super().wrap_socket(*args, **kwargs)

    def wrap_bio(self, *args: Any, **kwargs: Any) -> Any:
        self._load()
        return super().wrap_bio(*args, **kwargs)


def _unloaded_verified_context() -> ssl.SSLContext:
    """What ``httpx.create_ssl_context(trust_env=True)`` makes (``ssl.create_default_context``
    with httpx's choice of bundle), the bundle not loaded yet."""
    context = _CertificatesOnFirstUse(ssl.PROTOCOL_TLS_CLIENT)  # CERT_REQUIRED, host names checked
    if os.environ.get("SSL_CERT_FILE"):
        context._cafile = os.environ["SSL_CERT_FILE"]
    elif os.environ.get("SSL_CERT_DIR"):
        context._capath = os.environ["SSL_CERT_DIR"]
    else:
        import certifi

        context._cafile = certifi.where()
    if sys.version_info >= (3, 13):  # as create_default_context sets them there
        context.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN | ssl.VERIFY_X509_STRICT
    keylog = os.environ.get("SSLKEYLOGFILE")
    if keylog and not sys.flags.ignore_environment:
        context.keylog_filename = keylog
    return context


def verified_context() -> ssl.SSLContext:
    """The process's verified client context (made once; ``SSL_CERT_FILE`` / ``SSL_CERT_DIR``
    are read then, the bundle loaded before its first TLS connection)."""
    global _context
    with _lock:
        if _context is None:
            _context = _unloaded_verified_context()
        return _context
