"""Chaos faults really happen, can be toggled at runtime, and parse from --chaos specs."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest

from simulator.chaos import ChaosConfig
from simulator.server import SimulatorServer
from tests.support import sim_http


@pytest.fixture(scope="module")
def chaotic() -> Iterator[SimulatorServer]:
    with SimulatorServer(seed=11, speed=50.0, live=False) as server:
        yield server


@pytest.fixture
def url(chaotic: SimulatorServer) -> Iterator[str]:
    yield f"{chaotic.base_url}/api/v1/models/{chaotic.person_model_id}/logs?limit=20"
    chaotic.chaos = None


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    """One client (building an httpx client per request costs far more than the request)."""
    with sim_http.Client(timeout=10) as client:
        yield client


def test_parse_spec() -> None:
    cfg = ChaosConfig.parse("5xx=0.1,429=0.05,reset=0.02,latency=0.1,latency_s=0.5,retry_after=3,seed=9")
    assert (cfg.rate_5xx, cfg.rate_429, cfg.rate_reset, cfg.rate_latency) == (0.1, 0.05, 0.02, 0.1)
    assert (cfg.latency_s, cfg.retry_after, cfg.seed) == (0.5, 3, 9)
    for bad in ("5xx", "boom=0.1", "5xx=lots", "5xx=0.8,429=0.8", "html=-1"):
        with pytest.raises(ValueError):
            ChaosConfig.parse(bad)


def test_5xx_and_recovery_when_turned_off(chaotic: SimulatorServer, url: str, http: httpx.Client) -> None:
    chaotic.set_chaos(ChaosConfig(rate_5xx=1.0, retry_after=4))
    statuses = {http.get(url).status_code for _ in range(12)}
    assert statuses <= {500, 502, 503} and len(statuses) >= 2
    r = next(r for r in (http.get(url) for _ in range(30)) if r.status_code == 503)
    assert r.headers["retry-after"] == "4" and "error" in r.json()
    chaotic.chaos = None
    assert http.get(url).status_code == 200


def test_429_carries_retry_after(chaotic: SimulatorServer, url: str, http: httpx.Client) -> None:
    chaotic.chaos = ChaosConfig(rate_429=1.0, retry_after=2)
    r = http.get(url)
    assert r.status_code == 429 and r.headers["retry-after"] == "2" and r.json() == {"error": "rate limited"}


def test_reset_mid_body_is_a_protocol_error(chaotic: SimulatorServer, url: str, http: httpx.Client) -> None:
    chaotic.chaos = ChaosConfig(rate_reset=1.0)
    with pytest.raises(httpx.RemoteProtocolError):
        http.get(url)
    chaotic.chaos = None
    assert http.get(url).status_code == 200  # the server survived


def test_truncated_body_is_not_json(chaotic: SimulatorServer, url: str, http: httpx.Client) -> None:
    chaotic.chaos = ChaosConfig(rate_truncate=1.0)
    r = http.get(url)
    assert r.status_code == 200 and int(r.headers["content-length"]) == len(r.content)
    with pytest.raises(json.JSONDecodeError):
        json.loads(r.content)


def test_trickled_body_arrives_in_pieces_but_whole(chaotic: SimulatorServer, url: str, http: httpx.Client) -> None:
    chaotic.chaos = ChaosConfig(rate_trickle=1.0)
    with http.stream("GET", url) as r:
        pieces = [chunk for chunk in r.iter_raw() if chunk]
    assert len(pieces) > 5
    assert len(json.loads(b"".join(pieces))["logs"]) == 20


def test_html_error_page(chaotic: SimulatorServer, url: str, http: httpx.Client) -> None:
    chaotic.chaos = ChaosConfig(rate_html=1.0)
    r = http.get(url)
    assert r.status_code == 502 and r.headers["content-type"].startswith("text/html") and "<html>" in r.text


def test_latency_spike(chaotic: SimulatorServer, url: str, http: httpx.Client) -> None:
    chaotic.chaos = ChaosConfig(rate_latency=1.0, latency_s=0.3)
    start = time.monotonic()
    r = http.get(url)
    assert r.status_code == 200 and time.monotonic() - start >= 0.3  # a lower bound only: never an upper one


def test_partial_rates_mix_faults_and_successes(chaotic: SimulatorServer, url: str, http: httpx.Client) -> None:
    chaotic.chaos = ChaosConfig(rate_5xx=0.3, rate_429=0.2, seed=4)
    codes = [http.get(url).status_code for _ in range(60)]
    assert 200 in codes and 429 in codes and any(c >= 500 for c in codes)


def test_spec_is_outside_chaos(chaotic: SimulatorServer, url: str, http: httpx.Client) -> None:
    chaotic.chaos = ChaosConfig(rate_5xx=1.0)
    assert http.get(chaotic.base_url + "/api/spec").status_code == 200
