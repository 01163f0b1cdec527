"""The New bake-off dialog's words: the confirmation (``confirm``'s lines as a Rich ``Text``),
each criterion as the picker lists it, and which row of the dialog a refused field is said
under. Textual-free, shared by the dialog and its tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from application.bakeoffs.confirm import confirmation_lines
from application.bakeoffs.new_run.request import NewRun
from common.safe_strings import one_line

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["confirm_text", "criterion_option", "row_of_field"]


_ROWS = (
    ("name", "name"),
    ("eval_kind", "kind"),
    ("criterion_id", "criterion"),
    ("rubric_type", "rubric-type"),
    ("rubric", "rubric"),
    ("judge_model", "judge"),
    ("baseline_model", "baseline"),
    ("noninferiority_margin", "margin"),
    ("candidate_models", "candidates"),
    ("candidates", "arms"),
    ("sample_filters", "filters"),
    ("assertions", "assertions"),
    ("sample_count", "samples"),
    ("max_output_tokens", "max"),
)


def row_of_field(field: str | None) -> str | None:
    """The dialog row (``bn-err-<row>``) a body field's refusal is said under."""
    if not field:
        return None
    head = field.split("[", 1)[0].split(".", 1)[0]
    return next((row for name, row in _ROWS if name == head), None)


def _fig(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def criterion_option(criterion: assumed.Criterion) -> str:
    """A criterion as the picker lists it: name, trust, TPR/TNR, kappa, drift."""
    drift = (criterion.model_extra or {}).get("drift_signal") or (criterion.model_extra or {}).get("drift_status")
    return (
        f"{one_line(criterion.name or criterion.id, max_len=28)} · trust {one_line(criterion.trust or '—', max_len=16)}"
        f" · TPR {_fig(criterion.tpr)} TNR {_fig(criterion.tnr)} · kappa {_fig(criterion.kappa)}"
        f" · drift {one_line(str(drift or '—'), max_len=16)}"
    )


def confirm_text(request: NewRun, criterion: assumed.Criterion | None, runs: Sequence[assumed.Run]) -> Text:
    """What will be queued, what it spends on, and what to know first (warnings in bold)."""
    body = Text(end="")
    for index, (label, line) in enumerate(confirmation_lines(request, criterion, runs)):
        if index:
            body.append("\n")
        if label == "!":
            body.append("! " + one_line(line, max_len=300), style="bold")
        elif label:
            body.append(f"{label:<11} ")
            body.append(one_line(line, max_len=300), style="bold" if label == "Bake-off" else "")
        else:
            body.append(one_line(line, max_len=300), style="italic")
    return body
