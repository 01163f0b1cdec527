"""Did my new checkpoint get better? Reads and classifies the calls of the two sides, then
``diagnosis.checkpoint`` compares them (the method is in that module's docstring).

Two ways to choose the sides (no Textual here: the Compare screen's Checkpoints view and
``blah-tui report --compare`` share this):

- two models: A is the model in use (the old checkpoint), B the other one (the new);
- one model in two time windows: its calls read are split in time at ``split_at_ms`` (by
  default the middle call, so both windows hold as many calls), A the older window, B the
  newer.

Each side is the model's ``limit`` most recent calls (``application.diagnosis.data``), each
classified once, as the Diagnosis screen does, with the chat template the model was trained
with: the person's config, else the platform's model record (no template verdict without one).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from api_client.errors import NotFoundError
from application.diagnosis.analysis import CLASSIFY_CAP
from application.diagnosis.data import DEFAULT_LIMIT, fetch_model, load_entries
from common.records import Call, time_of
from diagnosis.checkpoint import (
    DEFAULT_CONFIDENCE,
    DEFAULT_POWER,
    CallOutcome,
    ChangeRow,
    compare_outcomes,
)

if TYPE_CHECKING:
    from api_client.archives.archive import Archive
    from api_client.blahdev.client import BlahClient

__all__ = [
    "CheckpointComparison",
    "Side",
    "compare_models",
    "compare_windows",
    "outcomes_of",
    "split_in_time",
]

Mode = Literal["models", "windows"]


@dataclass(frozen=True)
class Side:
    """Where one side's calls came from."""

    model_id: str
    calls: int
    first_ms: int | None  # the oldest call's time (None: no calls)
    last_ms: int | None
    source: str  # "platform" | "archive" | "none"
    note: str | None = None  # e.g. some calls may be missing
    template: str | None = None  # the trained chat template the calls were classified with


@dataclass(frozen=True)
class CheckpointComparison:
    """The two sides and the rows (``diagnosis.checkpoint.compare_outcomes``)."""

    mode: Mode
    a: Side
    b: Side
    rows: tuple[ChangeRow, ...]
    limit: int
    confidence: float = DEFAULT_CONFIDENCE
    power: float = DEFAULT_POWER
    split_at_ms: int | None = None  # windows: B holds the calls made at or after this time


def outcomes_of(entries: Sequence[Call], trained_template: str | None) -> list[CallOutcome]:
    """Each call classified (CPU-bound: run it off the event loop)."""
    from application.logs.badges import capped
    from diagnosis import classify

    return [
        CallOutcome(
            entry.eval_id,
            frozenset(f.kind for f in classify(capped(entry, CLASSIFY_CAP), trained_template=trained_template)),
        )
        for entry in entries
    ]


@dataclass(frozen=True)
class _Read:
    entries: list[Call]
    source: str
    note: str | None
    template: str | None


async def _read(
    client: BlahClient | None, archive: Archive | None, model_id: str, *, config_template: str | None, limit: int
) -> _Read:
    """The calls and the trained template of one model; raises ``BlahError`` when the calls
    cannot be read (``NotFoundError`` for a model the platform does not know)."""
    from diagnosis.templates import normalize_template, resolve_trained_template

    if client is None:
        entries, source, note = await load_entries(None, archive, model_id, limit=limit)
        return _Read(entries, source, note, normalize_template(config_template))
    record, (entries, source, note) = await asyncio.gather(
        fetch_model(client, model_id), load_entries(client, archive, model_id, limit=limit)
    )
    if isinstance(record.exc, NotFoundError):
        raise record.exc
    template, _ = resolve_trained_template(config_template, record.value, None)
    return _Read(entries, source, note, template)


def _side(model_id: str, entries: Sequence[Call], read: _Read) -> Side:
    times = [time_of(e) for e in entries]
    return Side(
        model_id,
        len(entries),
        min(times, default=None),
        max(times, default=None),
        read.source,
        read.note,
        read.template,
    )


async def compare_models(
    client: BlahClient,
    model_a: str,
    model_b: str,
    *,
    templates: Mapping[str, str] | None = None,
    limit: int = DEFAULT_LIMIT,
    archive_a: Archive | None = None,
    archive_b: Archive | None = None,
) -> CheckpointComparison:
    """Model A (before) against model B (after). ``templates``: the person's config (model id
    -> trained template); ``archive_a``/``archive_b``: the local archive of that model's calls,
    if there is one. Raises ``BlahError`` when the calls of either cannot be read
    (``NotFoundError`` for a model the platform does not know)."""
    templates = templates or {}
    read_a, read_b = await asyncio.gather(
        _read(client, archive_a, model_a, config_template=templates.get(model_a), limit=limit),
        _read(client, archive_b, model_b, config_template=templates.get(model_b), limit=limit),
    )

    def classify_both() -> tuple[list[CallOutcome], list[CallOutcome]]:
        return outcomes_of(read_a.entries, read_a.template), outcomes_of(read_b.entries, read_b.template)

    outcomes_a, outcomes_b = await asyncio.to_thread(classify_both)
    return CheckpointComparison(
        mode="models",
        a=_side(model_a, read_a.entries, read_a),
        b=_side(model_b, read_b.entries, read_b),
        rows=compare_outcomes(outcomes_a, outcomes_b),
        limit=limit,
    )


def split_in_time(entries: Sequence[Call], split_at_ms: int | None = None) -> tuple[list[Call], list[Call], int | None]:
    """(older, newer, split time): newer holds the calls made at or after ``split_at_ms``;
    by default the time of the middle call (oldest first), so each window holds half the
    calls (the newer one the extra call of an odd count). None as the time when there are
    no calls."""
    ordered = sorted(entries, key=lambda e: (time_of(e), e.id))
    if not ordered:
        return [], [], split_at_ms
    if split_at_ms is None:
        split_at_ms = time_of(ordered[len(ordered) // 2])
    older = [e for e in ordered if time_of(e) < split_at_ms]
    newer = [e for e in ordered if time_of(e) >= split_at_ms]
    return older, newer, split_at_ms


async def compare_windows(
    client: BlahClient | None,
    model_id: str,
    *,
    config_template: str | None = None,
    limit: int = DEFAULT_LIMIT,
    archive: Archive | None = None,
    split_at_ms: int | None = None,
) -> CheckpointComparison:
    """One model's calls, older window (A) against newer (B). Raises ``BlahError`` when the
    calls cannot be read."""
    read = await _read(client, archive, model_id, config_template=config_template, limit=limit)
    older, newer, split = split_in_time(read.entries, split_at_ms)

    def classify_both() -> tuple[list[CallOutcome], list[CallOutcome]]:
        return outcomes_of(older, read.template), outcomes_of(newer, read.template)

    outcomes_a, outcomes_b = await asyncio.to_thread(classify_both)
    return CheckpointComparison(
        mode="windows",
        a=_side(model_id, older, read),
        b=_side(model_id, newer, read),
        rows=compare_outcomes(outcomes_a, outcomes_b),
        limit=limit,
        split_at_ms=split,
    )
