"""Where the Evaluations screens read Blobfish evaluations from.

``EvaluationSource`` is what the screens need of a Blobfish client: the list (every page, each
evaluation's ``Summary``) and one evaluation read whole (an ``Evaluation``), both parsed once by
the client (``api_client.blobfish``) and handed on as they are: nothing here dumps a model back
to JSON or reads one again. ``ClientSource`` wraps the session's client; tests may hand in any
object with these two coroutines (parsing their JSON with the client's own
``Summary.model_validate`` and ``parse_evaluation``). One place wires it into the session:
``AppContext.blobfish``.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from application.evaluations.evidence import Evaluation, EvaluationSummary

__all__ = ["ClientSource", "EvaluationSource"]


@runtime_checkable
class EvaluationSource(Protocol):
    """Read-only access to one account's SDK evaluations on one platform."""

    platform: str

    async def list_evaluations(self) -> list[EvaluationSummary]:
        """Every evaluation's summary, newest first, each once."""
        ...

    async def get_evaluation(self, evaluation_id: str) -> Evaluation:
        """One evaluation, whole: its summary, rollouts and traces."""
        ...


class ClientSource:
    """A Blobfish client seen as an ``EvaluationSource``: its answers, parsed once by the
    client, handed on as they are."""

    platform = "blobfish"

    def __init__(self, client: Any) -> None:
        self.client = client

    async def list_evaluations(self) -> list[EvaluationSummary]:
        return await self.client.list_evaluations()

    async def get_evaluation(self, evaluation_id: str) -> Evaluation:
        return await self.client.get_evaluation(evaluation_id)
