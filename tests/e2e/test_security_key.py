"""The API key, which can spend money and mute models, never shows up anywhere but the one
request header it belongs in, on the one origin it belongs to.

A canary key (registered in a private simulator as a council key, so writes go through) is
used for a whole session, and then looked for in: every rendered frame and screenshot of
every area, everything Python logged (httpx/httpcore at DEBUG included), every file the
app wrote (archive, config), `blah-tui export` / `report` / `status` output, the traceback
Textual prints when a worker or the app crashes (it prints every frame's LOCALS), the
simulator's request log, the snapshot SVGs kept in the repo, reprs and error texts. And a
redirect to another origin (another loopback port) never carries the Authorization header.
"""

from __future__ import annotations

import asyncio
import http.server
import io
import json
import logging
import re
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from rich.pretty import pretty_repr
from textual import work
from textual.binding import Binding, BindingType
from textual.widgets import Static

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import UploadTicket
from api_client.errors import AuthError, BlahError, InvalidResponseError
from application.session.context import AppContext
from application.session.credentials.stored_key import credentials_file, load_stored_key, store_key
from application.session.settings.typed import Settings
from cli.main import main, resolve_api_key
from simulator.server import SimulatorServer
from tests.support.hostile_e2e import KEYS_NOT_ANSWERED, SIZE, frame_text, visit_every_mode, wait_until
from tests.support.notify_log import NotificationLog
from tui.app import create_app
from tui.base_screen import BlahScreen

CANARY = "blah_canary_7f3a9c0e5d1b2468ace0"
TAIL = CANARY[-16:]  # a fragment is a leak too
REPO = Path(__file__).resolve().parents[2]


def assert_no_key(text: str | bytes, where: str) -> None:
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    assert CANARY.encode() not in data and TAIL.encode() not in data, f"the API key leaked into {where}"


@pytest.fixture(scope="module")
def keyed_sim() -> Iterator[SimulatorServer]:
    with SimulatorServer(seed=29, speed=50.0, live=False) as server:
        server.world.keys[CANARY] = {"user": "canary", "tier": "council"}
        yield server


# --------------------------------------------------------------------------- storing the key


def test_login_stores_privately_and_status_names_only_the_source(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(CANARY + "\n"))
    assert main(["login"]) == 0
    path = credentials_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)  # loosened by someone: reading it tightens it again
    assert load_stored_key() == (CANARY, "config")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert main(["status"]) == 0
    monkeypatch.setenv("EVALS_BLAH_API_KEY", "blah_env_" + "x" * 20)
    assert main(["status"]) == 0
    out = capsys.readouterr()
    assert_no_key(out.out + out.err, "login/status output")
    assert "source: the stored key" in out.out and "source: $EVALS_BLAH_API_KEY" in out.out
    assert "blah_env_" not in out.out


def test_precedence_flag_then_environment_then_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    store_key("blah_stored_" + "s" * 20)
    monkeypatch.setenv("EVALS_BLAH_API_KEY", "blah_env_" + "e" * 20)
    assert resolve_api_key(CANARY) == (CANARY, "flag")
    assert resolve_api_key(None)[1] == "env"
    monkeypatch.delenv("EVALS_BLAH_API_KEY")
    assert resolve_api_key(None)[1] == "config"


def test_a_store_made_world_readable_by_umask_is_created_0600(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    old = os.umask(0)
    try:
        path = store_key(CANARY)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# --------------------------------------------------------------------------- a whole session


async def test_a_whole_session_shows_and_writes_the_key_nowhere(
    keyed_sim: SimulatorServer, tmp_path: Path, caplog: pytest.LogCaptureFixture, notifications: NotificationLog
) -> None:
    caplog.set_level(logging.DEBUG)
    screenshots = 0
    async with BlahClient(keyed_sim.base_url, api_key=CANARY) as client:
        ctx = AppContext(
            model_id=keyed_sim.person_model_id,
            client=client,
            base_url=keyed_sim.base_url,
            key_source="flag",
            settings=Settings(timezone="UTC", persist_theme=False),
        )
        app = create_app(ctx)
        async with app.run_test(size=SIZE):

            async def scan(name: str) -> None:
                nonlocal screenshots
                assert_no_key(frame_text(app), f"the {name} screen")
                assert_no_key(app.export_screenshot(), f"a screenshot of {name}")
                screenshots += 1

            visited = await visit_every_mode(app, scan, timeout=5)
            # a write too, through the app's client (the key does its job: 201)
            started = await client.start_run([keyed_sim.person_model_id])
            assert started.run is not None
            for title, message in notifications.titled(app):  # toasts already gone included
                assert_no_key(f"{title} {message}", "a notification")
            for name, value in (("client", client), ("context", ctx)):
                assert_no_key(repr(value), f"repr of the {name}")
                assert_no_key(pretty_repr(value), f"the pretty repr of the {name}")
            assert_no_key(repr(vars(client._http)), "the request machinery's attributes")
    assert screenshots == len(visited) >= 10
    print(
        f"\nkey scan: {screenshots} areas' frames and screenshots, {len(caplog.records)} log records; "
        f"number keys not answered: {KEYS_NOT_ANSWERED or 'none'}"
    )
    assert_no_key("\n".join(r.getMessage() for r in caplog.records), "Python's logs")
    assert any("HTTP Request" in r.getMessage() for r in caplog.records)  # httpx did log requests
    scanned = 0
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert_no_key(path.read_bytes(), f"the file {path.relative_to(tmp_path)}")
            scanned += 1
    assert scanned >= 1  # the archive at least
    records = keyed_sim.requests.records()
    assert_no_key(keyed_sim.requests.text(), "the simulator's request log")
    assert any(r.authorized and r.method == "POST" for r in records)


def test_export_report_and_their_errors_never_print_the_key(
    keyed_sim: SimulatorServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "calls.jsonl"
    base = ["--base-url", keyed_sim.base_url, "--api-key", CANARY]
    assert main(["export", keyed_sim.person_model_id, "--since", "0", "-o", str(out_file), *base]) == 0
    assert out_file.stat().st_size > 1000
    assert_no_key(out_file.read_bytes(), "the export file")
    assert main(["report", keyed_sim.person_model_id, "--limit", "200", *base]) == 0
    assert main(["report", keyed_sim.person_model_id, "--json", "--limit", "50", *base]) == 0
    assert main(["report", "no-such-model", *base]) != 0  # an error path too
    assert main(["export", "no-such-model", "-o", str(tmp_path / "x.jsonl"), *base]) != 0
    out = capsys.readouterr()
    assert "## " in out.out or "{" in out.out
    assert_no_key(out.out + out.err, "export/report output")
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert_no_key(path.read_bytes(), f"the file {path.name}")


async def test_errors_about_a_rejected_key_do_not_repeat_it(keyed_sim: SimulatorServer) -> None:
    wrong = CANARY[:-4] + "dead"
    async with BlahClient(keyed_sim.base_url, api_key=wrong) as client:
        with pytest.raises(AuthError) as caught:
            await client.start_run([keyed_sim.person_model_id])
    error = caught.value
    for text in (str(error), repr(error), error.message, error.server_error or ""):
        assert wrong not in text and wrong[-16:] not in text
    assert error.status == 401


# --------------------------------------------------------------------------- crash traces


class FailingWorkerScreen(BlahScreen):
    """A worker whose request fails and is NOT caught: Textual ends the app and prints the
    traceback with the locals of every frame (the client's request loop among them)."""

    def compose(self) -> Any:
        yield Static("crashing")

    def on_mount(self) -> None:
        self.fail()

    @work(exit_on_error=True)
    async def fail(self) -> None:
        client = self.ctx.client
        assert client is not None
        await client.cancel_run("no-such-run")  # 404, raised from deep in the client


class ExplodingScreen(BlahScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "explode", "Explode", id="test.explode")]

    def compose(self) -> Any:
        yield Static("press x")

    def action_explode(self) -> None:
        client = self.ctx.client
        ctx = self.ctx
        raise RuntimeError(f"boom with {client!r} in {type(ctx).__name__}")


async def _crash(keyed_sim: SimulatorServer, screen: BlahScreen, key: str | None) -> BaseException:
    async with BlahClient(keyed_sim.base_url, api_key=CANARY) as client:
        ctx = AppContext(
            model_id=keyed_sim.person_model_id,
            client=client,
            base_url=keyed_sim.base_url,
            settings=Settings(persist_theme=False, start_mode="health"),
        )
        app = create_app(ctx)
        with pytest.raises(Exception) as caught:
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause(0.5)
                app.push_screen(screen)
                await wait_until(lambda: app.screen is screen, 10)
                if key:
                    await pilot.press(key)
                await wait_until(lambda: app._exception is not None, 15)
        return caught.value


async def test_a_worker_crash_traceback_shows_locals_but_not_the_key(
    keyed_sim: SimulatorServer, capsys: pytest.CaptureFixture[str]
) -> None:
    error = await _crash(keyed_sim, FailingWorkerScreen(), None)
    printed = capsys.readouterr().err
    assert "Traceback" in printed and "request_json" in printed, printed[-2000:]
    assert "auth = " in printed  # the locals of the client's request loop are shown ...
    assert_no_key(printed, "the crash traceback")  # ... and none of them holds the key
    assert isinstance(error.__cause__ or error, BaseException)


async def test_an_app_crash_traceback_shows_locals_but_not_the_key(
    keyed_sim: SimulatorServer, capsys: pytest.CaptureFixture[str]
) -> None:
    error = await _crash(keyed_sim, ExplodingScreen(), "x")
    printed = capsys.readouterr().err
    assert isinstance(error, RuntimeError)
    assert "Traceback" in printed and "action_explode" in printed, printed[-2000:]
    assert "has_key=True" in printed  # the client local is shown ...
    assert_no_key(printed, "the crash traceback")  # ... without the key


# --------------------------------------------------------------------------- files kept in the repo


def test_no_key_in_the_snapshot_files() -> None:
    svgs = list((REPO / "tests" / "__snapshots__").rglob("*.svg"))
    if not svgs:
        pytest.skip("no snapshot files yet")
    key_like = re.compile(rb"blah_(?:demo_)?(?:council|member|canary)_[0-9a-f]{8,}")
    for svg in svgs:
        data = svg.read_bytes()
        assert not key_like.search(data), f"a key in {svg.relative_to(REPO)}"
        assert_no_key(data, str(svg.relative_to(REPO)))


# --------------------------------------------------------------------------- other origins


class _Recorder(http.server.BaseHTTPRequestHandler):
    """A loopback server that remembers the headers of every request."""

    seen: list[dict[str, str]]
    redirect_to: str | None = None

    def _answer(self) -> None:
        self.seen.append({k.lower(): v for k, v in self.headers.items()})
        length = int(self.headers.get("content-length") or 0)
        if length:
            self.rfile.read(length)
        if self.redirect_to:
            self.send_response(302)
            self.send_header("Location", self.redirect_to + self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = json.dumps({"logs": [], "next_since": None, "next_before": None}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = _answer

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _serve(redirect_to: str | None) -> tuple[http.server.ThreadingHTTPServer, list[dict[str, str]], str]:
    seen: list[dict[str, str]] = []
    handler = type("Handler", (_Recorder,), {"seen": seen, "redirect_to": redirect_to})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen, f"http://127.0.0.1:{server.server_address[1]}"


async def test_a_redirect_to_another_origin_never_carries_the_key() -> None:
    other, other_seen, other_url = _serve(None)
    ours, ours_seen, ours_url = _serve(other_url)
    try:
        async with BlahClient(ours_url, api_key=CANARY) as client:
            with pytest.raises(InvalidResponseError) as caught:
                await client.get_logs("m1", limit=1)
            assert "redirect" in str(caught.value) and "not followed" in str(caught.value)
            with pytest.raises(BlahError):
                await client.start_run(["m1"])
            # an upload address on another origin gets the data, never the key
            ticket = UploadTicket(upload_url=f"{other_url}/bucket/object", method="PUT", max_bytes=1000)
            await client.upload_training_set(ticket, b'{"prompt": "a", "completion": "b"}\n')
            same = UploadTicket(
                upload_url=f"{ours_url.replace('127.0.0.1', '127.0.0.1')}/api/v1/uploads/t",
                method="PUT",
                max_bytes=1000,
            )
            with pytest.raises(BlahError):  # ours redirects it; not followed
                await client.upload_training_set(same, b"{}\n")
        await asyncio.sleep(0.05)
    finally:
        ours.shutdown()
        other.shutdown()
    assert ours_seen and all(h.get("authorization") == f"Bearer {CANARY}" for h in ours_seen)  # our origin: yes
    assert other_seen, "the other origin saw no request at all"
    assert all("authorization" not in h for h in other_seen)
    for headers in other_seen:
        assert_no_key(json.dumps(headers), "a request to another origin")


@pytest.mark.parametrize("base", ["http://evals.blah.dev", "http://10.0.0.5:8000", "HTTP://Example.com/api/v1"])
def test_the_key_is_never_sent_in_clear_text_to_another_machine(base: str) -> None:
    with pytest.raises(ValueError, match="refusing to send the API key in clear text"):
        BlahClient(base, api_key=CANARY)


@pytest.mark.parametrize(
    "base", ["http://127.0.0.1:8000", "http://localhost:9", "http://[::1]:8000", "https://evals.blah.dev"]
)
async def test_loopback_http_and_https_take_the_key(base: str) -> None:
    async with BlahClient(base, api_key=CANARY):
        pass


async def test_reading_without_a_key_over_http_is_allowed() -> None:
    async with BlahClient("http://evals.blah.dev"):
        pass


def test_the_command_line_says_why_and_stops(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cli.main import main

    monkeypatch.setenv("EVALS_BLAH_API_KEY", CANARY)
    assert main(["--base-url", "http://evals.blah.dev", "--model", "m"]) == 2
    err = capsys.readouterr().err
    assert "clear text" in err and "https://" in err and CANARY not in err
