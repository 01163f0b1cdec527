"""Publish a completed Blobfish suite run on its benchmark's community board.

``PublishBenchRunScreen(slug, run_id)`` is pushed from the community board (``p``) and from a
suite run's watch. It reads the run's record (what is being published, its coverage), asks a
display name (at most 80 characters) and notes (at most 500), checked before anything is sent,
then a confirmation that shows the badge every row carries and the coverage. The submission is
sent once (``application.leaderboard.bench_board.publish_once``): a second press while it is on its way,
or after it went through, sends nothing; a lost answer stays "outcome unknown" until the board
has been read. Each refusal the platform names is said in its own sentence.

Dismisses with the published ``CommunityRow`` (None when nothing was published).
"""

from __future__ import annotations

from typing import ClassVar, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Button, Input, Label, Static, TextArea

from api_client.blobfish import shapes_bench as shapes
from api_client.blobfish.benchmarks import BenchmarkClient, BenchRefusedLocally, check_submission
from api_client.blobfish.shapes_bench import CommunityRow, SuiteRun
from api_client.errors import BlahError, NotFoundError
from application.leaderboard.bench_board import (
    DOCUMENTED_BADGE,
    HONESTY_LINE,
    NOT_YOURS,
    BoardWrite,
    coverage_sentence,
    publish_once,
    sentence,
)
from application.session.context import AppContext
from tui import bindings
from tui.screens.leaderboard.community_rows import board_title, suite_facts
from tui.send_once import SendOnce
from widgets.dialog import DialogScreen, answer_buttons
from widgets.safe_text import one_line_text, safe_text

__all__ = ["PublishBenchRunScreen"]

NOT_CONFIGURED = "Blobfish is not configured (no BLOBFISH_API_KEY): nothing can be published."


def _count_text(length: int, limit: int) -> Text:
    if length > limit:
        return Text(f"{length}/{limit}: {length - limit} too many", style="bold")
    return Text(f"{length}/{limit}", style="dim")


class PublishBenchRunScreen(DialogScreen[CommunityRow | None]):
    """The publication form for one suite run."""

    DEFAULT_CSS = """
    PublishBenchRunScreen > #publish-dialog { width: 100; max-width: 95%; max-height: 95%; padding: 0 2; }
    PublishBenchRunScreen #publish-honesty { color: $warning; text-style: bold; }
    PublishBenchRunScreen #publish-run { height: auto; margin-top: 1; }
    PublishBenchRunScreen Label { margin-top: 1; }
    PublishBenchRunScreen .publish-count { color: $foreground-muted; height: 1; }
    PublishBenchRunScreen .publish-count.-over { color: $error; }
    PublishBenchRunScreen #publish-notes { height: 4; }
    PublishBenchRunScreen #publish-answer { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.submit("publish", "Publish…", action="publish"),
        bindings.close("publish"),
    ]

    def __init__(self, slug: str, run_id: str) -> None:
        super().__init__()
        self.slug = slug
        self.run_id = run_id
        self.record: SuiteRun | None = None
        self.record_problem: str | None = None
        self.published: CommunityRow | None = None
        self.outcome: BoardWrite | None = None
        self.write = SendOnce(self, group="publish.send")  # asked, then sent once
        self._unknown = False  # a lost answer not settled: nothing more is sent from here

    @property
    def client(self) -> BenchmarkClient | None:
        ctx = cast(AppContext, getattr(self.app, "ctx", None))
        return cast(BenchmarkClient | None, getattr(ctx, "bench", None))

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="publish-dialog", classes="dialog-box"):
            yield Static(
                board_title("Publish on the community board of ", self.slug, " (Blobfish)"),
                id="publish-title",
                classes="dialog-title",
            )
            yield Static(Text(HONESTY_LINE), id="publish-honesty")
            yield Static(self._run_text(), id="publish-run")
            yield Label(Text(f"Display name (optional, at most {shapes.MAX_DISPLAY_NAME} characters)"))
            yield Input(id="publish-name", placeholder="e.g. grok-4 · my scaffold")
            yield Static(_count_text(0, shapes.MAX_DISPLAY_NAME), id="publish-name-count", classes="publish-count")
            yield Label(Text(f"Notes (optional, at most {shapes.MAX_NOTES} characters)"))
            yield TextArea(id="publish-notes", soft_wrap=True, show_line_numbers=False)
            yield Static(_count_text(0, shapes.MAX_NOTES), id="publish-notes-count", classes="publish-count")
            yield Static(Text(""), id="publish-problems", classes="dialog-error")
            yield Static(Text(""), id="publish-answer")
            yield answer_buttons("publish", "Publish…", ok="send", cancel="close", cancel_label="Close")

    def on_mount(self) -> None:
        self.query_one("#publish-name", Input).focus()
        if self.client is None:
            self._answer(Text(NOT_CONFIGURED, style="bold"))
            self.query_one("#publish-send", Button).disabled = True
            return
        self.read_record()

    # ----------------------------------------------------------------- the run

    def _run_text(self) -> Text:
        text = Text("Suite run ", style="bold", end="")
        text.append_text(one_line_text(self.run_id, max_len=60))
        text.append("\n")
        if self.record is not None:
            text.append_text(suite_facts(self.record))
            text.append("\ncoverage ", style="bold")
            text.append(coverage_sentence(self.record.coverage))
            if self.record.status != "completed":
                text.append(
                    "\nOnly a completed suite run can be published: the platform will refuse this one while it is not.",
                    style="italic",
                )
        elif self.record_problem is not None:
            text.append_text(safe_text(self.record_problem, style="italic"))
        else:
            text.append("reading the run's record…", style="italic")
        return text

    @work(exclusive=True, group="publish.record", exit_on_error=False)
    async def read_record(self) -> None:
        client = self.client
        assert client is not None
        try:
            record = await client.get_run(self.slug, self.run_id)
        except NotFoundError:
            self.record_problem = sentence(NOT_YOURS) + "."
        except (BlahError, ValueError) as error:
            self.record_problem = f"Couldn't read the run's record: {error}"
        else:
            if isinstance(record, SuiteRun):
                self.record = record
            else:
                self.record_problem = "This is a single-task run (bmr_); only a suite run (bmrs_) can be published."
        self.query_one("#publish-run", Static).update(self._run_text())

    # ----------------------------------------------------------------- the form

    def _values(self) -> tuple[str | None, str | None]:
        name = self.query_one("#publish-name", Input).value.strip()
        notes = self.query_one("#publish-notes", TextArea).text.strip()
        return name or None, notes or None

    @on(Input.Changed, "#publish-name")
    @on(TextArea.Changed, "#publish-notes")
    def _count(self) -> None:
        name, notes = self._values()
        for widget_id, value, limit in (
            ("#publish-name-count", name, shapes.MAX_DISPLAY_NAME),
            ("#publish-notes-count", notes, shapes.MAX_NOTES),
        ):
            count = self.query_one(widget_id, Static)
            count.update(_count_text(len(value or ""), limit))
            count.set_class(len(value or "") > limit, "-over")

    @on(Input.Submitted, "#publish-name")
    @on(Button.Pressed, "#publish-send")
    def _send_pressed(self) -> None:
        self.action_publish()

    @on(Button.Pressed, "#publish-close")
    def _close_pressed(self) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.dismiss(self.published)

    def action_publish(self) -> None:
        if self.write.busy:
            return  # on its way: a second press sends nothing
        if self.published is not None:
            self.notify(f"Already published as {self.published.community_run_id}: nothing was sent again", markup=False)
            return
        if self._unknown:
            self.notify("The last answer was lost: read the board before publishing again", markup=False)
            return
        client = self.client
        if client is None:
            return
        name, notes = self._values()
        try:
            check_submission(name, notes)
        except BenchRefusedLocally as error:
            self.query_one("#publish-problems", Static).update(Text(sentence(error.message)))
            too_long_name = name is not None and len(name) > shapes.MAX_DISPLAY_NAME
            self.query_one("#publish-name" if too_long_name else "#publish-notes").focus()
            return
        self.query_one("#publish-problems", Static).update(Text(""))
        self.query_one("#publish-send", Button).disabled = True
        self.write.start(lambda: self.publish(client, name, notes))

    def _confirmation(self, name: str | None, notes: str | None) -> Text:
        """Short enough that the buttons stay in view at 80x24."""
        body = Text(end="")
        body.append("suite run  ", style="bold")
        body.append_text(one_line_text(self.run_id, max_len=40))
        body.append(" of ")
        body.append_text(one_line_text(self.slug, max_len=40))
        body.append("\nname       ", style="bold")
        body.append_text(one_line_text(name or "(none)", max_len=80))
        body.append("\nnotes      ", style="bold")
        body.append_text(one_line_text(notes or "(none)", max_len=80))
        body.append("\ncoverage   ", style="bold")
        body.append(
            coverage_sentence(self.record.coverage)
            if self.record is not None
            else "not known: the run's record could not be read"
        )
        body.append("\nbadge      ", style="bold")
        body.append(DOCUMENTED_BADGE, style="italic")
        body.append("  (on every row, verbatim)")
        body.append("\nBelow the official leaderboard, never in it. Sent once; you can delete it later.")
        return body

    async def publish(self, client: BenchmarkClient, name: str | None, notes: str | None) -> None:
        try:
            if not await self.write.confirm(
                "Publish this suite run?", self._confirmation(name, notes), label="Publish"
            ):
                self._answer(Text("Not published: nothing was sent.", style="italic"))
                return
            self._answer(Text("Publishing…", style="italic"))
            # a lost answer is settled by publish_once (it reads the board)
            outcome = await self.write.send(lambda: publish_once(client, self.slug, self.run_id, name, notes))
            self._show(outcome)
        finally:
            self.write.release()
            if self.is_attached:
                self.query_one("#publish-send", Button).disabled = self.published is not None or self._unknown

    def _show(self, outcome: BoardWrite) -> None:
        self.outcome = outcome
        self._unknown = outcome.kind == "unknown"
        answer = Text(end="")
        if outcome.kind == "done" and outcome.row is not None:
            self.published = outcome.row
            answer.append(outcome.message + " ", style="bold")
            answer.append("Community run ")
            answer.append_text(one_line_text(outcome.row.community_run_id, max_len=60))
            answer.append(" is on the board, marked as yours.\n")
            answer.append_text(
                one_line_text(outcome.row.badge or "the platform sent no badge", max_len=300, style="italic")
            )
            answer.append("\nPress Esc to close.", style="dim")
        else:
            answer.append_text(safe_text(outcome.message, style="bold"))
        self._answer(answer)
        self.notify(
            outcome.message,
            title="Publish",
            severity="information" if outcome.kind == "done" else "error",
            markup=False,
        )

    def _answer(self, text: Text) -> None:
        self.query_one("#publish-answer", Static).update(text)
