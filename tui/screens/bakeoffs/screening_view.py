"""A finished screening's result (``v`` in the watch of a screening run): the incumbent with
its cost and token shape, per candidate the similarity (matched / differed / unparsed, the
match rate with its 95 % interval), estimated $/request, savings and the monthly projection,
and the recommendation said plainly: "switch to X: 61% cheaper, answers match 81% [65-90]",
or "keep the incumbent", drawn as the good outcome it is.

``b`` follows a switch to the next step: Runs' New bake-off dialog prefilled with the
recommended candidate against the incumbent (confirmed and sent once there, as any bake-off).
Every figure is the queue's (``application.bakeoffs.screening``); the dash where none came.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from application.bakeoffs.screening import (
    NOT_A_VERDICT,
    candidate_lines,
    no_result_sentence,
    prefill,
    report_head,
    screening_of,
    verdict,
)
from common.safe_strings import one_line
from tui import bindings
from tui.base_screen import BlahScreen
from tui.cell_format import cell
from widgets.footer import KeyFooter
from widgets.key_table import KeyTable
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["ScreeningScreen"]

COLUMNS = (
    ("Candidate", "model"),
    ("Matched", "matched"),
    ("Differed", "differed"),
    ("Unparsed", "unparsed"),
    ("Match rate [95%]", "match"),
    ("$/request", "usd"),
    ("Savings", "savings"),
    ("$/month", "monthly"),
    ("Saved/month", "saved"),
    ("Placement", "placement"),
)


class ScreeningScreen(BlahScreen):
    """One screening run's result and its next step."""

    SCREEN_TITLE = "Screening"
    DEFAULT_CSS = """
    ScreeningScreen #scr-title { height: auto; padding: 0 1; }
    ScreeningScreen #scr-incumbent { height: auto; padding: 1 1 0 1; }
    ScreeningScreen #scr-verdict { height: auto; margin: 1 1 0 1; padding: 0 1; border: round $primary; }
    ScreeningScreen #scr-verdict.keep { border: round $success; }
    ScreeningScreen #scr-table { height: auto; max-height: 12; margin: 1 1 0 1; }
    ScreeningScreen #scr-note { height: auto; padding: 1 1 0 1; color: $foreground-muted; }
    ScreeningScreen #scr-body { height: 1fr; }
    """

    BINDINGS = [
        bindings.back("screening"),
        Binding("b", "bakeoff", "Bake-off the recommendation", id="screening.bakeoff"),
    ]

    def __init__(self, run: assumed.Run) -> None:
        super().__init__()
        self.run = run
        self.verdict_text = Text()
        """The recommendation as drawn (tests read it)."""

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        with VerticalScroll(id="scr-body"):
            yield Static(Text(""), id="scr-title")
            yield Static(Text(""), id="scr-incumbent")
            yield Static(Text(""), id="scr-verdict")
            yield KeyTable(id="scr-table", columns=COLUMNS)
            yield Static(Text(NOT_A_VERDICT), id="scr-note")
        yield KeyFooter()

    def on_mount(self) -> None:
        run = self.run
        title = Text("Screening ", style="bold")
        title.append(one_line(run.id, 40), style="bold")
        title.append(f" · {one_line(run.name or '—', 80)} · {one_line(run.status or '?', 20)}")
        self.query_one("#scr-title", Static).update(title)
        screening = screening_of(run)
        verdict_box = self.query_one("#scr-verdict", Static)
        if screening is None:
            self.verdict_text = Text(no_result_sentence(run))
            verdict_box.update(self.verdict_text)
            return
        head = Text("\n".join(report_head(screening)))
        self.query_one("#scr-incumbent", Static).update(head)
        said = verdict(screening)
        shown = Text("Recommendation: ", style="bold")
        shown.append(said.sentence, style="bold green" if said.good_outcome else "bold")
        if said.reason:
            shown.append(f"\nThe queue: {said.reason}", style="dim")
        if prefill(run) is not None:
            shown.append(
                "\nb opens a full bake-off of it against the incumbent (judged both ways; confirmed, sent once).",
                style="italic",
            )
        self.verdict_text = shown
        verdict_box.set_class(said.good_outcome, "keep")
        verdict_box.update(shown)
        table = self.query_one("#scr-table", KeyTable)
        for index, line in enumerate(candidate_lines(screening)):
            style = "bold" if line.recommended else ""
            name = Text("→ " if line.recommended else "  ", style=style)
            name.append_text(cell(line.model, max_len=48, style=style))
            table.add_row(
                name,
                *(
                    Text(value, style=style)
                    for value in (
                        line.matched,
                        line.differed,
                        line.unparsed,
                        line.match,
                        line.usd_per_request,
                        line.savings,
                        line.monthly,
                        line.monthly_savings,
                    )
                ),
                cell(line.placement, max_len=48),
                key=str(index),
            )

    def action_bakeoff(self) -> None:
        next_step = prefill(self.run)
        if next_step is None:
            screening = screening_of(self.run)
            said = verdict(screening).sentence if screening is not None else no_result_sentence(self.run)
            self.notify(f"Nothing to bake off: {said}", markup=False, timeout=8)
            return
        runs = next((s for s in reversed(self.app.screen_stack) if hasattr(s, "bakeoffs")), None)
        if runs is None:
            self.notify("Open Runs (3) to queue a bake-off: e there.", severity="warning", markup=False)
            return
        runs.bakeoffs.create(prefill=next_step)
