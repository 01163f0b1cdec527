"""What the Diagnosis screen and ``blah-tui report`` read, and what they make of it (no Textual).

``fetch_inputs`` gathers everything for one model, each endpoint on its own: the recent calls
(from the local archive when it holds enough, else ``iter_logs`` up to a limit), the model
record and Lens bundle (for the trained template), the platform's ``/diagnose``, the judged
results and the health checks. A failed endpoint leaves its value ``None`` and its reason in
``Fetched.error``; nothing is ever filled in with a made-up value.

``diagnosis_analysis.analyse`` turns the inputs into the report and the indexes a screen needs.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from api_client.blahdev.shapes import (
    Diagnosis,
    Health,
    LensBundle,
    Model,
    Result,
)
from api_client.errors import BlahError, NotFoundError
from common.records import Call
from common.safe_strings import one_line

if TYPE_CHECKING:
    from api_client.archives.archive import Archive
    from api_client.blahdev.client import BlahClient
    from application.session.settings.typed import Settings

__all__ = [
    "DEFAULT_LIMIT",
    "OFFLINE_NOTE",
    "DiagnosisInputs",
    "Fetched",
    "LoadProgress",
    "fetch_inputs",
    "fetch_model",
    "limit_from",
    "load_entries",
]

DEFAULT_LIMIT = 2000
"""How many of the model's most recent calls are read by default."""

T = TypeVar("T")

#: Why a platform endpoint gave nothing when browsing a file.
OFFLINE_NOTE = "offline: this needs the platform"


def limit_from(settings: Settings) -> int:
    """How many calls to read: the ``diagnosis_limit`` setting, else ``DEFAULT_LIMIT``."""
    return settings.diagnosis_limit or DEFAULT_LIMIT


@dataclass(frozen=True)
class Fetched(Generic[T]):
    """One endpoint's answer: ``value``, or None with ``error`` saying why (None, None: not asked)."""

    value: T | None = None
    error: str | None = None
    exc: BlahError | None = field(default=None, repr=False, compare=False)  # for callers that branch on it

    @property
    def ok(self) -> bool:
        return self.value is not None


@dataclass(frozen=True)
class LoadProgress:
    """Reading the calls: ``done`` so far of ``total`` (None when the platform gave no count)."""

    done: int
    total: int | None
    started: float  # time.monotonic() at the start
    source: str  # "platform" | "archive"

    @property
    def rate_per_s(self) -> float | None:
        elapsed = time.monotonic() - self.started
        return self.done / elapsed if elapsed > 0.05 and self.done else None


@dataclass
class DiagnosisInputs:
    """Everything read for one model. Each ``Fetched`` says whether its endpoint answered."""

    model_id: str
    limit: int
    entries: list[Call] = field(default_factory=list)  # newest first
    entries_from: str = "none"  # "platform" | "archive" | "none"
    entries_error: str | None = None
    entries_exc: BlahError | None = field(default=None, repr=False)
    entries_note: str | None = None  # e.g. the client could not reach every entry
    model: Fetched[Model] = field(default_factory=Fetched)
    lens: Fetched[LensBundle] = field(default_factory=Fetched)
    diagnose: Fetched[Diagnosis] = field(default_factory=Fetched)
    results: Fetched[list[Result]] = field(default_factory=Fetched)
    health: Fetched[Health] = field(default_factory=Fetched)
    config_template: str | None = None

    def errors(self) -> dict[str, str]:
        """Endpoint -> why it gave nothing (only the ones that failed)."""
        out: dict[str, str] = {}
        if self.entries_error:
            out["logs"] = self.entries_error
        for name in ("model", "lens", "diagnose", "results", "health"):
            fetched: Fetched[object] = getattr(self, name)
            if fetched.error:
                out[name] = fetched.error
        return out


def _why(error: BaseException) -> str:
    """A short sanitised reason (error texts never carry the key: see api_client.errors)."""
    if isinstance(error, BlahError):
        return one_line(str(error), max_len=240)
    return one_line(f"{type(error).__name__}: {error}", max_len=240)


async def _fetch(call: Callable[[], Awaitable[T]], *, what: str) -> Fetched[T]:
    try:
        return Fetched(await call())
    except asyncio.CancelledError:
        raise
    except NotFoundError as error:
        return Fetched(None, f"{what} answered 404 ({_why(error)})", error)
    except BlahError as error:
        return Fetched(None, f"{what} failed: {_why(error)}", error)


async def fetch_model(client: BlahClient, model_id: str) -> Fetched[Model]:
    """The model record (``exc`` tells an unknown model from an unreachable platform)."""
    return await _fetch(lambda: client.get_model(model_id), what="the platform's model record")


# --------------------------------------------------------------------------- calls


async def load_entries(
    client: BlahClient | None,
    archive: Archive | None,
    model_id: str,
    *,
    limit: int,
    on_progress: Callable[[LoadProgress], None] | None = None,
) -> tuple[list[Call], str, str | None]:
    """The model's ``limit`` most recent calls, newest first, and where they came from.

    The archive is used when there is no platform, when it holds ``limit`` calls or more, or
    when it holds the whole history; otherwise the platform is read (``iter_logs``), because
    an archive that only caught the last few minutes would make a thin diagnosis.
    Returns (entries, source, note); raises ``BlahError`` when the platform read fails.
    """
    started = time.monotonic()
    if archive is not None:
        count, complete = await asyncio.to_thread(lambda: (archive.count(), archive.history_complete))
        if client is None or complete or count >= limit:
            stored = await asyncio.to_thread(_archive_entries, archive, limit)
            if on_progress is not None:
                on_progress(LoadProgress(len(stored), len(stored), started, "archive"))
            return stored, "archive", None
    if client is None:
        return [], "none", None
    total: int | None = None
    try:  # the platform's own count, so the progress line never guesses a total
        page = await client.get_logs(model_id, limit=1, stats=True)
        if page.stats is not None and page.stats.total is not None:
            total = min(limit, page.stats.total)
    except NotFoundError:
        raise
    except BlahError:
        total = None
    entries: list[Call] = []
    history = client.iter_logs(model_id, page_size=min(500, max(1, limit)))
    try:
        async for entry in history:
            entries.append(entry)
            if on_progress is not None and (len(entries) % 100 == 0 or len(entries) == total):
                on_progress(LoadProgress(len(entries), total, started, "platform"))
            if len(entries) >= limit:
                break
    finally:
        await history.aclose()
    if on_progress is not None:
        on_progress(LoadProgress(len(entries), len(entries), started, "platform"))
    note = None
    if history.may_have_missed:
        reason = getattr(history, "missed_reason", None)
        note = "some calls may be missing" + (f": {one_line(reason, max_len=160)}" if reason else "")
    return entries, "platform", note


def _archive_entries(archive: Archive, limit: int) -> list[Call]:
    """The ``limit`` most recent calls, read in bulk (archive_bulk: ~5x ``iter_all``)."""
    from api_client.archives.bulk import newest_entries

    return newest_entries(archive.path, limit)


async def fetch_inputs(
    client: BlahClient | None,
    model_id: str,
    *,
    archive: Archive | None = None,
    limit: int = DEFAULT_LIMIT,
    config_template: str | None = None,
    on_progress: Callable[[LoadProgress], None] | None = None,
    model: Fetched[Model] | None = None,
) -> DiagnosisInputs:
    """Read everything the diagnosis needs; every endpoint is asked at the same time and
    each failure is kept apart (one failing endpoint never hides the others). ``model``:
    the model record already fetched (it is then not asked again)."""
    inputs = DiagnosisInputs(model_id=model_id, limit=limit, config_template=config_template)

    async def calls() -> None:
        try:
            entries, source, note = await load_entries(client, archive, model_id, limit=limit, on_progress=on_progress)
        except NotFoundError as error:
            inputs.entries_error = f"the platform does not know this model ({_why(error)})"
            inputs.entries_exc = error
            return
        except BlahError as error:
            inputs.entries_error = f"reading the calls failed: {_why(error)}"
            inputs.entries_exc = error
            return
        inputs.entries, inputs.entries_from, inputs.entries_note = entries, source, note

    if client is None:
        await calls()
        for name in ("model", "lens", "diagnose", "results", "health"):
            setattr(inputs, name, Fetched(None, OFFLINE_NOTE))
        return inputs

    async def known_model() -> Fetched[Model]:
        return model if model is not None else await fetch_model(client, model_id)

    async def side() -> None:
        record, lens, diagnose, results, health = await asyncio.gather(
            known_model(),
            _fetch(lambda: client.lens(model_id), what="the platform's /lens"),
            _fetch(lambda: client.diagnose(model_id), what="the platform's /diagnose"),
            _fetch(lambda: client.list_results(model_id), what="the platform's /results"),
            _fetch(lambda: client.health(model_id), what="the platform's /health"),
        )
        inputs.model, inputs.lens, inputs.diagnose = record, lens, diagnose
        inputs.results, inputs.health = results, health

    await asyncio.gather(calls(), side())
    return inputs
