"""Paging back through a model's log history with ``before``: shared by the tail and the history."""

from __future__ import annotations

from common.records import Call, time_of


def older_page_bound(raw: list[Call], page_size: int) -> tuple[int, int, str | None]:
    """For a full page: its oldest millisecond, the ``before`` that asks for the page after
    it, and why entries may be missed (None unless the whole page is one millisecond).

    ``before = oldest + 1`` asks again for the oldest millisecond (entries of it beyond this
    page are not lost; the caller drops the ids it already has). When a whole page shares
    one millisecond that would ask for the same page again, so it moves past it instead."""
    times = [time_of(entry) for entry in raw]
    oldest, newest = min(times), max(times)
    if oldest != newest:
        return oldest, oldest + 1, None
    reason = (
        f"more than {page_size} entries share the millisecond {oldest}; "
        "those beyond one page cannot be fetched and were skipped"
    )
    return oldest, oldest, reason
