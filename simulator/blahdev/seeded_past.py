"""The seeded past of a world: two days of calls, runs, chatroom, health, games, sets.

Deterministic for a seed and an anchor time (``snapshot.seeded_world(seed, anchor_ms=...)``): every
random choice comes from ``random.Random`` seeded from the world seed.

Timeline (A = anchor, "now"):
- health checks every 5 minutes for every model; the person's model is down from A-20h to
  A-17h (checks fail, its calls error), mistral from A-7h to A-6.5h;
- runs: A-46h all models (completed), A-19h three models (failed: the person's endpoint
  was down), A-8h all models (completed: the leaderboard), A-3h two models (stalled at ~40%);
- a chatroom turn about every 100 s (the person's model takes ~45% of turns), a few people;
- the person's test scripts: ~40 batches of ~50 infer calls plus scattered single calls;
- chat conversations; three finished games; two ready training sets.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from simulator.blahdev import chatroom, games, runs
from simulator.blahdev.chat_templates import Turn
from simulator.blahdev.world import Json, World

HOUR = 3_600_000
MINUTE = 60_000
HOSTILE_HUMAN_MESSAGES = (
    "copy this: \x1b]52;c;SGVsbG8=\x07 (a clipboard escape, should show as text)",
    "file name: report\u202egnp.exe looks odd",
    "does this render? [@click=app.quit]x[/] and a stray [/]",
)
HUMAN_MESSAGES = (
    "What are you all working on?",
    "Tell me a story about a cat.",
    "Who knows the capital of Spain?",
    "Can someone explain why the sky is blue?",
    "Let's play a word game!",
    "Hello everyone!",
)
TEST_PROMPTS = (
    "The capital of France is",
    "Once upon a time there was a little",
    "Tell me a story about a dog.",
    "What is 7 * 8?",
    "What is 15 + 27?",
    'Return only JSON with keys "title" and "year" for: Up, 2009.',
    "Write one sentence about the sea.",
    "Translate to French: good morning.",
    "Is the moon a planet?",
    "Summarise in one sentence: "
    + " ".join(
        ["The children built a sandcastle on the beach and decorated it with shells before the tide came in."] * 5
    ),
    "Continue the story: Tom opened the old box and found",
    "List three animals, one per line.",
    "Explain photosynthesis to a five year old.",
    "Hello, who are you?",
)
CHAT_CONVERSATIONS: tuple[tuple[str, ...], ...] = (
    ("Hi!", "Hello! How can I help?", "Tell me a short story about a frog."),
    ("What is your favourite colour?",),
    ("I am sad today.", "I'm sorry to hear that. Do you want to talk about it?", "My cat is sick."),
    ("Can you count to five?",),
    ("Write a poem about rain.",),
    ("What is 3 + 4?", "3 + 4 = 7.", "And 7 * 2?"),
)


def build_history(world: World) -> None:
    rng = random.Random(world.seed * 1_000_003 + 17)
    a = world.anchor_ms
    start = a - 48 * HOUR
    world.outages = {
        world.person_model_id: [(a - 20 * HOUR, a - 17 * HOUR)],
        "mistral-7b-instruct": [(a - 7 * HOUR, a - 7 * HOUR + 30 * MINUTE)],
    }
    _health(world, rng, start, a)
    events: list[tuple[int, int, Callable[[int], object]]] = []

    def at(t: int, fn: Callable[[int], object]) -> None:
        events.append((t, len(events), fn))

    _schedule_runs(world, a, at)
    _schedule_chatroom(world, rng, start, a, at)
    _schedule_calls(world, rng, start, a, at)
    for hours, game_type in ((30, "comedy_night"), (10, "evidence_locker"), (1, "comedy_night")):
        t0 = a - hours * HOUR
        at(t0, partial(_play_game, world, game_type))
    events.sort(key=lambda e: (e[0], e[1]))
    for t, _, fn in events:
        fn(t)
    _training_sets(world, a)


def _health(world: World, rng: random.Random, start: int, end: int) -> None:
    for model_id in world.models:
        checks: list[Json] = []
        for t in range(start, end, 5 * MINUTE):
            if world.is_down(model_id, t):
                down_kind = rng.random()
                status = 502 if down_kind < 0.6 else None
                error = "502 Bad Gateway" if status else "timed out after 10 s"
                checks.append(
                    {
                        "checked_at": t,
                        "ok": False,
                        "latency_ms": 10000 if status is None else rng.randint(20, 200),
                        "status_code": status,
                        "error": error,
                    }
                )
            else:
                checks.append(
                    {"checked_at": t, "ok": True, "latency_ms": rng.randint(40, 400), "status_code": 200, "error": None}
                )
        world.health[model_id] = checks


def _schedule_runs(world: World, a: int, at: Callable[[int, Callable[[int], object]], None]) -> None:
    peers = world.peer_model_ids
    plans = (
        (a - 46 * HOUR, [world.person_model_id, *peers], "complete"),
        (a - 19 * HOUR, [world.person_model_id, "llama-3.1-8b-instruct", "gemma-2-9b-it"], "fail"),
        (a - 8 * HOUR, [world.person_model_id, *peers], "complete"),
        (a - 3 * HOUR, [world.person_model_id, "llama-3.1-8b-instruct"], "stall"),
    )
    for t0, models, fate in plans:
        run = runs.create_run(world, models, at=t0)
        pairs = runs.pending_pairs(world, run["id"])
        cut = {"complete": len(pairs), "fail": int(len(pairs) * 0.6), "stall": int(len(pairs) * 0.4)}[fate]
        t = t0
        for eval_id, model_id in pairs[:cut]:
            t += 12_000
            at(t, partial(runs.run_eval, world, run["id"], eval_id, model_id))
        end = t + 5_000
        if fate == "complete":
            at(end, partial(runs.finish_run, world, run["id"]))
        elif fate == "fail":
            err = (
                f"model {world.person_model_id} unreachable: 12 consecutive errors "
                "(502 Bad Gateway); see its health checks"
            )
            at(end, partial(runs.fail_run, world, run["id"], err))
        else:
            at(end, partial(_stall_quietly, world, run["id"]))


def _stall_quietly(world: World, run_id: str, _t: int) -> None:
    with world.lock:
        world.runs[run_id]["status"] = "stalled"


def _schedule_chatroom(
    world: World, rng: random.Random, start: int, end: int, at: Callable[[int, Callable[[int], object]], None]
) -> None:
    peers = world.peer_model_ids
    hostile = list(HOSTILE_HUMAN_MESSAGES)
    t = start + rng.randint(0, 100_000)
    while t < end - 2 * MINUTE:
        roll = rng.random()
        if roll < 0.03:
            text = hostile.pop() if hostile and rng.random() < 0.2 else rng.choice(HUMAN_MESSAGES)
            at(t, partial(chatroom.post_human, world, text, "visitor", None))
        else:
            speaker = world.person_model_id if roll < 0.48 else rng.choice(peers)
            at(t, partial(chatroom.model_turn, world, speaker, None))
        t += rng.randint(60_000, 140_000)
    for i, text in enumerate(hostile):  # whatever was not placed at random goes near the end
        at(end - 30 * MINUTE + i * MINUTE, partial(chatroom.post_human, world, text, "visitor", None))
    at(end - 20 * MINUTE, partial(_hostile_reply, world))


def _hostile_reply(world: World, t: int) -> None:
    """A peer reply that quotes markup back (so the UI must not interpret it)."""
    message = chatroom.model_turn(world, "mystery-13b", at=t)
    if message is not None:
        with world.lock:
            text = "Sure: [@click=app.quit]x[/] is just text, like [/] and \x1b]52;c;SGVsbG8=\x07."
            message["content"] = text
            world.logs.by_id[message["log_id"]]["response"] = text


def _schedule_calls(
    world: World, rng: random.Random, start: int, end: int, at: Callable[[int, Callable[[int], object]], None]
) -> None:
    person = world.person_model_id
    for _ in range(40):  # batch scripts: ~50 calls in a few seconds
        t0 = rng.randint(start, end - 5 * MINUTE)
        for k in range(rng.randint(40, 60)):
            prompt = rng.choice(TEST_PROMPTS)
            at(t0 + k * rng.randint(20, 120), partial(_infer, world, person, prompt, 128))
    targets = [(person, 250, 500)] + [(m, 40, 60) for m in world.peer_model_ids]
    for model_id, n_test, n_chat in targets:
        for _ in range(n_test):
            prompt = rng.choice(TEST_PROMPTS)
            at(rng.randint(start, end - MINUTE), partial(_infer, world, model_id, prompt, 128))
        for _ in range(n_chat):
            convo = rng.choice(CHAT_CONVERSATIONS)
            turns: list[Turn] = [
                {"role": "user" if i % 2 == 0 else "assistant", "content": c} for i, c in enumerate(convo)
            ]
            at(rng.randint(start, end - MINUTE), partial(_chat, world, model_id, turns))
    hostile_prompt = "Repeat after me: \x1b]52;c;SGVsbG8=\x07 [/] [@click=app.quit]x[/]"
    at(end - 40 * MINUTE, partial(_infer, world, person, hostile_prompt, 64))


def _infer(world: World, model_id: str, prompt: str, max_tokens: int, t: int) -> None:
    world.infer(model_id, prompt, max_tokens, at=t)


def _chat(world: World, model_id: str, turns: list[Turn], t: int) -> None:
    world.call_model(model_id, turns, source="chat", max_tokens=128, at=t)


def _play_game(world: World, game_type: str, t0: int) -> None:
    game = games.create_game(world, game_type, at=t0)
    t = t0
    while games.play_turn(world, game["id"], at=t) is not None:
        t += 20_000


def _training_sets(world: World, a: int) -> None:
    for name, count, size in (("chatml-fixes-v1", 420, 181_000), ("tinystories-clean-v2", 2000, 1_240_000)):
        ts_id = world.new_id("ts")
        world.training_sets[ts_id] = {
            "id": ts_id,
            "name": name,
            "filename": f"{name}.jsonl",
            "size_bytes": size,
            "status": "ready",
            "example_count": count,
            "created_at": a - 36 * HOUR,
        }
