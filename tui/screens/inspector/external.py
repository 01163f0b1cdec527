"""Hand a call to the person's $PAGER or $EDITOR: the app is suspended while it runs."""

from __future__ import annotations

import subprocess
from typing import Any

from textual.app import App, SuspendNotSupported

from application.inspector.actions import external_command, plain_call, write_temp_text
from common.records import Call

__all__ = ["hand_over"]


def hand_over(app: App[Any], entry: Call, kind: str) -> None:
    """Open the call in $PAGER (``kind="pager"``: the SANITIZED text, since a pager such as
    ``less -R`` or ``cat`` would pass escape sequences to the terminal) or $EDITOR (the raw
    text, the person's explicit choice). The text goes through a private temporary file; the
    pager's copy is removed afterwards, the editor's is kept and its path said."""
    path = write_temp_text(plain_call(entry, raw=kind == "editor"))
    argv = [*external_command(kind), str(path)]
    try:
        with app.suspend():
            subprocess.run(argv, check=False)
    except SuspendNotSupported:
        app.notify(f"this terminal can't hand over to {argv[0]}; the call is in {path}", markup=False)
        return
    except OSError as error:
        app.notify(f"couldn't run {argv[0]}: {error}", severity="error", markup=False)
    if kind == "pager":
        path.unlink(missing_ok=True)
    else:
        app.notify(f"the call was opened from {path} (edits there are not sent anywhere)", markup=False)
