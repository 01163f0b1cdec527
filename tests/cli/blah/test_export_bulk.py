"""`blah-tui export` reads its pages over ``BulkGet``'s light connection; an answer that is not
a plain page (an error status, a reset connection, a cut body, HTML) is asked again through the
client's normal path, which retries: the file is still every call, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from api_client.transport.bulk_get import BulkFallback, BulkGet
from cli.blah.export import export_main
from simulator.chaos import ChaosConfig
from simulator.server import SimulatorServer
from tests.support.platform_logs import expected_file, platform_calls

platform = platform_calls  # the calls as the client hands them back


def export_counting_bulk(sim: SimulatorServer, out: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Run the export; how many pages were asked over ``BulkGet`` and how many fell back."""
    seen = {"bulk": 0, "fallback": 0}
    real_get = BulkGet.get

    async def counted(self: BulkGet, target: str) -> bytes:
        seen["bulk"] += 1
        try:
            return await real_get(self, target)
        except BulkFallback:
            seen["fallback"] += 1
            raise

    monkeypatch.setattr(BulkGet, "get", counted)
    assert export_main(sim.person_model_id, base_url=sim.base_url, api_key=None, output=str(out)) == 0
    return seen


def test_every_page_comes_over_the_light_connection(
    fresh_sim: SimulatorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh_sim.world.add_log_burst(2400, same_ms=False)
    want = platform(fresh_sim)
    out = tmp_path / "dump.jsonl"
    seen = export_counting_bulk(fresh_sim, out, monkeypatch)
    assert seen == {"bulk": len(want) // 500 + 1, "fallback": 0}  # every page of 500, the last short
    assert out.read_bytes() == expected_file(fresh_sim, want)


def test_answers_it_cannot_take_are_asked_again_and_the_file_is_whole(
    fresh_sim: SimulatorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh_sim.world.add_log_burst(2400, same_ms=False)
    want = platform(fresh_sim)
    fresh_sim.chaos = ChaosConfig(rate_5xx=0.15, rate_429=0.1, rate_reset=0.1, rate_html=0.1, retry_after=0, seed=4)
    out = tmp_path / "dump.jsonl"
    try:
        seen = export_counting_bulk(fresh_sim, out, monkeypatch)
    finally:
        fresh_sim.chaos = ChaosConfig()
    assert seen["fallback"] >= 1  # some answers were not plain pages: asked again, retried
    assert out.read_bytes() == expected_file(fresh_sim, want)
