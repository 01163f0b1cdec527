"""An evidence bundle re-checked offline (``blah-tui open BUNDLE.json``, or after the Bake-offs
view exported one): what the bundle is (signed, attested, content, gate), then every figure
recomputed from its counts, each "matches", "DIFFERS" (by how much) or "cannot" (and why).
The same arithmetic as ``blah-tui bakeoff verify`` (``application.bakeoffs.verify``).
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.widgets import Static

from application.bakeoffs.verify import BundleError, Recheck, VerifyReport, bundle_summary, read_bundle
from common.safe_strings import one_line as one
from tui import bindings
from tui.base_screen import BlahScreen
from tui.cell_format import cell
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.key_table import KeyTable
from widgets.status_header import StatusHeader

_STYLE = {"matches": "green", "differs": "bold red", "cannot": "yellow"}
_WORD = {"matches": "matches", "differs": "DIFFERS", "cannot": "cannot"}


class BundleScreen(BlahScreen):
    """One evidence bundle, recomputed."""

    SCREEN_TITLE = "Evidence bundle"
    DEFAULT_CSS = """
    BundleScreen #bundle-summary { height: auto; padding: 0 1; }
    BundleScreen #bundle-rows { height: 1fr; }
    """
    BINDINGS = [bindings.back("bundle")]

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
        self.report: VerifyReport | None = None

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Caption(f"reading {one(str(self.path), 200)}…", id="bundle-summary")
        yield KeyTable(id="bundle-rows")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.load()

    @work(exclusive=True, group="bundle.read", exit_on_error=False, thread=True)
    def load(self) -> None:
        try:
            bundle, report = read_bundle(self.path)
        except (OSError, BundleError) as error:
            message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            self.app.call_from_thread(self._show_error, f"cannot verify {self.path.name}: {message}")
            return
        self.app.call_from_thread(self._show, bundle_summary(bundle), report)

    def _show_error(self, text: str) -> None:
        self.query_one("#bundle-summary", Caption).say(one(text, 400), error=True)

    def _show(self, summary_lines: list[str], report: VerifyReport) -> None:
        self.report = report
        text = Text()
        for line in summary_lines:
            text.append("· " + one(line, 300) + "\n")
        verdict_style = "bold red" if report.differs else "bold green"
        text.append(one(report.summary(), 300), style=verdict_style)
        self.query_one("#bundle-summary", Static).update(text)
        table = self.query_one("#bundle-rows", KeyTable)
        table.set_columns(
            (
                ("Check", "status"),
                ("Figure", "what"),
                ("Bundle", "stated"),
                ("Recomputed", "recomputed"),
                ("Why", "detail"),
            )
        )
        for index, row in enumerate(report.rows):
            table.add_row(*_cells(row), key=str(index))


def _cells(row: Recheck) -> tuple[Text, Text, Text, Text, Text]:
    def shown(value: object) -> str:
        if value is None:
            return "—"
        if isinstance(value, float):
            return f"{value:.6g}"
        if isinstance(value, (list, tuple)) and len(value) == 2:
            return "[" + ", ".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in value) + "]"
        return str(value)

    status = Text(f" {_WORD[row.status]} ", style=_STYLE[row.status])
    return (
        status,
        cell(row.what, max_len=48),
        cell(shown(row.stated), max_len=24),
        cell(shown(row.recomputed), max_len=24),
        cell(row.detail, max_len=90),
    )
