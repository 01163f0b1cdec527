"""The platform's failure clusters on the Diagnosis screen: ask first, send once.

``POST /models/{id}/failure-clusters`` needs council tier and spends a judge call, so ``c``
asks for confirmation (``ConfirmScreen``) and the request is sent at most once per
confirmation: a guard is set on the first key press and cleared only when the dialog is
cancelled or the request has finished, so a second ``c`` or ``y`` cannot send it again.
A timed-out POST is "outcome unknown" (there is no GET to read clusters back); a 403 says
plainly that it needs council tier.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.widgets import Static

from api_client.errors import BlahError
from api_client.models import FailureClusters
from tui.screens.confirm import ConfirmScreen
from tui.screens.diagnosis_analysis import ClusterView, cluster_views
from tui.screens.diagnosis_rows import cluster_calls, cluster_cells
from tui.screens.diagnosis_text import cluster_detail, clusters_error, clusters_status
from tui.screens.runs_table import KeyTable

if TYPE_CHECKING:
    from tui.screens.diagnosis import DiagnosisScreen

__all__ = ["ClustersMixin"]

CONFIRM_BODY = (
    "The platform's judge reads the model's recent calls and groups the failures by what they have "
    "in common, each with what goes wrong and a suggestion for the training data.\n\n"
    "This needs an API key with council tier and spends a judge call. It is sent once."
)


class ClustersMixin:
    """Cluster state and actions for ``DiagnosisScreen`` (kept apart to keep files small)."""

    clusters: FailureClusters | None
    clusters_error: str | None
    clusters_busy: bool
    cluster_list: list[ClusterView]
    clusters_sent: int

    def _init_clusters(self) -> None:
        self.clusters = None
        self.clusters_error = None
        self.clusters_busy = False
        self.cluster_list = []
        self.clusters_sent = 0  # POSTs sent by this screen (each after one confirmation)
        self._clusters_guard = False
        self._clusters_model: str | None = None

    def reset_clusters(self: DiagnosisScreen) -> None:  # type: ignore[misc]
        self.clusters = None
        self.clusters_error = None
        self._clusters_model = None
        self.refresh_clusters()

    # ------------------------------------------------------------------ the request

    def action_clusters(self: DiagnosisScreen) -> None:  # type: ignore[misc]
        if self.ctx.client is None:
            self.notify("Offline: failure clusters need the platform.", markup=False)
            return
        if self._clusters_guard:
            self.notify("Already asking the platform for failure clusters.", markup=False)
            return
        self._clusters_guard = True

        def answered(ok: bool | None) -> None:
            if ok:
                self._post_clusters(self.ctx.model_id)
            else:
                self._clusters_guard = False

        self.app.push_screen(
            ConfirmScreen(
                "Ask the platform for failure clusters?",
                Text(CONFIRM_BODY),
                confirm_label="Ask (spends a judge call)",
            ),
            answered,
        )

    @work(group="diagnosis-clusters", exit_on_error=False)
    async def _post_clusters(self: DiagnosisScreen, model_id: str) -> None:  # type: ignore[misc]
        client = self.ctx.client
        if client is None:
            self._clusters_guard = False
            return
        self.clusters_busy = True
        self.clusters_error = None
        self.refresh_clusters()
        try:
            self.clusters_sent += 1
            clusters = await client.failure_clusters(model_id)
        except BlahError as error:
            self.blah_app.note_connection(error)
            if model_id == self.ctx.model_id:
                self.clusters_error = clusters_error(error)
                self.notify(self.clusters_error, title="Failure clusters", severity="error", markup=False)
            return
        finally:
            self.clusters_busy = False
            self._clusters_guard = False
            self.refresh_clusters()
        self.blah_app.note_connection(None)
        if model_id != self.ctx.model_id:
            return
        self.clusters = clusters
        self._clusters_model = model_id
        self.refresh_clusters()
        self.show_cluster_results(clusters)

    def show_cluster_results(self, clusters: FailureClusters | None) -> None:
        """Hook for the screen (e.g. switch to the tab that shows them)."""

    # ------------------------------------------------------------------ showing

    def refresh_clusters(self: DiagnosisScreen) -> None:  # type: ignore[misc]
        """Check the clusters against the current diagnosis and show them."""
        self.cluster_list = cluster_views(self.clusters, self.view) if self.clusters is not None else []
        self._show_clusters()

    def _show_clusters(self: DiagnosisScreen) -> None:  # type: ignore[misc]
        status = clusters_status(self.clusters, self.clusters_error, self.clusters_busy, self.ctx.client is not None)
        self.query_one("#diag-clusters-status", Static).update(status)
        table = self.query_one("#diag-clusters", KeyTable)
        current = table.current_key
        table.clear()
        for n, cluster in enumerate(self.cluster_list):
            table.add_row(*cluster_cells(cluster), key=str(n))
        table.move_to_key(current)

    def current_cluster(self: DiagnosisScreen) -> ClusterView | None:  # type: ignore[misc]
        key = self.query_one("#diag-clusters", KeyTable).current_key
        if key is None or not key.isdigit() or int(key) >= len(self.cluster_list):
            return None
        return self.cluster_list[int(key)]

    def on_data_table_row_selected(self: DiagnosisScreen, event: Any) -> None:  # type: ignore[misc]
        if getattr(event.data_table, "id", None) != "diag-clusters":
            return
        event.stop()
        cluster = self.current_cluster()
        if cluster is not None:
            self.open_calls(cluster_calls(cluster))

    def on_data_table_row_highlighted(self: DiagnosisScreen, event: Any) -> None:  # type: ignore[misc]
        if getattr(event.data_table, "id", None) != "diag-clusters":
            return
        self.query_one("#diag-group-detail", Static).update(cluster_detail(self.current_cluster()))
