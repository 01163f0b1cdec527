"""Offset paging (``limit``, ``offset``, ``next_offset``) that ends, and gives each item once.

A list read by offsets shifts under the reader when items are added at its head while it
pages: the item at a page boundary comes again at the top of the next page. Items that
existed at the start are never skipped (they only move towards the end), so dropping the ids
already seen gives each exactly once. A ``next_offset`` that does not move forward would ask
for the same page for ever: it is refused.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from api_client.errors import InvalidResponseError

T = TypeVar("T")


@dataclass(frozen=True)
class OffsetPage(Generic[T]):
    """One page: its items and the offset of the next page (None on the last one)."""

    items: list[T]
    next_offset: int | None


FetchPage = Callable[[int, int], Awaitable[OffsetPage[T]]]
"""``fetch(offset, limit)`` -> that page."""


async def iter_offset_pages(
    fetch: FetchPage[T], key: Callable[[T], Hashable], *, limit: int, path: str = ""
) -> AsyncIterator[T]:
    """Every item of the list, following ``next_offset`` until it is null, each ``key`` once.

    ``InvalidResponseError`` when the server names a ``next_offset`` that is not past the
    offset it just served (``path`` says where, in the error)."""
    seen: set[Hashable] = set()
    offset = 0
    while True:
        page = await fetch(offset, limit)
        for item in page.items:
            item_key = key(item)
            if item_key in seen:
                continue
            seen.add(item_key)
            yield item
        following = page.next_offset
        if following is None or not page.items:
            return
        if following <= offset:
            raise InvalidResponseError(
                f"the server's next_offset {following} does not move past offset {offset}; "
                "stopped paging rather than read the same page again",
                excerpt=None,
                method="GET",
                path=path,
            )
        offset = following
