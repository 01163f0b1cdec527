"""The app's own reading of a finished bake-off, drawn under the calibration in the Bake-offs
view (its panel ``#bakeoff-readings``, redrawn after each label): per candidate the judge's
biases from the swapped pairs already paid for (the paired difference is one of the verdict's
figures, drawn with it),
and (with pair labels) the prediction-powered win rate beside the queue's corrected one
(``application.bakeoffs.readings``). Never instead of the queue's numbers: headed as ours."""

from __future__ import annotations

from rich.text import Text

from application.bakeoffs.readings import SwitchReadings
from common.safe_strings import one_line as one

_LEANING = ("leans to", "favours the", "its kin", "not shown noninferior")


def readings_text(readings: SwitchReadings | None) -> Text:
    """The panel's text; empty until a finished run's samples are read."""
    arms = [(arm.arm, arm.sentences()) for arm in readings.arms] if readings is not None else []
    if readings is None or not any(said for _, said in arms):  # the paired difference is the verdict's figure
        return Text("")
    text = Text("The app's own reading", style="bold")
    text.append(" (beside the queue's numbers, not instead of them)\n", style="dim")
    for name, said in arms:
        if not said:
            continue
        text.append(one(name, 60), style="bold")
        text.append("\n")
        for sentence in said:
            text.append(
                "  " + one(sentence, 240) + "\n", style="yellow" if any(w in sentence for w in _LEANING) else ""
            )
    for note in readings.notes:
        text.append(one(note, 240) + "\n", style="dim")
    text.rstrip()
    return text
