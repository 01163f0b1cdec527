"""``BulkGet`` (the light GETs of ``blobfish export --all``) and its fallback: it takes only a
plain ``200`` with a known length; anything else goes back to ``HttpCore``, so the export
writes the same bytes and raises the same errors as before."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest

from api_client.blobfish.client import BlobfishClient
from api_client.errors import BlahError
from api_client.transport.bulk_get import MAX_FALLBACKS, BulkFallback, BulkGet
from api_client.transport.http import HttpCore
from api_client.transport.retry import RetryPolicy
from simulator.blobfish.server import BlobfishServer
from tests.support import sim_http


@pytest.fixture(scope="module")
def bf() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=5, live=False) as server:
        yield server


Answer = Callable[[bytes], bytes]
"""The raw bytes a scripted server answers to one raw request."""


@asynccontextmanager
async def scripted_server(answers: list[Answer], seen: list[bytes]) -> AsyncIterator[int]:
    """A loopback HTTP server answering each request with the next scripted answer (on the
    same connection while it stays open); returns its port."""
    script = iter(answers)

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request = await reader.readuntil(b"\r\n\r\n")
                seen.append(request)
                answer = next(script)(request)
                writer.write(answer)
                await writer.drain()
                if b"connection: close" in answer.lower():
                    break
        except (asyncio.IncompleteReadError, StopIteration, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()


def ok(body: bytes, *extra: bytes) -> Answer:
    return lambda _: b"HTTP/1.1 200 OK\r\ncontent-length: %d\r\n" % len(body) + b"".join(extra) + b"\r\n" + body


def chunked(*parts: bytes) -> Answer:
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts)
    return lambda _: b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n"


def status(code: int) -> Answer:
    return lambda _: b"HTTP/1.1 %d No\r\ncontent-length: 2\r\n\r\n{}" % code


def getter(port: int) -> BulkGet:
    return BulkGet("127.0.0.1", port, None, b"Host: 127.0.0.1\r\nX-API-Key: bf_test\r\n", size=1, deadline=5)


def test_bodies_by_length_and_by_chunks_on_one_kept_connection() -> None:
    seen: list[bytes] = []

    async def go() -> list[bytes]:
        async with scripted_server([ok(b'{"a":1}\n'), chunked(b'{"b":', b"2}\n"), ok(b"")], seen) as port:
            bulk = getter(port)
            try:
                return [await bulk.get(f"/api/v1/evaluations/{i}?format=jsonl") for i in range(3)]
            finally:
                await bulk.aclose()

    assert asyncio.run(go()) == [b'{"a":1}\n', b'{"b":2}\n', b""]
    assert seen[0].startswith(b"GET /api/v1/evaluations/0?format=jsonl HTTP/1.1\r\n")
    assert b"X-API-Key: bf_test\r\n" in seen[0]


@pytest.mark.parametrize(
    "answer",
    [
        status(404),
        status(429),
        status(503),
        ok(b"x", b"content-encoding: gzip\r\n"),
        lambda _: b"HTTP/1.1 200 OK\r\n\r\nno length",
        lambda _: b"garbage\r\n\r\n",
    ],
)
def test_anything_but_a_plain_200_falls_back(answer: Answer) -> None:
    async def go() -> None:
        async with scripted_server([answer], []) as port:
            bulk = getter(port)
            with pytest.raises(BulkFallback):
                await bulk.get("/x")
            assert bulk.fallbacks == 1

    asyncio.run(go())


def test_a_connection_the_server_closes_is_not_reused_and_repeated_fallbacks_stop_the_pool() -> None:
    async def go() -> None:
        answers = [ok(b"one", b"Connection: close\r\n"), ok(b"two")] + [status(500)] * MAX_FALLBACKS
        async with scripted_server(answers, []) as port:
            bulk = getter(port)
            assert await bulk.get("/1") == b"one"
            assert await bulk.get("/2") == b"two"  # on a new connection
            for _ in range(MAX_FALLBACKS):
                with pytest.raises(BulkFallback):
                    await bulk.get("/3")
            assert not bulk.usable

    asyncio.run(go())


def core(url: str, transport: httpx.AsyncBaseTransport | None = None) -> HttpCore:
    return HttpCore(
        url,
        "bf_0123456789abcdef",
        transport=transport,
        timeout=5,
        deadline=5,
        retry=RetryPolicy(),
        sleep=asyncio.sleep,
        limits=None,
        user_agent="t",
    )


def test_bulk_gets_are_not_used_through_a_proxy_or_a_test_transport(monkeypatch: pytest.MonkeyPatch) -> None:
    async def go() -> None:
        assert core("http://127.0.0.1:9").bulk_getter(4, 5) is not None
        assert core("http://127.0.0.1:9", httpx.MockTransport(lambda r: httpx.Response(200))).bulk_getter(4, 5) is None
        monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
        assert core("http://127.0.0.1:9").bulk_getter(4, 5) is None

    asyncio.run(go())


def test_export_all_falls_back_per_evaluation_and_writes_the_same_bytes(
    bf: BlobfishServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against the simulator: the light path's file is the platform's bytes; with every
    light GET failing, ``HttpCore`` fetches each evaluation and the file is the same."""
    fast, slow = tmp_path / "fast.jsonl", tmp_path / "slow.jsonl"

    async def export(dest: Path) -> None:
        async with BlobfishClient(bf.base_url, bf.account_key) as client:
            await client.export_all_jsonl(dest)

    asyncio.run(export(fast))
    calls = 0

    async def failing(self: BulkGet, target: str, **_: object) -> bytes:
        nonlocal calls
        calls += 1
        self.fallbacks += 1
        raise BulkFallback("test")

    monkeypatch.setattr(BulkGet, "get", failing)
    asyncio.run(export(slow))
    assert 0 < calls <= MAX_FALLBACKS  # then the pool is no longer tried
    assert slow.read_bytes() == fast.read_bytes()
    expected = b""
    with sim_http.Client(headers={"X-API-Key": bf.account_key}) as http:  # one client: one TLS context
        for evaluation_id in bf.evaluation_ids():
            body = http.get(f"{bf.base_url}/api/v1/evaluations/{evaluation_id}", params={"format": "jsonl"}).content
            expected += body if body.endswith(b"\n") or not body else body + b"\n"
    assert fast.read_bytes() == expected


def test_export_all_lists_and_fetches_on_the_light_connections_alone(
    bf: BlobfishServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`export --all` asks its list pages on the bodies' light connections too: no httpx
    request at all (no second pool, so at most its 4 requests in flight), and the same file
    as when every list page goes through httpx."""
    from api_client.blobfish.client import EXPORT_IN_FLIGHT

    async def export(dest: Path) -> None:
        async with BlobfishClient(bf.base_url, bf.account_key) as client:
            await client.export_all_jsonl(dest, page_limit=7)

    sent: list[str] = []
    real_send = httpx.AsyncClient.send

    async def counting(self: httpx.AsyncClient, request: httpx.Request, **options: object) -> httpx.Response:
        sent.append(str(request.url))
        return await real_send(self, request, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(httpx.AsyncClient, "send", counting)
    in_flight = peak = 0
    real_get = BulkGet.get

    async def watched(self: BulkGet, target: str, **options: bool) -> bytes:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            return await real_get(self, target, **options)
        finally:
            in_flight -= 1

    monkeypatch.setattr(BulkGet, "get", watched)
    asyncio.run(export(tmp_path / "light.jsonl"))
    assert sent == [] and 1 < peak <= EXPORT_IN_FLIGHT

    async def no_light_list(self: BlobfishClient, offset: int, limit: int, bulk: object) -> object:
        return await self._page(offset, limit)

    monkeypatch.setattr(BlobfishClient, "_page_bulk", no_light_list)
    asyncio.run(export(tmp_path / "listed-by-httpx.jsonl"))
    assert sent and all("format=jsonl" not in url for url in sent)
    assert (tmp_path / "light.jsonl").read_bytes() == (tmp_path / "listed-by-httpx.jsonl").read_bytes()


@pytest.mark.parametrize(
    "answer",
    [
        lambda _: b"HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 2\r\n\r\n{}",
        lambda _: b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 7\r\n\r\n<html>x",
        lambda _: b'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 15\r\n\r\n{"evaluations":1',
        lambda _: b'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 17\r\n\r\n{"evaluations": 1}',
    ],
)
def test_a_list_page_the_light_path_cannot_read_is_the_general_paths_error(answer: Answer, tmp_path: Path) -> None:
    """A list page that is HTML, broken JSON or not a page is asked again through httpx, whose
    answer (the same here) raises the error the general path raises; no file is left."""
    seen: list[bytes] = []

    async def go() -> None:
        async with (
            scripted_server([answer] * 8, seen) as port,
            BlobfishClient(f"http://127.0.0.1:{port}", "bf_0123456789abcdef", max_attempts=1) as client,
        ):
            await client.export_all_jsonl(tmp_path / "x.jsonl")

    with pytest.raises(BlahError):
        asyncio.run(go())
    assert len(seen) == 2 and not list(tmp_path.iterdir())  # the light GET, then httpx's


def test_a_refused_key_is_the_platforms_error_and_leaves_no_file(bf: BlobfishServer, tmp_path: Path) -> None:
    async def go() -> None:
        async with BlobfishClient(bf.base_url, "bf_" + "0" * 32) as client:  # a key the platform refuses
            await client.export_all_jsonl(tmp_path / "x.jsonl")

    with pytest.raises(BlahError):
        asyncio.run(go())
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "base",
    [
        "http://127.0.0.1:8080",
        "http://127.0.0.1:8080/",
        "https://blobfish.example",
        "https://example.test/some/prefix/",
        "https://example.test/p%20q/api/v1",
    ],
)
def test_request_targets_are_those_httpx_would_send(base: str) -> None:
    """``target_for`` joins strings where httpx would send the path as it is; every path,
    plain or not, gives the target ``httpx.URL`` gives (what the normal path sends)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from api_client.transport.url_paths import api_path, segment

    core = HttpCore(
        base,
        None,
        transport=None,
        timeout=5,
        deadline=5,
        retry=RetryPolicy(),
        sleep=asyncio.sleep,
        limits=None,
        user_agent="t",
    )

    def expected(path: str, query: str) -> str:
        target = core.url_for(path).raw_path.decode("ascii")
        return f"{target}?{query}" if query else target

    fixed = [
        "/api/v1/evaluations",
        api_path("evaluations", segment("3f2a-9c")),
        api_path("models", segment("org/m v"), "logs"),
        "/api/v1/a%2fb",
        "/api/v1/a%zz",
        "/api/v1/é",
        "/api/v1/a b",
        "/api/v1/./x",
        "/api/v1/x/..",
        "/api/v1/.hidden",
        "/api/v1/a?b",
        "/api/v1/a#b",
        "/api/v1//x",
        "/api/v1/~user/(x);y=1:@!$&'*+,",
    ]
    for path in fixed:
        for query in ("", "format=jsonl", "limit=500&before=17"):
            assert core.target_for(path, query) == expected(path, query), path

    @settings(max_examples=300, deadline=None)
    @given(
        st.lists(
            st.text(min_size=1, max_size=12).filter(lambda t: t.strip() and t not in (".", "..")),
            min_size=1,
            max_size=3,
        )
    )
    def ids(values: list[str]) -> None:
        path = api_path("x", *(segment(v) for v in values))
        assert core.target_for(path, "format=jsonl") == expected(path, "format=jsonl")

    ids()
