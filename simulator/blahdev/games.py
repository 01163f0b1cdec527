"""Games (evidence_locker, comedy_night): models take turns, a judge scores each with reasoning.

Game turns are logged calls with source ``chatroom`` (games are played in the room and use
its llama2 prompt format); a turn's ``log_id`` points at the call.
"""

from __future__ import annotations

from simulator.blahdev import chat_templates as templates
from simulator.blahdev.small_model import stable_rng
from simulator.blahdev.world import Json, World

GAME_TYPES = ("evidence_locker", "comedy_night")
ROUNDS = 2
_PROMPTS = {
    "evidence_locker": (
        "Evidence locker: a muddy boot, a torn train ticket and a silver key were found "
        "by the empty frame. In two sentences, argue who took the painting and why."
    ),
    "comedy_night": "Comedy night! Tell one short, clean joke about {topic}.",
}
_TOPICS = ("penguins", "tax forms", "robots", "breakfast", "the moon", "umbrellas")


def create_game(world: World, game_type: str, at: int | None = None) -> Json:
    with world.lock:
        rng = stable_rng(world.seed, "game", len(world.games))
        players = [world.person_model_id] + rng.sample(world.peer_model_ids, 2)
        game: Json = {
            "id": world.new_id("game"),
            "game_type": game_type,
            "status": "running",
            "created_at": at if at is not None else world.now(),
            "completed_at": None,
            "model_ids": players,
            "winner_model_id": None,
            "turns": [],
            "_topic": rng.choice(_TOPICS),
        }
        world.games[game["id"]] = game
        return game


def play_turn(world: World, game_id: str, at: int | None = None) -> Json | None:
    """Play the next turn; None when the game is over. Completes the game after the last turn."""
    with world.lock:
        game = world.games[game_id]
        index = len(game["turns"])
        total = ROUNDS * len(game["model_ids"])
        if game["status"] != "running" or index >= total:
            return None
        model_id = game["model_ids"][index % len(game["model_ids"])]
        model = world.models[model_id]
        prompt = _PROMPTS[game["game_type"]].format(topic=game["_topic"])
        turns: list[templates.Turn] = [{"role": "user", "content": prompt}]
        entry, gen = world.call_model(
            model_id, turns, source="chatroom", max_tokens=96, template=templates.CHATROOM_TEMPLATE, at=at
        )
        rng = stable_rng(world.seed, "game-judge", entry["id"])
        score, reasoning = _judge_turn(gen.kind, gen.response, rng.random())
        turn: Json = {
            "index": index,
            "model_id": model_id,
            "author_name": model["name"],
            "content": gen.response,
            "score": score,
            "judge_reasoning": reasoning,
            "log_id": entry["id"],
            "created_at": entry["created_at"],
        }
        game["turns"].append(turn)
        if index + 1 == total:
            _complete(game, entry["created_at"])
        return turn


def _judge_turn(kind: str, response: str | None, roll: float) -> tuple[float | None, str]:
    if response is None:
        return None, "No answer: the call failed, so this turn is not scored."
    if kind == "ok":
        return round(0.6 + 0.4 * roll, 2), "On topic and it lands; clear structure and a real punchline or argument."
    if kind == "loop":
        return round(0.1 * roll, 2), "Repeats itself instead of playing; no argument or joke survives the loop."
    if kind in ("continuation", "leak"):
        return round(0.2 * roll, 2), "Drifts into unrelated text and stray tokens; it never addresses the prompt."
    return round(0.3 * roll, 2), "Weak entry: off topic or empty."


def _complete(game: Json, at: int) -> None:
    totals: dict[str, list[float]] = {}
    for turn in game["turns"]:
        if turn["score"] is not None:
            totals.setdefault(turn["model_id"], []).append(turn["score"])
    game["status"] = "completed"
    game["completed_at"] = at
    if totals:
        game["winner_model_id"] = max(totals, key=lambda m: sum(totals[m]) / len(totals[m]))


def public(game: Json, with_turns: bool) -> Json:
    """The wire shape: list views omit ``turns``; internal keys (``_``) never leave."""
    out = {k: v for k, v in game.items() if not k.startswith("_") and k != "turns"}
    if with_turns:
        out["turns"] = [dict(t) for t in game["turns"]]
    return out
