"""The person's model's calls as the platform holds them, for export tests (no tests here): as the
client hands them back (``Call``s, in its order) and as the platform's own JSON, so an exported
file can be compared with what ``LogEntry`` (blah.dev's wire model) validates and serializes."""

from __future__ import annotations

import asyncio
from typing import Any

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import LogEntry
from common.records import Call
from simulator.server import SimulatorServer
from tests.support import sim_http


def platform_calls(sim: SimulatorServer, **kw: Any) -> list[Call]:
    async def collect() -> list[Call]:
        async with BlahClient(sim.base_url) as client:
            return [e async for e in client.iter_logs(sim.person_model_id, **kw)]

    return asyncio.run(collect())


def platform_json(sim: SimulatorServer) -> dict[str, dict[str, Any]]:
    """Every call as the platform's JSON, by id: its pages read back with ``before`` (overlapping
    by one millisecond, as the contract says; an id seen twice kept once)."""
    found: dict[str, dict[str, Any]] = {}
    before: int | None = None
    while True:
        params: dict[str, Any] = {"limit": 500, **({"before": before} if before is not None else {})}
        page = sim_http.get(f"{sim.base_url}/api/v1/models/{sim.person_model_id}/logs", params=params).json()
        for entry in page["logs"]:
            found.setdefault(entry["id"], entry)
        if len(page["logs"]) < 500:
            return found
        before = page["next_before"] + 1


def expected_file(sim: SimulatorServer, calls: list[Call]) -> bytes:
    """The export of ``calls``: each one's platform JSON validated and serialized by ``LogEntry``."""
    wire = platform_json(sim)
    serialize = LogEntry.__pydantic_serializer__.to_json
    return b"".join(serialize(LogEntry.model_validate(wire[call.id])) + b"\n" for call in calls)
