"""The FastAPI application: routers under /api/v1, errors as {"error"}, OpenAPI at /api/spec."""

from __future__ import annotations

from fastapi import FastAPI

from simulator.blahdev import routes_data, routes_logs, routes_models, routes_runs, routes_social
from simulator.blahdev.jobs import Jobs
from simulator.blahdev.world import World
from simulator.chaos import ChaosState
from simulator.http import install_error_handlers
from simulator.platform_app import platform_app
from simulator.request_log import RequestLog

DESCRIPTION = """\
A local, seeded simulation of blah.dev (see CONTRACT.md). Every response is JSON except the
Lens NDJSON stream; errors are `{"error": "<text>"}` with the HTTP status; bad query or body
values answer 422; unknown ids 404. Times are integers, ms since the Unix epoch.

Auth: reads are open. Writes need `Authorization: Bearer <key>` (no key or an unknown key:
401). Council tier (member keys get 403): failure-clusters, POST /runs, resume, cancel,
chatroom mute. Lists are bare arrays: models, evals, runs, results, leaderboard, webhooks,
games, training-sets.

Choices where the contract is silent: as on the live service an eval is one prompt, so run
`total_evals` counts evals and a run has one result per (eval, model); the leaderboard ranks
each model on its own latest COMPLETED run; runs add statuses queued/stalled/cancelled;
chatroom prompts
are rendered in llama2 `[INST]` format for every model; infer/chat/eval prompts use the
model's own template (a `User:/Assistant:` transcript when unknown); webhooks are delivered
only to loopback hosts; Lens: 200 `{"available": false}` for models without a bundle, 404 on
analyze. Chaos faults (if enabled) only affect /api/v1.

The person's small model (tinystories-chat-1m, trained on chatml) fails at documented rates
(simulator/blahdev/small_model.py): on a short prompt in its own template 62% ok, 10% wrong, 4%
empty (also a bare `<|im_end|>` or whitespace), 5% loops, 5% truncated at max_tokens, 4%
continues the prompt, 4% refuses, 6% leaks end-of-turn tokens. Long prompts, JSON and maths
tasks fail more; in the chatroom's mismatched llama2 format it fails ~83% of the time,
mostly by continuation, leaks and loops. The judge is wrong on purpose now and then (4%
high scores for empty/looping replies, 3% reasoning contradicting the score) and 12% of
score_details are plain text. Failed calls have no score (null), never an invented one; their
score_details says so in plain text ("Not judged: the model's call failed (...)"), never null.
"""


def create_app(world: World, jobs: Jobs, chaos: ChaosState, request_log: RequestLog | None = None) -> FastAPI:
    return platform_app(
        title="blah.dev simulator",
        version="1.0.0",
        description=DESCRIPTION,
        spec_url="/api/spec",
        prefix="/api/v1",
        routers=[module.router for module in (routes_logs, routes_models, routes_runs, routes_social, routes_data)],
        install_error_handlers=install_error_handlers,
        chaos=chaos,
        request_log=request_log,
        state={"world": world, "jobs": jobs},
        background=jobs,
    )
