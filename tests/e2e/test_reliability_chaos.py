"""The client, the live tail and the archive sync against a simulator that misbehaves.

Every fault kind the chaos middleware makes (5xx, 429 + Retry-After, latency spikes,
connections reset mid-body, truncated bodies, bodies trickled in pieces, an HTML error page
instead of JSON) is checked one at a time for what the person would see: the right error
(never a raw httpx exception), reads retried a bounded number of times, writes never resent,
a slow body cut off by the deadline. Then all faults at once under a tail and an archive
sync: every call the simulator made is delivered exactly once. And `blah-tui sim --chaos` is
run as a real process and hit with curl.

Waits are shortened by an injected sleep (its requested durations are recorded, so Retry-After
is still checked); the simulator counts the faults it injected (``chaos_counts``).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from api_client.archives.archive import Archive
from api_client.archives.sync import ArchiveSync, BackfillProgress
from api_client.blahdev.client import BlahClient
from api_client.errors import (
    BlahError,
    InvalidResponseError,
    OutcomeUnknownError,
    RateLimitedError,
    ServerError,
    UnreachableError,
)
from simulator.chaos import FAULTS, ChaosConfig
from simulator.server import SimulatorServer

REPO = Path(__file__).resolve().parents[2]
ATTEMPTS = 4


class Sleeps:
    """An injectable sleep that records what was asked and waits at most ``cap`` seconds."""

    def __init__(self, cap: float = 0.01) -> None:
        self.cap = cap
        self.asked: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        await asyncio.sleep(min(seconds, self.cap))


@pytest.fixture(scope="module")
def chaos_sim() -> Iterator[SimulatorServer]:
    """A private, quiet world for this module (faults are switched per test)."""
    with SimulatorServer(seed=13, speed=50.0, live=False) as server:
        yield server


@pytest.fixture
def sim13(chaos_sim: SimulatorServer) -> Iterator[SimulatorServer]:
    chaos_sim.chaos = None
    yield chaos_sim
    chaos_sim.chaos = None


@pytest.fixture
async def fast(sim13: SimulatorServer) -> AsyncIterator[tuple[BlahClient, Sleeps]]:
    sleeps = Sleeps()
    async with BlahClient(
        sim13.base_url, api_key=sim13.council_key, sleep=sleeps, deadline=10.0, max_attempts=ATTEMPTS
    ) as client:
        yield client, sleeps


def logs_path(server: SimulatorServer) -> str:
    return f"/api/v1/models/{server.person_model_id}/logs"


def infer_path(server: SimulatorServer) -> str:
    return f"/api/v1/models/{server.person_model_id}/infer"


def assert_clean_message(error: BaseException) -> None:
    """What the person reads: one printable line, not an httpx repr."""
    text = str(error)
    assert text and all(ch.isprintable() for ch in text), repr(text)
    assert "httpx." not in text and "Traceback" not in text


# --------------------------------------------------------------------------- the CLI


def _start_cli_sim(spec: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "sim", "--quiet-world", "--seed", "3", "--chaos", spec],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        match = re.search(r"API base:\s+(http://\S+)", line)
        if match:
            return proc, match.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"blah-tui sim did not print its address: {proc.stderr.read() if proc.stderr else ''}")


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
def test_cli_sim_with_chaos_serves_faults_to_curl() -> None:
    """`blah-tui sim --chaos "5xx=0.5,html=0.5"`: a plain curl sees JSON 5xx and HTML pages."""
    proc, base = _start_cli_sim("5xx=0.5,html=0.5,seed=4")
    try:
        seen: list[tuple[int, str]] = []
        for _ in range(16):
            out = subprocess.run(
                ["curl", "-s", "-o", "-", "-w", "\n%{http_code} %{content_type}", f"{base}/api/v1/models"],
                capture_output=True,
                text=True,
                timeout=20,
                check=False,
            ).stdout
            body, _, meta = out.rpartition("\n")
            status, _, ctype = meta.partition(" ")
            seen.append((int(status), ctype))
            if ctype.startswith("application/json"):
                assert '"error"' in body
            else:
                assert "<html>" in body
        statuses = {s for s, _ in seen}
        assert statuses <= {500, 502, 503} and statuses, seen
        assert any(c.startswith("text/html") for _, c in seen) and any(
            c.startswith("application/json") for _, c in seen
        )
        # the spec route is outside /api/v1: chaos leaves it alone
        spec = subprocess.run(
            ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", f"{base}/api/spec"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        ).stdout
        assert spec == "200"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def test_cli_sim_rejects_a_bad_chaos_spec() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cli.main", "sim", "--chaos", "boom=0.5"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "unknown chaos setting 'boom'" in result.stderr


# --------------------------------------------------------------------------- one fault at a time


async def test_5xx_reads_are_retried_a_bounded_number_of_times_and_writes_never(
    sim13: SimulatorServer, fast: tuple[BlahClient, Sleeps]
) -> None:
    client, _ = fast
    sim13.chaos = ChaosConfig(rate_5xx=1.0, retry_after=0, seed=1)
    before = sim13.requests.count("GET", logs_path(sim13))
    with pytest.raises((ServerError, RateLimitedError)) as caught:
        await client.get_logs(sim13.person_model_id, limit=5)
    sent = sim13.requests.count("GET", logs_path(sim13)) - before
    assert 1 <= sent <= ATTEMPTS  # 500 ends at once; 502/503 are tried again, never beyond the bound
    assert caught.value.status in (500, 502, 503) and "chaos: upstream failure" in str(caught.value)
    assert_clean_message(caught.value)

    before = sim13.requests.count("POST", infer_path(sim13))
    with pytest.raises((ServerError, RateLimitedError)):
        await client.infer(sim13.person_model_id, "hello")
    assert sim13.requests.count("POST", infer_path(sim13)) - before == 1  # a write is sent once


async def test_429_honours_retry_after_then_gives_the_caller_the_wait(
    sim13: SimulatorServer, fast: tuple[BlahClient, Sleeps]
) -> None:
    client, sleeps = fast
    sim13.chaos = ChaosConfig(rate_429=1.0, retry_after=2, seed=1)
    before = sim13.requests.count("GET", logs_path(sim13))
    with pytest.raises(RateLimitedError) as caught:
        await client.get_logs(sim13.person_model_id, limit=5)
    assert caught.value.retry_after == 2.0
    assert sim13.requests.count("GET", logs_path(sim13)) - before == ATTEMPTS
    assert sleeps.asked == [2.0] * (ATTEMPTS - 1)  # the server's wait, not our backoff


async def test_a_latency_spike_longer_than_the_deadline(sim13: SimulatorServer) -> None:
    """A read gives up at the deadline (unreachable); a write that timed out is "outcome
    unknown", and a GET afterwards tells what really happened."""
    sim13.chaos = ChaosConfig(rate_latency=1.0, latency_s=0.8, seed=1)
    async with BlahClient(sim13.base_url, api_key=sim13.council_key, deadline=0.3, max_attempts=1) as client:
        started = time.monotonic()
        with pytest.raises(UnreachableError) as caught:
            await client.get_logs(sim13.person_model_id, limit=1)
        assert time.monotonic() - started < 5  # bounded by the deadline, not by the server
        assert "no complete answer within 0.3 s" in str(caught.value)
        writes_before = sim13.requests.count("POST", "/infer")
        with pytest.raises(OutcomeUnknownError) as unknown:
            await client.infer(sim13.person_model_id, "reliability latency probe", deadline=0.3)
        assert "may or may not have" in str(unknown.value)
    sim13.chaos = None
    # The server is done with the write (served or dropped) once its request is on the log.
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and sim13.requests.count("POST", "/infer") == writes_before:
        await asyncio.sleep(0.05)
    assert sim13.requests.count("POST", "/infer") == writes_before + 1, "the server never finished the write"
    async with BlahClient(sim13.base_url) as reader:
        page = await reader.get_logs(sim13.person_model_id, source="test", limit=50)
    # The check by GET gives a definite answer, and the write happened at most once.
    assert sum(1 for e in page.logs if e.prompt and "reliability latency probe" in e.prompt) <= 1


async def test_a_latency_spike_within_the_deadline_is_just_slow(
    sim13: SimulatorServer, fast: tuple[BlahClient, Sleeps]
) -> None:
    client, _ = fast
    sim13.chaos = None
    expected = await client.get_logs(sim13.person_model_id, limit=10)
    sim13.chaos = ChaosConfig(rate_latency=1.0, latency_s=0.2, seed=1)
    assert await client.get_logs(sim13.person_model_id, limit=10) == expected


async def test_a_connection_reset_mid_body(sim13: SimulatorServer, fast: tuple[BlahClient, Sleeps]) -> None:
    client, _ = fast
    sim13.chaos = ChaosConfig(rate_reset=1.0, seed=1)
    before = sim13.requests.count("GET", logs_path(sim13))
    with pytest.raises(UnreachableError) as caught:
        await client.get_logs(sim13.person_model_id, limit=50)
    assert "connection broke" in str(caught.value)
    assert sim13.requests.count("GET", logs_path(sim13)) - before == ATTEMPTS
    assert_clean_message(caught.value)
    before = sim13.requests.count("POST", infer_path(sim13))
    with pytest.raises(OutcomeUnknownError):
        await client.infer(sim13.person_model_id, "reset probe")
    assert sim13.requests.count("POST", infer_path(sim13)) - before == 1


async def test_a_truncated_body_is_an_invalid_response_with_a_safe_excerpt(
    sim13: SimulatorServer, fast: tuple[BlahClient, Sleeps]
) -> None:
    client, _ = fast
    sim13.chaos = ChaosConfig(rate_truncate=1.0, seed=1)
    with pytest.raises(InvalidResponseError) as caught:
        await client.get_logs(sim13.person_model_id, limit=50)
    error = caught.value
    assert "broken or truncated JSON" in str(error) and error.status == 200
    assert error.excerpt is not None and 0 < len(error.excerpt) <= 201
    assert_clean_message(error)


async def test_a_trickled_body_arrives_whole_or_is_cut_by_the_deadline(
    sim13: SimulatorServer, fast: tuple[BlahClient, Sleeps]
) -> None:
    client, _ = fast
    expected = await client.get_logs(sim13.person_model_id, limit=20)
    sim13.chaos = ChaosConfig(rate_trickle=1.0, seed=1)
    assert await client.get_logs(sim13.person_model_id, limit=20) == expected
    # 200 pieces 5 ms apart cannot arrive in 0.2 s: the deadline ends it, not the server
    async with BlahClient(sim13.base_url, deadline=0.2, max_attempts=1) as slow:
        started = time.monotonic()
        with pytest.raises(UnreachableError):
            await slow.get_logs(sim13.person_model_id, limit=200)
        assert time.monotonic() - started < 5


async def test_an_html_error_page_instead_of_json(sim13: SimulatorServer, fast: tuple[BlahClient, Sleeps]) -> None:
    client, _ = fast
    sim13.chaos = ChaosConfig(rate_html=1.0, seed=1)
    before = sim13.requests.count("GET", logs_path(sim13))
    with pytest.raises(ServerError) as caught:
        await client.get_logs(sim13.person_model_id, limit=5)
    assert caught.value.status == 502 and "HTML page" in str(caught.value) and "502 Bad Gateway" in str(caught.value)
    assert sim13.requests.count("GET", logs_path(sim13)) - before == ATTEMPTS  # a gateway error: worth retrying
    assert_clean_message(caught.value)


async def test_every_fault_kind_was_exercised_and_counted(
    sim13: SimulatorServer, fast: tuple[BlahClient, Sleeps]
) -> None:
    """The counter the soak reports is right: N requests at rate 1 -> N faults of that kind."""
    client, _ = fast
    for fault in FAULTS:
        field = "rate_5xx" if fault == "5xx" else f"rate_{fault}"
        sim13.chaos = ChaosConfig(**{field: 1.0}, latency_s=0.01, retry_after=0, seed=2)  # type: ignore[arg-type]
        before = sim13.chaos_counts().get(fault, 0)
        try:
            await client.get_model(sim13.person_model_id)
        except BlahError:
            pass
        after = sim13.chaos_counts().get(fault, 0)
        assert after - before >= 1, fault


# --------------------------------------------------------------------------- everything at once

MIXED = ChaosConfig(
    rate_5xx=0.08,
    rate_429=0.06,
    retry_after=1,
    rate_latency=0.05,
    latency_s=0.15,
    rate_reset=0.07,
    rate_truncate=0.07,
    rate_trickle=0.05,
    rate_html=0.06,
    seed=21,
)
"""44% of requests fail one way or another."""


async def test_tail_under_every_fault_delivers_each_call_exactly_once(sim13: SimulatorServer) -> None:
    world = sim13.world
    model = sim13.person_model_id
    sleeps = Sleeps(cap=0.02)
    delivered: list[str] = []
    phases: set[str] = set()
    faults_before = sum(sim13.chaos_counts().values())
    async with BlahClient(sim13.base_url, sleep=sleeps, deadline=5.0) as client:
        tail = client.tail_logs(
            model, interval=0.05, max_interval=0.2, sleep=sleeps, on_state=lambda s: phases.add(s.phase)
        )
        await tail.start()  # from the platform's newest entry: only what comes after is wanted
        start_ms = tail.cursor
        sim13.chaos = MIXED

        async def consume() -> None:
            async for batch in tail:
                delivered.extend(e.id for e in batch)

        task = asyncio.create_task(consume())
        made: list[str] = []
        for round_ in range(40):  # until enough faults were lived through (bounded)
            made += await asyncio.to_thread(world.add_log_burst, 620 if round_ % 2 else 90, True)  # > a page
            for i in range(5):
                made.append(
                    await asyncio.to_thread(lambda n=f"{round_}.{i}": world.infer(model, f"chaos tail {n}", 32)["id"])
                )
            await asyncio.sleep(0.15)
            if round_ >= 5 and sum(sim13.chaos_counts().values()) - faults_before >= 30:
                break
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not set(made) <= set(delivered):
            await asyncio.sleep(0.05)
        tail.stop()
        await task
    sim13.chaos = None
    expected = {e["id"] for e in world.logs.all_for(model) if start_ms is None or e["created_at"] > start_ms}
    faults = sum(sim13.chaos_counts().values()) - faults_before
    print(
        f"\ntail under chaos: {len(delivered)} calls tailed, {faults} faults injected "
        f"({sim13.chaos_counts()} so far in this module), "
        f"{len(expected - set(delivered))} lost, {len(delivered) - len(set(delivered))} duplicated"
    )
    assert set(made) <= expected
    assert set(delivered) == expected, f"lost {len(expected - set(delivered))}"
    assert len(delivered) == len(set(delivered)), "an entry was delivered twice"
    assert faults >= 30 and "retrying" in phases
    assert not tail.state.may_have_missed


async def test_archive_backfill_and_sync_under_every_fault_lose_nothing(sim13: SimulatorServer) -> None:
    world = sim13.world
    model = sim13.person_model_id
    sleeps = Sleeps(cap=0.02)
    archive = Archive.create_temporary()
    try:
        async with BlahClient(sim13.base_url, sleep=sleeps, deadline=5.0) as client:
            sim13.chaos = MIXED
            faults_before = sum(sim13.chaos_counts().values())
            sync = ArchiveSync(client, archive, model, interval=0.05)  # type: ignore[arg-type]
            failures = 0
            progress = await _backfill_until_complete(sync)
            failures = progress[1]
            assert progress[0].complete and archive.history_complete

            task = asyncio.create_task(sync.run())
            for i in range(4):
                await asyncio.to_thread(world.add_log_burst, 560, True)
                await asyncio.to_thread(world.infer, model, f"sync {i}", 16)
                await asyncio.sleep(0.1)
            expected_count = world.logs.count(model)
            deadline = time.monotonic() + 40
            while time.monotonic() < deadline and await asyncio.to_thread(archive.count) < expected_count:
                await asyncio.sleep(0.1)
            sync.stop()
            await asyncio.wait_for(task, 10)
        sim13.chaos = None
        faults = sum(sim13.chaos_counts().values()) - faults_before
        held = [e.id for e in await asyncio.to_thread(lambda: list(archive.iter_all()))]
        expected = {e["id"] for e in world.logs.all_for(model)}
        print(
            f"\narchive under chaos: {len(held)} held, {faults} faults injected, {len(expected - set(held))} lost, "
            f"{len(held) - len(set(held))} duplicated, {failures} backfill attempts failed and were resumed"
        )
        assert len(held) == len(set(held))
        assert set(held) == expected
        assert faults >= 5
    finally:
        archive.close()


async def _backfill_until_complete(sync: ArchiveSync) -> tuple[BackfillProgress, int]:
    """A backfill stopped by an error is simply started again: it resumes below the oldest
    entry stored, so nothing already fetched is fetched twice into the archive."""
    failures = 0
    for _ in range(60):
        try:
            progress = await sync.backfill()
        except BlahError:
            failures += 1
            continue
        if progress.complete:
            return progress, failures
    raise AssertionError(f"backfill never completed ({failures} failures)")
