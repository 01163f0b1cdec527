"""Clients verify TLS: the process shares one verified context (``api_client/transport/tls.py``), so a
server whose certificate no CA vouches for is refused before any request, with its key,
reaches it."""

from __future__ import annotations

import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from api_client.blahdev.client import BlahClient
from api_client.errors import UnreachableError
from api_client.transport.tls import verified_context


@pytest.fixture
def self_signed_server(tmp_path: Path) -> Iterator[tuple[int, list[bytes]]]:
    """A TLS server on loopback with a self-signed certificate for ``localhost`` (in
    ``tmp_path / "cert.pem"``); yields its port and the bytes of every request it decrypted."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost",
        ],
        check=True,
        capture_output=True,
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    received: list[bytes] = []

    def serve() -> None:
        while True:
            try:
                raw, _ = listener.accept()
            except OSError:
                return
            with raw:
                try:
                    with context.wrap_socket(raw, server_side=True) as tls:
                        received.append(tls.recv(65536))
                        tls.sendall(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n[]")
                except (ssl.SSLError, OSError):
                    continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1], received
    finally:
        listener.close()
        thread.join(timeout=5)


async def test_a_certificate_no_ca_vouches_for_is_refused_and_the_key_never_sent(
    self_signed_server: tuple[int, list[bytes]],
) -> None:
    port, received = self_signed_server
    key = "blah_" + "k" * 40
    async with BlahClient(f"https://localhost:{port}", api_key=key, max_attempts=1) as client:
        with pytest.raises(UnreachableError, match="CERTIFICATE_VERIFY_FAILED"):
            await client.list_models()
    assert received == []


def test_the_shared_context_checks_certificates_and_host_names() -> None:
    context = verified_context()
    assert context is verified_context()
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert context.check_hostname


def test_the_shared_context_is_httpxs_own_with_its_bundle_loaded_at_the_first_connection(
    self_signed_server: tuple[int, list[bytes]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Made as httpx makes it; the CA bundle (~24 ms of CPU) is loaded before the first TLS
    connection, not before: a plain-http process never loads it, and a server the bundle
    vouches for is then reached."""
    import httpx

    from api_client.transport import tls

    reference = httpx.create_ssl_context(trust_env=True)
    lazy = tls._unloaded_verified_context()
    for setting in (
        "verify_mode",
        "check_hostname",
        "verify_flags",
        "options",
        "minimum_version",
        "maximum_version",
        "protocol",
    ):
        assert getattr(lazy, setting) == getattr(reference, setting), setting
    assert lazy.cert_store_stats()["x509_ca"] == 0
    lazy.wrap_bio(ssl.MemoryBIO(), ssl.MemoryBIO(), server_hostname="example.com")
    assert lazy.cert_store_stats() == reference.cert_store_stats() and lazy.cert_store_stats()["x509_ca"] > 0

    # a bundle that vouches for the test server (SSL_CERT_FILE, as httpx reads it): reached,
    # so the load happened on httpx's own path to the first connection
    port, received = self_signed_server
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "cert.pem"))
    trusting = tls._unloaded_verified_context()
    assert trusting.cert_store_stats()["x509_ca"] == 0
    response = httpx.get(f"https://localhost:{port}/", verify=trusting)
    assert response.status_code == 200 and response.text == "[]" and len(received) == 1
    assert trusting.cert_store_stats()["x509_ca"] == 1


def test_a_plain_http_command_never_loads_the_ca_bundle() -> None:
    import sys

    code = (
        "import asyncio, httpx\n"
        "from api_client.transport.tls import verified_context\n"
        "from api_client.transport.http import HttpCore\n"
        "from api_client.transport.retry import RetryPolicy\n"
        "async def go():\n"
        "    core = HttpCore('http://127.0.0.1:9', None, transport=None, timeout=1, deadline=1, retry=RetryPolicy(),\n"
        "                    sleep=asyncio.sleep, limits=None, user_agent='t')\n"
        "    await core.aclose()\n"
        "asyncio.run(go())\n"
        "print(verified_context().cert_store_stats()['x509_ca'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    assert done.stdout.strip() == "0"
