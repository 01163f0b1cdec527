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
    """A TLS server on loopback with a self-signed certificate for ``localhost``; yields its
    port and the bytes of every request it decrypted."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True)
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
        self_signed_server: tuple[int, list[bytes]]) -> None:
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
