"""The Evaluations area's two tables and their cells: the evaluations list
(``EvaluationTable``: one row per evaluation, its diagnosis filled in as it arrives) and one
evaluation's rollouts (``RolloutTable``).

The cell builders (``chip``, ``cell``, ``reward``, ``verdict``, ...) are module-level: the
titles of the rollouts and replay screens use them too. Every string from the platform goes
through the sanitizer (``one_line``) and is a ``Text``, never markup; what the platform did
not record is a dash, never 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo
from typing import Any

from rich.text import Text
from textual.widgets.data_table import RowKey

from application.evaluations.evidence import PLATFORM, Grade
from application.evaluations.listing import EvaluationRow
from common.format import DASH, format_time
from diagnosis.rollouts import RolloutDiagnosis
from widgets.badges import badges_text
from widgets.fitted_table import FittedTable
from widgets.safe_text import one_line

__all__ = [
    "EvaluationTable",
    "RolloutTable",
    "cell",
    "chip",
    "clip",
    "dash",
    "kinds_cell",
    "number",
    "reward",
    "share",
    "title_line",
    "verdict",
    "when",
]


def chip(platform: str = PLATFORM) -> Text:
    """The platform chip a row carries: `` blobfish ``."""
    return Text(f" {platform} ", style="bold reverse", end="")


def title_line(kind: str, ident: str, *fields: tuple[str, str | Text | None]) -> Text:
    """A screen's title row: the chip, ``<kind> <id>``, then ``  ·  <label> <value>`` for each
    field (a field with no value is its label alone, dim); one line, cut with an ellipsis."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append_text(chip())
    text.append(f" {kind} ", style="dim")
    text.append(ident, style="bold")
    for label, value in fields:
        if value is None:
            text.append(f"  ·  {label}", style="dim")
            continue
        text.append(f"  ·  {label} " if label else "  ·  ", style="dim")
        if isinstance(value, Text):
            text.append_text(value)
        else:
            text.append(value)
    return text


def dash() -> Text:
    return Text(DASH, style="dim")


def clip(value: str, max_len: int) -> str:
    """Sanitized, on one line, cut to ``max_len`` characters with an ellipsis (a table cell)."""
    shown = one_line(value, max_len=max(max_len, 200))
    return shown if len(shown) <= max_len else shown[: max_len - 1] + "…"


def cell(value: str | None, max_len: int = 40) -> Text:
    return dash() if not value else Text(clip(value, max_len))


def number(value: int | None) -> Text:
    return dash() if value is None else Text(f"{value:,}", justify="right")


def reward(value: float | None) -> Text:
    return dash() if value is None else Text(f"{value:.2f}", justify="right")


def share(value: float | None) -> Text:
    return dash() if value is None else Text(f"{value:.0%}", justify="right")


def verdict(grade: Grade | None) -> Text:
    if grade is None:
        return Text("ungraded", style="dim italic")
    if grade.passed is True:
        return Text("passed", style="bold green")
    if grade.passed is False:
        return Text("failed", style="bold red")
    return dash()


def when(created_ms: int | None, tz: tzinfo | None) -> Text:
    return Text(format_time(created_ms, tz, dates="day")[:12]) if created_ms is not None else dash()


def kinds_cell(kinds: Sequence[str]) -> Text:
    return badges_text(kinds) if kinds else Text("")


MARK = "✓ "
"""Before the first cell of a row marked for export."""


class EvaluationTable(FittedTable):
    """The evaluations list. Columns come in the order a person sorts and filters by, so an
    80-column terminal shows those first."""

    COLUMNS = (
        ("platform", "platform"),
        ("task", "task"),
        ("model", "model"),
        ("reward", "reward"),
        ("failed", "failed"),
        ("loops", "loops"),
        ("tools ✖", "tools"),
        ("findings", "findings"),
        ("roll.", "rollouts"),
        ("created", "created"),
    )
    NARROW_KEYS = ("task", "model", "reward", "findings", "failed", "loops", "tools", "rollouts", "created")
    """Under ``NARROW_BELOW`` columns: the findings beside the reward (the counts after them fold
    to the right), and no platform chip (every row of this screen is Blobfish's)."""
    NARROW_BELOW = 110

    def __init__(self, narrow: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        labels = {key: label for label, key in self.COLUMNS}
        self._keys = self.NARROW_KEYS if narrow else tuple(key for _, key in self.COLUMNS)
        for key in self._keys:
            self.add_column(labels[key], key=key)

    def _laid_out(self, cells: list[Text]) -> list[Text]:
        by_key = dict(zip((key for _, key in self.COLUMNS), cells, strict=True))
        return [by_key[key] for key in self._keys]

    @staticmethod
    def cells(row: EvaluationRow, tz: tzinfo | None) -> list[Text]:
        """The row's cells: "…" where its diagnosis is still running, a dash where it failed."""
        summary, diagnosis = row.summary, row.diagnosis
        pending = dash() if row.problem else Text("…", style="dim")
        if diagnosis is None:
            failed = loops = tools = findings = pending
        else:
            failed = number(diagnosis.failed_rollouts)
            loops = number(diagnosis.tool_loop_rollouts)
            tools = share(diagnosis.failed_tool_share)
            findings = kinds_cell(list(diagnosis.kind_counts()))
        task = cell(row.taskset, 14) if row.evaluation is not None else pending
        return [
            chip(),
            task,
            cell(summary.model, 16),
            reward(summary.mean_reward),
            failed,
            loops,
            tools,
            findings,
            number(summary.rollout_count),
            when(summary.created_ms, tz),
        ]

    def _shown(self, row: EvaluationRow, tz: tzinfo | None, marked: bool) -> list[Text]:
        shown = self._laid_out(self.cells(row, tz))
        if marked:  # space marked it for an export of several: a check before its first cell
            shown[0] = Text.assemble(Text(MARK, style="bold"), shown[0])
        return shown

    def add_evaluation(self, row: EvaluationRow, tz: tzinfo | None, *, marked: bool = False) -> RowKey:
        """Add the row under its evaluation's id (the key ``update_evaluation`` finds it by)."""
        return self.add_row(*self._shown(row, tz, marked), key=row.evaluation_id)

    def set_marked(self, row: EvaluationRow, tz: tzinfo | None, marked: bool) -> None:
        """Redraw only the cell that carries the mark (a whole row costs ten cell updates)."""
        first = self.ordered_columns[0].key
        self.update_cell(row.evaluation_id, first, self._shown(row, tz, marked)[0], update_width=True)

    def update_evaluation(self, row: EvaluationRow, tz: tzinfo | None, *, marked: bool = False) -> None:
        """Redraw the row in place (its diagnosis arrived, or it was marked or unmarked)."""
        for key, value in zip((c.key for c in self.ordered_columns), self._shown(row, tz, marked), strict=True):
            self.update_cell(row.evaluation_id, key, value, update_width=True)


class RolloutTable(FittedTable):
    """One evaluation's rollouts, in the record's order (the row key is the rollout's index)."""

    COLUMNS = (
        ("platform", "platform"),
        ("task", "task"),
        ("reward", "reward"),
        ("grade", "grade"),
        ("steps", "steps"),
        ("tools ✖", "tools"),
        ("findings", "findings"),
        ("rollout", "rollout"),
    )

    def __init__(self, rollouts: Sequence[RolloutDiagnosis], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for label, key in self.COLUMNS:
            self.add_column(label, key=key)
        for index, diagnosis in enumerate(rollouts):
            self.add_row(*self.cells(diagnosis), key=str(index))

    @staticmethod
    def cells(diagnosis: RolloutDiagnosis) -> list[Text]:
        rollout = diagnosis.rollout
        calls = diagnosis.tool_calls
        tools = dash() if not calls else Text(f"{diagnosis.failed_tool_calls}/{calls}", justify="right")
        return [
            chip(),
            cell(rollout.task_id, 26),
            reward(rollout.reward),
            verdict(rollout.grade),
            number(len(rollout.steps)),
            tools,
            kinds_cell(diagnosis.kinds),
            cell(rollout.rollout_id, 28),
        ]
