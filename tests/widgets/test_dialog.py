"""``widgets.dialog``: every modal dialog answers once, and its button row is the one row."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Button, Static

from widgets.dialog import DialogScreen, answer_buttons


class _Ask(DialogScreen[str | None]):
    def compose(self) -> ComposeResult:
        with Vertical(id="ask-box", classes="dialog-box"):
            yield Static("Go?", id="ask-title", classes="dialog-title")
            yield answer_buttons("ask", "Go")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.answer("go" if event.button.id == "ask-ok" else None)


async def test_a_second_press_on_its_way_sends_no_second_answer() -> None:
    answers: list[str | None] = []
    app = App[None]()
    async with app.run_test() as pilot:
        dialog = _Ask()
        await app.push_screen(dialog, answers.append)
        await pilot.click("#ask-ok")
        dialog.answer("again")  # as a second click or key that arrives before the dialog is gone
        await pilot.pause()
        assert answers == ["go"]
        assert dialog.answered
        assert app.screen is not dialog


async def test_the_row_is_cancel_then_the_answering_button() -> None:
    answers: list[str | None] = []
    app = App[None]()
    async with app.run_test() as pilot:
        await app.push_screen(_Ask(), answers.append)
        row = app.screen.query_one("#ask-buttons")
        assert [button.id for button in row.query(Button)] == ["ask-cancel", "ask-ok"]
        assert [str(button.label) for button in row.query(Button)] == ["Cancel", "Go"]
        await pilot.click("#ask-cancel")
        await pilot.pause()
        assert answers == [None]
