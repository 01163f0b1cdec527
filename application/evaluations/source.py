"""Where the Evaluations screens read Blobfish evaluations from.

``EvaluationSource`` is what the screens need of a Blobfish client: the list (every page,
summaries) and one evaluation's detail (Summary + ``envelope``), as JSON objects. The
client (``api_client.blobfish``) satisfies it through ``ClientSource``; tests may hand in
any object with these two coroutines. One place wires it into the session:
``AppContext.blobfish``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

__all__ = ["ClientSource", "EvaluationSource", "as_json"]

Json = Mapping[str, Any]


@runtime_checkable
class EvaluationSource(Protocol):
    """Read-only access to one account's SDK evaluations on one platform."""

    platform: str

    async def list_evaluations(self) -> list[Json]:
        """Every evaluation's summary, newest first, each once."""
        ...

    async def get_evaluation(self, evaluation_id: str) -> Json:
        """One evaluation's detail: its summary and the (redacted) ``envelope``."""
        ...


def as_json(value: Any) -> Any:
    """A client's answer as plain JSON: what the platform sent (``to_json``), else a pydantic
    model dumped with its wire names, members never set left out (absent stays absent)."""
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json", by_alias=True, exclude_unset=True)
    return value


class ClientSource:
    """A Blobfish client seen as an ``EvaluationSource``: calls its list and detail reads
    (whatever they are named in this version) and hands their answers on as JSON."""

    platform = "blobfish"

    def __init__(self, client: Any) -> None:
        self.client = client

    async def list_evaluations(self) -> list[Json]:
        answer = await self.client.list_evaluations()
        items = answer.get("evaluations", []) if isinstance(answer, Mapping) else answer
        return [as_json(item) for item in items]

    async def get_evaluation(self, evaluation_id: str) -> Json:
        return as_json(await self.client.get_evaluation(evaluation_id))  # type: ignore[no-any-return]
