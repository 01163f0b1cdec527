"""Export several evaluations at once as one JSONL file, with a receipt (no Textual).

Blobfish makes datasets through Studio: 1-50 source ids, at most 500 records and 2 MiB per
export, and a receipt with the record count, byte count and SHA-256 (the SDK evaluations
page). The contract documents no HTTP route for it, so the app cannot ask the platform for a
dataset: it writes the evaluations' traces itself, in the platform's JSONL format (one
``blobfish.trace.v1`` per line, as `blah-tui blobfish export` saves them), and its receipt is
computed from the file it wrote: lines, bytes and the SHA-256 of those bytes, read back from
disk after the rename. It says so wherever it is shown; it is not a platform receipt.

The selection follows the page's limit on source ids (1-50: more is refused before anything is
written). The record and byte limits are Studio's for one dataset; a file over them is still
written (it is the person's own export) and its receipt says Studio would not take it whole.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from api_client.blobfish.shapes import DATASET_RECEIPT_MEMBERS
from application.evaluations.evidence import Evaluation
from application.evaluations.export import export_lines, write_jsonl

__all__ = [
    "MAX_BYTES",
    "MAX_RECORDS",
    "MAX_SOURCES",
    "ExportReceipt",
    "SelectionRefused",
    "check_selection",
    "dataset_export_path",
    "receipt_of_file",
    "unique_ids",
    "write_evaluations",
]

MAX_SOURCES = 50
"""Source ids one export takes (documented: "Select 1-50 source IDs")."""
MAX_RECORDS = 500
"""Records one Studio dataset holds (documented)."""
MAX_BYTES = 2 * 1024 * 1024
"""Bytes one Studio dataset holds (documented: 2 MiB)."""

COMPUTED_BY = "computed by blah-tui from the file it wrote: Blobfish has no HTTP route for dataset export"


class SelectionRefused(ValueError):
    """The selection breaks the documented 1-50 source ids; nothing was written."""


def check_selection(count: int) -> None:
    """Refuse a selection of 0 or more than 50 evaluations, naming the limit."""
    if count < 1:
        raise SelectionRefused("no evaluation is selected: an export takes 1-50 evaluations")
    if count > MAX_SOURCES:
        raise SelectionRefused(
            f"{count} evaluations are selected: an export takes 1-{MAX_SOURCES} "
            f"(Blobfish's limit per export); leave out {count - MAX_SOURCES}"
        )


def unique_ids(ids: Iterable[str]) -> list[str]:
    """``ids`` in their order, each once (an evaluation exported twice would repeat its records)."""
    return list(dict.fromkeys(ids))


@dataclass(frozen=True)
class ExportReceipt:
    """The file an export wrote, measured on disk: ``record_count`` lines (one trace each),
    ``byte_count`` bytes, ``sha256`` of those bytes (hex)."""

    path: Path
    sources: int
    record_count: int
    byte_count: int
    sha256: str

    def over_limits(self) -> str | None:
        """Which of Studio's per-dataset limits the file passes, or None."""
        over = []
        if self.record_count > MAX_RECORDS:
            over.append(f"{MAX_RECORDS} records")
        if self.byte_count > MAX_BYTES:
            over.append("2 MiB")
        return " and ".join(over) or None

    def sentence(self) -> str:
        """The receipt in one line: counts, checksum and where they come from."""
        records = f"{self.record_count:,} record{'s' if self.record_count != 1 else ''}"
        text = f"{records}, {self.byte_count:,} bytes, SHA-256 {self.sha256} ({COMPUTED_BY})"
        over = self.over_limits()
        if over:
            text += f"; over Studio's {over} per dataset: Studio would need it split"
        return text

    def to_json(self) -> dict[str, Any]:
        """The receipt's members under the names the contract assumes for Studio's
        (``record_count``, ``byte_count``, ``sha256``), plus where it is and who computed it;
        no ``dataset_id``: no dataset exists on the platform."""
        measured = {name: getattr(self, name) for name in DATASET_RECEIPT_MEMBERS if name != "dataset_id"}
        return {"path": str(self.path), "sources": self.sources, **measured, "computed_by": COMPUTED_BY}


def receipt_of_file(path: Path, sources: int) -> ExportReceipt:
    """Measure the file as it is on disk: its lines, bytes and SHA-256."""
    digest = hashlib.sha256()
    lines = size = 0
    with Path(path).open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
            lines += chunk.count(b"\n")
            size += len(chunk)
    return ExportReceipt(Path(path), sources, lines, size, digest.hexdigest())


def write_evaluations(path: Path, evaluations: Sequence[Evaluation]) -> ExportReceipt:
    """Every trace of each evaluation, one evaluation after another in the order given, into
    ``path`` (atomically), and the receipt of the file written. ``SelectionRefused`` (nothing
    written) outside 1-50 evaluations."""
    check_selection(len(evaluations))
    write_jsonl(path, (line for evaluation in evaluations for line in export_lines(evaluation)))
    return receipt_of_file(path, len(evaluations))


_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def dataset_export_path(data_dir: Path, count: int, now: datetime | None = None) -> Path:
    """``<data>/exports/blobfish-<count>-evaluations-<UTC time>.jsonl``."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return data_dir / "exports" / _SAFE.sub("_", f"blobfish-{count}-evaluations-{stamp}.jsonl")
