"""The Models screen's detail pane: one model or one eval read in full.

Every platform string goes through ``widgets.safe_text``; a field the platform did not send
is shown as "—", never guessed.
"""

from __future__ import annotations

import json

from rich.text import Text
from textual.widgets import Static

from api_client.blahdev.shapes import Eval, Model
from common.format import DASH, format_utc
from widgets.badges import badge_text
from widgets.safe_text import one_line, one_line_text, safe_text

__all__ = [
    "ModelDetail",
    "chatroom_cell",
    "eval_detail_text",
    "fmt_when",
    "model_detail_text",
    "yes_no",
]


def fmt_when(value: int | str | None) -> str:
    """A platform time (ms since the epoch, or a string on older services) in UTC."""
    if isinstance(value, str):
        return one_line(value, max_len=40)
    return format_utc(value, seconds=False, zone=" UTC")


def yes_no(value: bool | None) -> str:
    return DASH if value is None else ("yes" if value else "no")


def chatroom_cell(enabled: bool | None) -> Text:
    """A model's chatroom state: takes turns, muted, or "—" when the platform does not say."""
    if enabled is None:
        return Text(DASH, end="")
    if enabled:
        return Text("takes turns", end="")
    return badge_text("muted")


def _field(text: Text, label: str, value: Text | str | None) -> None:
    text.append(f"{label:<16}", style="bold")
    if value is None or (isinstance(value, str) and not value):
        text.append(DASH, style="dim")
    elif isinstance(value, Text):
        text.append_text(value)
    else:
        text.append_text(one_line_text(value, max_len=300))
    text.append("\n")


def model_detail_text(model: Model, *, current_model_id: str, enabled: bool | None) -> Text:
    text = Text(end="")
    text.append_text(one_line_text(model.name or model.id, max_len=80, style="bold"))
    if model.id == current_model_id:
        text.append("  ◆ the model this app is about", style="italic")
    text.append("\n\n")
    _field(text, "id", model.id)
    _field(text, "inference URI", model.inference_uri)
    _field(text, "chat template", model.chat_template or Text("unknown (the platform does not say)", style="dim"))
    _field(text, "chatroom", chatroom_cell(enabled))
    _field(text, "official", yes_no(model.is_official))
    _field(text, "submitted by", model.submitted_by)
    _field(text, "created", fmt_when(model.created_at))
    _field(text, "updated", fmt_when(model.updated_at))
    text.append("\n")
    text.append("Description\n", style="bold")
    text.append_text(safe_text(model.description) if model.description else Text("none given", style="dim"))
    if enabled is False:
        text.append("\n\nMuted in the chatroom: it takes no turns, and keeps its scores and history.", style="italic")
    text.append("\n\ns switch the app to this model · m mute/unmute · p playground · g games", style="dim")
    return text


def _criteria(raw: str | None) -> Text:
    if not raw:
        return Text("none given", style="dim")
    try:
        parsed = json.loads(raw)
    except ValueError:
        return safe_text(raw)
    return safe_text(json.dumps(parsed, indent=2, ensure_ascii=False))


def eval_detail_text(item: Eval) -> Text:
    text = Text(end="")
    text.append_text(one_line_text(item.name or item.id, max_len=80, style="bold"))
    text.append("\n\n")
    _field(text, "id", item.id)
    _field(text, "type", item.eval_type)
    _field(text, "subject", item.subject)
    _field(text, "instruction", item.instruction_type)
    _field(text, "submitted by", item.submitted_by)
    _field(text, "created", fmt_when(item.created_at))
    for title, body in (
        ("Description", safe_text(item.description) if item.description else None),
        ("Prompt", safe_text(item.prompt) if item.prompt else None),
        ("Expected behaviour", safe_text(item.expected_behavior) if item.expected_behavior else None),
        ("Criteria", _criteria(item.eval_criteria)),
    ):
        text.append("\n")
        text.append(title + "\n", style="bold")
        text.append_text(body if body is not None else Text("none given", style="dim"))
        text.append("\n")
    return text


class ModelDetail(Static):
    """The text of the model or eval highlighted in the lists (or a hint before the first)."""

    def show_model(self, model: Model, *, current_model_id: str, enabled: bool | None) -> None:
        self.update(model_detail_text(model, current_model_id=current_model_id, enabled=enabled))

    def show_eval(self, item: Eval) -> None:
        self.update(eval_detail_text(item))
