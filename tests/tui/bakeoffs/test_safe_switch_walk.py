"""The safe switch, the whole way, at 80x24 with no resize, as a person does it in `blah-tui
--demo`: screen for a cheaper model, open the prefilled bake-off and read its plan line, confirm,
watch it to the end, read the verdict first, label pairs, ask for the certified switch, write the
evidence and verify it offline. At every step the answer the step exists for must be on the
terminal's 24 rows (not merely somewhere in a scroll pane).

The same walk draws docs/safe-switch.md's screenshots: with ``BLAH_TUI_WALK_SHOTS=DIR`` each
step's frame is written there as ``NN-step.svg`` (``python -m pytest
tests/tui/bakeoffs/test_safe_switch_walk.py`` with the variable set to
``docs/screenshots/safe-switch``)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tests.support.bakeoff_new import confirm_shown, fill_certified_switch, type_into
from tests.support.chatroom import screen_text
from tests.support.launch import launch_headless
from tests.support.notify_log import said
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.bakeoffs.bundle_view import BundleScreen
from tui.screens.bakeoffs.evidence_view import EvidenceScreen
from tui.screens.bakeoffs.new_dialog import BakeoffNewScreen
from tui.screens.bakeoffs.screen import BakeoffScreen
from tui.screens.bakeoffs.screening_view import ScreeningScreen
from tui.screens.bakeoffs.watch import BakeoffWatchScreen
from tui.screens.runs.screen import RunsScreen

pytestmark = pytest.mark.slow  # three simulators, the whole app, two bake-offs run to the end

SIZE = (80, 24)
SHOTS = os.environ.get("BLAH_TUI_WALK_SHOTS", "")
FRAMES = os.environ.get("BLAH_TUI_WALK_FRAMES", "")


class Walk:
    """The frames seen so far; each step checks its answer is on the 24 rows."""

    def __init__(self, app: BlahApp, first: int = 1) -> None:
        self.app = app
        self.first = first
        self.frames: dict[str, str] = {}

    def see(self, step: str, *wanted: str) -> str:
        frame = screen_text(self.app)
        self.frames[step] = frame
        flat = " ".join(frame.split())  # a sentence may wrap at 80 columns
        missing = [w for w in wanted if " ".join(w.split()) not in flat]
        assert not missing, f"{step}: not on the 80x24 screen: {missing}\n{frame}"
        if FRAMES:  # the frames as text, for a person reading the walk
            with open(FRAMES, "a", encoding="utf-8") as out:
                out.write(f"--- {step}\n{frame}\n")
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            self.app.save_screenshot(f"{self.first + len(self.frames) - 1:02d}-{step}.svg", SHOTS)
        return frame


def run_ids(app: BlahApp) -> set[str]:
    screen = app.screen
    return {row.id for row in screen.runs} if isinstance(screen, BakeoffScreen) else set()


async def walk(app: BlahApp, pilot: Pilot[Any], seen: dict[str, Any]) -> None:
    w = Walk(app)
    # 1. Runs (3): the queue's bake-offs beside the blah.dev runs; the oldest bake-off, s screens it.
    await pilot.press("3")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.bakeoffs.rows) and bool(app.screen.runs),
        what="Runs with the demo's bake-offs",
    )
    runs = app.screen
    assert isinstance(runs, RunsScreen)
    await pilot.press("G")
    await wait_for(pilot, lambda: runs.bakeoffs.row(runs.table.current_key) is not None, what="a bake-off row")
    w.see("runs", "errorbar", "s on one screens for a cheaper model")
    await pilot.press("s")
    confirm = await confirm_shown(pilot)
    w.see("screening-confirm", "Screen")
    assert confirm is app.screen
    await pilot.press("y")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, BakeoffWatchScreen) and "screening finished" in app.screen.state_text.plain,
        timeout=60,
        what="the screening DONE",
    )
    # 2. v: the screening's answer, then b: a bake-off of the recommendation, prefilled.
    await pilot.press("v")
    await wait_for(pilot, lambda: isinstance(app.screen, ScreeningScreen), what="the screening view")
    w.see("screening", "Recommendation: switch to")
    await pilot.press("b")
    await wait_for(pilot, lambda: isinstance(app.screen, BakeoffNewScreen), what="the prefilled New bake-off")
    await wait_for(pilot, lambda: "plan:" in screen_text(app), what="the plan line")
    w.see("new-bakeoff", "New bake-off", "Baseline Qwen/Qwen3-32B", "plan: at 40 samples", "Continue")
    # 3. Enter: the confirmation says what runs and what it spends; y sends it once.
    await pilot.press("enter")
    await confirm_shown(pilot)
    w.see("confirm", "Queue this bake-off?", "Spends", "Queue bake-off")
    await pilot.press("y")
    # 4. The watch: progress, then DONE, rung and said.
    await wait_for(pilot, lambda: isinstance(app.screen, BakeoffWatchScreen), what="the watch")
    await wait_for(pilot, lambda: "DONE" in screen_text(app), timeout=60, what="the bake-off DONE")
    w.see("watch", "DONE", "v opens its results")
    # 5. v: the run's results, the verdict first.
    await pilot.press("v")
    await wait_for(pilot, lambda: isinstance(app.screen, BakeoffScreen), what="the bake-off view")
    await wait_for(pilot, lambda: "Switch?" in screen_text(app), what="the verdict")
    w.see("verdict", "Switch?")
    # 6. s: the samples, losses first; c, b, = label pairs; l brings the calibration panel.
    await pilot.press("s")
    await pilot.press("c", "b", "equals_sign")
    await pilot.press("l")
    await wait_for(pilot, lambda: "labelled pairs" in screen_text(app), what="the calibration panel")
    w.see("labels", "Calibration", "labelled pairs")
    # 7. The certified switch: Runs, e, against what you shipped on a calibrated criterion.
    await pilot.press("escape")
    await pilot.press("3")
    await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="Runs")
    await fill_certified_switch(pilot, name="certified switch to tiny v3", margin="0.1", submit=False)
    await wait_for(pilot, lambda: "margin" in screen_text(app).split("plan:")[-1], what="its plan")
    w.see("certified", "Samples", "plan:", "margin", "Continue")
    # The queue refuses an underpowered certified switch (412) and says how many would do; nothing is resent.
    await pilot.press("enter")
    await confirm_shown(pilot)
    await pilot.press("y")
    await wait_for(pilot, lambda: isinstance(app.screen, BakeoffNewScreen), what="the form again")
    await wait_for(pilot, lambda: "not resent" in screen_text(app), what="the refusal")
    frame = w.see("underpowered", "not resent")
    refusal = str(app.screen.query_one("#bn-err-samples", Static).render())
    enough = re.search(r"ask for sample_count (\d+)", " ".join(refusal.split()))
    assert enough, frame
    await type_into(pilot, "bn-samples", enough.group(1))
    await pilot.press("enter")
    await confirm_shown(pilot)
    await pilot.press("y")
    await wait_for(pilot, lambda: isinstance(app.screen, BakeoffWatchScreen), what="the watch")
    await wait_for(pilot, lambda: "DONE" in screen_text(app), timeout=120, what="the certified switch DONE")
    await pilot.press("v")
    await wait_for(pilot, lambda: isinstance(app.screen, BakeoffScreen), what="the bake-off view")
    await wait_for(pilot, lambda: "Switch?" in screen_text(app), what="the certified verdict")
    w.see("certified-verdict", "Switch?")
    await pilot.press("escape")
    # 8. e on a finished bake-off: the evidence bundle as the queue sent it; x writes it.
    await pilot.press("7", "o")
    await wait_for(pilot, lambda: isinstance(app.screen, BakeoffScreen) and bool(run_ids(app)), what="bake-offs")
    await pilot.press("enter")
    await wait_for(pilot, lambda: "Switch?" in screen_text(app), what="a run read")
    await pilot.press("s", "e")
    await wait_for(pilot, lambda: isinstance(app.screen, EvidenceScreen), what="the evidence")
    await wait_for(pilot, lambda: "attestation" in screen_text(app), what="the bundle read")
    await pilot.press("x")
    await wait_for(pilot, lambda: any("evidence written" in n for n in said(app)), what="the bundle written")
    w.see("evidence", "Evidence bundle of", "gate")
    written = [n for n in said(app) if "evidence written" in n][-1]
    seen["bundle"] = written.rsplit(" ", 1)[-1].strip()
    seen["frames"] = w.frames


async def verify(app: BlahApp, pilot: Pilot[Any], seen: dict[str, Any]) -> None:
    await wait_for(pilot, lambda: isinstance(app.screen, BundleScreen), what="the bundle checked")
    w = Walk(app, first=len(seen["frames"]) + 1)
    w.see("verify", "figures match", "matches")
    seen["verify"] = w.frames["verify"]


def test_the_safe_switch_fits_at_80x24(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    seen: dict[str, Any] = {}

    async def go(app: BlahApp, pilot: Pilot[Any]) -> None:
        await walk(app, pilot, seen)

    assert launch_headless(monkeypatch, ["--demo", "--speed", "200"], go, size=SIZE) == 0
    bundle = Path(seen["bundle"])
    assert bundle.is_file() and bundle.stat().st_size > 0

    async def check(app: BlahApp, pilot: Pilot[Any]) -> None:
        await verify(app, pilot, seen)

    assert launch_headless(monkeypatch, ["open", str(bundle)], check, size=SIZE) == 0
    assert "0 differ" in seen["verify"]
