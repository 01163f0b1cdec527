"""Failure clusters (``f`` in the bake-off view): why each criterion's answers failed,
grouped, with an example of each (verbatim, inert) and the requests behind it. The first read
uses the queue's hour-long cache when it has one (free); ``F`` asks for a fresh clustering,
which is metered: confirmed, sent once, never repeated on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.binding import Binding

from api_client.errors import BlahError
from application.bakeoffs.clusters import FORCE_CONFIRMATION, cluster_rows, freshness
from common.format import DASH, plural
from common.safe_strings import one_line
from tui import bindings
from tui.base_screen import describe_error
from tui.send_once import SendOnce
from tui.text_page import TextPageScreen

if TYPE_CHECKING:
    from api_client.errorbar.shapes import FailureClusters

__all__ = ["FailureClustersScreen", "clusters_block"]


def clusters_block(answer: FailureClusters) -> Text:
    text = Text("Failure clusters", style="bold")
    text.append(f" · {one_line(freshness(answer), 200)}")
    current = object()
    rows = cluster_rows(answer)
    if not rows:
        text.append("\n\nno criteria in the answer", style="dim")
    for row in rows:
        if row.criterion_id != current:
            current = row.criterion_id
            text.append(f"\n\n{one_line(row.criterion_name or row.criterion_id or DASH, 60)}", style="bold")
            text.append(
                f" ({one_line(row.criterion_id or DASH, 40)}) · "
                f"{plural(row.failures, 'failure') if row.failures is not None else DASH + ' failures'}"
            )
        if row.name is None:
            text.append(f"\n  {one_line(row.note or DASH, 200)}", style="dim")
            continue
        share = DASH if row.share is None else f"{row.share * 100:.0f}%"
        text.append(f"\n  {one_line(row.name, 80)}", style="bold")
        text.append(f": {row.count if row.count is not None else DASH} ({share})")
        text.append(f"\n    example: {one_line(row.example or DASH, 300)}")
        if row.request_ids:
            text.append(f"\n    requests: {one_line(', '.join(row.request_ids), 200)}", style="dim")
    text.append("\n\nF clusters afresh (metered: one call per criterion with 4+ reasons) · escape back", style="dim")
    return text


class FailureClustersScreen(TextPageScreen):
    SCREEN_TITLE = "Failure clusters"
    PAGE = "clusters"
    LOADING = "loading the failure clusters…"
    BINDINGS = [
        bindings.back("clusters"),
        Binding("F", "force", "Cluster afresh (spends)", id="clusters.force"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.answer: FailureClusters | None = None
        self.force = SendOnce(self, group="clusters.force", busy_note="already clustering afresh")
        """``F``: a fresh clustering spends judge calls: asked, then sent once."""

    def on_mount(self) -> None:
        self.load(False)

    @work(exclusive=True, group="clusters.load", exit_on_error=False)
    async def load(self, force: bool) -> None:
        await self._read(force)

    async def _read(self, force: bool) -> None:
        client = self.ctx.errorbar
        if client is None:
            return
        try:
            self.answer = await client.failure_clusters(force=force)
        except BlahError as error:
            self.draw(Text(f"couldn't read the failure clusters: {describe_error(error)}", style="red"))
        else:
            self.draw(clusters_block(self.answer))

    def action_force(self) -> None:
        self.force.start(self._force_flow)

    async def _force_flow(self) -> None:
        if await self.force.confirm("Cluster the failures afresh?", Text(FORCE_CONFIRMATION), label="Cluster (spends)"):
            await self.force.send(lambda: self._read(True))
