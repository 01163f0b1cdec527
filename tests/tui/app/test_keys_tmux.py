"""Esc and ctrl+p in a real terminal (tmux): what a person types reaches what the screen says.

The pilot tests (tests/tui/app/test_keys_focus.py) drive Textual directly; here the keys go through a
terminal, where Esc is a bare escape byte and ctrl+p a control character."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from simulator.server import SimulatorServer
from tests.support.tmux_probe import TmuxProbe, base_env, tmux_available

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")]

REPO = Path(__file__).resolve().parents[3]


def _header(probe: TmuxProbe) -> str:
    return probe.capture().splitlines()[0] if probe.capture() else ""


def _wait_header(probe: TmuxProbe, title: str, timeout: float = 30.0) -> bool:
    """The top line names the screen: " blah-tui  Logs │ …"."""
    return probe.wait_for_text(f"  {title} │", timeout) and f"  {title} │" in _header(probe)


def test_esc_leaves_the_prompt_and_ctrl_p_opens_the_palette_in_a_terminal(sim: SimulatorServer, tmp_path: Path) -> None:
    env = {
        **base_env(),
        "BLAH_TUI_CONFIG_DIR": str(tmp_path / "config"),
        "BLAH_TUI_DATA_DIR": str(tmp_path / "data"),
        "EVALS_BLAH_API_KEY": sim.council_key,
    }
    argv = [sys.executable, "-m", "cli.main", "--base-url", sim.base_url, "--model", sim.person_model_id]
    with TmuxProbe(tmp_path) as probe:
        probe.start(argv, env=env, cwd=REPO)
        assert _wait_header(probe, "Logs", 90), probe.capture()
        probe.send_keys("9")
        assert probe.wait_for_text("Calling", 30), probe.capture()
        probe.send_keys("e")
        assert probe.wait_for_text("esc Leave the", 20), probe.capture()  # the footer says how out
        probe.send_keys("z", "z")
        assert probe.wait_for_text("▊ zz ", 20), probe.capture()
        probe.send_keys("Escape")
        assert probe.wait_for_text("e Write", 20), probe.capture()  # the screen's keys are back
        probe.send_keys("1")
        assert _wait_header(probe, "Logs"), probe.capture()
        probe.send_keys("9")
        assert _wait_header(probe, "Playground"), probe.capture()
        assert "▊ zz " in probe.capture(), probe.capture()  # the prompt kept zz; the 1 was no text

        probe.send_keys("C-p")
        assert probe.wait_for_text("🔎", 20), probe.capture()
        probe.send_keys(*"training")
        assert probe.wait_for_text("Go to Training sets", 20), probe.capture()
        probe.send_keys("Escape")
        assert probe.wait_for_text("▊ zz ", 20), (
            probe.capture()
        )  # the palette closed: nothing typed in the palette reached the prompt
        probe.send_keys("q")
        assert probe.wait_dead(30), "the app did not quit on q"
