"""Playground: call the model directly through the platform (which logs the call), then read
the answer with its findings, or open it whole in the inspector.

- Infer: one prompt, an optional token limit (``POST /models/{id}/infer``).
- Chat: a conversation; each turn is a queued job polled until it is done (the app's one
  :class:`application.poller.Poller`: from ``chat_job_first_poll`` s, slower up to 5 s while its
  status stays the same).

One request at a time per tab; a second key press while one is in flight does nothing.
The tabs are widgets (``InferPane``, ``ChatPane``) and so is the answer (``AnswerView``); the
screen makes the calls (its workers) and keeps the area's keys.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, Tabs

from api_client.blahdev.shapes import ChatJob, InferResult, Model
from api_client.errors import (
    BlahError,
    MissingKeyError,
    OutcomeUnknownError,
)
from application.diagnosis.call_findings import read_call_findings
from application.poller import Poller, PollStep
from diagnosis import Finding, resolve_trained_template
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.screens.playground.answer import AnswerView
from tui.screens.playground.chat_pane import ChatPane
from tui.screens.playground.infer_pane import InferPane
from widgets.footer import KeyFooter
from widgets.safe_text import one_line_text
from widgets.status_header import StatusHeader

__all__ = ["CHAT_JOB_MAX_POLL_S", "PlaygroundScreen"]

TERMINAL_JOB_STATES = frozenset({"completed", "failed", "error", "cancelled"})
CHAT_JOB_MAX_POLL_S = 5.0
"""The slowest a queued chat job is polled: the person is waiting for the reply."""


class PlaygroundScreen(BlahScreen):
    """Top-level screen (key 9), or pushed from the Models screen for another model."""

    SCREEN_TITLE = "Playground"

    DEFAULT_CSS = """
    PlaygroundScreen #pg-model { height: auto; padding: 0 1; }
    PlaygroundScreen #pg-tabs { height: 1fr; }
    PlaygroundScreen #pg-result { height: 1fr; border-top: solid $panel; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send_infer", "Send prompt", id="playground.send"),
        Binding("ctrl+o", "open_inspector", "Open in inspector", id="playground.open"),
        Binding("ctrl+n", "new_chat", "New chat", id="playground.new_chat"),
        Binding("e", "edit", "Write", id="playground.edit"),
        bindings.leave_input("playground"),
    ]

    def __init__(self, model_id: str | None = None) -> None:
        super().__init__()
        self._fixed_model = model_id
        self._model_cache: dict[str, Model] = {}
        self.last_log_id: str | None = None
        self.last_findings: list[Finding] | None = None

    @property
    def model_id(self) -> str:
        return self._fixed_model or self.ctx.model_id

    @property
    def infer_pane(self) -> InferPane:
        return self.query_one("#pg-infer", InferPane)

    @property
    def chat_pane(self) -> ChatPane:
        return self.query_one("#pg-chat", ChatPane)

    @property
    def infer_busy(self) -> bool:
        """A prompt is in flight."""
        return self.infer_pane.busy

    @property
    def chat_busy(self) -> bool:
        """A chat turn is in flight."""
        return self.chat_pane.pending

    @property
    def chat_messages(self) -> list[dict[str, str]]:
        """The conversation so far (the person's turns and the model's replies)."""
        return self.chat_pane.messages

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text("", end=""), id="pg-model")
        with TabbedContent(id="pg-tabs"):
            yield InferPane(id="pg-infer")
            yield ChatPane(id="pg-chat")
        with VerticalScroll(id="pg-result"):
            yield AnswerView(
                Text("The answer appears here, with what the diagnosis finds in it.", style="italic"), id="pg-answer"
            )
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show_model()  # the tab strip gets the focus (the first focusable widget)

    def action_edit(self) -> None:
        """Focus the text box of the open tab (typing goes there; Esc leaves it). At once, not
        after a refresh: the keys typed right after `e` belong in the box."""
        self._focus_box(tries_left=100)

    def _focus_box(self, tries_left: int) -> None:
        chat = self.query_one("#pg-tabs", TabbedContent).active == "pg-chat"
        boxes = self.query("#chat-input" if chat else "#infer-prompt")
        if boxes and boxes.first().focusable:
            self.set_focus(boxes.first())
        elif tries_left:  # the tabs are still being built or shown: focus the box once they are
            self.call_after_refresh(self._focus_box, tries_left - 1)

    def action_leave_input(self) -> None:
        self.leave_text_input()

    def input_exit_target(self) -> Widget | None:
        """The tab strip: ← → switch tabs, and every other key is the screen's again."""
        tabs = self.query(Tabs)
        return tabs.first() if tabs else None

    def on_model_switched(self, model_id: str) -> None:
        if self._fixed_model is None:
            self.chat_pane.clear()
            self._show_model()

    def _show_model(self) -> None:
        text = Text("Calling ", end="")
        model = self._model_cache.get(self.model_id)
        text.append_text(one_line_text((model.name if model else None) or self.model_id, max_len=60, style="bold"))
        if model is not None and model.name:
            text.append(" (")
            text.append_text(one_line_text(self.model_id, max_len=60))
            text.append(")")
        if self.ctx.client is None:
            text.append(" · offline: the playground needs the platform", style="italic")
        elif not self.ctx.has_key:
            text.append(" · no API key: calls will be refused", style="italic")
        self.query_one("#pg-model", Static).update(text)

    def _show_answer(self, text: Text) -> None:
        self.query_one("#pg-answer", AnswerView).update(text)

    # ----------------------------------------------------------------- findings

    async def _model(self) -> Model | None:
        client = self.ctx.client
        if client is None:
            return None
        if self.model_id not in self._model_cache:
            try:
                self._model_cache[self.model_id] = await client.get_model(self.model_id)
            except BlahError:
                return None
            self._show_model()
        return self._model_cache.get(self.model_id)

    async def _trained_template(self) -> tuple[str | None, str]:
        configured = self.ctx.settings.templates.get(self.model_id)
        if self.model_id == self.ctx.model_id and self.ctx.trained_template:
            configured = self.ctx.trained_template
        return resolve_trained_template(configured, await self._model(), None)

    async def _show_result(
        self, reply: str | None, error: str | None, log_id: str | None, result: InferResult | None
    ) -> None:
        """Load the logged call, run the diagnosis on it, show both (ctrl+o then opens the
        call in the inspector: sending never leaves the screen the person is writing on)."""
        found = await read_call_findings(self.ctx.client, log_id, self._trained_template)
        log, findings = found.log, found.findings
        self.last_findings = findings
        self.last_log_id = log_id
        self.query_one("#pg-answer", AnswerView).show_result(
            reply if log is None else log.response,
            error=error if log is None else log.error,
            log=log,
            result=result,
            findings=findings,
            template_note=found.note,
            log_id=log_id,
        )

    # ----------------------------------------------------------------- infer

    def action_send_infer(self) -> None:
        self.infer_pane.send()

    def _may_call(self, in_flight: bool) -> bool:
        """A send goes out when none is in flight (a second press can arrive before the first
        is handled) and the platform is there."""
        if in_flight:
            return False
        if self.ctx.client is None:
            self.notify("offline: cannot call the model", severity="warning", markup=False)
            return False
        return True

    @on(InferPane.Send)
    def _infer_asked(self, event: InferPane.Send) -> None:
        if self._may_call(self.infer_pane.busy):
            self.infer_pane.busy = True
            self.run_infer(event.prompt, event.max_tokens)

    @work(exclusive=True, group="playground-infer", exit_on_error=False)
    async def run_infer(self, prompt: str, max_tokens: int | None) -> None:
        try:
            await self._infer(prompt, max_tokens)
        finally:
            self.infer_pane.busy = False

    async def _infer(self, prompt: str, max_tokens: int | None) -> None:
        client = self.ctx.client
        assert client is not None
        self._show_answer(Text("calling the model…", style="italic"))
        try:
            result = await client.infer(self.model_id, prompt, max_tokens=max_tokens)
        except OutcomeUnknownError:
            await self._find_unknown_call("test", prompt)
            return
        except MissingKeyError:
            self._show_answer(Text("Not sent: calling the model needs an API key.", style="bold"))
            return
        except BlahError as error:
            self._show_answer(Text(f"couldn't call the model: {describe_error(error)}", style="bold"))
            raise
        await self._show_result(result.response, result.error, result.log_id, result)

    async def _find_unknown_call(self, source: str, text: str) -> None:
        """A call timed out: look for it in the model's logs rather than calling again."""
        client = self.ctx.client
        assert client is not None
        self._show_answer(
            Text("The request timed out: outcome unknown. Looking for the call in the logs…", style="italic")
        )
        try:
            page = await client.get_logs(self.model_id, source=source, limit=20)
        except BlahError as error:
            self._show_answer(
                Text(f"Outcome unknown (couldn't check the logs: {describe_error(error)}).", style="bold")
            )
            return
        for entry in page.logs:
            said = [m.content or "" for m in entry.messages or []]
            if text and (text in (entry.prompt or "") or text in said):
                await self._show_result(entry.response, entry.error, entry.id, None)
                return
        self._show_answer(
            Text(
                "Outcome unknown: the call is not in the recent logs (yet). Check the Logs screen before retrying.",
                style="bold",
            )
        )

    # ----------------------------------------------------------------- chat

    def action_new_chat(self) -> None:
        if self.chat_busy:
            self.notify("Wait for the current reply first", severity="warning", markup=False)
            return
        self.chat_pane.clear()
        self.chat_pane.show_job_note(Text("", end=""))

    @on(ChatPane.Send)
    def _chat_asked(self, event: ChatPane.Send) -> None:
        if self._may_call(self.chat_pane.pending):
            self.run_chat(self.chat_pane.begin_turn(event.content))

    @work(exclusive=True, group="playground-chat", exit_on_error=False)
    async def run_chat(self, messages: list[dict[str, str]]) -> None:
        try:
            await self._chat(messages)
        finally:
            self.chat_pane.end_turn()

    async def _chat(self, messages: list[dict[str, str]]) -> None:
        client = self.ctx.client
        assert client is not None
        try:
            job = await client.chat(self.model_id, messages)
        except OutcomeUnknownError:
            self.chat_pane.show_job_note(Text("outcome unknown: the chat request timed out", end=""))
            await self._find_unknown_call("chat", messages[-1]["content"])
            return
        except BlahError as error:
            self.chat_pane.show_job_note(Text(f"couldn't start the chat: {describe_error(error)}", end=""))
            self.chat_pane.drop_last()
            raise
        done = await self._poll_job(job)
        if done is None:
            return
        if done.status == "completed":
            self.chat_pane.add_reply(done.response or "")
        self.chat_pane.show_job(done, next_poll_s=None)
        await self._show_result(done.response, done.error, done.log_id, None)

    async def _poll_job(self, job: ChatJob) -> ChatJob | None:
        """Poll until the job ends (its last state), or None after a fatal error (the job is
        gone, the key refused); a change of status is progress, transient errors are retried."""
        client = self.ctx.client
        assert client is not None
        latest = job
        failed = False  # the last poll failed: its line (with the retry time) stays up

        async def fetch() -> ChatJob:
            return await client.get_chat_job(job.id)

        def judge(polled: ChatJob) -> PollStep:
            nonlocal latest, failed
            moved, latest, failed = polled.status != latest.status, polled, False
            if (polled.status or "") in TERMINAL_JOB_STATES:
                return "done"
            return "progress" if moved else "idle"

        def before_wait(seconds: float) -> None:
            if not failed:
                self.chat_pane.show_job(latest, next_poll_s=seconds)

        def poll_failed(error: BlahError, retry_in: float | None) -> None:
            nonlocal failed
            failed = True
            self.chat_pane.show_job(latest, next_poll_s=retry_in, error=describe_error(error))
            if retry_in is not None:
                self.blah_app.note_connection(error)

        if (job.status or "") in TERMINAL_JOB_STATES:
            return job
        first = self.ctx.settings.chat_job_first_poll
        poller = Poller(
            fetch,
            judge=judge,
            interval=first,
            max_interval=max(CHAT_JOB_MAX_POLL_S, first),
            on_error=poll_failed,
            on_wait=before_wait,
            wait_first=True,
        )
        end = await poller.run()
        return latest if end.reason == "done" else None

    # ----------------------------------------------------------------- inspector

    def action_open_inspector(self) -> None:
        if self.last_log_id is None:
            self.notify("No answer yet", severity="warning", markup=False)
            return
        self.blah_app.open_log(self.last_log_id)

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#pg-tabs", TabbedContent)
