"""One call, diagnosed for the Playground (application/diagnosis/call_findings.py)."""

from __future__ import annotations

from api_client.blahdev.shapes import LogEntry
from api_client.errors import NotFoundError
from application.diagnosis.call_findings import read_call_findings


class Logs:
    def __init__(self, entry: LogEntry | None) -> None:
        self.entry = entry
        self.asked: list[str] = []

    async def get_log(self, log_id: str) -> LogEntry:
        self.asked.append(log_id)
        if self.entry is None:
            raise NotFoundError("no such log", status=404)
        return self.entry


async def chatml() -> tuple[str | None, str]:
    return "chatml", "config"


async def test_a_logged_call_is_diagnosed_with_the_trained_template_named() -> None:
    entry = LogEntry(id="l1", created_at=1, prompt="2+2?", response="", finish_reason="stop")
    found = await read_call_findings(Logs(entry), "l1", chatml)
    assert found.log == entry and found.findings is not None
    assert "empty" in {f.kind for f in found.findings}
    assert found.note is not None and found.note.startswith("trained template: ") and "(config)" in found.note


async def test_a_log_that_cannot_be_read_is_said_and_nothing_is_diagnosed() -> None:
    logs = Logs(None)
    found = await read_call_findings(logs, "gone", chatml)
    assert logs.asked == ["gone"]
    assert found.log is None and found.findings is None
    assert found.note is not None and found.note.startswith("couldn't load the log: ")


async def test_no_log_id_or_offline_reads_nothing() -> None:
    logs = Logs(None)
    assert await read_call_findings(logs, None, chatml) == await read_call_findings(None, "l1", chatml)
    assert logs.asked == []
