"""Snapshot app: a LogList with badges, a missing-data row, an error row and a search term."""

from __future__ import annotations

from datetime import UTC

from textual.app import App, ComposeResult

from widgets.log_list import LogList, LogRow

BASE_MS = 1_700_000_000_000

ROWS = [
    LogRow("a1", BASE_MS, "eval", 812, "stop", "ok", (), "What is the capital of France?", "Paris."),
    LogRow(
        "a2",
        BASE_MS + 1_250,
        "eval",
        15_300,
        "length",
        "ok",
        ("truncation", "loop"),
        "List the planets",
        "Mercury, Venus, Earth, Earth, Earth, Earth, Earth",
    ),
    LogRow(
        "a3",
        BASE_MS + 2_500,
        "chatroom",
        95,
        "stop",
        "ok",
        ("template_leak",),
        "hi all",
        "<|im_start|>assistant\nhello",
    ),
    LogRow("a4", BASE_MS + 3_750, "chat", None, None, "error", ("error",), "ping", "upstream 502"),
    LogRow(
        "a5",
        BASE_MS + 5_000,
        None,
        430,
        "stop",
        "ok",
        ("empty", "refusal", "wrong_answer", "continuation"),
        "[@click=app.quit]x[/] \x1b]0;title\x07",
        None,
    ),
    LogRow("a6", BASE_MS + 6_250, "test", 1_204, "stop", "ok", (), "Translate: chat", "le chat\tcat"),
]


class LogListSnapshotApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LogList(list(ROWS), tz=UTC)

    def on_mount(self) -> None:
        log_list = self.query_one(LogList)
        log_list.set_highlight(["earth"])
        log_list.focus()


app = LogListSnapshotApp()

if __name__ == "__main__":
    app.run()
