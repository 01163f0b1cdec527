"""Export the training-data suggestions: a JSONL file of examples (the assistant reply left
empty for the person to write) and a markdown file that quotes the failing prompts.

``export_paths`` and ``write_suggestions`` do the file work (no Textual); ``ExportPathScreen``
asks where, with a default under the data directory. Nothing existing is ever overwritten: a
hand-filled training file is worth more than a fresh export.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.widgets import Button, Input, Static

from common.atomic_write import write_atomic
from diagnosis import Suggestion, to_jsonl, to_markdown
from diagnosis.suggest import ADD_DATA
from tui import bindings
from tui.base_screen import BlahScreen
from widgets.dialog import DialogScreen, answer_buttons
from widgets.safe_text import one_line

__all__ = [
    "ExportPathScreen",
    "Exported",
    "ask_and_export",
    "default_export_base",
    "export_paths",
    "write_suggestions",
]

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Exported:
    jsonl: Path
    markdown: Path
    examples: int  # lines written to the JSONL (only suggestions that call for data)
    suggestions: int


def default_export_base(data_dir: Path, model_id: str, now: datetime | None = None) -> Path:
    """``<data>/training/<model>-<hash>-suggestions-<UTC time>`` (no suffix): unique per export."""
    safe = _SAFE.sub("_", model_id).strip("._")[:60] or "model"
    digest = hashlib.sha256(model_id.encode("utf-8")).hexdigest()[:8]
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return data_dir / "training" / f"{safe}-{digest}-suggestions-{stamp}"


def export_paths(typed: str | Path) -> tuple[Path, Path]:
    """The JSONL and markdown paths for what the person typed (``~`` expanded; a ``.jsonl`` or
    ``.md`` suffix is replaced, anything else is kept as part of the name)."""
    path = Path(os.path.expanduser(str(typed).strip()))
    if path.suffix.lower() in (".jsonl", ".md", ".json"):
        path = path.with_suffix("")
    return path.with_name(path.name + ".jsonl"), path.with_name(path.name + ".md")


def write_suggestions(suggestions: Sequence[Suggestion], typed: str | Path, *, model_id: str | None = None) -> Exported:
    """Write both files (each via a temporary file renamed into place). Raises
    ``FileExistsError`` when either exists, ``OSError`` when it cannot be written."""
    jsonl_path, md_path = export_paths(typed)
    for path in (jsonl_path, md_path):
        if path.exists():
            raise FileExistsError(f"{path} already exists; choose another name")
    items = list(suggestions)
    jsonl = to_jsonl(items)
    heading = "# Training data to add" + (f" for `{_SAFE.sub('_', model_id)}`" if model_id else "") + "\n\n"
    markdown = (
        heading
        + (
            "Each example in the JSONL file beside this one has its assistant reply left empty: write the "
            "answer the model should have given.\n\n"
        )
        + to_markdown(items)
    )
    jsonl_path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(jsonl_path, jsonl)
    write_atomic(md_path, markdown)
    return Exported(jsonl_path, md_path, jsonl.count("\n"), len(items))


class ExportPathScreen(DialogScreen[str | None]):
    """Where to write the export: dismisses with the typed path, or None when cancelled."""

    DEFAULT_CSS = """
    ExportPathScreen > #export-dialog { width: 100; max-width: 95%; }
    ExportPathScreen #export-title { margin-bottom: 1; }
    ExportPathScreen #export-hint { margin-top: 1; }
    ExportPathScreen #export-buttons { margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.cancel("diagnosis_export"),
    ]

    def __init__(self, default: Path, *, examples: int, suggestions: int) -> None:
        super().__init__()
        self._default = default
        self._examples = examples
        self._suggestions = suggestions

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog", classes="dialog-box"):
            yield Static(Text("Export the training-data suggestions"), id="export-title", classes="dialog-title")
            yield Input(str(self._default), id="export-path")
            yield Static(
                Text(
                    f"Writes NAME.jsonl ({self._examples} examples, the assistant reply of each left empty for "
                    f"you to write) and NAME.md ({self._suggestions} suggestions quoting the failing prompts). "
                    "Existing files are never overwritten."
                ),
                id="export-hint",
                classes="dialog-hint",
            )
            yield answer_buttons("export", "Export")

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.answer(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "export-ok":
            value = self.query_one("#export-path", Input).value
            if value.strip():
                self.answer(value)
        else:
            self.answer(None)

    def action_cancel(self) -> None:
        self.answer(None)


def ask_and_export(screen: BlahScreen, suggested: Sequence[Suggestion] | None) -> None:
    """``x`` on the Diagnosis screen: ask where, write both files off the UI thread, say where.
    ``suggested``: the diagnosis' suggestions, None while it is still loading."""
    from application.session.paths import data_dir

    if suggested is None:
        screen.notify("Nothing to export yet: the diagnosis is still loading.", markup=False)
        return
    suggestions = list(suggested)
    if not suggestions:
        screen.notify("No training-data suggestions to export.", markup=False)
        return
    examples = sum(len(s.prompts) for s in suggestions if s.action == ADD_DATA)
    model_id = screen.ctx.model_id

    async def write(path: str | None) -> None:
        if path is None:
            return
        try:
            done = await asyncio.to_thread(write_suggestions, suggestions, path, model_id=model_id)
        except OSError as error:
            screen.notify(one_line(str(error), max_len=300), title="Export failed", severity="error", markup=False)
            return
        screen.notify(
            f"{done.examples} examples (replies empty for you to write): {done.jsonl}\n"
            f"{done.suggestions} suggestions quoting the prompts: {done.markdown}",
            title="Training data exported",
            markup=False,
            timeout=15,
        )

    def chosen(path: str | None) -> None:
        screen.run_worker(write(path), group="diagnosis-export", exit_on_error=False)

    screen.app.push_screen(
        ExportPathScreen(default_export_base(data_dir(), model_id), examples=examples, suggestions=len(suggestions)),
        chosen,
    )
