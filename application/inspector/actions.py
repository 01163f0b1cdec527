"""What the Inspector does with a call outside the screen: export it as a training example,
and hand its text to the person's $PAGER / $EDITOR. No Textual import."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import tempfile
from pathlib import Path
from typing import Any

from common.format import DASH
from common.records import Call
from common.safe_strings import sanitize

__all__ = [
    "append_training_example",
    "external_command",
    "plain_call",
    "training_example",
    "training_file_for",
    "write_temp_text",
]

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def training_example(entry: Call) -> dict[str, Any]:
    """One chat-format training example for this call, the reply left empty to be written.

    The structured turns are used when the platform recorded them (``messages``); otherwise the
    exact prompt becomes a single user turn. The model's actual reply is never copied in: the
    point is for the person to write the answer it should have given.
    """
    turns: list[dict[str, str]] = []
    if entry.messages:
        turns = [{"role": m.role, "content": m.content or ""} for m in entry.messages]
        while turns and turns[-1]["role"] == "assistant" and not turns[-1]["content"]:
            turns.pop()
    else:
        turns = [{"role": "user", "content": entry.prompt or ""}]
    turns.append({"role": "assistant", "content": ""})
    return {"messages": turns, "source_log_id": entry.id}


def plain_call(entry: Call, *, raw: bool) -> str:
    """The call as plain text for a pager or an editor: sanitized unless ``raw``."""

    def show(value: str | None) -> str:
        if value is None:
            return DASH
        return value if raw else sanitize(value)

    return (
        f"call {show(entry.id)}  source {show(entry.source)}  finish {show(entry.finish_reason)}\n"
        f"===== prompt =====\n{show(entry.prompt)}\n"
        f"===== reply =====\n{show(entry.response)}\n"
        + (f"===== error =====\n{show(entry.error)}\n" if entry.error else "")
    )


def training_file_for(directory: Path, model_id: str | None) -> Path:
    """``<data dir>/training/<model>.jsonl`` with a filesystem-safe name (hash keeps it unique)."""
    name = model_id or "unknown-model"
    safe = _SAFE_NAME.sub("_", name).strip("._")[:60] or "model"
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]
    return directory / "training" / f"{safe}-{digest}.jsonl"


def append_training_example(entry: Call, path: Path) -> Path:
    """Append the example as one JSON line to ``path`` (created with its folder if needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(training_example(entry), ensure_ascii=False)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line + "\n")
    return path


def external_command(kind: str) -> list[str]:
    """The person's pager (``kind="pager"``) or editor as an argv list, with a safe default."""
    if kind == "editor":
        raw = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    else:
        raw = os.environ.get("PAGER") or "less"
    try:
        argv = shlex.split(raw)
    except ValueError:
        argv = []
    return argv or (["vi"] if kind == "editor" else ["less"])


def write_temp_text(text: str, *, prefix: str = "blah-call-", suffix: str = ".txt") -> Path:
    """Write the raw text to a private temporary file (mode 0600) and return its path."""
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=suffix)
    with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as handle:
        handle.write(text)
    return Path(name)
