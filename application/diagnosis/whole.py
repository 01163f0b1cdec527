"""Diagnosis of a whole history: the local archive or a JSONL file, streamed (no Textual).

``diagnose_archive`` and ``diagnose_calls`` read the calls once, newest first (the platform's
order, so examples and ties come out as ``analyse`` gives them), and never hold them all:
each call is classified, its features computed (once per distinct text, see
``diagnosis.features``) and counted into a ``SummaryBuilder``; what is kept is what the report
shows: the counts, a few examples per group and kind, and a few bytes per call (see
``CallDigest``): the digest of its user text (for "the prompts that failed most often": how
often each was sent) and, for a failing call, its time, the digest of its whole user text and
its grouping features, from which the suggestions pick the prompts they quote; only those are
read again at the end, by id (``diagnosis.quoted``). ``Summary.examined_ids`` stays empty: only
the comparison with the platform's /diagnose and clusters reads it, and a local source has
neither. Measured over 1M distinct calls (tests/bench/bench_diagnosis.py): peak RSS of every
process 1,155 MB when the calls with a finding were held, 363-405 MB since.

The archive is split into ranges of its time ordinal and, when it is big enough to pay for
starting them (``POOL_MIN_CALLS``), the ranges are diagnosed by a pool of worker processes
(``spawn``: safe from a thread of the app), each reading its range read-only in bulk
(api_client.archives.bulk) on its own connection, and merged in order. Why processes:
classifying is pure Python, so threads would share one core (the GIL); ranges of the archive
need no coordination, and a range's digest is small next to its calls (what a worker sends
back is counts and the per-call digests above, never calls). Measured (1M distinct calls, a
2-core machine shared with a load average of 10-14): one process 114 s of CPU, two processes
106-116 s of CPU in all, so splitting costs no extra work and halves the wall time on two free
cores; a worker costs about a second to start, hence ``POOL_MIN_CALLS``.

Used by ``blah-tui report MODEL --offline`` and the Diagnosis screen's whole history (both through
``application.diagnosis.archive_report``) and ``--from FILE``.
"""

from __future__ import annotations

import os
import sys
from array import array
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any

from api_client.archives.bulk import ArchiveSpan, archive_span, call_from_bulk_row, entries_with_ids, read_range
from application.diagnosis.analysis import CLASSIFY_CAP
from application.logs.badges import capped
from common.gc_tuning import worker_without_collector
from common.records import Call, order_key
from diagnosis.quoted import QuotableCalls, text_key

if TYPE_CHECKING:
    from diagnosis.report import Report
    from diagnosis.summary_builder import SummaryBuilder

__all__ = ["POOL_MIN_CALLS", "CallDigest", "WholeDiagnosis", "diagnose_archive", "diagnose_calls", "worker_count"]

#: Below this many calls one process is faster than starting a pool (measured: bench_diagnosis).
POOL_MIN_CALLS = 40_000
#: Ranges per worker: small enough that the two workers finish together, big enough that a
#: range's fixed costs (a connection, sending the digest back) stay small. A digest holds no
#: calls, so a range costs little: 12 per worker leave at most ~1/24 of the work to one worker
#: at the end (4 left ~1/8: at 1M calls, 9 s of one core idle), and the last ones shrink
#: (``_ranges``) so the workers finish within a ~0.1 s range of each other.
RANGES_PER_WORKER = 12


def worker_count() -> int:
    """The processes that diagnose at once: the machine's cores (at most 2 are worth it here,
    see the module docstring), one when there is only one."""
    return max(1, min(2, os.cpu_count() or 1))


class CallDigest:
    """What one stretch of calls leaves behind; ``merge`` a later stretch into an earlier one.

    Per call, a few bytes at most: the digest of its user text (for "the prompts that failed
    most often": how often each was sent), and for a failing call its time, the digest of its
    whole user text and its grouping features (the suggestions pick the prompts they quote from
    these, see ``diagnosis.quoted``). Calls are not held: the quoted ones are read again at the
    end (by id from the archive, by the offset of their line in a JSONL dump: ``located``; a
    source that cannot be read again keeps its failing calls in ``held``)."""

    def __init__(
        self,
        trained_template: str | None,
        seq_base: int = 0,
        *,
        hold_failing: bool = False,
        locate: Callable[[], int] | None = None,
    ) -> None:
        """``hold_failing``: keep the failing calls (a source that cannot be read again);
        ``locate``: instead, where the call just given can be read again (e.g. its line's offset
        in a file, -1 when it cannot), kept per failing call in ``located``."""
        from diagnosis.summary_builder import SummaryBuilder

        self.trained = trained_template
        # No platform to compare with: the ids of every call (Summary.examined_ids) are not kept.
        self.builder: SummaryBuilder = SummaryBuilder(
            trained_template=trained_template, seq_base=seq_base, keep_ids=False
        )
        self.failing: dict[str, tuple[int, int]] = {}  # failing model call -> (created_at, digest of its words)
        self.features: dict[str, tuple[str, ...]] = {}  # their grouping features (the suggestions group them)
        self.held: dict[str, Call] | None = {} if hold_failing else None
        self.locate = locate
        self.located: dict[str, int] = {}
        self.asked = array("Q")  # digest of the user's words (as the report shows them) of every model call
        self.failing_said: dict[str, list[int]] = {}  # user's words -> [failing calls, seq of the first]

    def add(self, entry: Call) -> None:
        self.add_many((entry,))

    def add_many(self, entries: Iterable[Call]) -> None:
        """Each call in turn (the hot loop: everything it calls is bound once, outside it)."""
        from diagnosis.classifier import classify_detected
        from diagnosis.report_markdown import PROMPT_CHARS
        from diagnosis.templates import detect_template
        from diagnosis.text import user_text

        builder = self.builder
        builder_add, trained = builder.add, builder.trained
        asked_append = self.asked.append
        failing, features, held, failing_said = self.failing, self.features, self.held, self.failing_said
        locate, located = self.locate, self.located
        for entry in entries:
            prompt, messages, response = entry.prompt, entry.messages, entry.response
            detected = detect_template(prompt, messages)
            if (prompt is not None and len(prompt) > CLASSIFY_CAP) or (
                response is not None and len(response) > CLASSIFY_CAP
            ):
                cut = capped(entry, CLASSIFY_CAP)
                # (as ``analyse`` classifies: a cut copy of a huge call)
                found = classify_detected(cut, detect_template(cut.prompt, cut.messages), trained, None)
            else:
                found = classify_detected(entry, detected, trained, None)
            _names, failed, values = builder_add(entry, detected, found)
            if values is None:  # inside an outage window: the host's call
                continue
            whole = user_text(prompt, messages).strip()
            said = whole[:PROMPT_CHARS]
            key = text_key(said)
            asked_append(key)
            if failed:
                log_id = entry.id
                failing[log_id] = (
                    order_key(entry.created_at, log_id)[0],
                    key if said is whole else text_key(whole),
                )  # order only
                features[log_id] = values
                if locate is not None:
                    where = locate()
                    if where >= 0:
                        located[log_id] = where
                    elif held is not None:
                        held[log_id] = entry
                elif held is not None:
                    held[log_id] = entry
                seen = failing_said.get(said)
                if seen is None:
                    failing_said[said] = [1, builder.seq_base + builder.examined]
                else:
                    seen[0] += 1

    def merge(self, later: CallDigest) -> None:
        self.builder.merge(later.builder)
        self.failing.update(later.failing)
        self.features.update(later.features)
        if self.held is not None and later.held is not None:
            self.held.update(later.held)
        self.located.update(later.located)
        self.asked.extend(later.asked)
        for said, (n, first) in later.failing_said.items():
            seen = self.failing_said.get(said)
            if seen is None:
                self.failing_said[said] = [n, first]
            else:
                seen[0] += n

    def failing_prompts(self, top: int) -> list[tuple[str, int, int]]:
        """The ``top`` user texts that failed most often: (text, failing calls, calls), ties in
        the order the calls came (as a Counter filled call by call gives them)."""
        ranked = sorted(self.failing_said.items(), key=lambda kv: (-kv[1][0], kv[1][1]))[:top]
        asked = self.asked.tobytes()  # ``array.count`` makes an int of every item: ~40 ns each, 8 x 1M of them
        return [(said, n, _count_digest(asked, text_key(said)) or n) for said, (n, _) in ranked]


def _count_digest(digests: bytes, key: int) -> int:
    """How many of the 64-bit ``digests`` (an ``array('Q')``'s bytes) are ``key``: ``bytes.find``
    (a C scan), keeping only the hits that start an item (8 bytes could also match across two)."""
    needle = key.to_bytes(8, sys.byteorder)
    count = 0
    at = digests.find(needle)
    while at != -1:
        if at % 8 == 0:
            count += 1
            at = digests.find(needle, at + 8)
        else:
            at = digests.find(needle, at + 1)
    return count


@dataclass(frozen=True)
class WholeDiagnosis:
    """The report of every call read, and where they came from."""

    report: Report
    calls: int
    oldest_ms: int | None
    newest_ms: int | None
    workers: int  # processes that classified (1: this one)
    kept_calls: int  # failing calls indexed for the report (not held: see CallDigest)


def _finish(
    digest: CallDigest,
    *,
    model: Any,
    template: str | None,
    template_source: str,
    workers: int,
    load: Callable[[list[str]], Mapping[str, Call]],
) -> WholeDiagnosis:
    from diagnosis.report import build_report
    from diagnosis.report_markdown import TOP_PROMPTS
    from diagnosis.summary import finish_summary

    summary = finish_summary(digest.builder)
    report = build_report(
        model=model,
        entries=(),
        trained_template=template,
        template_source=template_source,
        summary=summary,
        failing_prompts=digest.failing_prompts(TOP_PROMPTS),
        features_by_id=digest.features,
        quotable=QuotableCalls(digest.failing, load),
        platform_asked=False,
    )
    return WholeDiagnosis(
        report, summary.calls_examined, summary.window_from, summary.window_to, workers, len(digest.failing)
    )


def diagnose_calls(
    calls: Iterable[Call],
    *,
    model: Any,
    trained_template: str | None,
    template_source: str = "unknown",
    locate: Callable[[], int] | None = None,
    reread: Callable[[dict[str, int]], Mapping[str, Call]] | None = None,
) -> WholeDiagnosis:
    """The report of ``calls`` (newest first, as the platform and ``export`` give them), read once.

    The failing calls are held for the report to quote, unless ``locate`` says where the call
    just given can be read again (>= 0) and ``reread`` reads calls back from those places."""
    digest = CallDigest(trained_template, hold_failing=True, locate=locate if reread is not None else None)
    digest.add_many(calls)
    held = digest.held or {}
    located = digest.located

    def load(ids: list[str]) -> dict[str, Call]:
        out = {i: held[i] for i in ids if i in held}
        where = {i: located[i] for i in ids if i in located}
        if where and reread is not None:
            out.update(reread(where))
        return out

    return _finish(
        digest, model=model, template=trained_template, template_source=template_source, workers=1, load=load
    )


def _digest_range(path: str, first_ord: int, last_ord: int, trained: str | None, seq_base: int) -> CallDigest:
    """One range of the archive, newest first (runs in a worker process)."""
    digest = CallDigest(trained, seq_base)
    for rows in read_range(path, first_ord, last_ord, newest_first=True):
        digest.add_many(map(call_from_bulk_row, rows))  # each row a Call by position, nothing validated again
    return digest


def _ranges(span: ArchiveSpan, limit: int | None, parts: int, workers: int = 1) -> list[tuple[int, int, int]]:
    """(first ord, last ord, seq base) of each range, newest range first.

    ``parts`` ranges of one size; with ``workers`` > 1, the last ones shrink (each at most a
    ``2 * workers``-th of what is left, down to ``MIN_RANGE_CALLS``), so the workers finish
    within a small range of each other instead of one of them running a whole range alone
    (at 1M calls a range is ~2 s of one core)."""
    assert span.first_ord is not None and span.last_ord is not None
    hi = span.last_ord
    lo = span.first_ord if limit is None else max(span.first_ord, hi - limit + 1)
    total = hi - lo + 1
    size = max(1, -(-total // parts))
    out = []
    top = hi
    while top >= lo:
        step = size
        if workers > 1:
            step = min(size, max(MIN_RANGE_CALLS, -(-(top - lo + 1) // (2 * workers))))
        bottom = max(lo, top - step + 1)
        out.append((bottom, top, hi - top))
        top = bottom - 1
    return out


def _merge_in_order(
    parts: Iterable[CallDigest], wanted: int, on_progress: Callable[[int, int], None] | None
) -> CallDigest | None:
    """The ranges' digests merged in order (a later range into the earlier ones), the progress
    told after each: the same whether the ranges were read here or by a pool of workers."""
    merged: CallDigest | None = None
    done = 0
    for part in parts:
        if merged is None:
            merged = part
        else:
            merged.merge(part)
        done += part.builder.examined
        if on_progress is not None:
            on_progress(done, wanted)
    return merged


#: The smallest of the shrinking last ranges (~0.1 s of one core).
MIN_RANGE_CALLS = 2_000


def diagnose_archive(
    path: Path | str,
    *,
    model: Any,
    trained_template: str | None,
    template_source: str = "unknown",
    limit: int | None = None,
    workers: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[WholeDiagnosis, ArchiveSpan]:
    """The report of the archive's ``limit`` most recent calls (all by default).

    ``workers``: processes (default ``worker_count()`` when the archive holds ``POOL_MIN_CALLS``
    or more, else 1). Raises ArchiveError when there is no archive or it is not readable."""
    span = archive_span(path)

    def load(ids: list[str]) -> dict[str, Call]:
        return entries_with_ids(span.path, ids)

    if span.first_ord is None:
        digest = CallDigest(trained_template)
        return _finish(
            digest, model=model, template=trained_template, template_source=template_source, workers=1, load=load
        ), span
    wanted = span.calls if limit is None else min(limit, span.calls)
    if workers is None:
        workers = worker_count() if wanted >= POOL_MIN_CALLS else 1
    ranges = _ranges(span, limit, workers * RANGES_PER_WORKER if workers > 1 else 1, workers)
    if workers <= 1:
        merged = _merge_in_order(
            (_digest_range(str(span.path), lo, hi, trained_template, base) for lo, hi, base in ranges),
            wanted,
            on_progress,
        )
    else:
        # The workers run without the cyclic garbage collector (common/gc_tuning.py says why).
        with ProcessPoolExecutor(
            max_workers=workers, mp_context=get_context("spawn"), initializer=worker_without_collector
        ) as pool:
            futures = [
                pool.submit(_digest_range, str(span.path), lo, hi, trained_template, base) for lo, hi, base in ranges
            ]
            import diagnosis.report
            import diagnosis.summary  # noqa: F401  (the same)

            try:
                merged = _merge_in_order((future.result() for future in futures), wanted, on_progress)
            except BaseException:  # stopped (on_progress raised) or failed: drop the ranges not started
                for future in futures:
                    future.cancel()
                raise
    assert merged is not None
    whole = _finish(
        merged, model=model, template=trained_template, template_source=template_source, workers=workers, load=load
    )
    return whole, span
