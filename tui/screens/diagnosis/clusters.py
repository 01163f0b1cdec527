"""The platform's failure clusters on the Diagnosis screen: ask first, send once.

``POST /models/{id}/failure-clusters`` needs council tier and spends a judge call, so ``c``
asks for confirmation (``ConfirmScreen``) and the request is sent at most once per
confirmation: a guard is set on the first key press and cleared only when the dialog is
cancelled or the request has finished, so a second ``c`` or ``y`` cannot send it again.
A timed-out POST is "outcome unknown" (there is no GET to read clusters back); a 403 says
plainly that it needs council tier.

``ClustersPanel`` is the right half of the "Groups & clusters" tab. It owns the clusters, the
request and their wording; it tells its tab and screen with Messages when clusters arrive and
which cluster is highlighted or chosen (the tab owns the detail line, the screen the list of
calls). Cluster labels and the judge's words are untrusted: they reach the screen through
``one_line``/``safe_text``/``cell`` only.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from api_client.blahdev.shapes import FailureClusters
from api_client.errors import AuthError, BlahError, MissingKeyError, OutcomeUnknownError
from application.diagnosis.analysis import ClusterView, DiagnosisView, cluster_views
from application.error_text import council_refusal
from common.format import DASH, plural
from tui.base_screen import BlahScreen
from tui.cell_format import cell
from tui.screens.diagnosis.calls import CallSet
from tui.send_once import SendOnce
from widgets.key_table import KeyTable
from widgets.safe_text import one_line, safe_text

__all__ = [
    "CLUSTER_COLUMNS",
    "ClustersPanel",
    "cluster_calls",
    "cluster_cells",
    "cluster_detail",
    "clusters_error",
    "clusters_status",
]

CONFIRM_BODY = (
    "The platform's judge reads the model's recent calls and groups the failures by what they have "
    "in common, each with what goes wrong and a suggestion for the training data.\n\n"
    "This needs an API key with council tier and spends a judge call. It is sent once."
)


class ClustersPanel(Vertical):
    """The platform's failure clusters, checked against our diagnosis of the same calls."""

    class Arrived(Message):
        """The platform answered with clusters (the screen shows their tab)."""

        def __init__(self, clusters: FailureClusters) -> None:
            super().__init__()
            self.clusters = clusters

    class Highlighted(Message):
        """The cursor moved to a cluster (None: no cluster under it)."""

        def __init__(self, cluster: ClusterView | None) -> None:
            super().__init__()
            self.cluster = cluster

    class Chosen(Message):
        """Enter on a cluster: the screen lists its calls."""

        def __init__(self, cluster: ClusterView) -> None:
            super().__init__()
            self.cluster = cluster

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.clusters: FailureClusters | None = None
        self.error: str | None = None
        self.busy = False
        self.cluster_list: list[ClusterView] = []
        self.request = SendOnce(
            self, group="diagnosis-clusters", busy_note="Already asking the platform for failure clusters."
        )
        """The POST: asked, then sent once (``request.sent``: POSTs sent by this panel)."""
        self._view: DiagnosisView | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("The platform's failure clusters"), classes="pane-title", markup=False)
        yield Static(id="diag-clusters-status", classes="pane-note", markup=False)
        table = KeyTable(id="diag-clusters")
        for key, label in CLUSTER_COLUMNS:
            table.add_column(label, key=key)
        yield table

    def on_mount(self) -> None:
        self._show()

    @property
    def _host(self) -> BlahScreen:
        screen = self.screen
        assert isinstance(screen, BlahScreen), "ClustersPanel lives on a blah-tui screen"
        return screen

    # ------------------------------------------------------------------ the screen's calls

    def reset(self) -> None:
        """Another model: its clusters are not asked for yet."""
        self.clusters = None
        self.error = None
        self.check_against(None)

    def check_against(self, view: DiagnosisView | None) -> None:
        """Check the clusters against the current diagnosis and show them."""
        self._view = view
        self.cluster_list = cluster_views(self.clusters, view) if self.clusters is not None else []
        self._show()

    def ask(self) -> None:
        """``c``: confirm, then send the request once."""
        ctx = self._host.ctx
        if ctx.client is None:
            self.notify("Offline: failure clusters need the platform.", markup=False)
            return
        self.request.start(lambda: self._ask_and_post(ctx.model_id))

    async def _ask_and_post(self, model_id: str) -> None:
        if await self.request.confirm(
            "Ask the platform for failure clusters?", Text(CONFIRM_BODY), label="Ask (spends a judge call)"
        ):
            await self._post(model_id)

    # ------------------------------------------------------------------ the request

    async def _post(self, model_id: str) -> None:
        host = self._host
        client = host.ctx.client
        if client is None:
            return
        self.busy = True
        self.error = None
        self.check_against(self._view)
        try:
            clusters = await self.request.send(lambda: client.failure_clusters(model_id))
        except BlahError as error:
            host.blah_app.note_connection(error)
            if model_id == host.ctx.model_id:
                self.error = clusters_error(error)
                self.notify(self.error, title="Failure clusters", severity="error", markup=False)
            return
        finally:
            self.busy = False
            self.request.release()
            self.check_against(self._view)
        host.blah_app.note_connection(None)
        if model_id != host.ctx.model_id:
            return
        self.clusters = clusters
        self.check_against(self._view)
        self.post_message(self.Arrived(clusters))

    # ------------------------------------------------------------------ showing

    def _show(self) -> None:
        status = clusters_status(self.clusters, self.error, self.busy, self._host.ctx.client is not None)
        self.query_one("#diag-clusters-status", Static).update(status)
        table = self.query_one("#diag-clusters", KeyTable)
        current = table.current_key
        table.clear()
        for n, cluster in enumerate(self.cluster_list):
            table.add_row(*cluster_cells(cluster), key=str(n))
        table.move_to_key(current)

    def current_cluster(self) -> ClusterView | None:
        key = self.query_one("#diag-clusters", KeyTable).current_key
        if key is None or not key.isdigit() or int(key) >= len(self.cluster_list):
            return None
        return self.cluster_list[int(key)]

    @on(DataTable.RowSelected, "#diag-clusters")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        cluster = self.current_cluster()
        if cluster is not None:
            self.post_message(self.Chosen(cluster))

    @on(DataTable.RowHighlighted, "#diag-clusters")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.post_message(self.Highlighted(self.current_cluster()))


# --------------------------------------------------------------------------- wording


#: Column keys of the clusters table, in order, with their titles.
CLUSTER_COLUMNS: tuple[tuple[str, str], ...] = (("size", "Size"), ("check", "We flag"), ("label", "Cluster"))


def cluster_cells(cluster: ClusterView) -> list[Text]:
    """Size, how many of its listed calls we read and flag too (``flagged/read``), label."""
    size = DASH if cluster.size is None else str(cluster.size)
    if cluster.log_ids and cluster.we_examined:
        check = f"{cluster.we_flag}/{cluster.we_examined} read"
    elif cluster.log_ids:  # its calls are not among those read (newer, or older than the read window)
        check = f"none of {len(cluster.log_ids)} read"
    else:
        check = "none listed"
    return [
        Text(size, end=""),
        Text(check, end=""),
        cell(cluster.label or "unlabelled", max_len=48),
    ]


def cluster_calls(cluster: ClusterView) -> CallSet:
    size = "size not stated" if cluster.size is None else f"size {cluster.size}"
    listed = len(cluster.log_ids)
    note = ""
    if cluster.size is not None and listed < cluster.size:
        note = f"The platform listed {listed} of the cluster's {cluster.size} calls."
    return CallSet(
        f"platform cluster {one_line(cluster.label or 'unlabelled', max_len=60)} ({size})",
        cluster.log_ids,
        note,
    )


def cluster_detail(cluster: ClusterView | None) -> Text:
    if cluster is None:
        return Text("")
    text = Text(end="")
    text.append_text(safe_text(one_line(cluster.label or "unlabelled", max_len=80), style="bold"))
    text.append("\nwhat goes wrong: ", style="dim")
    text.append_text(safe_text(one_line(cluster.what_goes_wrong or "—", max_len=300)))
    text.append("\nsuggestion: ", style="dim")
    text.append_text(safe_text(one_line(cluster.suggestion or "—", max_len=300)))
    return text


def clusters_status(clusters: FailureClusters | None, error: str | None, busy: bool, online: bool) -> Text:
    if busy:
        return Text("asking the platform's judge to group the failures…", style="italic")
    if error:
        return Text(error, style="bold")
    if clusters is None:
        if not online:
            return Text("offline: the platform's failure clusters need the platform", style="dim")
        return Text(
            "Not asked yet: c asks the platform's judge to group the failures (council tier; it spends a judge call).",
            style="dim",
        )
    considered = "an unstated number of" if clusters.calls_considered is None else str(clusters.calls_considered)
    judge = one_line(clusters.judge_model, max_len=40) if clusters.judge_model else "an unnamed judge"
    if not clusters.clusters:
        return Text(f"The platform returned no clusters ({judge}, {considered} calls considered).")
    return Text(
        f"{plural(len(clusters.clusters), 'cluster')} by {judge} over {considered} calls. We flag: of the "
        "cluster's listed calls that we read, how many we find a failure in too."
    )


def clusters_error(error: BaseException) -> str:
    """A plain sentence for a failed /failure-clusters request."""
    if isinstance(error, MissingKeyError):
        return "Failure clusters need an API key with council tier; none is configured. Nothing was sent."
    if isinstance(error, OutcomeUnknownError):
        return (
            f"Outcome unknown: {one_line(error.message, max_len=160)}, so the judge call may have been spent. "
            "The platform has no endpoint to read the clusters back, so it was not sent again; press c to ask again."
        )
    if isinstance(error, AuthError):
        return council_refusal("Failure clusters need", error)
    if isinstance(error, BlahError):
        return f"The platform's /failure-clusters failed: {one_line(str(error), max_len=200)}"
    return f"The platform's /failure-clusters failed: {one_line(f'{type(error).__name__}: {error}', max_len=200)}"
