"""Benchmark: start-up to the first painted frame of the Logs screen over a 1M-call archive,
against a bare Textual hello-world app. Both run as real processes on a pseudo-terminal.

Each launch is ``python bench_startup.py --child KIND``: the child runs the app on a pty
(160x50) and exits on the first ``call_after_refresh`` after its content is on screen (for
blah-tui: after the first frame handed to the terminal once the Logs screen has put the
archive's rows into its list, i.e. the frame that shows them; for hello-world: after mount).
The parent times spawn -> exit, so both include interpreter start, imports, the first frame and shutdown.
Launches alternate (hello, app, hello, app, ...) so machine load hits both alike; medians are compared.

The blah-tui child is ``blah-tui open``-like but skips reading a JSONL dump: it opens the
cached archive (``bench_search.cached_archive``) as an offline session, as the app opens
the model's archive on every start. The hook lives here (wrappers around the screen's
``_show_rows`` and the app's ``_display``), so the product has no benchmark-only code path.

The child can also report its memory after painting (``--report FILE``, ``--linger S``):
bench_memory uses that.

Run: ``.venv/bin/python tests/bench/bench_startup.py [--rows 1000000] [--runs 5]``.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import statistics
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))
from bench_output import save_json

COLS, LINES = 160, 50


# ---------------------------------------------------------------------- child side


def _rss_mb() -> float | None:
    """Current resident set size (VmRSS), or None where /proc is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _finish(app: Any, report: Path | None, linger: float, extra: dict[str, Any]) -> None:
    """After the first frame: optionally wait ``linger`` s (the app keeps running), write
    the memory report, exit."""
    import resource

    painted = time.perf_counter()

    def done() -> None:
        if report is not None:
            report.write_text(
                json.dumps(
                    {
                        "rss_mb": _rss_mb(),
                        "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                        "cpu_s": time.process_time(),
                        "lingered_s": round(time.perf_counter() - painted, 2),
                        **extra,
                    }
                )
            )
        app.exit()

    if linger > 0:
        app.set_timer(linger, done)
    else:
        done()


def child_hello(report: Path | None, linger: float) -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Hello(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("Hello, world!")

        def on_mount(self) -> None:
            self.call_after_refresh(_finish, self, report, linger, {})

    Hello().run()


def child_app(archive_path: Path, report: Path | None, linger: float) -> None:
    import gc

    gc.disable()  # as ``blah-tui`` does (cli.main) before the app's imports; BlahApp.run turns it on
    from api_client.archives.archive import Archive
    from application.session.context import AppContext
    from application.session.settings.config import load_config
    from cli.app.launch import apply_config
    from tui.app import BlahApp, create_app
    from tui.screens.logs.screen import LogsScreen

    original = LogsScreen._show_rows
    original_display = BlahApp._display
    state: dict[str, Any] = {"rows": 0, "armed": True}

    def show_rows(self: LogsScreen, rows: Any, *, follow: bool) -> None:
        original(self, rows, follow=follow)
        if len(rows) and not state["rows"]:
            state["rows"] = len(rows)

    def display(self: BlahApp, screen: Any, renderable: Any) -> None:
        # The first frame sent to the terminal once the rows are in the list. Not simply the
        # next refresh after _show_rows: the rows can be there before the screen's first frame,
        # and Textual holds frames back for 50 ms after a mode switch (App.delay_update).
        original_display(self, screen, renderable)
        if state["rows"] and state["armed"] and renderable is not None:
            state["armed"] = False
            self.call_after_refresh(_finish, self, report, linger, {"rows_shown": state["rows"]})

    LogsScreen._show_rows = show_rows  # type: ignore[method-assign]
    BlahApp._display = display  # type: ignore[method-assign]
    archive = Archive(archive_path)
    ctx = AppContext(
        model_id="bench-model",
        client=None,
        platform=f"offline: {archive_path.name}",
        archive=archive,
        offline_source=archive_path,
    )
    app = create_app(apply_config(ctx, load_config()))
    app.run()
    archive.close()


# ---------------------------------------------------------------------- parent side


def launch(
    args: list[str], env: dict[str, str], timeout: float = 300.0, marker: bytes | None = None
) -> tuple[float, int, bytes]:
    """Run ``args`` on a fresh pty; seconds from spawn to exit, exit code, bytes written.
    With ``marker``, :data:`LAST_MARKER_S` is set to the seconds from spawn until the
    terminal first received it (None if it never did)."""
    global LAST_MARKER_S
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLS, 0, 0))
    chunks: list[bytes] = []
    seen: list[float] = []
    started = 0.0

    def drain() -> None:
        tail = b""
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)
            if marker is not None and not seen:
                window = tail + data
                if marker in window:
                    seen.append(time.perf_counter() - started)
                tail = window[-len(marker) :]

    started = time.perf_counter()
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    proc = subprocess.Popen(
        args, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True, start_new_session=True
    )
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise
    elapsed = time.perf_counter() - started
    os.close(slave)
    reader.join(timeout=5)
    os.close(master)
    LAST_MARKER_S = seen[0] if seen else None
    return elapsed, code, b"".join(chunks)


LAST_MARKER_S: float | None = None
HELLO_MARKER = b"Hello, world!"


def app_marker(rows: int) -> bytes:
    """Text of the Logs screen's frame that first shows the rows (its filter line counts them)."""
    return f"{rows:,} calls".encode()


def child_env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        TERM="xterm-256color",
        COLUMNS=str(COLS),
        LINES=str(LINES),
        COLORTERM="truecolor",
        BLAH_TUI_CONFIG_DIR=str(tmp / "config"),
        BLAH_TUI_DATA_DIR=str(tmp / "data"),
    )
    env.pop("TEXTUAL", None)
    return env


def child_args(kind: str, archive: Path | None, report: Path | None = None, linger: float = 0.0) -> list[str]:
    args = [sys.executable, str(Path(__file__).resolve()), "--child", kind]
    if archive is not None:
        args += ["--archive", str(archive)]
    if report is not None:
        args += ["--report", str(report), "--linger", str(linger)]
    return args


GOAL_RATIO = 1.5
"""Start-up to Logs' first paint over the 1M archive, against a Textual hello-world (issue 30)."""


def run(rows: int, runs: int, data: str = "synthetic") -> dict[str, Any]:
    """The benchmark in a temporary folder removed whatever happens; ``data``: the archive's
    calls (``bench_archive.DATA_SETS``)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        return _run(rows, runs, Path(folder), data)


def _run(rows: int, runs: int, tmp: Path, data: str = "synthetic") -> dict[str, Any]:
    from bench_search import cached_archive

    archive = cached_archive(rows, data=data)
    env = child_env(tmp)
    # As after `pip install` (which byte-compiles): the untimed warm-up launches below write
    # the project's .pyc files (into a private prefix, so the checkout stays clean) and the
    # timed ones load them. This shell sets PYTHONDONTWRITEBYTECODE, so without this every
    # start recompiled the project's source while Textual's modules came precompiled.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    hello: list[float] = []
    app: list[float] = []
    launch(child_args("hello", None), env)  # warm the OS page cache for both
    _, code, screen = launch(child_args("app", archive), env)
    if code != 0:
        raise RuntimeError(f"the app child failed ({code}): {screen[-2000:].decode('utf-8', 'replace')}")
    hello_paint: list[float] = []
    app_paint: list[float] = []
    for _ in range(runs):
        hello.append(launch(child_args("hello", None), env, marker=HELLO_MARKER)[0])
        hello_paint.append(_painted("hello-world"))
        seconds, code, _ = launch(child_args("app", archive), env, marker=app_marker(rows))
        if code != 0:
            raise RuntimeError(f"the app child exited with {code}")
        app.append(seconds)
        app_paint.append(_painted("the app"))
    h, a = statistics.median(hello), statistics.median(app)
    hp, ap = statistics.median(hello_paint), statistics.median(app_paint)
    out = {
        "rows": rows,
        "data": data,
        "runs": runs,
        "hello_s": [round(x, 3) for x in hello],
        "app_s": [round(x, 3) for x in app],
        "hello_median_s": round(h, 3),
        "app_median_s": round(a, 3),
        "ratio": round(a / h, 2),
        "hello_paint_s": [round(x, 3) for x in hello_paint],
        "app_paint_s": [round(x, 3) for x in app_paint],
        "hello_paint_median_s": round(hp, 3),
        "app_paint_median_s": round(ap, 3),
        "paint_ratio": round(ap / hp, 2),
        "load_avg": os.getloadavg()[0],
        "terminal": f"{COLS}x{LINES} pty",
    }
    out["rows_table"] = [
        {
            "figure": (
                f"start-up to first paint of Logs, {rows:,}-call archive ({data} calls; spawn -> rows on the terminal)"
            ),
            "value": round(ap * 1000),
            "unit": "ms",
            "baseline": "Textual hello-world, spawn -> its text on the terminal",
            "baseline_value": round(hp * 1000),
            "ratio": out["paint_ratio"],
            "goal": f"<= {GOAL_RATIO:g}x",
            "met": ap / hp <= GOAL_RATIO,
        },
        {
            "figure": f"start-up and exit after the first paint, {rows:,}-call archive (spawn -> process exit)",
            "value": round(a * 1000),
            "unit": "ms",
            "baseline": "Textual hello-world, same pty",
            "baseline_value": round(h * 1000),
            "ratio": out["ratio"],
            "goal": f"<= {GOAL_RATIO:g}x",
            "met": a / h <= GOAL_RATIO,
        },
    ]
    return out


def _painted(who: str) -> float:
    if LAST_MARKER_S is None:
        raise RuntimeError(f"{who} never showed its first frame on the terminal")
    return LAST_MARKER_S


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", choices=["hello", "app"])
    parser.add_argument("--archive", type=Path)
    parser.add_argument("--report", type=Path)
    parser.add_argument("--linger", type=float, default=0.0)
    parser.add_argument("--data", choices=("synthetic", "natural"), default="synthetic", help="the archive's calls")
    parser.add_argument("--json", type=Path, default=HERE / "results" / "bench_startup.json")
    args = parser.parse_args(argv)
    if args.child == "hello":
        child_hello(args.report, args.linger)
        return 0
    if args.child == "app":
        child_app(args.archive, args.report, args.linger)
        return 0
    print(f"goal: start-up to Logs' first paint <= {GOAL_RATIO:g}x a Textual hello-world", flush=True)
    out = run(args.rows, args.runs, args.data)
    print(
        f"start-up, {args.rows:,} rows, spawn -> first frame on the terminal: "
        f"app median {out['app_paint_median_s']} s, "
        f"hello-world {out['hello_paint_median_s']} s, ratio {out['paint_ratio']}x (goal <= {GOAL_RATIO:g}x)"
    )
    print(
        f"  spawn -> exit after that frame: app median {out['app_median_s']} s, hello-world {out['hello_median_s']} s, "
        f"ratio {out['ratio']}x"
    )
    save_json(out, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
