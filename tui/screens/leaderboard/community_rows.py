"""How one community-board row (and one suite run) is drawn: the board's list item
(``CommunityRowItem``), the highlighted row's detail (``CommunityRowDetail``) and a suite run
to pick for publishing (``SuiteRunOption``), each showing inert Rich text from what the platform
sent (built by the pure ``*_text`` functions). Display names, notes, models and badges are
untrusted: shown verbatim, made inert (``widgets.safe_text``); an absent member is said to be
absent, never 0."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import ListItem, Static
from textual.widgets.option_list import Option

from api_client.blobfish.shapes_bench import CommunityRow, SuiteRun
from application.leaderboard.bench_board import coverage_sentence
from application.leaderboard.bench_error_bars import pass_rate_cell
from application.leaderboard.error_bars import mean_cell
from common.format import DASH
from tui.cell_format import fmt_pct, fmt_score, fmt_time
from widgets.safe_text import one_line_text, safe_text

INDENT = "    "
YOURS = " ◀ yours"
PLATFORM_CHIP = " Blobfish "


def board_title(before: str, slug: str, after: str) -> Text:
    """A publishing dialog's title naming the board: ``before``, the slug (the person typed it or
    the platform sent it: one inert line of 60 at most), then ``after``."""
    title = Text(before, end="")
    title.append_text(one_line_text(slug, max_len=60))
    title.append(after)
    return title


def _count(value: int | None) -> str:
    return DASH if value is None else str(value)


def tasks_graded_passed(row: CommunityRow) -> str:
    return f"{_count(row.tasks)}/{_count(row.graded)}/{_count(row.passed)}"


def row_text(rank: int | None, row: CommunityRow, mine_style: Style | str = "bold", mean: str | None = None) -> Text:
    """Three lines: the standing, where it came from (with its coverage), the badge verbatim.

    ``mean``: the mean score with its interval when its per-task scores are known
    (``application.leaderboard.bench_error_bars``); else the platform's average, said to be one."""
    text = Text(end="")
    if rank is not None:
        text.append(f"{rank:>2}. ", style=mine_style if row.mine else "bold")
    if row.display_name:
        text.append_text(one_line_text(row.display_name, max_len=80, style="bold"))
    else:
        text.append("(no display name)", style="italic")
    if row.mine:
        text.append(YOURS, style=mine_style)
    text.append(
        f"   mean {mean or mean_cell(None, row.mean_score)} · pass rate {pass_rate_cell(row)} · "
        f"tasks/graded/passed {tasks_graded_passed(row)}"
    )
    text.append("\n" + INDENT + "model ")
    text.append_text(one_line_text(row.model or DASH, max_len=60))
    if row.provider:
        text.append(" (")
        text.append_text(one_line_text(row.provider, max_len=30))
        text.append(")")
    text.append(" · credential ")
    text.append_text(one_line_text(row.credential_source or "not recorded", max_len=20))
    text.append(" · suite ")
    text.append_text(one_line_text(row.suite or DASH, max_len=20))
    text.append(f" · {coverage_sentence(row.coverage)}")
    text.append("\n" + INDENT)
    if row.badge:
        text.append_text(one_line_text(row.badge, max_len=300, style="italic"))
    else:
        text.append("the platform sent no badge for this row", style="italic")
    return text


def detail_text(row: CommunityRow) -> Text:
    """The highlighted row's ids, times and notes (the notes may run to 500 characters)."""
    text = Text(end="")
    text.append("community run ", style="bold")
    text.append_text(one_line_text(row.community_run_id, max_len=60))
    text.append(" · suite run ")
    text.append_text(one_line_text(row.run_id or DASH, max_len=60))
    text.append(f" · finished {fmt_time(row.finished_at)} · submitted {fmt_time(row.submitted_at)}")
    text.append("\nnotes ", style="bold")
    if row.notes:
        text.append_text(safe_text(row.notes))
    else:
        text.append("none", style="italic")
    return text


def suite_run_text(run: SuiteRun) -> Text:
    """One completed suite run, to choose which to publish."""
    text = Text(end="")
    text.append_text(one_line_text(run.run_id, max_len=60, style="bold"))
    text.append(" · ")
    text.append_text(one_line_text(run.model or DASH, max_len=40))
    text.append(" · suite ")
    text.append_text(one_line_text(run.suite or DASH, max_len=20))
    progress = run.progress
    done = f"{_count(progress.done if progress else None)}/{_count(progress.total if progress else None)}"
    text.append(
        f" · {done} tasks · graded {_count(run.graded)}, passed {_count(run.passed)} · "
        f"mean {fmt_score(run.mean_score)} · finished {fmt_time(run.finished_at)}"
    )
    return text


def suite_facts(run: SuiteRun) -> Text:
    """The run a publication is about, as its record says."""
    text = Text(end="")
    for label, value in (
        ("status", run.status),
        ("model", run.model),
        ("provider", run.provider),
        ("credential", run.credential_source),
        ("suite", run.suite),
    ):
        text.append(f"{label} ", style="bold")
        text.append_text(one_line_text(value or DASH, max_len=60))
        text.append("  ")
    text.append("\n")
    text.append("graded ", style="bold")
    text.append(f"{_count(run.graded)}, passed {_count(run.passed)}  ")
    text.append("mean score ", style="bold")
    text.append(f"{fmt_score(run.mean_score)}  ")
    text.append("pass rate ", style="bold")
    text.append(fmt_pct(run.pass_rate))
    return text


class CommunityRowItem(ListItem):
    """One row of the community board, ranked; ``mine_style`` marks the caller's own rows."""

    def __init__(
        self, rank: int | None, row: CommunityRow, mine_style: Style | str = "bold", mean: str | None = None
    ) -> None:
        super().__init__(Static(row_text(rank, row, mine_style, mean)))


class CommunityRowDetail(Static):
    """The highlighted row's ids, times and notes (empty when no row is highlighted)."""

    def show(self, row: CommunityRow | None) -> None:
        self.update(detail_text(row) if row is not None else Text(""))


class SuiteRunOption(Option):
    """One completed suite run, in the list to choose which to publish."""

    def __init__(self, run: SuiteRun) -> None:
        super().__init__(suite_run_text(run))
