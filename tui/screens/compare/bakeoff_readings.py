"""The app's own reading of a finished bake-off, drawn under the queue's figures in the
Bake-offs view: per candidate the paired difference against the incumbent, the judge's
biases from the swapped pairs already paid for, and (with pair labels) the prediction-powered
win rate beside the queue's corrected one (``application.compare.bakeoff.readings``). Never instead
of the queue's numbers: headed as ours."""

from __future__ import annotations

from rich.text import Text

from application.compare.bakeoff.readings import SwitchReadings
from common.safe_strings import one_line as one


def readings_text(readings: SwitchReadings | None) -> Text:
    """The panel's text; empty until a finished run's samples are read."""
    if readings is None or not readings.arms:
        return Text("")
    text = Text("The app's own reading", style="bold")
    text.append(" (beside the queue's numbers, not instead of them)\n", style="dim")
    for arm in readings.arms:
        text.append(one(arm.arm, 60), style="bold")
        text.append("\n")
        for sentence in arm.sentences() or ["nothing to read: no judged pairs"]:
            style = "yellow" if ("leans to" in sentence or "favours the" in sentence or "its kin" in sentence
                                 or "not shown noninferior" in sentence) else ""
            text.append("  " + one(sentence, 240) + "\n", style=style)
    for note in readings.notes:
        text.append(one(note, 240) + "\n", style="dim")
    text.rstrip()
    return text
