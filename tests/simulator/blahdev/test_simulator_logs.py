"""Logs paging semantics of CONTRACT.md against the simulator (plain httpx)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from simulator.blahdev.store import MAX_PER_MS
from simulator.server import SimulatorServer
from tests.support import sim_http


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    """One client for the module: building an httpx client per request costs more than the request."""
    with sim_http.Client(timeout=10) as client:
        yield client


def logs(http: httpx.Client, server: SimulatorServer, **params: object) -> httpx.Response:
    return http.get(f"{server.base_url}/api/v1/models/{server.person_model_id}/logs", params=params)  # type: ignore[arg-type]


def test_newest_first_and_next_bounds(sim: SimulatorServer, http: httpx.Client) -> None:
    body = logs(http, sim, limit=50).json()
    times = [e["created_at"] for e in body["logs"]]
    assert times == sorted(times, reverse=True) and len(times) == 50
    assert body["next_since"] == times[0] and body["next_before"] == times[-1]
    assert "stats" not in body


def test_limit_bounds_are_422_with_error_text(sim: SimulatorServer, http: httpx.Client) -> None:
    for bad in (0, 501, -3, "many"):
        r = logs(http, sim, limit=bad)
        assert r.status_code == 422 and "limit" in r.json()["error"]
    assert len(logs(http, sim, limit=500).json()["logs"]) == 500
    assert len(logs(http, sim).json()["logs"]) == 50  # the default
    assert logs(http, sim, source="bogus").status_code == 422


def test_since_and_before_are_strict_and_combine(sim: SimulatorServer, http: httpx.Client) -> None:
    page = logs(http, sim, limit=200).json()["logs"]
    newest, oldest = page[0]["created_at"], page[-1]["created_at"]
    assert logs(http, sim, since=newest).json()["logs"] == []
    empty = logs(http, sim, since=newest).json()
    assert empty["next_since"] == newest and empty["next_before"] is None
    inside = logs(http, sim, since=oldest, before=newest, limit=500).json()["logs"]
    assert inside and all(oldest < e["created_at"] < newest for e in inside)
    expected = [e["id"] for e in page if oldest < e["created_at"] < newest]
    assert [e["id"] for e in inside] == expected


def test_paging_back_with_before_reaches_every_entry_once(sim: SimulatorServer, http: httpx.Client) -> None:
    total = logs(http, sim, stats="true", limit=1).json()["stats"]["total"]
    seen: dict[str, int] = {}
    before: int | None = None
    while True:
        params: dict[str, object] = {"limit": 500}
        if before is not None:
            params["before"] = before + 1  # overlap one millisecond, drop ids already held
        body = logs(http, sim, **params).json()
        fresh = [e for e in body["logs"] if e["id"] not in seen]
        if not fresh:
            break
        for e in fresh:
            seen[e["id"]] = e["created_at"]
        before = body["next_before"]
    assert len(seen) == total


def test_stats_cover_every_match_not_the_page(sim: SimulatorServer, http: httpx.Client) -> None:
    body = logs(http, sim, limit=5, stats="true", source="chatroom").json()
    stats = body["stats"]
    assert stats["total"] > 5 and set(stats["by_source"]) == {"chatroom"}
    every = []
    before = None
    while True:
        page = logs(http, sim, limit=500, source="chatroom", **({"before": before} if before else {})).json()
        if not page["logs"]:
            break
        every += page["logs"]
        before = page["next_before"]
    # (no millisecond holds two chatroom calls in the seeded history, so plain paging is exact)
    assert stats["total"] == len(every)
    assert stats["errors"] == sum(e["error"] is not None for e in every)
    latencies = [e["latency_ms"] for e in every if e["latency_ms"] is not None]
    assert stats["mean_latency_ms"] == pytest.approx(sum(latencies) / len(latencies), abs=0.1)


def test_stats_mean_latency_null_when_nothing_matches(sim: SimulatorServer, http: httpx.Client) -> None:
    newest = logs(http, sim, limit=1).json()["logs"][0]["created_at"]
    stats = logs(http, sim, since=newest, stats="true").json()["stats"]
    assert stats == {"total": 0, "errors": 0, "mean_latency_ms": None, "by_source": {}}


def test_unknown_model_and_log_are_404(sim: SimulatorServer, http: httpx.Client) -> None:
    r = http.get(f"{sim.base_url}/api/v1/models/nope/logs")
    assert r.status_code == 404 and r.json() == {"error": "model 'nope' not found"}
    assert http.get(f"{sim.base_url}/api/v1/logs/log_nope").status_code == 404


def test_burst_beyond_a_page_with_millisecond_cap(own: SimulatorServer, http: httpx.Client) -> None:
    since = logs(http, own, limit=1).json()["next_since"]
    ids = own.world.add_log_burst(700, same_ms=True)
    assert len(ids) == 700
    stamps = [own.world.log(i)["created_at"] for i in ids]  # type: ignore[index]
    per_ms = {t: stamps.count(t) for t in set(stamps)}
    assert max(per_ms.values()) == MAX_PER_MS and len(per_ms) == 3
    tail = logs(http, own, since=since, limit=500).json()
    assert len(tail["logs"]) == 500  # a full page: more landed than one page holds
    # paging back with before (overlap 1 ms, dedupe) recovers all 700 exactly once
    got = {e["id"] for e in tail["logs"]}
    body = logs(http, own, since=since, before=tail["next_before"] + 1, limit=500).json()
    got |= {e["id"] for e in body["logs"]}
    assert got == set(ids)


def test_poll_with_next_since_sees_new_calls(own: SimulatorServer, http: httpx.Client) -> None:
    first = logs(http, own, limit=10).json()
    new_id = own.world.infer(own.person_model_id, "Hello, who are you?", 32)["id"]
    later = logs(http, own, since=first["next_since"]).json()
    assert [e["id"] for e in later["logs"]] == [new_id]
