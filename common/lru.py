"""One bounded least-recently-used mapping, for the caches and seen-id sets that must not grow."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar, overload

__all__ = ["BoundedLRU"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")


class BoundedLRU(Generic[K, V]):
    """A mapping of at most ``limit`` entries; storing one more drops the least recently used.

    ``get`` and ``[]`` count as a use (the entry becomes the newest); ``in`` and ``peek`` do
    not. Not thread-safe: callers that share one hold their own lock.
    """

    __slots__ = ("_data", "limit")

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        self.limit = limit
        self._data: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __getitem__(self, key: K) -> V:
        value = self._data[key]
        self._data.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        """Store (or replace) ``key`` as the newest entry, then drop the oldest beyond the limit."""
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.limit:
            self._data.popitem(last=False)

    def __delitem__(self, key: K) -> None:
        del self._data[key]

    @overload
    def get(self, key: K) -> V | None: ...
    @overload
    def get(self, key: K, default: D) -> V | D: ...
    def get(self, key: K, default: object = None) -> object:
        """The value of ``key`` (now the newest entry), or ``default``."""
        if key not in self._data:
            return default
        return self[key]

    def peek(self, key: K, default: D | None = None) -> V | D | None:
        """The value of ``key`` without making it the newest."""
        return self._data.get(key, default)

    def pop(self, key: K, default: D | None = None) -> V | D | None:
        return self._data.pop(key, default)

    def add(self: BoundedLRU[K, None], key: K) -> bool:
        """Use as a bounded set: remember ``key``; False when it was already there (then
        it is left where it was, so a replayed id does not keep itself alive)."""
        if key in self._data:
            return False
        self[key] = None
        return True

    def clear(self) -> None:
        self._data.clear()

    def keys(self) -> list[K]:
        """Oldest first."""
        return list(self._data)
