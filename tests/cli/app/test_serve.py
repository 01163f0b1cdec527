"""`blah-tui serve`: the command each browser tab runs (never with the key), the loopback
warning, and once, end to end, the app drawn in headless Chromium (skipped without Chromium).

Chromium's own ``--screenshot`` is taken at page load, before the app's first bytes arrive
over the websocket, so the browser is driven over its DevTools protocol instead: wait until
the terminal has received the app's output, then capture. The picture is saved to
docs/screenshots/serve.png (the README shows it) when missing or with UPDATE_SCREENSHOTS=1.
"""

from __future__ import annotations

import asyncio
import base64
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from cli.app.serve import child_command, is_loopback
from cli.main import main
from simulator.server import SimulatorServer

ROOT = Path(__file__).resolve().parents[3]
SCREENSHOT = ROOT / "docs" / "screenshots" / "serve.png"
CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)


def _serve_command(argv: list[str]) -> str:
    captured: list[str] = []
    from cli.app import serve as serve_module

    real = serve_module.serve_main

    def capture(**kwargs: Any) -> int:
        return real(**kwargs, argv_out=captured)

    serve_module.serve_main = capture  # type: ignore[assignment]
    try:
        assert main(["serve", *argv]) == 0
    finally:
        serve_module.serve_main = real  # type: ignore[assignment]
    return captured[0]


def test_child_command_carries_the_options_but_never_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    command = _serve_command(
        ["--model", "tiny model", "--base-url", "http://127.0.0.1:9", "--api-key", "blah_secret_k"]
    )
    argv = shlex.split(command)
    assert argv[1:3] == ["-m", "cli"]
    assert argv[argv.index("--model") + 1] == "tiny model"  # quoted safely for the shell
    assert argv[argv.index("--base-url") + 1] == "http://127.0.0.1:9"
    assert "blah_secret_k" not in command
    assert os.environ["EVALS_BLAH_API_KEY"] == "blah_secret_k"  # handed down through the environment only
    monkeypatch.delenv("EVALS_BLAH_API_KEY")


def test_demo_child_and_missing_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert shlex.split(_serve_command(["--demo", "--seed", "3"]))[3:] == ["--demo", "--seed", "3"]
    assert main(["serve"]) == 2
    assert "no model" in capsys.readouterr().err


def test_a_non_loopback_address_is_warned_about(capsys: pytest.CaptureFixture[str]) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")
    _serve_command(["--demo", "--host", "0.0.0.0"])
    assert "anyone who can reach it" in capsys.readouterr().err
    _serve_command(["--demo"])
    assert capsys.readouterr().err == ""


def test_child_command_quotes_hostile_values() -> None:
    command = child_command(demo=False, model="m; rm -rf /", base_url=None, log_id="$(id)")
    assert shlex.split(command)[3:] == ["--model", "m; rm -rf /", "--log", "$(id)"]


# ----------------------------------------------------------------------------- in a browser


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_port(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on port {port}")


@contextmanager
def _process_group(argv: list[str], env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """A process in its own group; the group (it and the apps it started) is ended afterwards."""
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        yield process
    finally:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                break
            try:
                process.wait(timeout=5)
                break
            except subprocess.TimeoutExpired:
                continue


async def _capture_when_drawn(devtools_port: int, timeout: float) -> tuple[bytes, dict[str, Any]]:
    import aiohttp  # installed with textual-serve

    async with aiohttp.ClientSession() as session:
        deadline = time.monotonic() + timeout
        target = None
        while target is None and time.monotonic() < deadline:
            try:
                async with session.get(f"http://127.0.0.1:{devtools_port}/json") as response:
                    pages = [t for t in await response.json() if t.get("type") == "page"]
                    target = pages[0]["webSocketDebuggerUrl"] if pages else None
            except aiohttp.ClientError:
                pass
            if target is None:
                await asyncio.sleep(0.2)
        assert target, "Chromium's DevTools did not come up"
        async with session.ws_connect(target, max_msg_size=0) as ws:
            counter = 0

            async def call(method: str, **params: Any) -> dict[str, Any]:
                nonlocal counter
                counter += 1
                await ws.send_json({"id": counter, "method": method, "params": params})
                while True:
                    message = await ws.receive_json()
                    if message.get("id") == counter:
                        return dict(message.get("result", {}))

            state: dict[str, Any] = {}
            probe = (
                "({classes: document.body.className, "
                "connected: !!document.querySelector('.textual-terminal.-connected')})"
            )
            while time.monotonic() < deadline:
                result = await call("Runtime.evaluate", expression=probe, returnByValue=True)
                state = result.get("result", {}).get("value") or {}
                if "-first-byte" in str(state.get("classes")) and state.get("connected"):
                    break
                await asyncio.sleep(0.25)
            # let the first screen load its rows: until two pictures 1.5 s apart agree, or 12 s
            # (a countdown in the status line may keep changing)
            await asyncio.sleep(3.0)
            previous = b""
            png = b""
            settle_until = min(deadline, time.monotonic() + 12.0)
            while time.monotonic() < settle_until:
                shot = await call("Page.captureScreenshot", format="png")
                png = base64.b64decode(shot["data"])
                if png == previous:
                    break
                previous = png
                await asyncio.sleep(1.5)
            return png, state


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install chromium)")
def test_the_app_is_drawn_in_a_browser(sim: SimulatorServer) -> None:
    port, devtools = _free_port(), _free_port()
    env = {**os.environ, "EVALS_BLAH_API_KEY": sim.council_key}
    serve = [
        sys.executable,
        "-m",
        "cli",
        "serve",
        "--port",
        str(port),
        "--base-url",
        sim.base_url,
        "--model",
        sim.person_model_id,
    ]
    with _process_group(serve, env) as server:
        _wait_for_port(port, 30)
        assert server.poll() is None
        with tempfile.TemporaryDirectory() as profile:
            browser = [
                str(CHROMIUM),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={profile}",
                "--window-size=1400,900",
                f"--remote-debugging-port={devtools}",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",  # the page's web font: fail fast
                f"http://127.0.0.1:{port}/",
            ]
            with _process_group(browser, dict(os.environ)):
                png, state = asyncio.run(_capture_when_drawn(devtools, timeout=60))
        children = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True).stdout
    assert "-first-byte" in state["classes"] and state["connected"], f"the app never drew: {state}"
    assert png.startswith(b"\x89PNG") and len(png) > 20_000  # a drawn terminal, not the empty splash
    assert sim.council_key not in children  # no process shows the key on its command line
    if os.environ.get("UPDATE_SCREENSHOTS") or not SCREENSHOT.exists():  # the README's picture
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        SCREENSHOT.write_bytes(png)
