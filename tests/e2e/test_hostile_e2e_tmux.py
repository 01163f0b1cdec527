"""Hostile text in a REAL terminal: blah-tui runs in tmux against a simulator whose world is
full of hostile text, every byte it writes to the terminal is captured (``pipe-pane``), and
none of the payloads' escape sequences may be in it: no OSC 52 (clipboard), OSC 0/2 (title),
OSC 8 (link), no clear-screen from a payload, no C1 control, no DCS/APC.

Textual itself writes escape sequences (colours, cursor moves, mode switches), so only the
payloads' own markers are looked for. The payloads must still have reached the terminal as
visible text (their base64 / words are in the capture), or the test would prove nothing.
Skipped when tmux is not installed. Each screen is left once it has drawn its data (nothing
says loading, the picture has stopped changing), not after a fixed pause.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from simulator.server import SimulatorServer
from tests.support.hostile_e2e import inject_hostile
from tests.support.tmux_probe import TmuxProbe, tmux_available

pytestmark = pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")

REPO = Path(__file__).resolve().parents[2]

#: (what, bytes) that only a payload could have put in the output.
FORBIDDEN: list[tuple[str, bytes]] = [
    ("OSC 52 clipboard write", b"\x1b]52;"),
    ("OSC 8 hyperlink", b"\x1b]8;"),
    ("OSC 0 title", b"\x1b]0;pwned"),
    ("OSC 2 title", b"\x1b]2;pwned"),
    ("OSC title (any)", b"\x07normal reply"),
    ("payload clear screen", b"before\x1b[2J"),
    ("payload clear scrollback", b"\x1b[3Jafter"),
    ("payload cursor home", b"\x1b[Hoverwrite"),
    ("title report request", b"\x1b[21t"),
    ("C1 CSI", "\x9b".encode()),
    ("C1 OSC", "\x9d".encode()),
    ("C1 ST", "\x9c".encode()),
    ("DCS sixel", b"\x1bPq"),
    ("APC graphics", b"\x1b_G"),
    ("bare CR over text", b"safe\rEVIL"),
    ("backspaces over text", b"secret\x08"),
]


@pytest.fixture(scope="module")
def hostile_server() -> Iterator[SimulatorServer]:
    server = SimulatorServer(seed=23, speed=20.0, live=False)
    inject_hostile(server.world, big=False)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def wait_still(probe: TmuxProbe, timeout: float = 20.0) -> bool:
    """Until the screen has drawn what it loads: nothing on it says "loading" and two captures
    in a row are the same (a loading indicator moves). False if it never got there."""
    deadline = time.monotonic() + timeout
    previous = ""
    while time.monotonic() < deadline:
        screen = probe.capture()
        if screen == previous and "loading" not in screen.lower():
            return True
        previous = screen
        time.sleep(0.2)
    return False


def wait_gone(probe: TmuxProbe, text: str, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text not in probe.capture():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.slow
def test_no_payload_escape_sequence_reaches_a_real_terminal(hostile_server: SimulatorServer, tmp_path: Path) -> None:
    env = {
        "BLAH_TUI_CONFIG_DIR": str(tmp_path / "config"),
        "BLAH_TUI_DATA_DIR": str(tmp_path / "data"),
        "EVALS_BLAH_API_KEY": hostile_server.council_key,
        "PYTHONUNBUFFERED": "1",
    }
    argv = [
        sys.executable,
        "-m",
        "cli.main",
        "--base-url",
        hostile_server.base_url,
        "--model",
        hostile_server.person_model_id,
    ]
    screens_seen: list[str] = []
    with TmuxProbe(tmp_path) as probe:
        probe.start(argv, env=env, cwd=REPO)
        assert probe.wait_for_text("Logs", 90), probe.capture()
        assert probe.wait_for_text("calls", 30), probe.capture()
        wait_still(probe)
        # Every numbered area, and the Inspector on the newest (hostile) call.
        probe.send_keys("Enter")
        assert probe.wait_for_text("Whitespace", 30), probe.capture()  # the inspector's own key
        wait_still(probe)
        probe.send_keys("Escape")
        assert wait_gone(probe, "Whitespace"), probe.capture()
        for key, title in (
            ("5", "Chatroom"),
            ("6", "Models"),
            ("3", "Runs"),
            ("4", "Leaderboard"),
            ("0", "Games"),
            ("8", "Health"),
            ("2", "Diagnosis"),
            ("7", "Compare"),
        ):
            probe.send_keys(key)
            if probe.wait_for_text(title, 20):
                screens_seen.append(title)
                wait_still(probe)
        title_during = probe.pane_title()
        probe.send_keys("q")
        exited = probe.wait_dead(30)
        raw = probe.raw()
    assert exited, "the app did not quit on q"
    assert len(raw) > 10_000, "almost nothing was captured"
    found = [what for what, marker in FORBIDDEN if marker in raw]
    print(
        f"\ntmux: {len(raw):,} bytes written by the app over {len(screens_seen) + 1} screens; "
        f"{len(FORBIDDEN)} payload markers looked for, {len(found)} found"
    )
    assert not found, f"payload escape sequences reached the terminal: {found}"
    # ...and yet the payloads were on screen, as text
    assert b"ZWNobyBwd25lZA" in raw or b"SGVsbG8" in raw, "the OSC 52 payload never reached the screen as text"
    assert b"@click=app.quit" in raw, "the markup payload never reached the screen as text"
    assert "pwned" not in title_during
    assert len(screens_seen) >= 6, screens_seen


def test_the_probe_does_catch_a_raw_payload(tmp_path: Path) -> None:
    """Control: a program that does print the payloads raw is caught by the same checks."""
    payload = "before\x1b[2J\x1b[3Jafter copy\x1b]52;c;ZWNobyBwd25lZA==\x07 \x1b]0;pwned title\x07normal reply"
    script = f"import sys, time; sys.stdout.write({payload!r}); sys.stdout.flush(); time.sleep(0.5)"
    with TmuxProbe(tmp_path) as probe:
        probe.start([sys.executable, "-c", script], env={}, cwd=REPO)
        assert probe.wait_dead(20)
        raw = probe.raw()
    found = {what for what, marker in FORBIDDEN if marker in raw}
    assert {"OSC 52 clipboard write", "OSC 0 title", "payload clear screen"} <= found, found
