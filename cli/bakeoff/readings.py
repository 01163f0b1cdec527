"""What `bakeoff show` and `bakeoff verdict` print of the app's decision on a run
(``application.bakeoffs.decision``): the verdict, what would settle it and each figure with the
question it answers, then the app's other readings (the judge's biases, the prediction-powered
win rate), set apart from the queue's numbers, which they never replace."""

from __future__ import annotations

from typing import TextIO

from application.bakeoffs.decision import Decision
from application.bakeoffs.readings import SwitchReadings
from common.safe_strings import clip


def print_decision(decision: Decision, out: TextIO) -> None:
    """The decision's lines (the same in every view), then the readings."""
    out.write("\nthe app's decision (beside the queue's numbers, not instead of them):\n")
    for line in decision.lines():
        out.write(f"{clip(line, 1200)}\n")
    if decision.readings is not None:
        print_readings(decision.readings, out)


def print_readings(readings: SwitchReadings, out: TextIO) -> None:
    """The readings beside the decision, for the arms that have one (the judge's biases, the
    prediction-powered win rate), then how the paired figure was read."""
    arms = [(arm.arm, arm.sentences()) for arm in readings.arms]
    if any(said for _, said in arms):
        out.write("\nthe app's own reading (beside the queue's numbers, not instead of them):\n")
        for name, said in arms:
            if said:
                out.write(f"  {clip(name, 80)}:\n")
                out.writelines(f"    {clip(sentence, 300)}\n" for sentence in said)
    for note in readings.notes:
        out.write(f"  note: {clip(note, 300)}\n")
