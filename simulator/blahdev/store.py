"""The log store: every call of every model, indexed per model by time for fast paging.

Not thread-safe on its own: ``World`` holds the lock around every call.
"""

from __future__ import annotations

import bisect
from collections import Counter
from typing import Any

LogDict = dict[str, Any]
"""A log entry exactly as served on the wire (CONTRACT.md "Log entry")."""

MAX_PER_MS = 300
"""The platform keeps at most this many entries of one model in one millisecond."""


class LogStore:
    def __init__(self) -> None:
        self.by_id: dict[str, LogDict] = {}
        self._keys: dict[str, list[tuple[int, int]]] = {}
        self._entries: dict[str, list[LogDict]] = {}
        self._per_ms: Counter[tuple[str, int]] = Counter()
        self._seq = 0

    def clone(self, shift: int) -> LogStore:
        """A deep copy with every created_at moved by ``shift`` ms."""
        other = LogStore()
        other._seq = self._seq
        other._per_ms = Counter({(m, t + shift): n for (m, t), n in self._per_ms.items()})
        for model_id, entries in self._entries.items():
            copies = [{**e, "created_at": e["created_at"] + shift} for e in entries]
            other._entries[model_id] = copies
            other._keys[model_id] = [(t + shift, seq) for t, seq in self._keys[model_id]]
            other.by_id.update((e["id"], e) for e in copies)
        return other

    def next_id(self) -> str:
        self._seq += 1
        return f"log_{self._seq:07d}"

    def free_ms(self, model_id: str, created_at: int) -> int:
        """The first millisecond at or after ``created_at`` with room for one more entry."""
        while self._per_ms[(model_id, created_at)] >= MAX_PER_MS:
            created_at += 1
        return created_at

    def add(self, entry: LogDict) -> LogDict:
        model_id = entry["model_id"]
        entry["created_at"] = self.free_ms(model_id, entry["created_at"])
        self._per_ms[(model_id, entry["created_at"])] += 1
        keys = self._keys.setdefault(model_id, [])
        entries = self._entries.setdefault(model_id, [])
        key = (entry["created_at"], self._seq_of(entry))
        if not keys or key >= keys[-1]:
            keys.append(key)
            entries.append(entry)
        else:
            pos = bisect.bisect_right(keys, key)
            keys.insert(pos, key)
            entries.insert(pos, entry)
        self.by_id[entry["id"]] = entry
        return entry

    @staticmethod
    def _seq_of(entry: LogDict) -> int:
        return int(entry["id"].rsplit("_", 1)[-1])

    def latest(self, model_id: str) -> int | None:
        """created_at of the model's newest entry (None when it has none)."""
        keys = self._keys.get(model_id)
        return keys[-1][0] if keys else None

    def count(self, model_id: str) -> int:
        return len(self._keys.get(model_id, ()))

    def bounds(self, model_id: str, since: int | None, before: int | None) -> tuple[int, int]:
        """``(lo, hi)``: the model's entries with since < created_at < before are
        ``entries[lo:hi]`` (oldest first)."""
        keys = self._keys.get(model_id, [])
        lo = bisect.bisect_right(keys, (since, float("inf"))) if since is not None else 0
        hi = bisect.bisect_left(keys, (before, -1)) if before is not None else len(keys)
        return lo, max(lo, hi)

    def window(self, model_id: str, since: int | None, before: int | None) -> list[LogDict]:
        """Entries with since < created_at < before, oldest first (a slice copy)."""
        lo, hi = self.bounds(model_id, since, before)
        return self._entries.get(model_id, [])[lo:hi] if lo < hi else []

    def query(
        self,
        model_id: str,
        *,
        source: str | None,
        since: int | None,
        before: int | None,
        errors_only: bool,
        limit: int,
        stats: bool,
    ) -> dict[str, Any]:
        """One page of CONTRACT's ``GET /models/{id}/logs`` (newest first). An unfiltered
        page is one slice of at most ``limit`` entries: paging back through N calls costs
        O(N), not the O(N^2 / limit) of copying the whole window for each page."""
        lo, hi = self.bounds(model_id, since, before)
        entries = self._entries.get(model_id, [])
        filtered = bool(source) or errors_only

        def keep(e: LogDict) -> bool:
            return (not source or e["source"] == source) and (not errors_only or e["error"] is not None)

        page: list[LogDict]
        if not filtered:
            page = entries[max(lo, hi - limit) : hi][::-1]
        else:
            page = []
            for i in range(hi - 1, lo - 1, -1):
                if keep(entries[i]):
                    page.append(entries[i])
                    if len(page) == limit:
                        break
        body: dict[str, Any] = {
            "logs": page,
            "next_since": page[0]["created_at"] if page else since,
            "next_before": page[-1]["created_at"] if page else None,
        }
        if stats:
            body["stats"] = compute_stats(e for e in entries[lo:hi] if not filtered or keep(e))
        return body

    def all_for(self, model_id: str) -> list[LogDict]:
        return list(self._entries.get(model_id, []))


def compute_stats(entries: Any) -> dict[str, Any]:
    """CONTRACT's ``stats``: totals, errors and mean latency, overall and per source."""
    acc: dict[str, list[int]] = {}
    for e in entries:
        row = acc.setdefault(e["source"], [0, 0, 0, 0])  # total, errors, latency sum, latency n
        row[0] += 1
        row[1] += e["error"] is not None
        if e["latency_ms"] is not None:
            row[2] += e["latency_ms"]
            row[3] += 1

    def block(total: int, errors: int, lat: int, n: int) -> dict[str, Any]:
        return {"total": total, "errors": errors, "mean_latency_ms": round(lat / n, 1) if n else None}

    by_source = {src: block(*row) for src, row in sorted(acc.items())}
    sums = [sum(row[i] for row in acc.values()) for i in range(4)]
    return {**block(*sums), "by_source": by_source}
