"""``BlobfishClient`` against the real Blobfish simulator over HTTP: paging while evaluations are
published, detail, JSONL exports written whole or not at all, publishing (local refusals, a lost
answer resent once with the same bytes, changed evidence), and where the key goes."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_client.blobfish import (
    BlobfishClient,
    EvidenceChangedError,
    KeyShapeError,
    PublishRefusedLocally,
)
from api_client.blobfish.keys import check_key
from api_client.errors import ConflictError, InvalidResponseError, MissingKeyError, UnreachableError
from api_client.transport.http import HttpCore
from api_client.transport.offset_paging import OffsetPage, iter_offset_pages
from api_client.transport.retry import RetryPolicy
from simulator.blobfish.server import BlobfishServer
from tests.support import sim_http
from tests.support.blobfish import BreakMidStream, DropFirstAnswer, HeadInserts, RecordingTransport, envelope


@pytest.fixture(scope="module")
def bf() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=5, live=False) as server:
        yield server


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def client(
    bf: BlobfishServer, transport: httpx.AsyncBaseTransport | None = None, key: str | None = None, **kw: object
) -> BlobfishClient:
    return BlobfishClient(bf.base_url, bf.account_key if key is None else key, transport=transport, **kw)  # type: ignore[arg-type]


_JSONL: dict[str, bytes] = {}


def platform_jsonl(bf: BlobfishServer, evaluation_id: str) -> bytes:
    """The platform's own JSONL of one evaluation (an evaluation never changes: read once)."""
    if evaluation_id in _JSONL:
        return _JSONL[evaluation_id]
    answer = sim_http.get(
        f"{bf.base_url}/api/v1/evaluations/{evaluation_id}",
        params={"format": "jsonl"},
        headers={"X-API-Key": bf.account_key},
        timeout=10,
    )
    answer.raise_for_status()
    _JSONL[evaluation_id] = answer.content
    return answer.content


PAGING_ACCOUNT = 40
"""Evaluations in the account at the start of each paging example (the seeded history's oldest)."""


def reset_account(bf: BlobfishServer, keep: int = PAGING_ACCOUNT) -> None:
    """The account back to its ``keep`` oldest evaluations, so that examples do not grow the list
    for the next ones (the store has no deletion route: evaluations are never deleted)."""
    scope = bf.store.account
    with bf.store.lock:
        del scope.evaluations[keep:]
        scope.by_id = {e["evaluation_id"]: e for e in scope.evaluations}
        scope.by_job = {e["job_id"]: e for e in scope.evaluations}


@pytest.fixture(scope="module")
def paging_bf() -> Iterator[BlobfishServer]:
    """A server of its own for the paging examples (they cut its account back each time)."""
    with BlobfishServer(seed=6, live=False) as server:
        yield server


# ---------------------------------------------------------------------------- paging


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=st.integers(min_value=10, max_value=120), inserts=st.lists(st.integers(0, 3), min_size=1, max_size=20))
def test_the_list_holds_each_evaluation_that_existed_once_while_new_ones_arrive(
    paging_bf: BlobfishServer, limit: int, inserts: list[int]
) -> None:
    """Between every two pages 0-3 evaluations are published at the head, shifting every later
    offset: the list still holds each evaluation that existed at the start exactly once, in order.
    (Pages of at least 10: were evaluations published faster than pages are read, offset paging
    over a newest-first list would never reach the end.)"""
    bf = paging_bf
    reset_account(bf)
    at_start = bf.evaluation_ids()
    plan = itertools.cycle(inserts)
    transport = HeadInserts(bf.publish_now, lambda: next(plan))

    async def listing() -> list[str]:
        async with client(bf, transport) as c:
            return [s.evaluation_id for s in await c.list_evaluations(limit=limit)]

    listed = run(listing())
    assert listed == at_start


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(inserts=st.lists(st.integers(0, 3), min_size=1, max_size=5))
def test_export_all_holds_each_evaluation_once_while_new_ones_arrive(
    paging_bf: BlobfishServer, tmp_path_factory: pytest.TempPathFactory, inserts: list[int]
) -> None:
    """As the list above, for ``export --all``: the file holds the traces of each evaluation that
    existed at the start exactly once, in list order (its list is read in pages of 7, so that
    the inserts land between pages of the 40 evaluations)."""
    bf = paging_bf
    reset_account(bf)
    at_start = bf.evaluation_ids()
    plan = itertools.cycle(inserts)
    dest = tmp_path_factory.mktemp("export") / "all.jsonl"
    transport = HeadInserts(bf.publish_now, lambda: next(plan))

    async def export() -> None:
        async with client(bf, transport) as c:
            await c.export_all_jsonl(dest, page_limit=7)

    run(export())
    expected = b"".join(platform_jsonl(bf, evaluation_id) for evaluation_id in at_start)
    assert dest.read_bytes() == expected
    trace_ids = [orjson.loads(line)["trace_id"] for line in dest.read_bytes().splitlines()]
    assert len(trace_ids) == sum(len(bf.store.account.by_id[e]["envelope"]["traces"]) for e in at_start)


async def test_a_next_offset_that_does_not_advance_is_refused() -> None:
    pages = {0: OffsetPage(["a", "b"], 2), 2: OffsetPage(["c"], 2)}
    fetched: list[int] = []

    async def fetch(offset: int, limit: int) -> OffsetPage[str]:
        fetched.append(offset)
        return pages[offset]

    seen: list[str] = []
    with pytest.raises(InvalidResponseError, match="does not move past offset 2"):
        async for item in iter_offset_pages(fetch, str, limit=2):
            seen.append(item)
    assert seen == ["a", "b", "c"] and fetched == [0, 2]


async def test_an_empty_page_ends_the_list_even_with_a_next_offset() -> None:
    async def fetch(offset: int, limit: int) -> OffsetPage[str]:
        return OffsetPage(["a"], 1) if offset == 0 else OffsetPage([], 2)

    assert [item async for item in iter_offset_pages(fetch, str, limit=1)] == ["a"]


# ---------------------------------------------------------------------------- detail


def test_detail_holds_rollouts_and_steps_and_absent_values_stay_absent(bf: BlobfishServer) -> None:
    async def go() -> tuple[object, object]:
        async with client(bf) as c:
            receipt = await c.publish(envelope("detail-absent", rollouts=2, reward=None, passed=None))
            return receipt, await c.get_evaluation(receipt.evaluation_id)

    receipt, detail = run(go())
    assert detail.evaluation_id == receipt.evaluation_id  # type: ignore[attr-defined]
    assert detail.taskset == "letter-count" and detail.model == "my-model"  # type: ignore[attr-defined]
    assert [len(r.steps) for r in detail.rollouts] == [1, 1]  # type: ignore[attr-defined]
    assert detail.rollouts[0].steps[0].prompt == "How many r's are in 'strawberry'?"  # type: ignore[attr-defined]
    assert detail.summary.mean_reward is None and detail.failed_count is None  # type: ignore[attr-defined]
    assert all(r.reward is None and r.passed is None for r in detail.rollouts)  # type: ignore[attr-defined]
    assert "reward" not in detail.raw["envelope"]["job"]["rollouts"][0]  # type: ignore[attr-defined]


def test_the_base_url_is_an_origin_and_a_trailing_api_v1_is_accepted(bf: BlobfishServer) -> None:
    async def count(base: str) -> int:
        async with BlobfishClient(base, bf.account_key) as c:
            return len(await c.list_evaluations())

    assert run(count(bf.base_url + "/api/v1/")) == run(count(bf.base_url)) > 0
    with pytest.raises(ValueError, match="origin"):
        BlobfishClient(bf.base_url + "/dashboard", bf.account_key)


# ---------------------------------------------------------------------------- exports


def test_one_export_is_the_platforms_jsonl_and_leaves_no_temporary_file(bf: BlobfishServer, tmp_path: Path) -> None:
    evaluation_id = bf.evaluation_ids()[-1]
    dest = tmp_path / "one.jsonl"

    async def go() -> None:
        async with client(bf) as c:
            result = await c.export_jsonl(evaluation_id, dest)
            assert result.lines == len(bf.store.account.by_id[evaluation_id]["envelope"]["traces"])

    run(go())
    assert dest.read_bytes() == platform_jsonl(bf, evaluation_id)
    assert [p.name for p in tmp_path.iterdir()] == ["one.jsonl"]


@pytest.mark.parametrize("everything", [False, True])
def test_a_broken_export_leaves_nothing_behind(bf: BlobfishServer, tmp_path: Path, everything: bool) -> None:
    dest = tmp_path / "out.jsonl"
    dest.write_text("the previous export\n")

    async def go() -> None:
        async with client(bf, BreakMidStream()) as c:
            if everything:
                await c.export_all_jsonl(dest)
            else:
                await c.export_jsonl(bf.evaluation_ids()[0], dest)

    with pytest.raises(UnreachableError, match="connection broke"):
        run(go())
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]
    assert dest.read_text() == "the previous export\n"


# ---------------------------------------------------------------------------- publishing


def test_a_lost_answer_is_resent_once_with_the_same_bytes_and_publishes_once(bf: BlobfishServer) -> None:
    transport = DropFirstAnswer()
    job = envelope("reset-once", rollouts=3)

    async def go() -> str:
        async with client(bf, transport) as c:
            return (await c.publish(job)).evaluation_id

    evaluation_id = run(go())
    posts = [body for method, _, _, body in transport.sent if method == "POST"]
    assert transport.dropped == 1 and len(posts) == 2
    assert posts[0] == posts[1]
    published = [e for e in bf.store.account.evaluations if e["job_id"] == "reset-once"]
    assert [e["evaluation_id"] for e in published] == [evaluation_id]


def test_a_timed_out_answer_is_resent_once_too(bf: BlobfishServer) -> None:
    transport = DropFirstAnswer(httpx.ReadTimeout)

    async def go() -> str:
        async with client(bf, transport) as c:
            return (await c.publish(envelope("timeout-once"))).evaluation_id

    evaluation_id = run(go())
    assert [e["evaluation_id"] for e in bf.store.account.evaluations if e["job_id"] == "timeout-once"] == [
        evaluation_id
    ]


def test_publishing_the_same_bytes_again_gives_the_same_evaluation(bf: BlobfishServer) -> None:
    async def go() -> tuple[str, str, str | None]:
        async with client(bf) as c:
            first = await c.publish(envelope("same-twice"))
            second = await c.publish(envelope("same-twice"))
            return first.evaluation_id, second.evaluation_id, first.dashboard_url

    first, second, url = run(go())
    assert first == second and url is not None and url.endswith(f"/evaluations/{first}")


def test_changed_evidence_under_a_published_job_id_is_its_own_error(bf: BlobfishServer) -> None:
    async def go() -> None:
        async with client(bf) as c:
            await c.publish(envelope("changed", reward=1.0))
            await c.publish(envelope("changed", reward=0.0))

    with pytest.raises(EvidenceChangedError) as caught:
        run(go())
    assert isinstance(caught.value, ConflictError)
    assert caught.value.code == "job_conflict" and caught.value.status == 409
    assert "already published with different evidence" in caught.value.message
    assert "new job id" in caught.value.message


@pytest.mark.parametrize(
    ("job", "rule", "words"),
    [
        (envelope("running", status="running"), "completed", "not completed"),
        ({**envelope("empty"), "job": {**envelope("empty")["job"], "rollouts": []}}, "rollouts", "0 rollouts"),
        (envelope("too-many", rollouts=257), "rollouts", "257 rollouts"),
        (envelope("too-big", prompt="x" * 1_100_000), "size", "1 MiB"),
    ],
)
def test_a_publication_breaking_a_rule_is_refused_here_and_nothing_is_sent(
    bf: BlobfishServer, job: dict[str, object], rule: str, words: str
) -> None:
    transport = RecordingTransport()
    before = bf.requests.count("POST")

    async def go() -> None:
        async with client(bf, transport) as c:
            await c.publish(job)

    with pytest.raises(PublishRefusedLocally, match=words) as caught:
        run(go())
    assert caught.value.rule == rule and "nothing was sent" in caught.value.message
    assert transport.sent == [] and bf.requests.count("POST") == before


# ---------------------------------------------------------------------------- the key


def test_the_key_travels_in_x_api_key_never_in_authorization(bf: BlobfishServer, tmp_path: Path) -> None:
    transport = RecordingTransport()

    async def go() -> None:
        async with client(bf, transport) as c:
            summaries = await c.list_evaluations()
            await c.get_evaluation(summaries[0].evaluation_id)
            await c.export_jsonl(summaries[0].evaluation_id, tmp_path / "x.jsonl")
            await c.publish(envelope("header-check"))

    run(go())
    assert {method for method, *_ in transport.sent} == {"GET", "POST"}
    for _, path, headers, _ in transport.sent:
        assert "authorization" not in headers, path
        assert headers["x-api-key"] == bf.account_key
        assert bf.account_key not in path


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("blah_demo_council_0123456789", "a blah.dev key (blah_…)"),
        ("sk-ant-api03-abcdefghijklmnop", "an Anthropic key (sk-ant-…)"),
        ("sk-proj-abcdefghijklmnop", "an OpenAI-style provider key (sk-…)"),
        ("sk_sovereign_abcdefghijkl", "an errorbar key (sk_…)"),
        ("xai-abcdefghijklmnopq", "an xAI key (xai-…)"),
        ("hunter2-abcdefghijkl", "not a Blobfish API key"),
    ],
)
def test_a_key_that_is_not_bf_is_refused_naming_its_kind_never_the_key(key: str, kind: str) -> None:
    with pytest.raises(KeyShapeError) as caught:
        BlobfishClient("https://blobfish.ai", key)
    text = str(caught.value)
    assert kind in text and "bf_" in text
    assert key not in text and key[8:] not in text
    assert check_key("  bf_abc  ") == "bf_abc"


async def test_no_key_fails_before_anything_is_sent() -> None:
    sent: list[httpx.Request] = []
    transport = httpx.MockTransport(lambda request: sent.append(request) or httpx.Response(200, json={}))
    async with BlobfishClient("https://blobfish.ai", None, transport=transport) as c:
        with pytest.raises(MissingKeyError, match="BLOBFISH_API_KEY"):
            await c.list_evaluations()
    assert sent == []


# ---------------------------------------------------------------------------- the transport


def _core(handler, **kw):  # type: ignore[no-untyped-def]
    async def no_sleep(_: float) -> None:
        return None

    return HttpCore(
        "https://blobfish.ai",
        "bf_test",
        transport=httpx.MockTransport(handler),
        timeout=5,
        deadline=5,
        retry=RetryPolicy(),
        sleep=no_sleep,
        limits=None,
        user_agent="t",
        **kw,
    )


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"error": "run_in_progress", "message": "a suite run is in flight", "run_id": "bmrs_1"}, "run_in_progress"),
        (
            {"error": {"message": "a suite run is in flight", "type": "conflict", "code": "run_in_progress"}},
            "run_in_progress",
        ),
        ({"code": "run_in_progress", "message": "a suite run is in flight"}, "run_in_progress"),
        ({"error": "a sentence, not a code"}, None),
    ],
)
async def test_the_code_in_an_error_body_is_kept_on_the_error(body: dict[str, object], code: str | None) -> None:
    core = _core(lambda request: httpx.Response(409, json=body))
    with pytest.raises(ConflictError) as caught:
        await core.request_json("GET", "/api/v1/x", lambda data: data)
    await core.aclose()
    assert caught.value.code == code
    if code:
        assert caught.value.message.endswith("a suite run is in flight")


async def test_a_code_maps_to_its_typed_error() -> None:
    class RunInProgress(ConflictError):
        pass

    core = _core(
        lambda request: httpx.Response(409, json={"error": "run_in_progress", "message": "busy"}),
        error_types={"run_in_progress": RunInProgress},
    )
    with pytest.raises(RunInProgress) as caught:
        await core.request_json("POST", "/api/v1/x", lambda data: data)
    await core.aclose()
    assert caught.value.code == "run_in_progress" and caught.value.status == 409


async def test_location_and_retry_after_of_a_2xx_are_returned() -> None:
    core = _core(
        lambda request: httpx.Response(
            202,
            json={"run_id": "bmrs_1"},
            headers={"Location": "https://blobfish.ai/api/v1/benchmarks/b/runs/bmrs_1", "Retry-After": "5"},
        )
    )
    reply = await core.request("POST", "/api/v1/benchmarks/b/runs", lambda data: data, json={})
    await core.aclose()
    assert (reply.status, reply.location, reply.retry_after) == (
        202,
        "https://blobfish.ai/api/v1/benchmarks/b/runs/bmrs_1",
        5.0,
    )
    assert reply.data == {"run_id": "bmrs_1"}


async def test_a_write_not_flagged_is_never_resent() -> None:
    sent: list[bytes] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request.content)
        raise httpx.ReadError("reset", request=request)

    core = _core(handler)
    with pytest.raises(Exception, match="may or may not have taken effect"):
        await core.request("POST", "/api/v1/x", lambda data: data, content=b"{}")
    with pytest.raises(Exception, match="may or may not have taken effect"):
        await core.request("POST", "/api/v1/x", lambda data: data, content=b"{}", resend_identical=True)
    await core.aclose()
    assert sent == [b"{}", b"{}", b"{}"]  # once unflagged; flagged: once more, never a third time
