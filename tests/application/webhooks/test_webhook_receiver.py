"""The local webhook receiver on its own: what it accepts, what it refuses and how."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import orjson
import pytest

from application.webhooks.receiver import (
    WebhookDelivery,
    WebhookReceiver,
    generate_secret,
    is_loopback_host,
    sign,
    signature_ok,
)
from tests.support import sim_http

SECRET = "s3cret-for-tests"


def event_body(event: str = "run.completed", delivery_id: str = "dlv_1", **data: object) -> bytes:
    payload = {
        "id": delivery_id,
        "event": event,
        "created_at": 1_780_000_000_000,
        "data": data or {"run": {"id": "run_7", "status": "completed"}},
    }
    return orjson.dumps(payload)


@pytest.fixture
async def receiver() -> AsyncIterator[tuple[WebhookReceiver, list[WebhookDelivery]]]:
    got: list[WebhookDelivery] = []
    rx = WebhookReceiver(got.append, secret=SECRET, timeout=0.5, max_body=4096)
    await rx.start()
    try:
        yield rx, got
    finally:
        await rx.stop()


async def post(url: str, body: bytes, signature: str | None, **headers: str) -> httpx.Response:
    sent = {"Content-Type": "application/json", **headers}
    if signature is not None:
        sent["X-Blah-Signature"] = signature
    async with sim_http.AsyncClient(trust_env=False) as http:
        return await http.post(url, content=body, headers=sent)


async def test_signed_delivery_reaches_the_callback(receiver: tuple[WebhookReceiver, list[WebhookDelivery]]) -> None:
    rx, got = receiver
    assert rx.url is not None and rx.url.startswith("http://127.0.0.1:")
    body = event_body()
    response = await post(rx.url, body, sign(SECRET, body))
    assert response.status_code == 200
    assert len(got) == 1
    delivery = got[0]
    assert (delivery.event, delivery.run_id, delivery.run_status) == ("run.completed", "run_7", "completed")
    assert rx.stats.accepted == 1 and rx.stats.rejected == 0


async def test_bad_or_missing_signature_is_401_and_not_reported(
    receiver: tuple[WebhookReceiver, list[WebhookDelivery]],
) -> None:
    rx, got = receiver
    assert rx.url is not None
    body = event_body()
    wrong = await post(rx.url, body, sign("another-secret", body))
    missing = await post(rx.url, body, None)
    tampered = await post(rx.url, body.replace(b"run_7", b"run_8"), sign(SECRET, body))
    assert [wrong.status_code, missing.status_code, tampered.status_code] == [401, 401, 401]
    assert got == []
    assert rx.stats.rejected == 3 and rx.stats.rejections[-1].status == 401


async def test_other_paths_methods_and_bodies_are_refused(
    receiver: tuple[WebhookReceiver, list[WebhookDelivery]],
) -> None:
    rx, got = receiver
    assert rx.url is not None
    base = rx.url.rsplit("/", 1)[0]
    async with sim_http.AsyncClient(trust_env=False) as http:
        assert (await http.get(rx.url)).status_code == 405
        assert (await http.get(rx.url)).headers.get("allow") == "POST"
        assert (await http.post(base + "/elsewhere", content=b"{}")).status_code == 404
    big = b"x" * 5000
    assert (await post(rx.url, big, sign(SECRET, big))).status_code == 413
    not_json = b"hello"
    assert (await post(rx.url, not_json, sign(SECRET, not_json))).status_code == 400
    no_event = orjson.dumps({"id": "x", "data": {}})
    assert (await post(rx.url, no_event, sign(SECRET, no_event))).status_code == 400
    assert got == []


async def test_duplicate_delivery_is_acknowledged_once(receiver: tuple[WebhookReceiver, list[WebhookDelivery]]) -> None:
    rx, got = receiver
    assert rx.url is not None
    body = event_body(delivery_id="dlv_same")
    first = await post(rx.url, body, sign(SECRET, body))
    again = await post(rx.url, body, sign(SECRET, body))
    assert (first.status_code, again.status_code) == (200, 200)
    assert len(got) == 1 and rx.stats.duplicates == 1


async def test_a_trickling_peer_gets_408_and_the_receiver_keeps_working(
    receiver: tuple[WebhookReceiver, list[WebhookDelivery]],
) -> None:
    rx, got = receiver
    reader, writer = await asyncio.open_connection("127.0.0.1", rx.port)
    writer.write(b"POST /blah-webhook HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 408")
    body = event_body(delivery_id="after")
    assert (await post(rx.url or "", body, sign(SECRET, body))).status_code == 200
    assert [d.delivery_id for d in got] == ["after"]


async def test_garbage_is_400_not_a_crash(receiver: tuple[WebhookReceiver, list[WebhookDelivery]]) -> None:
    rx, _ = receiver
    reader, writer = await asyncio.open_connection("127.0.0.1", rx.port)
    writer.write(b"\x16\x03\x01 not http at all\r\n\r\n")
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 400")


async def test_a_failing_callback_does_not_break_the_answer() -> None:
    def boom(_: WebhookDelivery) -> None:
        raise RuntimeError("handler bug")

    rx = WebhookReceiver(boom, secret=SECRET)
    url = await rx.start()
    try:
        body = event_body()
        assert (await post(url, body, sign(SECRET, body))).status_code == 200
    finally:
        await rx.stop()
    assert not rx.listening and rx.url is None


def test_never_beyond_loopback_unless_allowed_and_secret_required() -> None:
    with pytest.raises(ValueError, match="loopback"):
        WebhookReceiver(lambda _: None, secret=SECRET, host="0.0.0.0")
    with pytest.raises(ValueError, match="secret"):
        WebhookReceiver(lambda _: None, secret="")
    allowed = WebhookReceiver(lambda _: None, secret=SECRET, host="0.0.0.0", allow_remote=True)
    assert allowed.allow_remote
    assert is_loopback_host("127.0.0.5") and is_loopback_host("::1") and is_loopback_host("localhost")
    assert not is_loopback_host("10.0.0.1") and not is_loopback_host("example.com")


def test_secret_never_in_repr_and_signatures_compare() -> None:
    secret = generate_secret()
    rx = WebhookReceiver(lambda _: None, secret=secret)
    assert secret not in repr(rx)
    assert len(secret) >= 40 and generate_secret() != secret
    assert signature_ok(secret, b"abc", sign(secret, b"abc"))
    assert not signature_ok(secret, b"abc", sign(secret, b"abd"))
    assert not signature_ok(secret, b"abc", None)
