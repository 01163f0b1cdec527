"""What the Inspector's keys do with the call on screen: copy its prompt or reply (``c``/``C``)
and append it to the model's training file (``t``); each says what it did in a notification."""

from __future__ import annotations

from textual.app import App

from application.inspector.actions import append_training_example, training_file_for
from common.records import Call

__all__ = ["copy_text", "export_training_example"]


def copy_text(app: App[object], entry: Call, which: str) -> None:
    """``which``: "prompt" or "reply"."""
    text = entry.prompt if which == "prompt" else entry.response
    if text is None:
        app.notify(f"there is no {which} to copy", markup=False)
        return
    app.copy_to_clipboard(text)
    app.notify(f"copied the {which} ({len(text):,} characters)", markup=False)


def export_training_example(app: App[object], entry: Call, model_id: str) -> None:
    """Append the call to ``model_id``'s training file, its reply left empty for the person."""
    from application.session.paths import data_dir

    path = training_file_for(data_dir(), model_id)
    try:
        append_training_example(entry, path)
    except OSError as error:
        app.notify(f"couldn't write the training example: {error}", severity="error", markup=False)
        return
    app.notify(
        f"training example added (reply left empty for you to write): {path}",
        title="Exported",
        markup=False,
        timeout=8,
    )
