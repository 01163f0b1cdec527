"""`bakeoff watch`'s progress line: the app's words (status, done, ETA) as plain lines when piped,
and one line redrawn in place on a terminal."""

from __future__ import annotations

import io
from itertools import count

from api_client.errorbar.shapes import Run
from cli.bakeoff.watch_line import WatchLine


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(status: str, ratio: float | None) -> Run:
    return Run.model_validate({"id": "ev_1", "status": status, "progress_ratio": ratio})


def test_piped_each_poll_is_a_line_and_the_eta_comes_once_the_rate_is_measured() -> None:
    err = io.StringIO()
    seconds = count(0, 10)  # a poll every 10 s, 10% done each time
    with WatchLine("ev_1", err, lambda: float(next(seconds))) as line:
        for step in range(6):
            line.poll(_run("RUNNING", step / 10))
        line.poll(_run("DONE", 1.0))
    lines = err.getvalue().splitlines()
    assert len(lines) == 7 and lines[0] == "RUNNING · 0% done · ETA: estimating…"
    assert lines[5].startswith("RUNNING · 50% done · ETA ") and "estimating" not in lines[5]  # 50 s left
    assert lines[-1] == "DONE · 100%"


def test_on_a_terminal_one_line_is_redrawn() -> None:
    err = Terminal()
    with WatchLine("ev_1", err, lambda: 0.0) as line:
        line.poll(_run("RUNNING", 0.5))
    drawn = err.getvalue()
    assert "RUNNING · 50% done" in drawn and drawn.count("\n") <= 2  # not a line per poll


def test_a_platform_that_sends_no_progress_is_said() -> None:
    err = io.StringIO()
    with WatchLine("ev_1", err, lambda: 0.0) as line:
        line.poll(_run("RUNNING", None))
    assert err.getvalue() == "RUNNING · the platform sent no progress\n"
