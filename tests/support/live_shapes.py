"""A tiny blah.dev in the live service's shapes (CONTRACT.md, "What is known of the live
service"), over real HTTP: runs without ``model_ids``, results whose ``score_details`` is a
JSON string or plain text, errors ``{"error": "<message>"}``, a leaderboard, and, unlike our
simulator, ``[]`` for the results of a run it does not know (a service may answer so; only
``GET /runs/{id}`` says 404). Everything it serves is fixed below, so tests can compare what
the CLI prints with what the service sent."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

T0 = 1_796_000_000_000
RUNS: list[dict[str, Any]] = [  # newest first, as GET /runs answers
    {
        "id": "r-live-2",
        "started_at": T0 + 60_000,
        "completed_at": None,
        "status": "running",
        "total_evals": 2,
        "total_models": 1,
        "completed_count": 1,
        "error": None,
    },
    {
        "id": "r-live-1",
        "started_at": T0,
        "completed_at": T0 + 30_000,
        "status": "completed",
        "total_evals": 2,
        "total_models": 2,
        "completed_count": 4,
        "error": None,
    },
]
JSON_REASONING = 'Names "Paris" correctly;\nbut adds <|im_end|> and [bold]markup[/bold] after it.'
PLAIN_DETAILS = 'Score: 3/10.\nThe reply loops: "the the the" and never answers.'
RESULTS: list[dict[str, Any]] = [
    {
        "id": "res-a",
        "eval_run_id": "r-live-1",
        "eval_id": "e1",
        "model_id": "m-small",
        "response": "Paris<|im_end|>",
        "score": 0.6,
        "score_details": json.dumps({"reasoning": JSON_REASONING, "criteria": {"accuracy": 0.9}}),
        "latency_ms": 120,
        "error": None,
        "raw_data": "{}",
        "created_at": T0 + 10_000,
    },
    {
        "id": "res-b",
        "eval_run_id": "r-live-1",
        "eval_id": "e2",
        "model_id": "m-small",
        "response": "the the the",
        "score": 0.3,
        "score_details": PLAIN_DETAILS,
        "latency_ms": 300,
        "error": None,
        "raw_data": "{}",
        "created_at": T0 + 20_000,
    },
    {
        "id": "res-c",
        "eval_run_id": "r-live-1",
        "eval_id": "e1",
        "model_id": "m-big",
        "response": "Paris",
        "score": 1.0,
        "score_details": json.dumps({"reasoning": "Correct and concise."}),
        "latency_ms": 90,
        "error": None,
        "raw_data": "{}",
        "created_at": T0 + 11_000,
    },
    {
        "id": "res-d",
        "eval_run_id": "r-live-1",
        "eval_id": "e2",
        "model_id": "m-big",
        "response": "Fine.",
        "score": 0.8,
        "score_details": "Good enough.",
        "latency_ms": 95,
        "error": None,
        "raw_data": "{}",
        "created_at": T0 + 21_000,
    },
]
LEADERBOARD: list[dict[str, Any]] = [  # deliberately not best first: the client orders it
    {"model_id": "m-small", "model_name": "Small", "avg_score": 0.45, "eval_count": 2, "last_run_at": T0 + 30_000},
    {"model_id": "m-none", "model_name": "Never scored", "avg_score": None, "eval_count": 0, "last_run_at": None},
    {"model_id": "m-big", "model_name": "Big", "avg_score": 0.9, "eval_count": 2, "last_run_at": T0 + 30_000},
]


class _Handler(BaseHTTPRequestHandler):
    one_run_route = True  # GET /runs/{id}: in the contract, not among the routes the public client shows

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def _send(self, status: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        runs = {r["id"]: r for r in RUNS}
        if path == "/api/v1/runs":
            return self._send(200, RUNS)
        if path == "/api/v1/leaderboard":
            return self._send(200, LEADERBOARD)
        if (match := re.fullmatch(r"/api/v1/runs/([^/]+)", path)) and self.one_run_route:
            run = runs.get(match.group(1))
            return self._send(200, run) if run else self._send(404, {"error": "Run not found"})
        if match := re.fullmatch(r"/api/v1/runs/([^/]+)/results", path):
            return self._send(200, [r for r in RESULTS if r["eval_run_id"] == match.group(1)])
        if match := re.fullmatch(r"/api/v1/models/([^/]+)/results", path):
            return self._send(200, [r for r in RESULTS if r["model_id"] == match.group(1)])
        return self._send(404, {"error": "Not found"})


@contextmanager
def live_shaped_server(*, one_run_route: bool = True) -> Iterator[str]:
    """The server's origin (``http://127.0.0.1:PORT``) while the block runs. ``one_run_route``
    False: ``GET /runs/{id}`` answers 404 for every run (a service without that route)."""
    handler = type("Handler", (_Handler,), {"one_run_route": one_run_route})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
