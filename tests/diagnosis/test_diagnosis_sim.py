"""Diagnosis on the local platform's seeded world: the real client, the real JSON.

The person's small model is chatml-trained and the chatroom sends it llama2 prompts: the
diagnosis must see a format problem there, and must find failures the platform's simpler
/diagnose misses (whitespace-only replies, leaks).
"""

from __future__ import annotations

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import LogEntry
from diagnosis import (
    build_report,
    kinds,
    render_json,
    render_markdown,
    resolve_trained_template,
    summarize,
)
from diagnosis.suggest import FIX_FORMAT
from simulator.server import SimulatorServer


async def _recent_logs(client: BlahClient, model_id: str, pages: int = 4) -> list[LogEntry]:
    entries: list[LogEntry] = []
    before: int | None = None
    for _ in range(pages):
        page = await client.get_logs(model_id, before=before, limit=500)
        entries.extend(page.logs)
        if len(page.logs) < 500 or page.next_before is None:
            break
        before = page.next_before
    return list({e.id: e for e in entries}.values())


async def test_chatroom_failures_read_as_a_format_problem(client: BlahClient, sim: SimulatorServer) -> None:
    model_id = sim.person_model_id
    model = await client.get_model(model_id)
    trained, source = resolve_trained_template(None, model, None)
    assert (trained, source) == ("chatml", "platform")
    entries = await _recent_logs(client, model_id)
    assert len(entries) >= 500

    summary = summarize(entries, trained_template=trained, health=await client.health(model_id))
    chatroom = [g for g in summary.groups if g.dimension == "source" and g.value == "chatroom"]
    evals = [g for g in summary.groups if g.dimension == "source" and g.value == "eval"]
    assert chatroom and evals
    room, ev = chatroom[0], evals[0]
    assert room.kinds[kinds.TEMPLATE_MISMATCH] >= room.failures * 0.9  # nearly every chatroom failure is mismatched
    assert ev.kinds[kinds.TEMPLATE_MISMATCH] == 0  # eval prompts use the right template
    assert room.failure_rate is not None and ev.failure_rate is not None and room.failure_rate > ev.failure_rate

    report = build_report(
        model=model,
        entries=entries,
        diagnose=await client.diagnose(model_id),
        results=await client.list_results(model_id),
        health=await client.health(model_id),
        trained_template=trained,
        template_source=source,
    )
    assert any(s.action == FIX_FORMAT for s in report.suggestions)
    assert report.agreements is not None
    empty = {a.kind: a for a in report.agreements}[kinds.EMPTY]
    assert empty.platform_count is not None
    md = render_markdown(report)
    assert "\x1b" not in md and "Fix the prompt format" in md
    assert render_json(report).isascii()
