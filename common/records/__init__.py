"""The product's own records of what a model did, defined once, in no platform's vocabulary.

- ``Call`` (``call``): one completion a model gave: its prompt or chat turns, its reply or
  error, its tokens, and what it belonged to. A blah.dev log, a Blobfish rollout step and a
  bake-off's sample are each read as one.
- ``Rollout``, ``RolloutStep``, ``ToolCall``, ``Grade`` (``rollout``): an agent's run of
  steps and tool calls, and the grader's verdict; ``step_call`` reads a step as a ``Call``
  with the one id every screen, export, search and diagnosis uses (``step_call_id``).
- ``BakeoffAnswer`` (``answer``): one model's answer to one bake-off sample; ``answer_call``
  reads it as a ``Call``.

Every type is frozen and slotted. A value the platform did not give is ``None`` (shown as
"not given"), never 0 or ``""``; an empty tuple means the record says "none".

Each platform maps its wire shape to these in one function at its client's edge
(``api_client.blahdev.records.call_from_log_entry``, ``api_client.blobfish.shapes_evidence.parse_rollout``,
``api_client.errorbar.records.answer_from_sample``); ``diagnosis``, the Inspector, the exports and
``report`` read only these. Pure standard library: any layer may import it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from common.records.call import CALL_FIELDS, NO_TIME, Call, ChatTurn, order_key, time_of

if TYPE_CHECKING:
    from common.records.answer import BakeoffAnswer, answer_call
    from common.records.rollout import (
        Assertion,
        Grade,
        Rollout,
        RolloutStep,
        ToolCall,
        TrainingSample,
        step_call,
        step_call_id,
        step_number,
    )


__all__ = [
    "CALL_FIELDS",
    "NO_TIME",
    "Assertion",
    "BakeoffAnswer",
    "Call",
    "ChatTurn",
    "Grade",
    "Rollout",
    "RolloutStep",
    "ToolCall",
    "TrainingSample",
    "answer_call",
    "order_key",
    "step_call",
    "step_call_id",
    "step_number",
    "time_of",
]

_ANSWER = frozenset({"BakeoffAnswer", "answer_call"})
_LAZY = {name: "answer" if name in _ANSWER else "rollout" for name in __all__ if name not in globals()}
"""Names whose module is imported when first asked for (every name of ``__all__`` not imported above):
the app's start (the Logs screen over an archive) reads only ``Call``, and the rollout and answer types'
dataclasses cost ~5-12 ms of CPU to build (``python -X importtime``, load 3-13)."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"common.records.{module}"), name)
    globals()[name] = value
    return value
