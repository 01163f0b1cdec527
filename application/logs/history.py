"""How far back the Logs screen has followed the platform's history, per filter it can ask for.

The platform filters by ``source`` and ``errors_only`` itself, so a filter on errors pages back
through errors alone (287 errors are one page, not the eight pages of all 3,640 calls). Those
pages land in the archive below its unbroken stretch (``Archive.add_sparse``); this module keeps,
for each such platform query, the ``before`` bound of its next page or that it reached the
start. A query is covered as far back as the furthest of the queries that include it (all
calls include the errors; the errors include one source's errors), so nothing is asked twice.

Badge and search filters cannot be asked of the platform: their history is paged with the
query of the filter's source and errors (all calls when neither is set) and filtered here.
Nothing here imports Textual.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from api_client.archives.archive import Archive, LogFilter

__all__ = ["ALL_CALLS", "PlatformQuery", "Reach", "query_of"]

_META = "logs_reach"


@dataclass(frozen=True, slots=True)
class PlatformQuery:
    """The part of a filter the platform applies itself."""

    source: str | None = None
    errors_only: bool = False

    def includes(self, other: PlatformQuery) -> bool:
        """Every call ``other`` returns, this query returns too."""
        return (self.source is None or self.source == other.source) and (not self.errors_only or other.errors_only)

    @property
    def key(self) -> str:
        return json.dumps([self.source, self.errors_only])


ALL_CALLS = PlatformQuery()


def query_of(flt: LogFilter) -> PlatformQuery:
    return PlatformQuery(flt.source, flt.errors_only)


@dataclass
class Reach:
    """Per platform query (other than all calls): the ``before`` of its next older page, or
    ``None`` once it reached the start of history. Kept in the archive's meta when there is
    one, so the next session does not ask again."""

    archive: Archive | None
    _bounds: dict[str, int | None] | None = None

    def _load(self) -> dict[str, int | None]:
        if self._bounds is None:
            raw = None if self.archive is None else self.archive.get_meta(_META)
            try:
                loaded = json.loads(raw) if raw else {}
            except ValueError:
                loaded = {}
            self._bounds = (
                {k: v for k, v in loaded.items() if v is None or isinstance(v, int)} if isinstance(loaded, dict) else {}
            )
        return self._bounds

    def record(self, query: PlatformQuery, before: int | None) -> None:
        """``query`` is held down to ``before`` (None: all of it, to the start of history)."""
        bounds = self._load()
        bounds[query.key] = before
        if self.archive is not None:
            self.archive.set_meta(_META, json.dumps(bounds))

    def start(
        self, query: PlatformQuery, all_calls_before: int | None, all_calls_done: bool
    ) -> tuple[int | None, bool]:
        """Where the next older page of ``query`` starts: ``(before, reached the start)``.

        ``all_calls_before`` is the bound of the unbroken stretch of all calls (None when
        nothing is held: the newest page). The furthest of the queries that include
        ``query`` wins; a query that reached the start covers everything it includes."""
        if all_calls_done:
            return None, True
        best = all_calls_before
        for key, before in self._load().items():
            source, errors_only = json.loads(key)
            if not PlatformQuery(source, bool(errors_only)).includes(query):
                continue
            if before is None:
                return None, True
            best = before if best is None else min(best, before)
        return best, False
