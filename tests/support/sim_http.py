"""Requests from tests straight to a simulator: httpx's own functions and clients, given the
process's one TLS context (``api_client.transport.tls.verified_context``).

httpx builds a fresh verified context, loading the whole CA bundle, for every ``httpx.get`` and
every new client, even for a plain-http URL: 27 ms each, measured as 50 s of the suite's CPU.
Certificates are verified exactly as before; the context is made once.
"""

from __future__ import annotations

from typing import Any

import httpx

from api_client.transport.tls import verified_context


def get(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.get(url, verify=verified_context(), **kwargs)


def post(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.post(url, verify=verified_context(), **kwargs)


def put(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.put(url, verify=verified_context(), **kwargs)


def delete(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.delete(url, verify=verified_context(), **kwargs)


def Client(**kwargs: Any) -> httpx.Client:
    return httpx.Client(verify=verified_context(), **kwargs)


def AsyncClient(**kwargs: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(verify=verified_context(), **kwargs)


def AsyncHTTPTransport(**kwargs: Any) -> httpx.AsyncHTTPTransport:
    return httpx.AsyncHTTPTransport(verify=verified_context(), **kwargs)
