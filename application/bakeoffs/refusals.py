"""A refused create, in a sentence a person can act on: which field, and what to change.

- 412 on ``POST /v1/evals`` is the certified switch's "underpowered" (page: "an underpowered
  run answers 412 rather than concluding"). How many samples would do is said when the
  queue's text gives a number ("at least N samples"); it is never guessed, and the run is
  never resent on its own.
- 400 for a population mismatch (the criterion was calibrated on another population) is
  said as that, with the queue's own words.
- 400 ``Model '…' is not available.`` belongs to the field that names that model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from api_client.errors import BlahError
from api_client.transport.responses import safe_excerpt
from application.bakeoffs.new_run.request import NewRun

__all__ = ["CreateRefusal", "create_refusal", "field_of_refusal", "samples_enough"]

_ENOUGH = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"at least (\d+) samples",
        r"(?:needs?|requires?|minimum of|min\.?) (\d+) samples",
        r"(\d+) samples (?:would be|are|is) (?:enough|needed|required)",
        r"sample_count (?:of |>= ?|≥ ?)(?:at least )?(\d+)",
    )
)


def field_of_refusal(message: str, request: NewRun) -> str | None:
    """Which field a queue 400 is about, when its text names a model of the request
    (``Model '…' is not available.``): ``baseline_model``, ``candidate_models`` or ``judge_model``."""
    found = re.search(r"Model '(.+?)' is not available", message)
    if not found:
        return None
    model = found.group(1)
    if model == request.baseline_model:
        return "baseline_model"
    if any(arm.model == model for arm in request.arms):
        return "candidate_models"
    if model == request.judge_model:
        return "judge_model"
    return None


def samples_enough(text: str | None) -> int | None:
    """The sample count the queue said would be enough, when it said one in words like "at
    least N samples", "needs N samples", "N samples are needed", "sample_count >= N"."""
    for pattern in _ENOUGH:
        found = pattern.search(text or "")
        if found:
            return int(found.group(1))
    return None


@dataclass(frozen=True)
class CreateRefusal:
    field: str | None
    sentence: str
    samples_needed: int | None = None


def _server_words(error: BlahError) -> str:
    """The queue's own message (without the ``code: `` the transport puts first)."""
    text = error.server_error or ""
    if error.code and text.startswith(f"{error.code}: "):
        text = text[len(error.code) + 2 :]
    return safe_excerpt(text, 300) if text else ""


def create_refusal(
    error: BlahError, request: NewRun | None, judge: tuple[float | None, float | None] = (None, None)
) -> CreateRefusal:
    """``judge``: the criterion's measured (TPR, TNR), for the app's own plan of a refused
    certified switch (what sample count, or what margin, would be enough)."""
    server = _server_words(error)
    said = f" (the queue said: {server})" if server else ""
    if error.status == 412:
        needed = samples_enough(error.server_error)
        asked = request.sample_count if request is not None else None
        head = f"underpowered: the queue would not conclude from {asked if asked is not None else 'this many'} samples"
        if request is not None and request.noninferiority_margin is not None:
            from diagnosis.planning import underpowered_advice  # not on `bakeoff gate`'s path

            # one count only: the queue's minimum and the app's plan are reconciled there, so the
            # queue's own words (which name its minimum) are left out when that was read from them
            advice = underpowered_advice(
                request.sample_count, request.noninferiority_margin, None, *judge, queue_needed=needed
            )
            said = said if needed is None else ""
            if needed is None:
                advice = f"its answer does not say how many would be enough; the app's plan: {advice}"
            head = f"{head}; {advice}"
        elif needed is not None:
            instead = f" instead of {asked}" if asked is not None else ""
            head = f"{head}; {needed} samples would be enough (ask for sample_count {needed}{instead})"
            said = ""
        else:
            head = f"{head}, and its answer does not say how many would be enough"
        return CreateRefusal("sample_count", f"{head}; nothing was queued and it was not resent{said}", needed)
    if error.status == 400 and "population" in server.lower():
        return CreateRefusal(
            "sample_filters",
            f"population mismatch: the run's prompts are not the population the "
            f"criterion was calibrated on; nothing was queued{said}",
        )
    if error.status == 400 and request is not None:
        field = field_of_refusal(server, request)
        if field is not None:
            return CreateRefusal(field, f"{field}: {server}; nothing was queued")
    return CreateRefusal(None, error.message if error.message else f"HTTP {error.status}{said}")
