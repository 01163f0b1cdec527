"""A finished run's evidence bundle (``e`` in the bake-off view): its summary in words, and
``w`` writes it, exactly as the queue sent it, to a new file under the data directory
(``<data>/evidence/<run>-<UTC time>.json``; never over an existing file). ``c`` asks again
with the content (the full prompts and answers), which the queue includes only when the
workspace stores it: the summary then says why it is missing.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.binding import Binding

from api_client.errors import BlahError
from application.bakeoffs.evidence import EvidenceSummary, evidence_error_sentence, summarize, write_bundle
from common.safe_strings import one_line
from tui import bindings
from tui.base_screen import describe_error
from tui.platform_work import platform_work
from tui.text_page import TextPageScreen

if TYPE_CHECKING:
    from api_client.errorbar.client import ErrorbarClient, EvidenceBundle

__all__ = ["EvidenceScreen", "default_evidence_path", "evidence_block"]

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def default_evidence_path(data_dir: Path, run_id: str, now: datetime | None = None) -> Path:
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return data_dir / "evidence" / f"{_SAFE.sub('_', run_id).strip('._')[:60] or 'run'}-{stamp}.json"


def evidence_block(run_id: str, summary: EvidenceSummary, size: int, thresholds: Mapping[str, float]) -> Text:
    text = Text(f"Evidence bundle of {one_line(run_id, 40)}", style="bold")
    text.append(f" · {size:,} bytes as the queue sent them\n\n")
    text.append(
        one_line(summary.signed, 200) + "\n", style="green" if summary.signed.startswith("signed") else "yellow"
    )
    text.append(
        one_line(summary.attestation, 200) + "\n",
        style="yellow" if summary.attestation_ok is None else "green" if summary.attestation_ok else "bold red",
    )
    for problem in summary.problems:
        text.append(f"  {one_line(problem, 300)}\n", style="red")
    text.append(one_line(summary.content, 300) + "\n")
    text.append(one_line(summary.samples, 200) + "\n")
    asked = ", ".join(f"{k} {v:.2f}" for k, v in thresholds.items())
    if summary.gate is None:
        text.append(f"gate: none in the bundle (asked with {asked or 'no threshold'})\n", style="dim")
    else:
        text.append(one_line(summary.gate, 600) + "\n", style="green" if summary.gate_pass else "red")
    text.append("\nx writes the bundle to a file · c asks again with the content · escape back", style="dim")
    return text


class EvidenceScreen(TextPageScreen):
    SCREEN_TITLE = "Evidence"
    PAGE = "evidence"
    LOADING = "loading the evidence bundle…"
    BINDINGS = [
        bindings.back("evidence"),
        bindings.export("evidence", "Write to a file"),
        Binding("c", "with_content", "With content", id="evidence.content"),
    ]

    def __init__(self, run_id: str, thresholds: Mapping[str, float]) -> None:
        super().__init__()
        self.run_id = run_id
        self.thresholds = dict(thresholds)
        self.with_content = False
        self.bundle: EvidenceBundle | None = None
        self.written: Path | None = None

    def on_mount(self) -> None:
        self.load()

    @platform_work("errorbar", exclusive=True, group="evidence.load")
    async def load(self, client: ErrorbarClient) -> None:
        try:
            self.bundle = await client.evidence(self.run_id, self.thresholds, with_content=self.with_content)
        except BlahError as error:
            sentence = (
                evidence_error_sentence(error, self.run_id) if error.status in (404, 412) else describe_error(error)
            )
            self.draw(Text(one_line(sentence, 400), style="red"))
            return
        summary = summarize(self.bundle.evidence, with_content_asked=self.with_content)
        self.draw(evidence_block(self.run_id, summary, len(self.bundle.raw), self.thresholds))

    def action_with_content(self) -> None:
        self.with_content = True
        self.load()

    def action_export(self) -> None:
        if self.bundle is None:
            self.notify("the bundle has not arrived yet", markup=False)
            return
        self.export(self.bundle.raw)

    @work(exclusive=True, group="evidence.export", exit_on_error=False)
    async def export(self, raw: bytes) -> None:
        from application.session.paths import data_dir

        target = default_evidence_path(data_dir(), self.run_id)
        try:
            await asyncio.to_thread(target.parent.mkdir, parents=True, exist_ok=True)
            if target.exists():
                raise FileExistsError(f"{target} already exists")
            written = await asyncio.to_thread(write_bundle, target, raw)
        except OSError as error:
            self.notify(one_line(str(error), 300), title="Export failed", severity="error", markup=False)
            return
        self.written = written
        self.notify(f"evidence written ({len(raw):,} bytes): {written}", title="Exported", markup=False)
