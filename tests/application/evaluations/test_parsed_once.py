"""Parse at the edge, once: a Blobfish rollout (and a benchmark task, and a bake-off's samples and
``pairwise``) is parsed by its client into the type the app reads (the product's own
``common.records`` types), and that object travels on: no model dumped back to JSON and read
again, no second rollout type. The first test fails if a dump-and-reparse comes back in the
modules a rollout, a task or a sample flows through; the others follow one fetched
evaluation, over real HTTP, to the screens' ready data and its diagnosis."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import api_client.blobfish.client as blobfish_client
from api_client.blobfish.shapes import Summary
from api_client.blobfish.shapes_evidence import Evaluation, Rollout, RolloutStep, parse_evaluation
from application.evaluations.diagnosed import list_summaries, read_diagnosed
from application.evaluations.source import ClientSource
from application.session.context import AppContext
from cli.app.launch import attach_blobfish
from simulator.blobfish.server import BlobfishServer

ROOT = Path(__file__).resolve().parents[3]

FLOWS = [
    *sorted((ROOT / "application" / "evaluations").glob("*.py")),
    *sorted((ROOT / "tui" / "screens" / "evaluations").glob("*.py")),
    ROOT / "application" / "bakeoffs" / "readings.py",
    ROOT / "application" / "bakeoffs" / "samples.py",
    ROOT / "application" / "runs" / "bench" / "task_steps.py",
    ROOT / "tui" / "screens" / "bakeoffs" / "screen.py",
    ROOT / "diagnosis" / "rollouts.py",
    ROOT / "common" / "records" / "rollout.py",
]
"""The modules a parsed rollout, benchmark task or bake-off sample flows through, past its client."""

REPARSE_CALLS = {
    "model_dump",
    "model_dump_json",
    "to_json",
    "as_json",
    "model_validate",
    "model_validate_json",
    "parse_evaluation",
    "parse_summary",
    "loads",
}
"""Calls that dump a parsed answer back to JSON, or read JSON into a model again."""

FILE_EDGES = {("dump_lines.py", "parse_rollout")}
"""Where a rollout IS read from JSON, because a file is the edge: `blah-tui open` of an export."""


def _calls(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            found.append((node.lineno, name))
    return found


def test_no_dump_and_reparse_where_a_rollout_a_task_or_a_sample_flows() -> None:
    assert all(path.is_file() for path in FLOWS)
    reparses = [
        f"{path.relative_to(ROOT)}:{line} {name}()"
        for path in FLOWS
        for line, name in _calls(path)
        if name in REPARSE_CALLS or (name == "parse_rollout" and (path.name, name) not in FILE_EDGES)
    ]
    assert reparses == []


ROLLOUT_TYPES = {"Rollout", "RolloutStep", "ToolCall", "Grade", "Assertion", "TrainingSample"}


def test_the_rollout_types_are_defined_once_in_common_records() -> None:
    """A rollout, its steps, tool calls and grade are the product's own types, defined in
    ``common.records.rollout`` and nowhere else in the product (the client parses into them,
    diagnosis and the screens read them): no second ``ToolCall``, no copy, no Protocol twin."""
    defined: dict[str, list[str]] = {}
    for package in ("api_client", "application", "common", "diagnosis", "tui", "cli", "widgets"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ClassDef) and node.name in ROLLOUT_TYPES:
                    defined.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    assert defined == {name: ["common/records/rollout.py"] for name in ROLLOUT_TYPES}


@pytest.fixture(scope="module")
def bf() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=7, live=False) as server:
        yield server


async def test_a_fetched_evaluation_is_parsed_once_and_the_same_objects_reach_diagnosis(
    bf: BlobfishServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    parses: list[str] = []

    def counted(body: dict[str, object]) -> Evaluation:
        parses.append(str(body.get("evaluation_id")))
        return parse_evaluation(body)

    monkeypatch.setattr(blobfish_client, "parse_evaluation", counted)
    source = attach_blobfish(AppContext(model_id="m"), bf.base_url, bf.account_key).blobfish
    assert isinstance(source, ClientSource)
    try:
        summaries = await list_summaries(source)
        assert summaries and all(type(s) is Summary for s in summaries)
        first = summaries[0].evaluation_id
        ready = await read_diagnosed(source, first)
    finally:
        await source.client.aclose()
    assert parses == [first]  # the detail's body was read into an Evaluation once, by the client
    evaluation = ready.evaluation
    assert type(evaluation) is Evaluation and evaluation.rollouts
    assert all(type(r) is Rollout and all(type(s) is RolloutStep for s in r.steps) for r in evaluation.rollouts)
    # diagnosis read those very rollouts: no copy into a type of its own
    assert [d.rollout for d in ready.diagnosis.rollouts] == list(evaluation.rollouts)
    assert all(d.rollout is r for d, r in zip(ready.diagnosis.rollouts, evaluation.rollouts, strict=True))
    # what the platform sent is kept as sent, for --json and the export (nothing re-serialised)
    stored = bf.store.get(bf.store.account, first)
    assert stored is not None and evaluation.raw["envelope"] == stored["envelope"]
    assert list(evaluation.traces) == stored["envelope"]["traces"]
