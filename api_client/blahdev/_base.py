"""What every endpoint group shares: the request machinery and two short helpers.

``BlahClient`` is assembled from endpoint groups (mixins over this base) so that each
module stays small; they all share one :class:`~api_client.transport.http.HttpCore`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from api_client.transport.http import HttpCore, Params, Sleep

T = TypeVar("T")


def id_list(values: Sequence[str], what: str) -> list[str]:
    """A list of id strings; a bare string (a classic slip) is refused, not split."""
    if isinstance(values, (str, bytes)) or not all(isinstance(v, str) for v in values):
        raise TypeError(f"{what} must be a list of id strings")
    return list(values)


class EndpointBase:
    _http: HttpCore
    _sleep: Sleep

    async def _get(self, path: str, parse: Callable[[Any], T], params: Params = None) -> T:
        return await self._http.request_json("GET", path, parse, params=params)

    async def _post(
        self,
        path: str,
        parse: Callable[[Any], T],
        body: Any = None,
        *,
        deadline: float | None = None,
    ) -> T:
        return await self._http.request_json("POST", path, parse, json=body, deadline=deadline)
