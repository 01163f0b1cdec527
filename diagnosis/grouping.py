"""Failure groups: calls sharing one value of one dimension, counted in one pass over many calls.

Every call belongs to one group per dimension (seven), but most calls share their whole
combination of values with many others. So the pass counts per combination (one dictionary
look-up per call) and :meth:`GroupCounter.groups` merges the combinations into the
per-dimension groups at the end. The result is the same as counting every group call by call:
examples are the earliest calls (by the order they were added), and each ``Counter`` of kinds
has its keys in the order they first occurred.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from heapq import nsmallest
from itertools import chain

EXAMPLES_PER_GROUP = 5


@dataclass(frozen=True, slots=True)
class FailureGroup:
    """Calls sharing one value of one dimension (e.g. ``instruction`` = ``maths``)."""

    dimension: str
    value: str
    calls: int
    failures: int
    kinds: Counter[str]
    example_log_ids: tuple[str, ...]  # failing calls first, up to 5
    # The same, counting only failing calls whose prompt was in the right template (or with no
    # template verdict): what is left for training data once the format is fixed.
    format_ok_failures: int = 0
    format_ok_kinds: Counter[str] = field(default_factory=Counter)
    format_ok_example_ids: tuple[str, ...] = ()

    @property
    def failure_rate(self) -> float | None:
        return self.failures / self.calls if self.calls else None


# Kinds seen, per tuple of kind names: names -> [sequence number of its first call, calls].
_NameCounts = dict[tuple[str, ...], list[int]]
# Example calls: (sequence number, log id), earliest first.
_Ids = list[tuple[int, str]]


class _Combo:
    """Counts for the calls with one exact combination of dimension values."""

    __slots__ = ("calls", "fail_ids", "failures", "fok_failures", "fok_ids", "fok_names", "names", "ok_ids")

    def __init__(self) -> None:
        self.calls = 0
        self.failures = 0
        self.names: _NameCounts = {}
        self.fail_ids: _Ids = []
        self.ok_ids: _Ids = []
        self.fok_failures = 0
        self.fok_names: _NameCounts = {}
        self.fok_ids: _Ids = []


class GroupCounter:
    """Add calls one by one (``add``), then read the groups (``groups``)."""

    def __init__(self, dimensions: tuple[str, ...]) -> None:
        self.dimensions = dimensions
        self._combos: dict[tuple[str, ...], _Combo] = {}

    def add(
        self, values: tuple[str, ...], seq: int, log_id: str, names: tuple[str, ...], failed: bool, format_ok: bool
    ) -> None:
        """One call: its dimension ``values``, a number increasing with every call, its kinds."""
        combo = self._combos.get(values)
        if combo is None:
            combo = self._combos[values] = _Combo()
        combo.calls += 1
        if not failed:
            if len(combo.ok_ids) < EXAMPLES_PER_GROUP:
                combo.ok_ids.append((seq, log_id))
            return
        combo.failures += 1
        _count(combo.names, names, seq)
        if len(combo.fail_ids) < EXAMPLES_PER_GROUP:
            combo.fail_ids.append((seq, log_id))
        if format_ok:
            combo.fok_failures += 1
            _count(combo.fok_names, names, seq)
            if len(combo.fok_ids) < EXAMPLES_PER_GROUP:
                combo.fok_ids.append((seq, log_id))

    def merge(self, later: GroupCounter) -> None:
        """Take in ``later``'s calls, all numbered after this counter's (see ``add``'s ``seq``)."""
        for values, theirs in later._combos.items():
            ours = self._combos.get(values)
            if ours is None:
                self._combos[values] = theirs
                continue
            ours.calls += theirs.calls
            ours.failures += theirs.failures
            ours.fok_failures += theirs.fok_failures
            _merge_counts(ours.names, theirs.names)
            _merge_counts(ours.fok_names, theirs.fok_names)
            for mine, other in (
                (ours.fail_ids, theirs.fail_ids),
                (ours.ok_ids, theirs.ok_ids),
                (ours.fok_ids, theirs.fok_ids),
            ):
                mine.extend(other[: max(0, EXAMPLES_PER_GROUP - len(mine))])

    def groups(self) -> dict[tuple[str, str], FailureGroup]:
        """(dimension, value) -> its group, for every value seen."""
        parts: dict[tuple[str, str], list[_Combo]] = {}
        for values, combo in self._combos.items():
            for key in zip(self.dimensions, values):
                parts.setdefault(key, []).append(combo)
        return {(dim, value): _merge(dim, value, combos) for (dim, value), combos in parts.items()}


def _count(counts: _NameCounts, names: tuple[str, ...], seq: int) -> None:
    seen = counts.get(names)
    if seen is None:
        counts[names] = [seq, 1]
    else:
        seen[1] += 1


def _merge_counts(ours: _NameCounts, later: _NameCounts) -> None:
    for names, (first, n) in later.items():
        seen = ours.get(names)
        if seen is None:
            ours[names] = [first, n]
        else:
            seen[1] += n  # ours came first: its first call stays the first


def _kinds(name_counts: list[_NameCounts]) -> Counter[str]:
    """Kind -> calls, keys in the order the kinds first occurred (as counting call by call gives)."""
    firsts = sorted((first, names, n) for counts in name_counts for names, (first, n) in counts.items())
    out: Counter[str] = Counter()
    for _, names, n in firsts:
        for name in names:
            out[name] += n
    return out


def _earliest(ids: list[_Ids]) -> list[str]:
    return [log_id for _, log_id in nsmallest(EXAMPLES_PER_GROUP, chain.from_iterable(ids))]


def _merge(dimension: str, value: str, combos: list[_Combo]) -> FailureGroup:
    examples = _earliest([c.fail_ids for c in combos]) + _earliest([c.ok_ids for c in combos])
    return FailureGroup(
        dimension,
        value,
        sum(c.calls for c in combos),
        sum(c.failures for c in combos),
        _kinds([c.names for c in combos]),
        tuple(examples[:EXAMPLES_PER_GROUP]),
        sum(c.fok_failures for c in combos),
        _kinds([c.fok_names for c in combos]),
        tuple(_earliest([c.fok_ids for c in combos])),
    )
