"""The app's own readings printed under `bakeoff show` for a finished run: the judge's biases,
the paired difference and the prediction-powered win rate (application/bakeoffs/readings.py),
set apart from the queue's numbers, which they never replace."""

from __future__ import annotations

from typing import TextIO

from application.bakeoffs.readings import SwitchReadings
from common.safe_strings import clip


def print_readings(readings: SwitchReadings, out: TextIO) -> None:
    out.write("\nthe app's own reading (beside the queue's numbers, not instead of them):\n")
    for arm in readings.arms:
        out.write(f"  {clip(arm.arm, 80)}:\n")
        sentences = arm.sentences()
        for sentence in sentences or ["nothing to read: no judged pairs"]:
            out.write(f"    {clip(sentence, 300)}\n")
    for note in readings.notes:
        out.write(f"  note: {clip(note, 300)}\n")
