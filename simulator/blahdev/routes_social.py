"""Chatroom, chatroom mute, games and webhooks."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from simulator.blahdev import chatroom, games
from simulator.blahdev import shapes as schemas
from simulator.blahdev.auth import Account, Council
from simulator.blahdev.deps import answer_one, error_responses, jobs_of, model_or_404, world_of
from simulator.http import ApiError, json_response, not_found

router = APIRouter(tags=["chatroom, games, webhooks"])
E404 = error_responses(404)
AUTH = error_responses(401)
E422 = error_responses(422)


@router.get("/chatroom", response_model=schemas.ChatroomPage, responses=E422, summary="Chatroom messages, newest first")
async def get_chatroom(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    since: Annotated[int | None, Query(description="created_at > since (ms)")] = None,
) -> Response:
    """Same `since`/`next_since` semantics as logs. Model messages carry `log_id`: the call
    behind them, whose prompt is in the platform's llama2 chatroom format."""
    return json_response(chatroom.page(world_of(request), limit, since))


@router.get(
    "/chatroom/{message_id}",
    response_model=schemas.ChatroomMessageDetail,
    responses=E404,
    summary="One message with the call behind it (`log`, null for people)",
)
async def get_message(request: Request, message_id: str) -> Response:
    detail = chatroom.detail(world_of(request), message_id)
    if detail is None:
        raise not_found(f"message {message_id!r}")
    return json_response(detail)


@router.post(
    "/chatroom",
    status_code=201,
    response_model=schemas.ChatroomPosted,
    responses={**AUTH, **E404, **E422},
    summary="Post as a person; models reply later",
)
async def post_chatroom(request: Request, body: schemas.ChatroomPost, account: Account) -> Response:
    """Replies arrive as new messages (reply_to = this message) about 1.5 s apart (scaled by
    speed): from `reply_from` only, or from every unmuted model. A muted `reply_from` gives
    an empty `replies_expected_from`."""
    world = world_of(request)
    if body.reply_from is not None:
        model_or_404(world, body.reply_from)
    message, expected = chatroom.post_human(world, body.content, account["user"], body.reply_from)
    jobs_of(request).chatroom_replies(message["id"], expected)
    return json_response({"message": message, "replies_expected_from": expected}, 201)


@router.post(
    "/models/{model_id}/chatroom",
    response_model=schemas.MuteState,
    responses=error_responses(401, 403, 404, 422),
    summary="Mute or unmute a model in the chatroom (council tier)",
)
async def set_chatroom(request: Request, model_id: str, body: schemas.ChatroomToggle, _: Council) -> Response:
    """A muted model takes no more turns (timer or replies) and keeps its scores and history."""
    world = world_of(request)
    model_or_404(world, model_id)
    return json_response(world.set_chatroom_enabled(model_id, body.enabled))


@router.get("/games", response_model=list[schemas.Game], summary="Every game, newest first (a bare array)")
async def list_games(request: Request) -> Response:
    world = world_of(request)
    with world.lock:
        items = sorted(world.games.values(), key=lambda g: (g["created_at"], g["id"]), reverse=True)
        return json_response([games.public(g, with_turns=False) for g in items])


@router.get(
    "/games/{game_id}",
    response_model=schemas.Game,
    responses=E404,
    summary="One game with its turns and the judge's reasoning",
)
async def get_game(request: Request, game_id: str) -> Response:
    world = world_of(request)
    return answer_one(world, world.games, game_id, "game", lambda game: games.public(game, with_turns=True))


@router.post(
    "/games",
    status_code=201,
    response_model=schemas.Game,
    responses={**AUTH, **E422},
    summary="Start a game (evidence_locker or comedy_night); it plays out in the background",
)
async def create_game(request: Request, body: schemas.GameCreate, _: Account) -> Response:
    """The person's model and two peers; two rounds; one turn about every 2 s (scaled)."""
    world = world_of(request)
    game = games.create_game(world, body.game_type)
    jobs_of(request).play_game(game["id"])
    with world.lock:
        return json_response(games.public(game, with_turns=True), 201)


def _public_hook(hook: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in hook.items() if not k.startswith("_")}


@router.get(
    "/webhooks",
    response_model=list[schemas.Webhook],
    responses=AUTH,
    summary="Your webhooks (a bare array; secrets are never listed)",
)
async def list_webhooks(request: Request, account: Account) -> Response:
    world = world_of(request)
    with world.lock:
        hooks = [_public_hook(h) for h in world.webhooks.values() if h["_owner"] == account["user"]]
    return json_response(hooks)


@router.post(
    "/webhooks",
    status_code=201,
    response_model=schemas.Webhook,
    responses={**AUTH, **E422},
    summary="Subscribe a URL to events",
)
async def create_webhook(request: Request, body: schemas.WebhookCreate, account: Account) -> Response:
    """Events: `run.completed`, `run.failed`, `run.stalled`, `chatroom.message`. Any http(s)
    URL is accepted, but the simulator only ever delivers to loopback hosts (127.0.0.0/8,
    localhost, ::1). A delivery is a POST of `{"id", "event", "created_at", "data"}` with
    headers X-Blah-Event, X-Blah-Delivery and, when `secret` was given,
    `X-Blah-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`. The secret is echoed
    only in this answer."""
    if not body.url.startswith(("http://", "https://")):
        raise ApiError(422, "url must be an http(s) URL")
    world = world_of(request)
    with world.lock:
        hook = {
            "id": world.new_id("wh"),
            "url": body.url,
            "event_types": list(dict.fromkeys(body.event_types)),
            "created_at": world.now(),
            "_owner": account["user"],
            "_secret": body.secret,
        }
        world.webhooks[hook["id"]] = hook
        public = _public_hook(hook)
    if body.secret is not None:
        public["secret"] = body.secret
    return json_response(public, 201)


@router.delete(
    "/webhooks/{webhook_id}",
    response_model=schemas.Deleted,
    responses={**AUTH, **E404},
    summary="Remove one of your webhooks",
)
async def delete_webhook(request: Request, webhook_id: str, account: Account) -> Response:
    world = world_of(request)
    with world.lock:
        hook = world.webhooks.get(webhook_id)
        if hook is None or hook["_owner"] != account["user"]:
            raise not_found(f"webhook {webhook_id!r}")
        del world.webhooks[webhook_id]
    return json_response({"id": webhook_id, "deleted": True})
