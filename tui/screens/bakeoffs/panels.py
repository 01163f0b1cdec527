"""The bake-off view's panels, each one key away (``PanelKeys``, mixed into ``BakeoffScreen``).

The run read is drawn as panels in one scroll pane, the answer first: the verdict ("Switch? …"),
the results per candidate, the queue's gate, the calibration from the person's pair labels,
the app's own reading (paired difference, prediction-powered win rate, judge biases) and a
comparison of two runs. A person on an 80x24 terminal sees a few lines of that pane: without
these keys the calibration was Tab and fourteen ``j`` away. Each key moves the focus to the
pane (which shows that it has it) and scrolls its panel to the pane's top. The keys are one
footer group ("Panels") and each is listed by name in ``?``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from textual.binding import Binding
from textual.widget import Widget

__all__ = ["PANELS", "PANEL_BINDINGS", "PanelKeys", "PanelSpec"]

PANEL_GROUP = Binding.Group("Panels", compact=True)


@dataclass(frozen=True)
class PanelSpec:
    """A panel of the view: its key, its widget's id and what it is called."""

    name: str
    key: str
    widget_id: str
    title: str
    absent: str
    """Why a run has no such panel (said when its key is pressed then)."""


PANELS: tuple[PanelSpec, ...] = (
    PanelSpec("verdict", "v", "bakeoff-verdict", "Verdict", "no run is read yet"),
    PanelSpec("results", "a", "bakeoff-results", "Results", "no run is read yet"),
    PanelSpec("gate", "p", "bakeoff-gate", "Gate (pass/fail)", "the queue's gate has not been read yet"),
    PanelSpec(
        "calibration",
        "l",
        "bakeoff-calibration",
        "Calibration (labels)",
        "only a finished comparison run has a calibration from pair labels",
    ),
    PanelSpec(
        "reading",
        "o",
        "bakeoff-readings",
        "Own reading (paired, PPI)",
        "the app's own reading comes once a finished run's samples are read",
    ),
    PanelSpec(
        "comparison", "m", "bakeoff-comparison", "Comparison", "no comparison yet: x on two finished runs compares them"
    ),
)
"""The panels, top to bottom as drawn."""

PANEL_BINDINGS: list[Binding] = [
    Binding(spec.key, f"panel('{spec.name}')", spec.title, id=f"bakeoffs.panel_{spec.name}", group=PANEL_GROUP)
    for spec in PANELS
]


class PanelKeys:
    """``action_panel``: needs the host screen's ``query_one`` and ``notify``; the panels live in
    ``#bakeoff-detail-scroll``."""

    PANEL_BINDINGS: ClassVar[list[Binding]] = PANEL_BINDINGS

    def action_panel(self, name: str) -> None:
        """Focus the scroll pane and bring the panel to its top; a panel the run does not have
        is said, and the focus stays where it was."""
        host: Any = self
        spec = _spec(name)
        if not host.query_one(f"#{spec.widget_id}", Widget).display:
            host.notify(f"{spec.title}: {spec.absent}.", markup=False, timeout=4)
            return
        host.query_one("#bakeoff-detail-scroll", Widget).focus(scroll_visible=False)
        self.scroll_to_panel(name)

    def scroll_to_panel(self, name: str) -> None:
        """Bring the panel to the scroll pane's top (as far as the pane scrolls), the focus
        left where it is."""
        host: Any = self
        panel = host.query_one(f"#{_spec(name).widget_id}", Widget)
        if panel.display:
            host.query_one("#bakeoff-detail-scroll", Widget).scroll_to_widget(panel, animate=False, top=True)


def _spec(name: str) -> PanelSpec:
    return next(spec for spec in PANELS if spec.name == name)
