"""The chatroom's two writes, each sent ONCE: posting a message and muting/unmuting a model
(no Textual; `blah-tui chatroom post|mute|unmute` use these).

A write whose answer is lost (``OutcomeUnknownError``) is never resent: a read settles it (the
room read back for a post, looking for our text among people's messages since just before we
posted; the model's ``chatroom_enabled`` for a mute), else it stays "outcome unknown".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from api_client.blahdev.shapes import ChatroomMessage
from api_client.errors import AuthError, BlahError, MissingKeyError, OutcomeUnknownError
from application.error_text import read_back_failed
from common.safe_strings import one_line

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["ChatWrite", "explain_chat_write_error", "post_message", "set_chatroom_enabled"]

Kind = Literal["done", "confirmed_after_timeout", "unchanged", "not_done", "unknown", "refused", "failed"]


@dataclass(frozen=True, slots=True)
class ChatWrite:
    """What happened to one chatroom write, in words the person can act on."""

    kind: Kind
    message: str
    posted: ChatroomMessage | None = None
    replies_expected_from: list[str] = field(default_factory=list)
    chatroom_enabled: bool | None = None
    error: BlahError | None = None

    @property
    def ok(self) -> bool:
        return self.kind in ("done", "confirmed_after_timeout", "unchanged")


def explain_chat_write_error(action: Literal["post", "mute"], error: BlahError) -> str:
    """A plain sentence for a refused or failed chatroom write."""
    doing = "posting" if action == "post" else "muting or unmuting"
    if isinstance(error, MissingKeyError):
        tier = "" if action == "post" else " (council tier)"
        return f"{doing} needs an API key{tier}; none is configured. Nothing was sent."
    if isinstance(error, AuthError) and error.status == 403:
        return (
            f"{doing} needs council tier: the platform refused this key (HTTP 403)"
            if action == "mute"
            else "the platform refused: this API key may not post here (HTTP 403)"
        )
    if isinstance(error, AuthError):
        return f"the platform did not accept the API key (HTTP {error.status})"
    status = f"HTTP {error.status}: " if error.status is not None else ""
    return f"{doing} failed: {status}{one_line(error.message, max_len=200)}"


async def post_message(
    client: BlahClient, content: str, *, reply_from: str | None = None, since: int | None = None
) -> ChatWrite:
    """``POST /chatroom`` once. ``since``: the newest message time seen before posting (a lost
    answer is settled by reading the room after it)."""
    try:
        posted = await client.post_chatroom(content, reply_from=reply_from)
    except OutcomeUnknownError:
        try:
            page = await client.chatroom(limit=100, since=since)
        except BlahError as error:
            return ChatWrite(
                "unknown",
                "Outcome unknown: the post timed out and reading the room failed "
                f"({one_line(str(error), max_len=120)}). It was not sent again.",
                error=error,
            )
        mine = [m for m in page.messages if m.author_kind == "human" and m.content == content]
        if mine:
            return ChatWrite(
                "confirmed_after_timeout", "The post timed out, but it is in the room: it was posted.", posted=mine[0]
            )
        return ChatWrite(
            "not_done", "The post timed out and it is not in the room: it was not posted. It was not sent again."
        )
    except AuthError as error:
        return ChatWrite("refused", explain_chat_write_error("post", error), error=error)
    except BlahError as error:
        return ChatWrite("failed", explain_chat_write_error("post", error), error=error)
    expected = list(posted.replies_expected_from)
    said = (
        "Posted; replies expected from " + ", ".join(one_line(m, max_len=60) for m in expected)
        if expected
        else "Posted, but no model will reply (the ones asked are muted)"
    )
    return ChatWrite("done", said + ".", posted=posted.message, replies_expected_from=expected)


async def already_in_state(client: BlahClient, model_id: str, enabled: bool) -> ChatWrite | None:
    """The model is already as asked (``GET /models/{id}`` says so): nothing is to be sent, and
    the person is told ("not muted: nothing to unmute"), not that it was done. None when it is
    not, or when the platform does not report the state (then the write decides)."""
    state = (await client.get_model(model_id)).chatroom_enabled
    if state is None or state != enabled:
        return None
    name = one_line(model_id, max_len=60)
    said = f"{name} is not muted: nothing to unmute" if enabled else f"{name} is already muted"
    return ChatWrite("unchanged", f"{said}; nothing was sent.", chatroom_enabled=state)


async def set_chatroom_enabled(client: BlahClient, model_id: str, enabled: bool) -> ChatWrite:
    """``POST /models/{id}/chatroom`` once; a lost answer is settled with ``GET /models/{id}``."""
    name = one_line(model_id, max_len=60)
    verb = "unmuted: it takes turns again" if enabled else "muted: it takes no more turns"
    try:
        state = await client.set_chatroom_enabled(model_id, enabled)
    except OutcomeUnknownError:
        try:
            model = await client.get_model(model_id)
        except BlahError as error:
            return ChatWrite("unknown", read_back_failed(name, error), error=error)
        if model.chatroom_enabled is None:
            return ChatWrite(
                "unknown",
                "Outcome unknown: the request timed out and the platform does not report "
                "the chatroom state. It was not sent again.",
            )
        if model.chatroom_enabled == enabled:
            return ChatWrite(
                "confirmed_after_timeout", f"The request timed out, but {name} is {verb}.", chatroom_enabled=enabled
            )
        return ChatWrite(
            "not_done",
            f"The request timed out and {name} is unchanged. It was not sent again.",
            chatroom_enabled=model.chatroom_enabled,
        )
    except AuthError as error:
        return ChatWrite("refused", explain_chat_write_error("mute", error), error=error)
    except BlahError as error:
        return ChatWrite("failed", explain_chat_write_error("mute", error), error=error)
    return ChatWrite("done", f"{name} {verb}.", chatroom_enabled=state.chatroom_enabled)
