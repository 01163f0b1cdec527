"""Soak: the whole app left open on a flaky, busy platform, then checked against the truth.

A live simulator (compressed time: ``speed``) with chaos faults on every ``/api/v1`` request;
the app open on it (headless, ``App.run_test``) tailing the Logs screen into the archive,
polling the Chatroom and watching a run on the Runs screen, while keys are pressed every
``key_every_s`` to switch between them. Afterwards (faults off, the world frozen, the app
given time to catch up) what the app holds is compared with the simulator's world state:

- logs: the archive's unbroken stretch, from its oldest entry on, holds exactly the calls the
  simulator made for the model (none lost), and no tail delivered an entry twice;
- chatroom: the room's feed, from its oldest message on, holds exactly the world's messages,
  each once;
- the run watched was seen to completion;
- every key press was answered (the mode changed) and the slowest answer is reported;
- memory: RSS (and, with ``--tracemalloc``, Python allocations) at warm-up and at the end.

Run (minutes; prints figures, asserts nothing):

    .venv/bin/python tests/bench/soak.py --minutes 5 [--speed 10] [--tracemalloc]

The CI version (tests/e2e/test_reliability_soak.py) calls :func:`soak` for ~25 s and asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import LogEntry
from api_client.blahdev.tail import LogTail
from application.session.context import AppContext
from application.session.settings.typed import Settings
from simulator.chaos import ChaosConfig
from simulator.server import SimulatorServer
from tui.app import BlahApp, create_app

SOAK_CHAOS = ChaosConfig(
    rate_5xx=0.04,
    rate_429=0.02,
    retry_after=1,
    rate_latency=0.03,
    latency_s=0.5,
    rate_reset=0.02,
    rate_truncate=0.02,
    rate_trickle=0.01,
    rate_html=0.01,
    seed=5,
)
"""15% of requests fail one way or another."""

KEY_CYCLE = (("5", "chatroom"), ("3", "runs"), ("1", "logs"))
SIZE = (140, 45)


@dataclass
class SoakReport:
    duration_s: float = 0.0
    speed: float = 0.0
    calls_made: int = 0
    """Calls the simulator made for the model within the archive's stretch."""
    calls_tailed: int = 0
    """Entries delivered by the app's tails (each delivery counted)."""
    archived: int = 0
    lost: int = 0
    duplicated: int = 0
    chat_expected: int = 0
    chat_shown: int = 0
    chat_lost: int = 0
    chat_duplicated: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    requests: int = 0
    run_id: str | None = None
    run_status: str | None = None
    run_seen_complete: bool = False
    keys_pressed: int = 0
    keys_unanswered: int = 0
    max_key_latency_s: float = 0.0
    mean_key_latency_s: float = 0.0
    mean_key_cpu_s: float = 0.0
    """CPU the app's loop spent from a key press to the mode having changed (load-independent)."""
    key_cpu_by_mode: dict[str, str] = field(default_factory=dict)
    """Per mode: mean loop CPU of switching to it, first third of the soak vs last third."""
    traced_growth_by_package: dict[str, float] = field(default_factory=dict)
    """Growth of live Python allocations from warm-up to the end (MB), by package (with
    --tracemalloc). The simulator runs in this process: its world grows with every call."""
    traced_top_growth: list[str] = field(default_factory=list)
    """The allocation sites that grew most (with --tracemalloc): where to look for a leak."""
    rss_warm_mb: float | None = None
    rss_end_mb: float | None = None
    traced_warm_mb: float | None = None
    traced_end_mb: float | None = None
    catch_up_s: float = 0.0
    cpu_s: float = 0.0
    """CPU time of the whole process (app + simulator threads) during the soak."""
    loop_cpu_s: float = 0.0
    """CPU time of the app's event-loop thread alone during the soak."""
    max_loop_lag_s: float = 0.0
    """Worst overshoot of a 50 ms sleep on the app's loop: how long it was ever unresponsive."""
    crashed: str | None = None
    notes: list[str] = field(default_factory=list)
    tail_ids: list[str] = field(default_factory=list, repr=False)
    """Every id the app's tails delivered, in order (a duplicate shows up here twice)."""

    @property
    def rss_growth_mb(self) -> float | None:
        if self.rss_warm_mb is None or self.rss_end_mb is None:
            return None
        return self.rss_end_mb - self.rss_warm_mb

    def lines(self) -> list[str]:
        faults = ", ".join(f"{k} {v}" for k, v in sorted(self.faults.items())) or "none"
        rss = (
            "—"
            if self.rss_growth_mb is None
            else f"{self.rss_warm_mb:.0f} -> {self.rss_end_mb:.0f} MB (+{self.rss_growth_mb:.0f} MB)"
        )
        traced = "—" if self.traced_end_mb is None else f"{self.traced_warm_mb:.1f} -> {self.traced_end_mb:.1f} MB"
        return [
            f"soak: {self.duration_s:.0f} s at speed {self.speed:g} ({self.cpu_s:.0f} s CPU, app and simulator)",
            (
                f"  logs: {self.calls_made} calls made, {self.calls_tailed} tailed, {self.archived} archived, "
                f"{self.lost} lost, {self.duplicated} duplicated"
            ),
            (
                f"  chatroom: {self.chat_expected} messages, {self.chat_shown} shown, {self.chat_lost} lost, "
                f"{self.chat_duplicated} duplicated"
            ),
            f"  faults injected: {sum(self.faults.values())} of {self.requests} requests ({faults})",
            f"  run {self.run_id}: {self.run_status}; seen to completion: {self.run_seen_complete}",
            (
                f"  keys: {self.keys_pressed} pressed, {self.keys_unanswered} unanswered, max latency "
                f"{self.max_key_latency_s * 1000:.0f} ms, mean {self.mean_key_latency_s * 1000:.0f} ms "
                f"(the loop spent {self.mean_key_cpu_s * 1000:.0f} ms of CPU meanwhile, on all its work)"
            ),
            f"  memory: RSS {rss}; Python allocations {traced}",
            f"  allocation growth by package (MB): {self.traced_growth_by_package or '—'}",
            *(f"    {line}" for line in self.traced_top_growth),
            f"  loop CPU until a switch landed, by mode (early -> late): {self.key_cpu_by_mode or '—'}",
            f"  event loop: {self.loop_cpu_s:.0f} s CPU, worst lag {self.max_loop_lag_s * 1000:.0f} ms",
            f"  catch-up after faults stopped: {self.catch_up_s:.1f} s; crashed: {self.crashed or 'no'}",
            *(f"  note: {n}" for n in self.notes),
        ]


def _package(filename: str) -> str:
    for marker, name in (
        ("/simulator/", "simulator"),
        ("/api_client/", "api_client"),
        ("/tui/", "tui+widgets"),
        ("/widgets/", "tui+widgets"),
        ("/diagnosis/", "diagnosis"),
        ("/textual/", "textual+rich"),
        ("/rich/", "textual+rich"),
    ):
        if marker in filename:
            return name
    return "other"


def top_growth(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, n: int = 12) -> list[str]:
    """The ``n`` allocation sites (file:line) whose live memory grew most."""
    stats = sorted(after.compare_to(before, "lineno"), key=lambda s: s.size_diff, reverse=True)[:n]
    return [
        f"{s.size_diff / 2**20:+.1f} MB ({s.count_diff:+d} blocks) "
        f"{s.traceback[0].filename.split('site-packages/')[-1]}:"
        f"{s.traceback[0].lineno}"
        for s in stats
    ]


def growth_by_package(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot) -> dict[str, float]:
    """How much live Python memory each package's allocations grew by (MB)."""
    groups: dict[str, int] = {}
    for stat in after.compare_to(before, "filename"):
        key = _package(stat.traceback[0].filename)
        groups[key] = groups.get(key, 0) + stat.size_diff
    return {k: round(v / 2**20, 1) for k, v in sorted(groups.items())}


def rss_mb() -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def press_now(app: BlahApp, key: str) -> None:
    """Send one key the way the terminal driver does, without ``Pilot.press``'s waits for the
    whole process to go idle (in a busy process those alone take seconds, and they would be
    counted as the app's slowness)."""
    from textual import events

    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    assert app._driver is not None
    app._driver.send_message(event)


async def _until_fast(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.005)
    return predicate()


async def _until(pilot: Any, predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await pilot.pause(0.05)
    return predicate()


class _TailRecorder:
    """Wraps ``LogTail.__anext__`` for the soak: every delivered id, in delivery order."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self._original: Callable[[LogTail], Awaitable[list[LogEntry]]] | None = None

    def install(self) -> None:
        original = LogTail.__anext__
        self._original = original
        recorder = self

        async def recording(tail: LogTail) -> list[LogEntry]:
            batch = await original(tail)
            recorder.ids.extend(entry.id for entry in batch)
            return batch

        LogTail.__anext__ = recording  # type: ignore[method-assign,assignment]

    def remove(self) -> None:
        if self._original is not None:
            LogTail.__anext__ = self._original  # type: ignore[method-assign,assignment]
            self._original = None


async def soak(
    duration_s: float = 25.0,
    *,
    speed: float = 10.0,
    chaos: ChaosConfig | None = SOAK_CHAOS,
    seed: int = 17,
    key_every_s: float = 0.5,
    min_faults: int = 0,
    use_tracemalloc: bool = False,
    log: Callable[[str], None] | None = None,
) -> SoakReport:
    """Run the soak; config/data directories must already point somewhere disposable."""
    report = SoakReport(speed=speed)
    say = log or (lambda _m: None)
    server = SimulatorServer(seed=seed, speed=speed, live=True).start()
    recorder = _TailRecorder()
    recorder.install()
    report.tail_ids = recorder.ids  # the same list: filled as the tails deliver
    if use_tracemalloc:
        tracemalloc.start()
    try:
        async with BlahClient(server.base_url, api_key=server.council_key, deadline=15.0) as client:
            ctx = AppContext(
                model_id=server.person_model_id,
                client=client,
                base_url=server.base_url,
                settings=Settings(
                    logs_interval=0.25,
                    logs_max_interval=1.0,
                    chatroom_poll_interval=0.25,
                    chatroom_max_interval=1.0,
                    timezone="UTC",
                    bell_on_run_end=False,
                    persist_theme=False,
                ),
            )
            app = create_app(ctx)
            try:
                async with app.run_test(size=SIZE) as pilot:
                    await _drive(app, pilot, server, report, duration_s, chaos, key_every_s, min_faults, say)
            except Exception as error:
                report.crashed = f"{type(error).__name__}: {error}"
    finally:
        recorder.remove()
        if use_tracemalloc:
            tracemalloc.stop()
        server.stop()
    return report


async def _drive(
    app: BlahApp,
    pilot: Any,
    server: SimulatorServer,
    report: SoakReport,
    duration_s: float,
    chaos: ChaosConfig | None,
    key_every_s: float,
    min_faults: int,
    say: Callable[[str], None],
) -> None:
    from tui.screens.chatroom.screen import ChatroomScreen
    from tui.screens.logs.screen import LogsScreen
    from tui.screens.runs.screen import RunsScreen
    from tui.screens.runs.watch import RunWatchScreen

    world = server.world
    model = server.person_model_id
    if not await _until(pilot, lambda: isinstance(app.screen, LogsScreen) and app.screen.log_list.row_count > 0, 60):
        report.notes.append("the logs screen never showed a row")
    logs_screen = app.screen
    assert isinstance(logs_screen, LogsScreen)
    await pilot.press("5")
    await _until(pilot, lambda: isinstance(app.screen, ChatroomScreen) and len(app.screen.feed) > 0, 30)
    chat_screen = app.screen
    assert isinstance(chat_screen, ChatroomScreen)
    await pilot.press("3")

    def active_run() -> str | None:
        screen = app.screen
        if not isinstance(screen, RunsScreen):
            return None
        return next((r.id for r in screen.runs if r.status in ("queued", "running")), None)

    # The Runs screen stops refreshing while no run is active: ask again (r) until one is.
    give_up = time.monotonic() + 60 / server.speed * 3 + 20
    while active_run() is None and time.monotonic() < give_up:
        if isinstance(app.screen, RunsScreen):
            press_now(app, "r")
        await _until(pilot, lambda: active_run() is not None, 1.0)
    run_id = active_run()
    watch: RunWatchScreen | None = None
    if run_id is not None:
        runs_screen = app.screen
        assert isinstance(runs_screen, RunsScreen)
        runs_screen.table.move_to_key(run_id)
        runs_screen.table.focus()
        await pilot.press("enter")
        await _until(pilot, lambda: isinstance(app.screen, RunWatchScreen), 10)
        if isinstance(app.screen, RunWatchScreen):
            watch = app.screen
    report.run_id = run_id
    say(f"watching run {run_id}; chaos on for {duration_s:.0f} s")

    server.requests.clear()
    faults_before = server.chaos_counts()
    server.chaos = chaos
    gc.collect()  # measure live objects, not garbage the collector has not reached yet
    report.rss_warm_mb = rss_mb()
    warm_snapshot: tracemalloc.Snapshot | None = None
    if tracemalloc.is_tracing():
        report.traced_warm_mb = tracemalloc.get_traced_memory()[0] / 2**20
        warm_snapshot = tracemalloc.take_snapshot()
    latencies: list[float] = []
    key_cpu: list[float] = []
    by_mode: dict[str, list[tuple[float, float]]] = {}
    cpu_started = time.process_time()
    loop_cpu_started = time.thread_time()
    started = time.monotonic()
    stop_probe = asyncio.Event()

    async def lag_probe() -> None:
        while not stop_probe.is_set():
            t = time.monotonic()
            await asyncio.sleep(0.05)
            report.max_loop_lag_s = max(report.max_loop_lag_s, time.monotonic() - t - 0.05)

    probe = asyncio.create_task(lag_probe())
    turn = 0

    def injected() -> int:
        return sum(server.chaos_counts().values()) - sum(faults_before.values())

    # Runs for ``duration_s``, and on (up to twice as long) until ``min_faults`` were injected:
    # on a loaded machine the app makes fewer requests, and the point is to live through faults.
    while (elapsed := time.monotonic() - started) < duration_s or (
        chaos is not None and injected() < min_faults and elapsed < 2 * duration_s
    ):
        key, mode = KEY_CYCLE[turn % len(KEY_CYCLE)]
        turn += 1
        t0 = time.monotonic()
        c0 = time.thread_time()
        press_now(app, key)
        if await _until_fast(lambda mode=mode: app.current_mode == mode, 10):
            latencies.append(time.monotonic() - t0)
            key_cpu.append(time.thread_time() - c0)
            by_mode.setdefault(mode, []).append((time.monotonic() - started, time.thread_time() - c0))
        else:
            report.keys_unanswered += 1
        report.keys_pressed += 1
        if mode == "logs":
            press_now(app, "k")
            press_now(app, "j")
        await asyncio.sleep(max(0.0, key_every_s - (time.monotonic() - t0)))
        if turn % 20 == 0:
            say(f"  {time.monotonic() - started:.0f} s: {len(report.tail_ids)} calls tailed, {injected()} faults")
    report.duration_s = time.monotonic() - started
    report.cpu_s = time.process_time() - cpu_started
    report.loop_cpu_s = time.thread_time() - loop_cpu_started
    stop_probe.set()
    await probe
    report.max_key_latency_s = max(latencies, default=0.0)
    report.mean_key_latency_s = sum(latencies) / len(latencies) if latencies else 0.0
    report.mean_key_cpu_s = sum(key_cpu) / len(key_cpu) if key_cpu else 0.0
    third = report.duration_s / 3
    for mode, samples in by_mode.items():
        early = [c for t, c in samples if t < third]
        late = [c for t, c in samples if t >= 2 * third]
        if early and late:
            report.key_cpu_by_mode[mode] = (
                f"{1000 * sum(early) / len(early):.0f} -> {1000 * sum(late) / len(late):.0f} ms"
            )
    gc.collect()
    report.rss_end_mb = rss_mb()
    if tracemalloc.is_tracing():
        report.traced_end_mb = tracemalloc.get_traced_memory()[0] / 2**20
        if warm_snapshot is not None:
            end_snapshot = tracemalloc.take_snapshot()
            report.traced_growth_by_package = growth_by_package(warm_snapshot, end_snapshot)
            report.traced_top_growth = top_growth(warm_snapshot, end_snapshot)
    after = server.chaos_counts()
    report.faults = {
        k: after.get(k, 0) - faults_before.get(k, 0) for k in after if after.get(k, 0) - faults_before.get(k, 0)
    }
    report.requests = len(server.requests.records())

    # The run is watched to its end (faults still on: the watch must cope). An area key shows
    # the area's own screen, so the key cycling above closed the watch: open it again.
    if run_id is not None and (watch is None or not watch.is_attached):
        press_now(app, "3")
        await _until(
            pilot, lambda: isinstance(app.screen, RunsScreen) and run_id in {r.id for r in app.screen.runs}, 20
        )
        if isinstance(app.screen, RunsScreen):
            app.screen.table.move_to_key(run_id)
            app.screen.table.focus()
            await pilot.press("enter")
            await _until(pilot, lambda: isinstance(app.screen, RunWatchScreen), 10)
            watch = app.screen if isinstance(app.screen, RunWatchScreen) else None
    if watch is not None:
        await _until(pilot, lambda: watch.poll_state == "finished", 60 / server.speed * 4 + 20)
        report.run_seen_complete = (
            watch.poll_state == "finished" and watch.run is not None and watch.run.status == "completed"
        )
        report.run_status = None if watch.run is None else watch.run.status

    # Faults off, world frozen: the app must catch up with everything that happened.
    server.chaos = None
    server.freeze()
    catch_started = time.monotonic()
    archive = logs_screen.feed.archive if logs_screen.feed is not None else None
    world_newest_log = world.logs.latest(model)
    world_newest_msg = max((m["created_at"] for m in world.messages), default=None)

    def caught_up() -> bool:
        archived_newest = archive.newest_ms() if archive is not None else None
        return archived_newest == world_newest_log and chat_screen.feed.newest_ms == world_newest_msg

    if not await _until(pilot, caught_up, 60):
        report.notes.append("the app had not caught up 60 s after the faults stopped")
    await pilot.pause(1.0)  # one more poll of each: nothing extra may arrive
    report.catch_up_s = time.monotonic() - catch_started
    _compare_logs(report, world, model, archive)
    _compare_chat(report, world, chat_screen)
    if app._exception is not None:
        report.crashed = repr(app._exception)


def _compare_logs(report: SoakReport, world: Any, model: str, archive: Any) -> None:
    if archive is None:
        report.notes.append("no archive was used")
        return
    oldest = archive.oldest_ms()
    if oldest is None:
        report.notes.append("the archive is empty")
        return
    # The stretch compared starts AFTER the archive's oldest millisecond: a page of older history
    # (loaded when the list is scrolled to its top) may end in the middle of a millisecond, and
    # the rest of that millisecond is simply the next older page, not a loss.
    held = [entry.id for entry in archive.iter_all() if entry.created_at > oldest]
    report.archived = len(held)
    expected = {e["id"] for e in world.logs.all_for(model) if e["created_at"] > oldest}
    report.calls_made = len(expected)
    report.lost = len(expected - set(held)) + (len(held) - len(set(held)))
    extra = set(held) - expected
    if extra:
        report.notes.append(f"{len(extra)} archived entries the world does not have in that stretch")
    report.calls_tailed = len(report.tail_ids)
    report.duplicated = len(report.tail_ids) - len(set(report.tail_ids))


def _compare_chat(report: SoakReport, world: Any, screen: Any) -> None:
    shown = [m.id for m in screen.feed.messages]
    report.chat_shown = len(shown)
    report.chat_duplicated = len(shown) - len(set(shown))
    if not shown:
        return
    oldest = min(m.created_at for m in screen.feed.messages)
    expected = {m["id"] for m in world.messages if m["created_at"] >= oldest}
    report.chat_expected = len(expected)
    report.chat_lost = len(expected - set(shown))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--speed", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--no-chaos", action="store_true")
    parser.add_argument("--tracemalloc", action="store_true", help="also trace Python allocations (slower)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="blah-soak-") as tmp:
        os.environ["BLAH_TUI_CONFIG_DIR"] = str(Path(tmp) / "config")
        os.environ["BLAH_TUI_DATA_DIR"] = str(Path(tmp) / "data")
        report = asyncio.run(
            soak(
                args.minutes * 60,
                speed=args.speed,
                seed=args.seed,
                chaos=None if args.no_chaos else SOAK_CHAOS,
                use_tracemalloc=args.tracemalloc,
                log=lambda m: print(m, flush=True),
            )
        )
    print("\n".join(report.lines()))
    print({k: v for k, v in asdict(report).items() if k not in ("notes", "tail_ids")})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
