"""``compare_with_platform``: where the platform's own /diagnose and ours agree, kind by kind.

The platform sends counts and a few examples (with log ids), not every flagged id, so
agreement per call is only checked on its examples: an example we also flag is agreed, one we
examined and did not flag is disputed (with what we found instead), one we never saw is unseen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from common.records import Call

from . import kinds
from .finding import Finding
from .inputs import PlatformDiagnosis
from .summary import Summary
from .text import fmt_ms

#: Kinds the platform's /diagnose reports (CONTRACT.md); absent from its answer means it found none.
PLATFORM_KINDS: tuple[str, ...] = (kinds.LOOP, kinds.TRUNCATION, kinds.EMPTY, kinds.CONTINUATION)
EXAMPLE_LIMIT = 5
#: Rates "differ a lot" when one is at least this many times the other and they are at least
#: ``GAP_POINTS`` apart (so 0.1% vs 0.2% is not called a gap).
GAP_RATIO = 1.5
GAP_POINTS = 0.01

_VERDICT_TEXT = {
    "both": "both",
    "only_platform": "only the platform",
    "only_us": "only us",
    "neither": "neither",
    "platform_does_not_check": "platform does not check",
}


@dataclass(frozen=True, slots=True)
class KindAgreement:
    kind: str
    verdict: str  # "both" | "only_platform" | "only_us" | "neither" | "platform_does_not_check"
    our_count: int
    our_population: int
    platform_count: int | None  # None: the platform does not check this kind
    platform_population: int | None
    agreed_log_ids: tuple[str, ...] = ()
    disputed_log_ids: tuple[str, ...] = ()  # platform examples we examined and did not flag so
    unseen_log_ids: tuple[str, ...] = ()  # platform examples outside the calls we examined
    our_only_log_ids: tuple[str, ...] = ()  # our examples, when the platform reports none of the kind
    instead: dict[str, tuple[str, ...]] = field(default_factory=dict)  # disputed id -> our kinds
    usual_cause: str | None = None  # the platform's own explanation, verbatim (untrusted text)
    window_note: str = ""  # when the platform looked at another window / number of calls
    kind_note: str = ""  # remarks about this kind only
    # Our count over the platform's own window (calls created within its window_from..window_to,
    # outside outages); None when the window or the calls' times are unknown.
    window_count: int | None = None
    window_population: int | None = None
    gap: str | None = None  # "more" | "less": both found it, but our rate differs a lot from theirs
    # Replies we count as this kind that the platform's check cannot see, e.g. ("whitespace-only", 7).
    missed: tuple[tuple[str, int], ...] = ()

    @property
    def verdict_text(self) -> str:
        """The verdict for a person: "both, we find more", "platform does not check", ..."""
        text = _VERDICT_TEXT.get(self.verdict, self.verdict.replace("_", " "))
        return f"{text}, we find {self.gap}" if self.gap else text

    @property
    def window_rate(self) -> float | None:
        if self.window_count is None or not self.window_population:
            return None
        return self.window_count / self.window_population

    @property
    def note(self) -> str:
        return " ".join(n for n in (self.window_note, self.kind_note) if n)

    @property
    def our_rate(self) -> float | None:
        return self.our_count / self.our_population if self.our_population else None

    @property
    def platform_rate(self) -> float | None:
        if self.platform_count is None or not self.platform_population:
            return None
        return self.platform_count / self.platform_population


def compare_with_platform(
    our: Summary | Mapping[str, list[Finding]],
    platform: PlatformDiagnosis,
    *,
    window: tuple[int | None, int | None] | None = None,
    entries: Iterable[Call] | None = None,
) -> list[KindAgreement]:
    """Kind by kind: found by both, only by the platform, only by us.

    ``our`` is a ``Summary`` or per-call findings (``classify_many``). ``window`` gives the
    time span of per-call findings (a Summary knows its own) so the note can say when the
    platform looked at a different window. ``entries`` (the calls examined) lets each kind the
    platform checks be counted again over the platform's own window, and lets us name what its
    check misses (e.g. whitespace-only replies it does not count as empty).
    """
    if isinstance(our, Summary):
        by_id = {log_id: set(names) for log_id, names in our.kinds_by_log_id.items()}
        examined = our.examined_ids
        host = our.host_log_ids
        population = our.model_calls
        counts = {k: r.count for k, r in our.rates.items()}
        populations = {k: r.population for k, r in our.rates.items()}
        window = (our.window_from, our.window_to)
        our_examples = {k: [log_id for log_id, _ in v] for k, v in our.examples.items()}
    else:
        by_id = {log_id: {f.kind for f in found} for log_id, found in our.items()}
        examined = frozenset(our)
        host = frozenset()
        population = len(our)
        counts = {}
        populations = {}
        our_examples = {}
        for log_id, names in by_id.items():
            for name in names:
                counts[name] = counts.get(name, 0) + 1
                our_examples.setdefault(name, []).append(log_id)

    window_note = _window_note(len(examined), window, platform)
    by_entry = {e.id: e for e in entries} if entries is not None else {}
    in_window = _in_platform_window(by_entry, examined, host, platform)
    theirs = {f.kind: f for f in platform.findings}
    wanted = list(dict.fromkeys([*PLATFORM_KINDS, *theirs, *(k for k in kinds.CLASSIFY_KINDS if counts.get(k))]))
    out: list[KindAgreement] = []
    for kind in wanted:
        finding = theirs.get(kind)
        checked = kind in PLATFORM_KINDS or finding is not None
        platform_count = (finding.count if finding is not None else 0) if checked else None
        if finding is not None and finding.count is None:
            platform_count = len(finding.examples)
        ours = counts.get(kind, 0)
        agreed: list[str] = []
        disputed: list[str] = []
        unseen: list[str] = []
        instead: dict[str, tuple[str, ...]] = {}
        for example in finding.examples if finding is not None else ():
            if example.log_id is None:
                continue
            log_id = example.log_id
            if log_id not in examined:
                unseen.append(log_id)
            elif kind in by_id.get(log_id, ()):
                agreed.append(log_id)
            else:
                disputed.append(log_id)
                instead[log_id] = tuple(sorted(by_id.get(log_id, ()))) or (("host_down",) if log_id in host else ())
        verdict = "platform_does_not_check" if platform_count is None else _verdict(ours, platform_count)
        kind_population = populations.get(kind, population)
        window_count = window_population = None
        if in_window is not None and platform_count is not None:
            window_count = sum(1 for i in in_window if kind in by_id.get(i, ()))
            window_population = len(in_window)
        compare_count, compare_population = (
            (window_count, window_population) if window_count is not None else (ours, kind_population)
        )
        gap = _gap(compare_count or 0, compare_population or 0, platform_count, platform.calls_examined)
        scope = in_window if in_window is not None else [i for i in examined if i not in host]
        missed = _missed(kind, scope, by_id, by_entry) if platform_count is not None else ()
        our_only = tuple(our_examples.get(kind, [])[:EXAMPLE_LIMIT]) if not platform_count else ()
        notes: list[str] = []
        if platform_count is None:
            notes.append("The platform does not check for this kind.")
        if host.intersection(disputed):
            notes.append("Some platform examples fall in an outage window, which we count as host failures.")
        out.append(
            KindAgreement(
                kind=kind,
                verdict=verdict,
                our_count=ours,
                our_population=kind_population,
                platform_count=platform_count,
                platform_population=platform.calls_examined,
                agreed_log_ids=tuple(agreed),
                disputed_log_ids=tuple(disputed),
                unseen_log_ids=tuple(unseen),
                our_only_log_ids=our_only,
                instead=instead,
                usual_cause=finding.usual_cause if finding is not None else None,
                window_note=window_note,
                kind_note=" ".join(notes),
                window_count=window_count,
                window_population=window_population,
                gap=gap if verdict == "both" else None,
                missed=missed,
            )
        )
    return out


def _verdict(ours: int, theirs: int) -> str:
    if ours and theirs:
        return "both"
    if theirs:
        return "only_platform"
    if ours:
        return "only_us"
    return "neither"


def _gap(ours: int, our_population: int, theirs: int | None, their_population: int | None) -> str | None:
    """ "more" / "less" when both rates are known and differ a lot, else None."""
    if theirs is None or not our_population or not their_population:
        return None
    a, b = ours / our_population, theirs / their_population
    if abs(a - b) < GAP_POINTS:
        return None
    if a >= b * GAP_RATIO:
        return "more"
    if b >= a * GAP_RATIO:
        return "less"
    return None


def _in_platform_window(
    by_entry: Mapping[str, Call], examined: frozenset[str], host: frozenset[str], platform: PlatformDiagnosis
) -> list[str] | None:
    """Ids of the model's calls (outside outages) created within the platform's window."""
    start, end = platform.window_from, platform.window_to
    if not by_entry or start is None or end is None:
        return None
    return [
        i
        for i, e in by_entry.items()
        if i in examined and i not in host and e.created_at is not None and start <= e.created_at <= end
    ]


def _missed(
    kind: str, ids: Iterable[str], by_id: Mapping[str, set[str]], by_entry: Mapping[str, Call]
) -> tuple[tuple[str, int], ...]:
    """Replies we count as ``kind`` that a narrower check may not: for ``empty``, the replies
    that are not literally "" (whitespace only, or only a stop token). The platform does not
    document its rule, so the report says these are what it "may miss", with the counts.
    """
    if kind != kinds.EMPTY or not by_entry:
        return ()
    whitespace = stop_token = 0
    for i in ids:
        entry = by_entry.get(i)
        if entry is None or kinds.EMPTY not in by_id.get(i, ()) or not entry.response:
            continue
        if entry.response.strip():
            stop_token += 1
        else:
            whitespace += 1
    out = [("whitespace-only replies", whitespace), ("replies that are only a stop token", stop_token)]
    return tuple((what, n) for what, n in out if n)


def _window_note(our_calls: int, window: tuple[int | None, int | None] | None, platform: PlatformDiagnosis) -> str:
    parts: list[str] = []
    if platform.calls_examined is None:
        parts.append(f"The platform did not say how many calls it examined; we examined {our_calls}.")
    elif platform.calls_examined != our_calls:
        parts.append(
            f"The platform examined {platform.calls_examined} calls and we examined {our_calls}: compare rates, "
            "not counts."
        )
    if window is not None and window != (None, None):
        theirs = (platform.window_from, platform.window_to)
        if theirs == (None, None):
            parts.append("The platform did not say which time window it examined.")
        elif theirs != window:
            parts.append(f"The platform's window ({_span(theirs)}) is not ours ({_span(window)}).")
    return " ".join(parts)


def _span(window: tuple[int | None, int | None]) -> str:
    start, end = window
    return f"{fmt_ms(start)} to {fmt_ms(end)}"
