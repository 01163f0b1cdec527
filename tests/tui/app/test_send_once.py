"""The TUI's one send-once flow (tui/send_once.py): asked, guarded, sent once, settled.

Driven by the keys a person presses on a tiny screen whose write is a counter; every write
screen of the app uses the same SendOnce (the last test keeps it so).
"""

from __future__ import annotations

import ast
from pathlib import Path

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from api_client.errors import OutcomeUnknownError, ServerError
from tests.support.waiting import wait_for
from tui.send_once import SendOnce
from widgets.confirm import ConfirmScreen

ROOT = Path(__file__).resolve().parents[3]


class WriteScreen(Screen[None]):
    BINDINGS = [Binding("w", "write", "Write")]

    def __init__(self, answers: list[BaseException | str], *, once: bool = False) -> None:
        super().__init__()
        self.write = SendOnce(self, busy_note="Already being sent.", once=once)
        self.answers = answers
        self.calls = 0
        self.said: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("write screen")

    def action_write(self) -> None:
        self.write.start(self._flow)

    async def _request(self) -> str:
        self.calls += 1
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    async def _settle(self, error: OutcomeUnknownError) -> str:
        return "settled by a read"

    async def _flow(self) -> None:
        if not await self.write.confirm("Write it?", "It is sent once.", label="Write"):
            self.said.append("declined")
            return
        try:
            self.said.append(await self.write.send(self._request, settle=self._settle))
        except ServerError:
            self.said.append("refused")


class WriteApp(App[None]):
    def __init__(self, screen: WriteScreen) -> None:
        super().__init__()
        self.write_screen = screen

    def on_mount(self) -> None:
        self.push_screen(self.write_screen)


def _notes(app: App[None]) -> list[str]:
    return [n.message for n in app._notifications]


async def test_a_double_press_asks_once_and_sends_once() -> None:
    screen = WriteScreen(["done"])
    app = WriteApp(screen)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.screen is screen, what="the write screen")
        await pilot.press("w", "w")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y", "y")
        await wait_for(pilot, lambda: screen.said == ["done"] and not screen.write.busy, what="the answer")
        assert app.screen is screen and len(app.screen_stack) == 2  # one dialog, answered once
    assert screen.calls == 1 and screen.write.sent == 1


async def test_a_press_while_asking_says_so_and_declining_sends_nothing() -> None:
    screen = WriteScreen([])
    app = WriteApp(screen)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.screen is screen, what="the write screen")
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        screen.action_write()  # a second press reaching the screen while the dialog is open
        await pilot.press("n")
        await wait_for(pilot, lambda: screen.said == ["declined"] and not screen.write.busy, what="declined")
        assert "Already being sent." in _notes(app)
    assert screen.calls == 0 and screen.write.sent == 0


async def test_a_lost_answer_is_settled_by_a_read_never_resent() -> None:
    screen = WriteScreen([OutcomeUnknownError("timed out")])
    app = WriteApp(screen)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.screen is screen, what="the write screen")
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.said == ["settled by a read"], what="the settling read")
    assert screen.calls == 1 and screen.write.sent == 1


async def test_a_once_only_write_stays_taken_after_it_was_sent_but_not_after_a_refusal() -> None:
    screen = WriteScreen([ServerError("down", status=503), "done"], once=True)
    app = WriteApp(screen)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.screen is screen, what="the write screen")
        for expected in (["refused"], ["refused", "done"]):
            await pilot.press("w")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
            await pilot.press("y")
            await wait_for(pilot, lambda expected=expected: screen.said == expected, what=f"the answer {expected[-1]}")
        await wait_for(pilot, lambda: not screen.write._held, what="the flow over")
        await pilot.press("w")  # sent once already: only the note
        await wait_for(pilot, lambda: "Already being sent." in _notes(app), what="the note")
        assert app.screen is screen
    assert screen.calls == 2 and screen.write.sent == 2


def test_every_tui_confirmation_goes_through_send_once() -> None:
    """No screen builds its own ConfirmScreen: each write asks through tui.send_once."""
    own = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tui").rglob("*.py")
        if path.name != "send_once.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ConfirmScreen"
    )
    assert own == [], f"a ConfirmScreen of their own: {own}"
