"""Snapshot app: a TextViewer with whitespace on, template tokens, a finding span, markers."""

from __future__ import annotations

from textual.app import App, ComposeResult

from widgets.text_viewer import TextViewer

TEXT = (
    "<|im_start|>user\n"
    "What is 2 + 2?\t(answer briefly)<|im_end|>\n"
    "<|im_start|>assistant\n"
    "The answer is five.  \r\n"
    "hidden\u202eevil\x1b]52;c;QUFB\x07 [bold]not bold[/] 中文 😀\n"
)
FINDING = TEXT.index("five")


class TextViewerSnapshotApp(App[None]):
    def compose(self) -> ComposeResult:
        yield TextViewer(TEXT, show_whitespace=True)

    def on_mount(self) -> None:
        viewer = self.query_one(TextViewer)
        viewer.highlight_spans([(FINDING, FINDING + 4, "bold red underline")])
        viewer.focus()


app = TextViewerSnapshotApp()

if __name__ == "__main__":
    app.run()
