"""The simulator's own OpenAPI spec (``/api/spec``), fuzzed with schemathesis: whatever it is
sent, it never answers 5xx, and every answer (status, content type, headers, body) is one the
spec documents. In-process over ASGI (schemathesis runs the app's lifespan) with a private,
quiet world; writes carry the council key so they reach past the 401 gate.

Chaos is off here on purpose: chaos makes 5xx by design (tests/e2e/test_reliability_chaos.py).

The schema is loaded from a fixture (``schemathesis.pytest.from_fixture``), not at import: every
xdist worker collects every file, and building the world and the coverage-phase cases for ~40
operations at collection cost each worker ~4 s of CPU for a test only one of them runs.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from simulator.server import SimulatorServer

#: One worker runs the whole file, in order: the last test reads what the fuzzing before it sent
#: (``--dist loadfile`` in pyproject's addopts does; the group keeps it so under ``--dist
#: loadgroup``, where xdist may otherwise run it on another worker, whose request log is empty).
pytestmark = [pytest.mark.xdist_group("schemathesis_sim"), pytest.mark.slow]  # slow: ~15 s of fuzzing


@pytest.fixture(scope="module")
def server() -> SimulatorServer:
    """Never started as a server: schemathesis drives ``server.app`` in-process."""
    return SimulatorServer(seed=5, speed=20.0, live=False)


@pytest.fixture(scope="module")
def api_schema(server: SimulatorServer) -> Any:
    return schemathesis.openapi.from_asgi("/api/spec", server.app)


schema = schemathesis.pytest.from_fixture("api_schema")

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
EXAMPLES = 6
"""Random (fuzzing-phase) examples per operation, on top of schemathesis' examples and coverage
phases (boundary values: limit=0/501, missing fields, wrong types). ~40 operations x that keeps
the file at ~30 s of CPU."""


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_every_operation_answers_as_documented(case: Any, server: SimulatorServer) -> None:
    response = case.call_and_validate(headers={"Authorization": f"Bearer {server.council_key}"}, checks=CHECKS)
    assert response.status_code < 500


def test_the_spec_documents_every_route_of_the_guide(server: SimulatorServer) -> None:
    """Sanity of what was fuzzed: the spec is OpenAPI 3.1 and covers the guide's endpoints."""
    spec = server.app.openapi()
    assert spec["openapi"].startswith("3.1")
    paths = set(spec["paths"])
    for wanted in (
        "/api/v1/models/{model_id}/logs",
        "/api/v1/logs/{log_id}",
        "/api/v1/runs/{run_id}/resume",
        "/api/v1/chatroom",
        "/api/v1/models/{model_id}/lens/analyze",
        "/api/v1/webhooks/{webhook_id}",
        "/api/v1/training-sets/request-upload",
        "/api/v1/compare",
        "/api/v1/search",
    ):
        assert wanted in paths


def test_fuzzing_sent_requests_and_none_was_a_server_error(server: SimulatorServer) -> None:
    """Runs last in this file: the fuzzing above really reached the app (through the request
    log), and no answer it gave was a 5xx."""
    records = server.requests.records()
    operations = {(r.method, r.path) for r in records}
    print(f"\nschemathesis: {len(records)} requests, {len(operations)} distinct method+path")
    assert len(records) > 200
    assert all(r.status is not None and r.status < 500 for r in records)
