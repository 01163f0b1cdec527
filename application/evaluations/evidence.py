"""A Blobfish evaluation's evidence, as the application reads it: the types the client parses
the detail into, once (``api_client.blobfish.shapes_evidence``), named here for the app.

There is no second reading: ``BlobfishClient.get_evaluation`` answers an ``Evaluation`` (its
``Summary``, taskset, rollouts with their steps, tool calls and grades, the traces as sent), the
screens, exports and diagnosis read that same object. ``EvaluationSummary`` is the list's row,
the client's ``Summary`` as the platform sent it.
"""

from __future__ import annotations

from api_client.blobfish.shapes import Summary as EvaluationSummary
from api_client.blobfish.shapes_evidence import (
    PLATFORM,
    Assertion,
    Evaluation,
    Grade,
    Rollout,
    RolloutStep,
    ToolCall,
    TrainingSample,
    result_failed,
)

__all__ = [
    "PLATFORM",
    "Assertion",
    "Evaluation",
    "EvaluationSummary",
    "Grade",
    "Rollout",
    "RolloutStep",
    "ToolCall",
    "TrainingSample",
    "result_failed",
]
