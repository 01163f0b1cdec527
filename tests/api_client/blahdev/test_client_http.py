"""BlahClient against hand-written answers in the live service's known shapes (MockTransport)."""

from __future__ import annotations

import asyncio
import time
from email.utils import formatdate
from typing import Any

import httpx
import pytest

from api_client.blahdev.client import BlahClient
from api_client.errors import (
    AuthError,
    BadRequestError,
    BlahError,
    ConflictError,
    InvalidResponseError,
    NotFoundError,
    OutcomeUnknownError,
    RateLimitedError,
    ServerError,
    UnreachableError,
)
from api_client.transport.retry import parse_retry_after
from tests.support.client_fakes import KEY, TrickleStream, json_answer, make_client

MODEL = {
    "id": "m1",
    "name": "tiny-1",
    "inference_uri": "openai-compatible:https://x#tiny",
    "is_official": False,
    "created_at": 1700000000000,
    "brand_new_field": {"nested": True},
}
RUN = {
    "id": "r1",
    "started_at": 1,
    "completed_at": None,
    "status": "running",
    "total_evals": 3,
    "total_models": 2,
    "completed_count": 1,
    "error": None,
}


# --------------------------------------------------------------------------- shapes


@pytest.mark.parametrize(
    "body",
    [[MODEL], {"models": [MODEL]}, {"data": [MODEL], "count": 1}],
    ids=["bare", "wrapped", "single-list-key"],
)
async def test_lists_bare_or_wrapped(body: Any) -> None:
    client, _ = make_client(lambda r: json_answer(body))
    async with client:
        models = await client.list_models()
    assert [m.id for m in models] == ["m1"]
    assert models[0].description is None  # missing optional stays None
    assert not hasattr(models[0], "brand_new_field")


async def test_every_list_endpoint_accepts_bare_arrays() -> None:
    result = {"id": "res1", "score": 0.5, "score_details": "fine"}
    answers = {
        "/api/v1/runs": [RUN],
        "/api/v1/runs/r1/results": [result],
        "/api/v1/models/m1/results": {"results": [result]},
        "/api/v1/leaderboard": [{"model_id": "m1", "avg_score": 0.4, "eval_count": 3}],
        "/api/v1/evals": [{"id": "e1", "eval_type": "rubric", "eval_criteria": "{}"}],
    }
    client, _ = make_client(lambda r: json_answer(answers[r.url.path]))
    async with client:
        assert [r.id for r in await client.list_runs()] == ["r1"]
        assert (await client.list_runs())[0].progress == pytest.approx(1 / 6)
        assert [r.id for r in await client.run_results("r1")] == ["res1"]
        assert [r.id for r in await client.list_results("m1")] == ["res1"]
        board = await client.leaderboard()
        assert board[0].avg_score == 0.4 and board[0].model_name is None
        assert (await client.list_evals())[0].eval_type == "rubric"


async def test_list_with_two_list_keys_is_invalid() -> None:
    client, _ = make_client(lambda r: json_answer({"models": "x", "a": [], "b": []}))
    async with client:
        with pytest.raises(InvalidResponseError) as info:
            await client.list_models()
    assert info.value.status == 200


async def test_schema_mismatch_is_invalid_response_with_location() -> None:
    client, _ = make_client(lambda r: json_answer([{"name": "no id here"}]))
    async with client:
        with pytest.raises(InvalidResponseError) as info:
            await client.list_models()
    assert info.value.status == 200
    assert "id" in str(info.value)


@pytest.mark.parametrize(
    ("details", "parsed"),
    [
        ('{"criteria": {"accuracy": 0.2}, "reasoning": "wrong capital"}', True),
        ("The answer names Lyon. Score 0.", False),
    ],
)
async def test_score_details_json_or_verbatim(details: str, parsed: bool) -> None:
    body = {"id": "res1", "score": 0.2, "score_details": details}
    client, _ = make_client(lambda r: json_answer(body))
    async with client:
        result = await client.get_result("res1")
    assert result.score_details == details  # always kept verbatim
    if parsed:
        assert result.score_details_parsed == {
            "criteria": {"accuracy": 0.2},
            "reasoning": "wrong capital",
        }
    else:
        assert result.score_details_parsed is None


@pytest.mark.parametrize(
    ("body", "form"),
    [(RUN, "run"), ({"message": "Eval run started"}, "message")],
)
async def test_start_run_accepts_both_forms(body: dict[str, Any], form: str) -> None:
    client, rec = make_client(lambda r: json_answer(body, 201))
    async with client:
        started = await client.start_run(["m1", "m2"])
    assert rec.requests[0].method == "POST"
    assert rec.requests[0].read() == b'{"model_ids":["m1","m2"]}'
    if form == "run":
        assert started.run is not None and started.run.status == "running"
    else:
        assert started.run is None and started.message == "Eval run started"


async def test_query_parameters() -> None:
    client, rec = make_client(
        lambda r: (
            json_answer({"logs": [], "next_since": None, "next_before": None})
            if r.url.path.endswith("/logs")
            else json_answer({"models": ["a", "b"], "rows": []})
        )
    )
    async with client:
        await client.get_logs("m1", source="chat", since=5, before=9, errors_only=True, limit=7)
        await client.get_logs("m1")
        await client.compare(["a", "b"])
    q = dict(rec.requests[0].url.params)
    assert q == {
        "source": "chat",
        "since": "5",
        "before": "9",
        "errors_only": "true",
        "limit": "7",
    }
    assert dict(rec.requests[1].url.params) == {}
    assert rec.requests[2].url.params.get_list("model") == ["a", "b"]


async def test_delete_webhook_accepts_204() -> None:
    client, rec = make_client(lambda r: httpx.Response(204))
    async with client:
        await client.delete_webhook("w1")
    assert rec.requests[0].method == "DELETE"


def test_base_url_normalised() -> None:
    client = BlahClient("https://evals.blah.dev/api/v1/")
    assert client.base_url == "https://evals.blah.dev"
    assert client.platform == "blah.dev" and not client.has_key


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("status", "error", "kind"),
    [
        (400, "bad input", BadRequestError),
        (401, "invalid API key", AuthError),
        (403, "council tier required", AuthError),
        (404, "model 'zz' not found", NotFoundError),
        (409, "run is not stalled", ConflictError),
        (422, "limit: must be <= 500", BadRequestError),
        (500, "database exploded", ServerError),
    ],
)
async def test_status_mapping_keeps_string_error(status: int, error: str, kind: type[BlahError]) -> None:
    client, rec = make_client(lambda r: json_answer({"error": error}, status))
    async with client:
        with pytest.raises(kind) as info:
            await client.get_model("zz")
    err = info.value
    assert err.status == status and err.server_error == error
    assert error in str(err) and f"HTTP {status}" in str(err)
    assert len(rec.requests) == 1  # none of these is retried
    if status == 403:
        assert "council" in str(err)


async def test_object_error_keeps_code_and_message() -> None:
    body = {"error": {"code": "run_not_resumable", "message": "run r1 is running"}}
    client, _ = make_client(lambda r: json_answer(body, 409))
    async with client:
        with pytest.raises(ConflictError) as info:
            await client.resume_run("r1")
    assert info.value.server_error is not None
    assert "run_not_resumable" in info.value.server_error
    assert "run r1 is running" in str(info.value)


async def test_html_page_is_invalid_response_with_short_excerpt() -> None:
    page = "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>" + ("x" * 5000)
    client, _ = make_client(lambda r: httpx.Response(200, text=page, headers={"content-type": "text/html"}))
    async with client:
        with pytest.raises(InvalidResponseError) as info:
            await client.list_models()
    err = info.value
    assert err.status == 200
    assert err.excerpt is not None and err.excerpt.startswith("<!DOCTYPE html>")
    assert len(err.excerpt) <= 201 and len(str(err)) < 400


async def test_html_502_is_server_error_after_retries() -> None:
    client, rec = make_client(lambda r: httpx.Response(502, text="<html>Bad gateway</html>"), max_attempts=3)
    async with client:
        with pytest.raises(ServerError) as info:
            await client.list_runs()
    assert len(rec.requests) == 3
    assert "HTML" in str(info.value)


async def test_truncated_json_is_invalid_response() -> None:
    client, _ = make_client(
        lambda r: httpx.Response(
            200, content=b'[{"id": "m1", "name": "tin', headers={"content-type": "application/json"}
        )
    )
    async with client:
        with pytest.raises(InvalidResponseError) as info:
            await client.list_models()
    assert info.value.status == 200
    assert info.value.excerpt == '[{"id": "m1", "name": "tin'


async def test_control_characters_never_reach_error_text() -> None:
    evil = "boom \x1b[2J\x1b]0;pwned\x07 done"
    client, _ = make_client(lambda r: json_answer({"error": evil}, 400))
    async with client:
        with pytest.raises(BadRequestError) as info:
            await client.list_models()
    assert "\x1b" not in str(info.value) and "\x07" not in str(info.value)
    assert "boom" in str(info.value)


async def test_redirect_not_followed() -> None:
    client, rec = make_client(lambda r: httpx.Response(302, headers={"location": "https://elsewhere.example/steal"}))
    async with client:
        with pytest.raises(InvalidResponseError) as info:
            await client.list_models()
    assert len(rec.requests) == 1
    assert "redirect" in str(info.value)


# --------------------------------------------------------------------------- retries


async def test_retry_after_seconds_honoured() -> None:
    answers = [json_answer({"error": "slow down"}, 429, **{"Retry-After": "3"}), json_answer([])]
    client, rec = make_client(lambda r: answers.pop(0))
    async with client:
        assert await client.list_models() == []
    assert rec.sleeps == [3.0]


async def test_retry_after_http_date_honoured() -> None:
    when = formatdate(time.time() + 20, usegmt=True)
    answers = [json_answer({"error": "maintenance"}, 503, **{"Retry-After": when}), json_answer([])]
    client, rec = make_client(lambda r: answers.pop(0))
    async with client:
        assert await client.list_runs() == []
    assert len(rec.sleeps) == 1 and 17.0 <= rec.sleeps[0] <= 20.0


def test_parse_retry_after_forms() -> None:
    now = 1_700_000_000.0
    assert parse_retry_after("7", now=now) == 7.0
    assert parse_retry_after(formatdate(now + 42, usegmt=True), now=now) == pytest.approx(42.0)
    assert parse_retry_after(formatdate(now - 42, usegmt=True), now=now) == 0.0
    assert parse_retry_after("soon", now=now) is None
    assert parse_retry_after("-3", now=now) is None


async def test_retry_after_beyond_cap_is_raised_not_slept() -> None:
    client, rec = make_client(lambda r: json_answer({"error": "quota"}, 429, **{"Retry-After": "3600"}))
    async with client:
        with pytest.raises(RateLimitedError) as info:
            await client.list_models()
    assert info.value.retry_after == 3600.0
    assert len(rec.requests) == 1 and rec.sleeps == []


async def test_bounded_attempts_with_jittered_backoff() -> None:
    client, rec = make_client(lambda r: json_answer({"error": "busy"}, 503), max_attempts=4)
    async with client:
        with pytest.raises(ServerError):
            await client.list_models()
    assert len(rec.requests) == 4
    assert len(rec.sleeps) == 3
    for n, slept in enumerate(rec.sleeps, start=1):
        assert 0.0 <= slept <= 0.5 * 2 ** (n - 1)  # full jitter under the exponential ceiling
    assert len(set(rec.sleeps)) == 3


async def test_connect_error_and_closed_keepalive_are_retried_for_get() -> None:
    failures: list[Exception] = [
        httpx.ConnectError("refused"),
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        if failures:
            raise failures.pop(0)
        return json_answer([MODEL])

    client, rec = make_client(handler)
    async with client:
        assert len(await client.list_models()) == 1
    assert len(rec.requests) == 3


@pytest.mark.parametrize("status", [429, 502, 503, 504, 500])
async def test_post_is_never_retried(status: int) -> None:
    client, rec = make_client(lambda r: json_answer({"error": "nope"}, status))
    async with client:
        with pytest.raises(BlahError):
            await client.infer("m1", "hi")
    assert len(rec.requests) == 1 and rec.sleeps == []


async def test_post_connect_error_not_retried() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused")

    client, rec = make_client(handler)
    async with client:
        with pytest.raises(UnreachableError):
            await client.post_chatroom("hello")
    assert len(rec.requests) == 1


async def test_post_read_timeout_is_outcome_unknown() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out")

    client, rec = make_client(handler)
    async with client:
        with pytest.raises(OutcomeUnknownError):
            await client.start_run(["m1"])
    assert len(rec.requests) == 1


async def test_get_read_timeout_is_unreachable() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out")

    client, _ = make_client(handler)
    async with client:
        with pytest.raises(UnreachableError):
            await client.list_models()


# --------------------------------------------------------------------------- deadline


async def test_deadline_stops_a_trickling_body() -> None:
    stream = TrickleStream()
    client, _ = make_client(
        lambda r: httpx.Response(200, stream=stream, headers={"content-type": "application/json"}),
        deadline=0.3,
    )
    async with client:
        with pytest.raises(UnreachableError) as info:
            await client.list_models()
    assert "0.3" in str(info.value)
    assert stream.closed


async def test_deadline_on_a_post_is_outcome_unknown() -> None:
    client, _ = make_client(lambda r: httpx.Response(200, stream=TrickleStream(b"{")), deadline=0.2)
    async with client:
        with pytest.raises(OutcomeUnknownError):
            await client.infer("m1", "The capital of France is")


# --------------------------------------------------------------------------- safety


@pytest.mark.parametrize("bad", ["", ".", "..", "   "])
async def test_unsafe_ids_refused_before_sending(bad: str) -> None:
    from api_client.errors import UnsafePathError

    client, rec = make_client(lambda r: json_answer({}))
    async with client:
        with pytest.raises(UnsafePathError):
            await client.get_model(bad)
        with pytest.raises(UnsafePathError):
            await client.cancel_run(bad)
        with pytest.raises(UnsafePathError):
            await client.get_logs(bad)
        with pytest.raises(UnsafePathError):
            client.tail_logs(bad)
    assert rec.requests == []


async def test_traversal_id_stays_one_segment() -> None:
    client, rec = make_client(lambda r: json_answer({"logs": [], "id": "x"}))
    async with client:
        await client.get_logs("../../runs/R/cancel")
        await client.get_model("a b?c#d")
    assert rec.requests[0].url.raw_path == b"/api/v1/models/..%2F..%2Fruns%2FR%2Fcancel/logs"
    assert rec.requests[0].method == "GET"
    assert rec.requests[1].url.raw_path == b"/api/v1/models/a%20b%3Fc%23d"


async def _call_every_write(client: BlahClient) -> list[str]:
    from api_client.blahdev.shapes import UploadTicket
    from api_client.errors import MissingKeyError

    calls: dict[str, Any] = {
        "start_run": lambda: client.start_run(["m1"]),
        "resume_run": lambda: client.resume_run("r1"),
        "cancel_run": lambda: client.cancel_run("r1"),
        "register_model": lambda: client.register_model("x", "openai/gpt"),
        "failure_clusters": lambda: client.failure_clusters("m1"),
        "infer": lambda: client.infer("m1", "hi"),
        "chat": lambda: client.chat("m1", [{"role": "user", "content": "hi"}]),
        "create_webhook": lambda: client.create_webhook("https://h/x", ["run.completed"]),
        "delete_webhook": lambda: client.delete_webhook("w1"),
        "post_chatroom": lambda: client.post_chatroom("hi"),
        "set_chatroom_enabled": lambda: client.set_chatroom_enabled("m1", False),
        "create_game": lambda: client.create_game("comedy_night"),
        "request_upload": lambda: client.request_upload("s", "d.jsonl", 3),
        "upload (same origin)": lambda: client.upload_training_set(
            UploadTicket(upload_url="/api/v1/training-sets/t1/upload"), b"abc"
        ),
    }
    refused = []
    for name, call in calls.items():
        with pytest.raises(MissingKeyError):
            await call()
        refused.append(name)
    return refused


async def test_writes_without_key_raise_before_any_request() -> None:
    client, rec = make_client(lambda r: json_answer([]), api_key=None)
    async with client:
        refused = await _call_every_write(client)
        assert len(refused) == 14
        assert rec.requests == []
        await client.list_models()  # reads are open
    assert "authorization" not in rec.requests[0].headers


async def test_key_sent_only_as_bearer_header() -> None:
    client, rec = make_client(lambda r: json_answer({"logs": []}))
    async with client:
        await client.get_logs("m1", since=1)
    request = rec.requests[0]
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert KEY not in str(request.url)


async def test_key_never_in_repr_or_error_texts() -> None:
    statuses = [400, 401, 403, 404, 409, 422, 429, 500, 503]
    errors: list[BaseException] = []
    for status in statuses:
        # a hostile server echoing the key back must not get it into our texts either
        echo = json_answer({"error": f"bad key {KEY}"}, status, **{"Retry-After": "1"})

        def answer(request: httpx.Request, echo: httpx.Response = echo) -> httpx.Response:
            return echo

        client, _ = make_client(answer, max_attempts=1)
        assert KEY not in repr(client) and KEY not in str(client)
        async with client:
            with pytest.raises(BlahError) as info:
                await client.get_model("m1")
            errors.append(info.value)

    def raiser(exc: Exception) -> Any:
        def handler(request: httpx.Request) -> httpx.Response:
            raise exc

        return handler

    for handler in [
        raiser(httpx.ConnectError("refused")),
        raiser(httpx.ReadTimeout("slow")),
        lambda r: httpx.Response(200, text=f"<html>{KEY}</html>"),
        lambda r: httpx.Response(200, content=f'{{"x": "{KEY}'.encode()),
    ]:
        client, _ = make_client(handler)
        async with client:
            for call in (client.list_models, lambda c=client: c.infer("m1", "p")):
                with pytest.raises(BlahError) as info:
                    await call()
                errors.append(info.value)
    assert len(errors) == len(statuses) + 8
    for err in errors:
        text = f"{err!s} {err!r} {vars(err)}"
        assert KEY not in text, text


# --------------------------------------------------------------------------- upload


async def test_upload_in_chunks_with_progress_to_foreign_origin_without_key() -> None:
    from api_client.blahdev.shapes import UploadTicket

    received: dict[str, Any] = {}

    async def handler(request: httpx.Request) -> httpx.Response:
        received["body"] = await request.aread()
        received["headers"] = request.headers
        received["url"] = str(request.url)
        return httpx.Response(200)

    client, _ = make_client(handler)
    ticket = UploadTicket(
        upload_url="https://bucket.storage.example/put/abc?sig=1",
        method="PUT",
        headers={"Content-Type": "application/jsonl", "x-amz-meta": "1"},
        max_bytes=1_000_000,
    )
    data = bytes(range(256)) * 1000  # 256 000 bytes: four 64 KiB chunks
    progress: list[tuple[int, int]] = []
    async with client:
        await client.upload_training_set(ticket, data, progress=lambda s, t: progress.append((s, t)))
    assert received["body"] == data
    assert "authorization" not in received["headers"]
    assert received["headers"]["content-type"] == "application/jsonl"
    assert received["url"].startswith("https://bucket.storage.example/put/abc")
    assert progress[-1] == (len(data), len(data)) and len(progress) == 4
    assert [s for s, _ in progress] == sorted(s for s, _ in progress)


async def test_upload_to_own_origin_carries_key_and_too_large_is_refused() -> None:
    from api_client.blahdev.shapes import UploadTicket

    client, rec = make_client(lambda r: httpx.Response(204))
    async with client:
        await client.upload_training_set(
            UploadTicket(upload_url="/api/v1/training-sets/t1/upload", method="POST"), b"{}\n"
        )
        with pytest.raises(BadRequestError):
            await client.upload_training_set(
                UploadTicket(upload_url="/api/v1/training-sets/t1/upload", max_bytes=2), b"{}\n"
            )
    assert len(rec.requests) == 1
    assert rec.requests[0].headers["authorization"] == f"Bearer {KEY}"
    assert str(rec.requests[0].url) == "https://evals.blah.dev/api/v1/training-sets/t1/upload"


# --------------------------------------------------------------------------- lens stream


class _LensStream(httpx.AsyncByteStream):
    def __init__(self, lines: list[bytes], then_wait: bool) -> None:
        self.lines = lines
        self.then_wait = then_wait
        self.closed = False

    async def __aiter__(self) -> Any:
        for line in self.lines:
            yield line
        if self.then_wait:
            await asyncio.Event().wait()

    async def aclose(self) -> None:
        self.closed = True


async def test_lens_analyze_streams_events_line_by_line() -> None:
    lines = [
        b'{"type":"start","layers":2,"tokens":["The"]}\n{"type":"layer","layer":0,',
        b'"position":0,"top_k":[{"token":" Paris","prob":0.4}]}\n\n',
        b'{"type":"done","future":"ignored"}\n',
    ]
    client, rec = make_client(lambda r: httpx.Response(200, stream=_LensStream(lines, False)))
    async with client:
        events = [e async for e in client.lens_analyze("m1", "The capital of France is")]
    assert [e.type for e in events] == ["start", "layer", "done"]
    assert events[1].top_k == [{"token": " Paris", "prob": 0.4}]
    assert rec.requests[0].read() == (b'{"prompt":"The capital of France is","max_new_tokens":1,"top_k":5}')


async def test_lens_analyze_cancel_closes_stream() -> None:
    stream = _LensStream([b'{"type":"start"}\n'], then_wait=True)
    client, _ = make_client(lambda r: httpx.Response(200, stream=stream), deadline=60)
    got: list[str] = []

    async def consume() -> None:
        async for event in client.lens_analyze("m1", "p"):
            got.append(event.type)

    async with client:
        task = asyncio.create_task(consume())
        while not got:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert got == ["start"] and stream.closed


async def test_lens_analyze_broken_line_is_invalid() -> None:
    client, _ = make_client(lambda r: httpx.Response(200, stream=_LensStream([b'{"type":"start"}\nnot json\n'], False)))
    async with client:
        with pytest.raises(InvalidResponseError):
            async for _ in client.lens_analyze("m1", "p"):
                pass
