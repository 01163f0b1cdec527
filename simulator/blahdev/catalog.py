"""The fixed catalogue of the seeded world: models and evals, read from ``catalog.toml``.

As on the live platform, an eval is ONE prompt: a run asks every model every eval once, so
``total_evals`` counts evals and a run has one result per (eval, model). Only the dynamic
parts (logs, scores, chat, timings) depend on the seed; the catalogue is the same in every
world so that ids are stable across runs and seeds.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

CATALOG_FILE = "catalog.toml"


@dataclass(frozen=True)
class ModelSpec:
    id: str
    name: str
    description: str
    inference_uri: str
    chat_template: str | None
    is_official: bool
    submitted_by: str
    skill: float
    """Probability of a correct answer on an eval for peers (the small model uses small_model)."""


@dataclass(frozen=True)
class EvalSpec:
    """One eval: its wire fields plus what the simulator needs to answer and judge it."""

    id: str
    name: str
    description: str
    subject: str
    instruction_type: str
    eval_type: str
    prompt: str
    expected_behavior: str
    criteria: dict[str, str]
    max_tokens: int
    """The token limit the platform's calls for this eval run under (not on the wire)."""
    reference: str
    """What a right answer says (not on the wire)."""
    wrong: str
    """The plausible wrong answer simulated models give (not on the wire)."""
    history: tuple[tuple[str, str], ...] = ()
    """Earlier (role, content) turns sent before ``prompt``, for conversation evals."""

    @property
    def eval_criteria(self) -> str:
        return json.dumps({"criteria": self.criteria}, sort_keys=True)


def _model(row: dict[str, Any]) -> ModelSpec:
    return ModelSpec(
        id=row["id"],
        name=row["name"],
        description=row["description"],
        inference_uri=row["inference_uri"],
        chat_template=row.get("chat_template"),
        is_official=row["is_official"],
        submitted_by=row["submitted_by"],
        skill=float(row["skill"]),
    )


def _eval(row: dict[str, Any]) -> EvalSpec:
    history = tuple((str(role), str(content)) for role, content in row.get("history", ()))
    return EvalSpec(
        id=row["id"],
        name=row["name"],
        description=row["description"],
        subject=row["subject"],
        instruction_type=row["instruction_type"],
        eval_type=row["eval_type"],
        prompt=row["prompt"],
        expected_behavior=row["expected_behavior"],
        criteria=dict(row["criteria"]),
        max_tokens=int(row["max_tokens"]),
        reference=row["reference"],
        wrong=row["wrong"],
        history=history,
    )


def load_catalog() -> tuple[str, tuple[ModelSpec, ...], tuple[EvalSpec, ...]]:
    """The person's model id, the models and the evals of ``catalog.toml`` (package data), in file order."""
    data = tomllib.loads(resources.files("simulator.blahdev").joinpath(CATALOG_FILE).read_text(encoding="utf-8"))
    return data["person_model"], tuple(_model(r) for r in data["models"]), tuple(_eval(r) for r in data["evals"])


PERSON_MODEL_ID, MODELS, EVALS = load_catalog()
EVALS_BY_ID: dict[str, EvalSpec] = {e.id: e for e in EVALS}
