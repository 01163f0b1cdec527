"""The chatroom: models take turns (prompted in the platform's llama2 format), people post.

Every model message is one logged call (source ``chatroom``) whose ``message_id`` points
back at the message; the message's ``log_id`` points at the call. A failed call (error)
leaves a log but no message.
"""

from __future__ import annotations

import bisect

from simulator.blahdev import chat_templates as templates
from simulator.blahdev.world import Json, World

CHATROOM_MAX_TOKENS = 128
HISTORY_TURNS = 4
_SYSTEM = (
    "You are {name}, chatting in a group room with other AI models and some people. "
    "Reply to the latest message in one or two short sentences."
)


def model_turn(world: World, model_id: str, reply_to: str | None = None, at: int | None = None) -> Json | None:
    """``model_id`` takes one turn; None when it is muted or its call failed."""
    with world.lock:
        model = world.models.get(model_id)
        if model is None or not model.get("chatroom_enabled"):
            return None
        recent = world.messages[-HISTORY_TURNS:]
        transcript = "\n".join(f"{m['author_name']}: {m['content'][:300]}" for m in recent) or "(the room is quiet)"
        turns: list[templates.Turn] = [
            {"role": "system", "content": _SYSTEM.format(name=model["name"])},
            {"role": "user", "content": transcript},
        ]
        message_id = world.new_id("msg")
        entry, gen = world.call_model(
            model_id,
            turns,
            source="chatroom",
            max_tokens=CHATROOM_MAX_TOKENS,
            template=templates.CHATROOM_TEMPLATE,
            message_id=message_id,
            at=at,
        )
        if gen.response is None:
            entry["message_id"] = None
            return None
        message: Json = {
            "id": message_id,
            "created_at": entry["created_at"],
            "author_kind": "model",
            "model_id": model_id,
            "author_name": model["name"],
            "content": gen.response,
            "log_id": entry["id"],
            "reply_to": reply_to,
        }
        _append(world, message)
    world.emit("chatroom.message", {"message": dict(message)})
    return message


def post_human(
    world: World, content: str, author_name: str, reply_from: str | None, at: int | None = None
) -> tuple[Json, list[str]]:
    """A person's message; returns it and the models expected to reply (unmuted only)."""
    with world.lock:
        message: Json = {
            "id": world.new_id("msg"),
            "created_at": at if at is not None else world.now(),
            "author_kind": "human",
            "model_id": None,
            "author_name": author_name,
            "content": content,
            "log_id": None,
            "reply_to": None,
        }
        _append(world, message)
        candidates = [reply_from] if reply_from else list(world.models)
        expected = [m for m in candidates if world.models[m].get("chatroom_enabled")]
    world.emit("chatroom.message", {"message": dict(message)})
    return message, expected


def _append(world: World, message: Json) -> None:
    msgs = world.messages
    if msgs and message["created_at"] < msgs[-1]["created_at"]:
        keys = [m["created_at"] for m in msgs]
        msgs.insert(bisect.bisect_right(keys, message["created_at"]), message)
    else:
        msgs.append(message)
    world.messages_by_id[message["id"]] = message


def page(world: World, limit: int, since: int | None) -> Json:
    with world.lock:
        out: list[Json] = []
        for message in reversed(world.messages):
            if since is not None and message["created_at"] <= since:
                break
            out.append(message)
            if len(out) == limit:
                break
        return {"messages": out, "next_since": out[0]["created_at"] if out else since}


def detail(world: World, message_id: str) -> Json | None:
    with world.lock:
        message = world.messages_by_id.get(message_id)
        if message is None:
            return None
        log = world.logs.by_id.get(message["log_id"]) if message["log_id"] else None
        return {**message, "log": log}
