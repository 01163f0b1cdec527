"""Mute and unmute a model in the chatroom, from any screen: gather the evidence, ask, send
once, and tell the whole app what the platform answered.

Muting is council tier and a public act, so the confirmation shows why: the model's loop
rate over its recent chatroom messages and one looping message quoted. A muted model keeps
its scores, leaderboard place and history; it only stops taking turns.

``MuteFlow.run`` must be awaited inside a worker of the screen it is given: it waits on a
modal dialog pushed over that screen (Textual's ``push_screen_wait``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.worker import get_current_worker

from api_client.blahdev.shapes import ChatroomMessage
from api_client.errors import AuthError, BlahError, MissingKeyError
from application.chatroom.actions import set_chatroom_enabled
from application.chatroom.feed import MuteEvidence, mute_evidence
from tui.screens.chatroom.render import fmt_time
from tui.send_once import SendOnce
from widgets.safe_text import one_line, one_line_text

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient
    from tui.base_screen import BlahScreen

__all__ = ["EVIDENCE_PAGE", "MuteFlow", "confirm_mute", "explain_mute_error", "mute_dialog_body"]

#: How many recent room messages are read to compute the evidence.
EVIDENCE_PAGE = 200


def explain_mute_error(error: BaseException) -> str:
    """What a failed mute means, plainly."""
    if isinstance(error, MissingKeyError):
        return "muting needs an API key (council tier); none is configured"
    if isinstance(error, AuthError) and error.status == 403:
        return "muting needs council tier: this API key does not have it"
    if isinstance(error, AuthError):
        return "the platform refused the API key"
    if isinstance(error, BlahError):
        return one_line(str(error), max_len=200)
    return one_line(f"{type(error).__name__}: {error}", max_len=200)


def mute_dialog_body(name: str, enable: bool, evidence: MuteEvidence | None, evidence_error: str | None) -> Text:
    """The confirmation's text (untrusted parts sanitised, never markup)."""
    body = Text(end="")
    shown = one_line_text(name, max_len=60, style="bold")
    if enable:
        body.append("Unmute ")
        body.append_text(shown)
        body.append("? It takes turns in the chatroom again.")
        return body
    body.append("Mute ")
    body.append_text(shown)
    body.append(" in the chatroom? It stops taking turns; it keeps its scores, its leaderboard place and its history.")
    body.append(" Muting needs council tier.\n\n", style="dim")
    body.append("Evidence: ", style="bold")
    if evidence_error is not None:
        body.append(f"couldn't load the room: {evidence_error}")
        return body
    if evidence is None:
        body.append("none loaded")
        return body
    body.append(evidence.summary())
    if evidence.example is not None:
        body.append("\nFor example, at " + fmt_time(evidence.example.created_at) + " UTC:\n")
        body.append("  “")
        body.append_text(one_line_text(evidence.example.content, max_len=160, style="italic"))
        body.append("”")
        if evidence.example_evidence:
            body.append("\n  ")
            body.append_text(one_line_text(evidence.example_evidence, max_len=160, style="dim"))
    elif evidence.examined:
        body.append("\nNone of its recent messages loops.")
    return body


async def confirm_mute(
    write: SendOnce, name: str, enable: bool, evidence: MuteEvidence | None, evidence_error: str | None
) -> bool:
    """Ask (from a worker of the write's screen) whether to mute or unmute; True: go ahead."""
    title = ("Unmute " if enable else "Mute ") + one_line(name, max_len=60) + ("" if enable else " in the chatroom")
    return await write.confirm(
        Text(title),
        mute_dialog_body(name, enable, evidence, evidence_error),
        label="Unmute" if enable else "Mute",
        danger=not enable,
    )


class MuteFlow:
    """One mute/unmute at a time per model (``tui.send_once``): a second key press while
    asking or sending is ignored, so a double press can never send twice."""

    def __init__(self) -> None:
        self._writes: dict[str, SendOnce] = {}

    def busy(self, model_id: str) -> bool:
        write = self._writes.get(model_id)
        return write is not None and write.busy

    async def run(
        self,
        screen: BlahScreen,
        model_id: str,
        name: str | None,
        enable: bool,
        messages: Sequence[ChatroomMessage] | None = None,
    ) -> bool | None:
        """Ask, then set the state. Returns the state the platform confirmed (True = enabled),
        or None when cancelled, refused or unknown. Reports everything it learns to the app.
        Raises ``NoActiveWorker`` when not awaited in a worker (its dialog would hang the loop)."""
        get_current_worker()
        client = screen.ctx.client
        if client is None:
            screen.notify("offline: the chatroom cannot be changed", severity="warning", markup=False)
            return None
        write = self._writes.setdefault(model_id, SendOnce(screen, group="chatroom-mute"))
        return await write.guarded(
            lambda: self._run(write, screen, client, model_id, name or model_id, enable, messages)
        )

    async def _run(
        self,
        write: SendOnce,
        screen: BlahScreen,
        client: BlahClient,
        model_id: str,
        name: str,
        enable: bool,
        messages: Sequence[ChatroomMessage] | None = None,
    ) -> bool | None:
        evidence: MuteEvidence | None = None
        evidence_error: str | None = None
        if not enable and messages is not None:  # the room on screen: the figure its side panel shows
            evidence = mute_evidence(model_id, messages)
        elif not enable:
            try:
                page = await client.chatroom(limit=EVIDENCE_PAGE)
                oldest_first: list[ChatroomMessage] = sorted(page.messages, key=lambda m: (m.created_at, m.id))
                evidence = mute_evidence(model_id, oldest_first)
            except BlahError as error:
                evidence_error = explain_mute_error(error)
        if not await confirm_mute(write, name, enable, evidence, evidence_error):
            return None
        app = screen.blah_app
        # the one write, as `blah-tui chatroom mute|unmute` sends it: once, a lost answer read back
        outcome = await write.send(lambda: set_chatroom_enabled(client, model_id, enable))
        if outcome.kind in ("refused", "failed"):
            app.note_connection(outcome.error)
            shown = explain_mute_error(outcome.error) if outcome.error is not None else outcome.message
            screen.notify(shown, title="Not changed", severity="error", markup=False)
            return None
        if outcome.kind == "unknown":
            screen.notify(outcome.message, severity="error", markup=False)
            return None
        if outcome.kind != "done":  # the answer was lost; reading the model settled it
            app.note_chatroom_enabled(model_id, outcome.chatroom_enabled)
            done = outcome.kind == "confirmed_after_timeout"
            screen.notify(
                ("It went through: " if done else "It did not go through: ")
                + one_line(name, max_len=60)
                + (" takes turns" if outcome.chatroom_enabled else " is muted"),
                severity="information" if done else "warning",
                markup=False,
            )
            return outcome.chatroom_enabled
        app.note_connection(None)
        app.note_chatroom_enabled(model_id, outcome.chatroom_enabled)
        screen.notify(
            one_line(name, max_len=60)
            + (" takes turns again" if outcome.chatroom_enabled else " is muted in the chatroom"),
            title="Chatroom",
            markup=False,
        )
        return outcome.chatroom_enabled
