"""The queue's wire values in people's words: one function per noun, called by the CLI
(``bakeoff list``/``show``/``screen``) and the screens alike, so both say the same thing.

The queue speaks in sentinels and enums (``__stored__``, ``direct``, costs in ``*_micros``, a
screening that is a ``comparison``, a run with no end time). A person reads what each one
means instead (a screened candidate's ``status``/``quality``, such as ``not_cheaper``: in
``screening.placement_text``, beside the rest of a screening); a value this module does not
know is shown as sent (one line, inert), never guessed at, and a value the queue did not send
says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from api_client.errorbar.shapes_fixed import MICROS_PER_USD, STORED, TERMINAL
from application.bakeoffs.screening import is_screening
from common.format import DASH
from common.safe_strings import one_line

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = [
    "ENDED_NOT_GIVEN",
    "METRIC_WORDS",
    "STORED_BASELINE",
    "STORED_BASELINE_LONG",
    "baseline_text",
    "drift_text",
    "ended_text",
    "judged_text",
    "kind_text",
    "lineage_text",
    "metric_text",
    "micros_usd_text",
    "model_text",
    "usd_text",
]

STORED_BASELINE = "your logged answers"
"""The ``__stored__`` baseline where a model name would stand (a table cell, "baseline X")."""
STORED_BASELINE_LONG = "your logged answers (what you shipped, not regenerated)"
"""The same, where there is room to say what it means."""

ENDED_NOT_GIVEN = "not given"
"""A finished run's end time: the queue sends only ``created_at`` (contract 2), so the app has
none to show. Not the dash, which reads as "missing data" rather than "the queue never says"."""


def baseline_text(model: str | None, *, long: bool = False) -> str:
    """A run's baseline: the model id as sent, or the logged answers for ``__stored__``."""
    if model is None or model == "":
        return DASH
    if model == STORED:
        return STORED_BASELINE_LONG if long else STORED_BASELINE
    return model


def model_text(model: str | None) -> str:
    """A model as a row of results, samples or the gate names it: the id as sent, or the
    logged answers where the queue puts ``__stored__`` (a stored baseline graded as a model)."""
    return baseline_text(model)


METRIC_WORDS = {
    "win_rate": "win rate",
    "pass_rate": "pass rate",
    "observed_pass_rate": "observed pass rate",
    "corrected_pass_rate": "corrected pass rate",
    "assertion_pass_rate": "assertion pass rate",
}
"""The rates the queue names in compare rows (``metric``, contract 3.8) and gate checks."""


def metric_text(metric: str | None) -> str:
    """A rate's name in words; one the queue names otherwise, as sent."""
    if not metric:
        return DASH
    return METRIC_WORDS.get(metric) or one_line(metric, 30)


_DRIFT = {
    "stale": "stale (calibrated over 30 days ago)",
    "quality_drop": "quality dropped",
    "suspicious_rise": "suspicious rise",
    "evidence_revised": "evidence revised",
}
"""A criterion's ``drift_signal`` (contract 4) in words; ``drift_status`` (``ok``, ``flagged``)
is a word already."""


def drift_text(signal: str | None, status: str | None, reason: str | None) -> str:
    """Whether a criterion's judge has drifted: the signal in words with the queue's reason
    (verbatim, one line), else its status, else "not sent"."""
    if signal:
        said = _DRIFT.get(signal) or one_line(signal, 40)
        return f"{said}: {one_line(reason, 200)}" if reason else said
    return one_line(status, 40) if status else "not sent"


def kind_text(run: assumed.Run) -> str:
    """``screening``, ``comparison`` or ``criterion``. A screening run is a comparison on the
    wire (``eval_kind``) with ``screening`` in its filters or results; people asked for a
    screening, so it is called one."""
    if is_screening(run):
        return "screening"
    return one_line(run.eval_kind, 20) if run.eval_kind else DASH


_JUDGED = {
    "direct": "judged on which answer better meets the rubric",
    "adherence": "judged on which answer is closer to the stored reference answer",
}


def judged_text(run: assumed.Run) -> str:
    """How a run's answers were judged, as a phrase (``judged on ...``, ``graded ...``). A
    criterion run's rubric type means nothing (the
    criterion's judge prompt is the rubric, contract 3.2): its frozen judge grades pass/fail.
    A comparison with no ``rubric_type`` was judged as the queue's default, ``direct``."""
    if run.eval_kind == "criterion":
        snapshot = run.criterion_snapshot or {}
        name = snapshot.get("name") or snapshot.get("criterion_id")
        which = f" ({one_line(str(name), 60)})" if name else ""
        return f"graded pass or fail by the criterion's frozen judge{which}"
    kind = run.rubric_type or "direct"
    return _JUDGED.get(kind) or f"judged by rubric type {one_line(kind, 30)} (as the queue sent it)"


def ended_text(run: assumed.Run) -> str:
    """When a run ended: the dash while it has not; "not given" once it has, since the queue
    sends no end time."""
    return ENDED_NOT_GIVEN if run.status in TERMINAL else DASH


def usd_text(value: float | None) -> str:
    """US dollars: ``$38.82`` from a dollar up, ``$0.0677`` below, ``$0.000324`` below a
    tenth of a cent; the dash for none."""
    if value is None:
        return DASH
    size = abs(value)
    digits = 2 if size >= 1 else 4 if size >= 0.001 or size == 0 else 6
    return f"{'-' if value < 0 else ''}${size:,.{digits}f}"


def micros_usd_text(micros: float | None) -> str:
    """A queue cost (``*_micros``) in dollars (ASSUMED unit: ``MICROS_PER_USD``)."""
    return DASH if micros is None else usd_text(micros / MICROS_PER_USD)


# The bundle's ``samples.lineage``: how each sample was read (the contract's list: ``ab``/``ba``
# the two halves of a pair, ``abs`` one answer graded alone, ``sim`` a screening's similarity).
LINEAGE_WORDS = {
    "ab": "judged in one order",
    "ba": "judged in the swapped order",
    "abs": "each answer graded alone",
    "sim": "similarity to the logged answer",
}


def lineage_text(lineage: list[object]) -> str:
    """The readings a bundle's samples went through, in words with the queue's code beside
    each (an unknown code is shown as sent)."""
    return "; ".join(
        f"{LINEAGE_WORDS[code]} ({code})"
        if isinstance(code, str) and code in LINEAGE_WORDS
        else one_line(str(code), 40)
        for code in lineage
    )
