"""Background work in the server's event loop: run progress, chatroom replies, chat jobs,
games, webhook deliveries and (with ``live=True``) the platform's own ongoing activity.

``speed`` divides every simulated delay: at speed 1 a run of one model over all 38 evals
takes about a minute (``EVAL_SECONDS`` per eval and model).

Webhooks: every registered webhook whose ``event_types`` holds the event gets a POST of
``{"id", "event", "created_at", "data"}``, but ONLY when its URL's host is loopback
(127.0.0.0/8, ``localhost``, ``::1``); other URLs are accepted at registration and never
contacted (recorded as ``skipped`` in ``world.deliveries``). With a secret, the request
carries ``X-Blah-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import logging
import random
from collections.abc import Coroutine
from typing import Any

import httpx
import orjson

from simulator.blahdev import catalog, chatroom, games, runs
from simulator.blahdev.chat_templates import Turn
from simulator.blahdev.world import Json, World

EVAL_SECONDS = 60.0 / len(catalog.EVALS)
REPLY_SECONDS = 1.5
CHAT_JOB_SECONDS = 0.8
GAME_TURN_SECONDS = 2.0
LIVE_CHATROOM_SECONDS = 6.0
LIVE_CALL_SECONDS = 2.0
LIVE_BURST_SECONDS = 45.0
LIVE_GAME_SECONDS = 90.0
LIVE_RUN_FIRST_SECONDS = 20.0
LIVE_RUN_GAP_SECONDS = (15 * 60.0, 30 * 60.0)
MAX_BACKGROUND_RUNS = 3
"""Runs on the live platform start when someone starts one: besides the person's own, the
world starts at most this many, of other people's models, the first soon after start and the
rest 15-30 simulated minutes apart (it used to start one of the person's model every ~80 s,
so an hour of demo listed ~45 near-identical runs)."""
log = logging.getLogger("simulator.blahdev.jobs")


def is_loopback_url(url: str) -> bool:
    try:
        host = httpx.URL(url).host
    except (httpx.InvalidURL, ValueError):
        return False
    if host in ("localhost", "::1"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Jobs:
    def __init__(self, world: World, speed: float, live: bool) -> None:
        self.world = world
        self.speed = speed
        self.live = live
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: set[asyncio.Task[Any]] = set()
        self.rng = random.Random(world.seed + 99)
        self.http: httpx.AsyncClient | None = None
        """Webhook deliveries' client, made on the first delivery: most runs of the simulator
        deliver none, and making one loads the CA bundle (~50 ms of CPU)."""
        self.delivering = False

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.delivering = True
        self.world.on_event = self._on_event
        for run in runs.runs_newest_first(self.world):
            if run["status"] in runs.ACTIVE:
                self.start_run(run["id"])
        if self.live:
            for coro in (
                self._live_chatroom(),
                self._live_calls(),
                self._live_bursts(),
                self._live_runs(),
                self._live_games(),
            ):
                self.spawn(coro)

    async def stop(self) -> None:
        self.world.on_event = None
        self.delivering = False
        await self.cancel_all()
        if self.http is not None:
            await self.http.aclose()
            self.http = None

    async def cancel_all(self) -> int:
        """Cancel every background task (live traffic, runs in progress, replies, games,
        deliveries); returns how many were running. Later API writes start new ones."""
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return len(tasks)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro, loop=self.loop)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background job failed", exc_info=task.exception())

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds / self.speed)

    # ------------------------------------------------------------------ work

    def start_run(self, run_id: str) -> None:
        self.spawn(self._progress(run_id))

    async def _progress(self, run_id: str) -> None:
        for eval_id, model_id in runs.pending_pairs(self.world, run_id):
            await self.sleep(EVAL_SECONDS)
            if runs.run_eval(self.world, run_id, eval_id, model_id) is None:
                return  # cancelled, stalled or failed meanwhile
        runs.finish_run(self.world, run_id)

    def chatroom_replies(self, message_id: str, model_ids: list[str]) -> None:
        async def replies() -> None:
            for model_id in model_ids:
                await self.sleep(REPLY_SECONDS)
                chatroom.model_turn(self.world, model_id, reply_to=message_id)

        self.spawn(replies())

    def chat_job(self, job_id: str) -> None:
        async def work() -> None:
            await self.sleep(CHAT_JOB_SECONDS / 2)
            with self.world.lock:
                job = self.world.chat_jobs[job_id]
                job["status"] = "running"
            await self.sleep(CHAT_JOB_SECONDS / 2)
            entry, gen = self.world.call_model(
                job["model_id"], job["_turns"], source="chat", max_tokens=job["_max_tokens"]
            )
            with self.world.lock:
                job.update(
                    status="failed" if gen.error else "completed",
                    response=gen.response,
                    error=gen.error,
                    log_id=entry["id"],
                    completed_at=self.world.now(),
                )

        self.spawn(work())

    def play_game(self, game_id: str) -> None:
        async def play() -> None:
            while True:
                await self.sleep(GAME_TURN_SECONDS)
                if games.play_turn(self.world, game_id) is None:
                    return

        self.spawn(play())

    # ------------------------------------------------------------------ webhooks

    def _on_event(self, event: str, payload: Json) -> None:
        """Called by the world from any thread: schedule deliveries on our loop."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._fan_out, event, payload)

    def _fan_out(self, event: str, payload: Json) -> None:
        with self.world.lock:
            hooks = [dict(h) for h in self.world.webhooks.values() if event in h["event_types"]]
        for hook in hooks:
            self.spawn(self._deliver(hook, event, payload))

    async def _deliver(self, hook: Json, event: str, payload: Json) -> None:
        delivery_id = self.world.new_id("dlv")
        record: Json = {
            "id": delivery_id,
            "webhook_id": hook["id"],
            "event": event,
            "status_code": None,
            "outcome": "skipped",
            "error": None,
        }
        if is_loopback_url(hook["url"]) and self.delivering:
            if self.http is None:
                self.http = httpx.AsyncClient(timeout=5.0, trust_env=False)
            body = orjson.dumps({"id": delivery_id, "event": event, "created_at": self.world.now(), "data": payload})
            headers = {"Content-Type": "application/json", "X-Blah-Event": event, "X-Blah-Delivery": delivery_id}
            if hook.get("_secret"):
                digest = hmac.new(hook["_secret"].encode(), body, hashlib.sha256).hexdigest()
                headers["X-Blah-Signature"] = f"sha256={digest}"
            try:
                response = await self.http.post(hook["url"], content=body, headers=headers)
                record.update(outcome="delivered", status_code=response.status_code)
            except httpx.HTTPError as exc:
                record.update(outcome="failed", error=type(exc).__name__)
        with self.world.lock:
            self.world.deliveries.append(record)

    # ------------------------------------------------------------------ live activity

    async def _live_chatroom(self) -> None:
        while True:
            await self.sleep(LIVE_CHATROOM_SECONDS * self.rng.uniform(0.5, 1.5))
            speakers = self.world.unmuted()
            if speakers:
                chatroom.model_turn(self.world, self.rng.choice(speakers))

    async def _live_calls(self) -> None:
        from simulator.blahdev.seeded_past import CHAT_CONVERSATIONS, TEST_PROMPTS

        while True:
            await self.sleep(LIVE_CALL_SECONDS * self.rng.uniform(0.5, 1.5))
            model_id = (
                self.world.person_model_id if self.rng.random() < 0.7 else self.rng.choice(self.world.peer_model_ids)
            )
            if self.rng.random() < 0.6:
                self.world.infer(model_id, self.rng.choice(TEST_PROMPTS), 128)
            else:
                convo = self.rng.choice(CHAT_CONVERSATIONS)
                turns: list[Turn] = [
                    {"role": "user" if i % 2 == 0 else "assistant", "content": c} for i, c in enumerate(convo)
                ]
                self.world.call_model(model_id, turns, source="chat", max_tokens=128)

    async def _live_bursts(self) -> None:
        """More than a page (>500) of calls sharing a few milliseconds, between two polls."""
        while True:
            await self.sleep(LIVE_BURST_SECONDS)
            self.world.add_log_burst(self.rng.randint(520, 800), same_ms=True)

    async def _live_runs(self) -> None:
        """Other people's runs: a few over the session (:data:`MAX_BACKGROUND_RUNS`), never the
        person's model (its runs are the ones the person starts)."""
        await self.sleep(LIVE_RUN_FIRST_SECONDS)
        for started in range(MAX_BACKGROUND_RUNS):
            if started:
                await self.sleep(self.rng.uniform(*LIVE_RUN_GAP_SECONDS))
            peers = self.world.peer_model_ids
            if not peers:
                return
            chosen = self.rng.sample(peers, k=min(len(peers), self.rng.randint(1, 2)))
            run = runs.create_run(self.world, chosen)
            await self._progress(run["id"])

    async def _live_games(self) -> None:
        while True:
            await self.sleep(LIVE_GAME_SECONDS)
            game = games.create_game(self.world, self.rng.choice(games.GAME_TYPES))
            with contextlib.suppress(KeyError):
                self.play_game(game["id"])
