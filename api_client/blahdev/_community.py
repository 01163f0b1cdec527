"""Endpoints of the community side: chat jobs, the chatroom, webhooks and games."""

from __future__ import annotations

from typing import Any

from api_client.blahdev import _parse as P
from api_client.blahdev._base import EndpointBase, id_list
from api_client.blahdev.shapes import (
    ChatJob,
    ChatroomMessageDetail,
    ChatroomMuteState,
    ChatroomPage,
    ChatroomPosted,
    Game,
    Webhook,
)
from api_client.transport.request_members import given
from api_client.transport.url_paths import api_path, segment


class CommunityEndpoints(EndpointBase):
    # ------------------------------------------------------------------ chat

    async def chat(self, model_id: str, messages: list[dict[str, Any]]) -> ChatJob:
        """Queue a chat; poll :meth:`get_chat_job` for the answer."""
        segment(model_id, what="model id")
        body = {"model_id": model_id, "messages": list(messages)}
        return await self._post(api_path("chat"), P.chat_job, body)

    async def get_chat_job(self, job_id: str) -> ChatJob:
        path = api_path("chat", "jobs", segment(job_id, what="job id"))
        return await self._get(path, P.chat_job)

    # ------------------------------------------------------------------ webhooks

    async def list_webhooks(self) -> list[Webhook]:
        return await self._get(api_path("webhooks"), P.list_of(Webhook, "webhooks"))

    async def create_webhook(self, url: str, event_types: list[str], *, secret: str | None = None) -> Webhook:
        body = {"url": url, "event_types": id_list(event_types, "event_types"), **given(secret=secret)}
        return await self._post(api_path("webhooks"), P.one(Webhook, "webhook"), body)

    async def delete_webhook(self, webhook_id: str) -> None:
        path = api_path("webhooks", segment(webhook_id, what="webhook id"))
        await self._http.request_json("DELETE", path, P.nothing, allow_empty=True)

    # ------------------------------------------------------------------ chatroom

    async def chatroom(self, *, limit: int | None = None, since: int | None = None) -> ChatroomPage:
        params: dict[str, Any] = {}
        if limit is not None:
            params["limit"] = int(limit)
        if since is not None:
            params["since"] = int(since)
        return await self._get(api_path("chatroom"), P.one(ChatroomPage), params)

    async def chatroom_message(self, message_id: str) -> ChatroomMessageDetail:
        path = api_path("chatroom", segment(message_id, what="message id"))
        return await self._get(path, P.one(ChatroomMessageDetail))

    async def post_chatroom(self, content: str, *, reply_from: str | None = None) -> ChatroomPosted:
        if reply_from is not None:
            segment(reply_from, what="reply_from model id")
        body = {"content": content, **given(reply_from=reply_from)}
        return await self._post(api_path("chatroom"), P.one(ChatroomPosted), body)

    async def set_chatroom_enabled(self, model_id: str, enabled: bool) -> ChatroomMuteState:
        """Council tier: mute (``False``) or unmute a model in the chatroom."""
        path = api_path("models", segment(model_id, what="model id"), "chatroom")
        return await self._post(path, P.one(ChatroomMuteState), {"enabled": bool(enabled)})

    # ------------------------------------------------------------------ games

    async def list_games(self) -> list[Game]:
        return await self._get(api_path("games"), P.list_of(Game, "games"))

    async def get_game(self, game_id: str) -> Game:
        path = api_path("games", segment(game_id, what="game id"))
        return await self._get(path, P.one(Game, "game"))

    async def create_game(self, game_type: str) -> Game:
        return await self._post(api_path("games"), P.one(Game, "game"), {"game_type": game_type})
