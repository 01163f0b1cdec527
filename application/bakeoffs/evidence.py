"""A finished run's evidence bundle (``GET /v1/evals/{id}/evidence``, contract 3.8): its
summary in words, written to a file exactly as the queue sent it.

The summary says what an auditor asks first: is it signed, does the attestation chain check
out (or which rows are wrong), was the content included (and if not, the queue's reason),
and, when thresholds were given, the gate's verdict inside the bundle. The file holds the
body's exact bytes (a signature covers them), written atomically.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from api_client.errors import BlahError
from application.bakeoffs.words import lineage_text
from common.atomic_write import write_atomic
from common.format import plural

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["EvidenceSummary", "evidence_error_sentence", "summarize", "write_bundle"]

NOT_FINISHED = "not finished yet: the queue keeps evidence only for a DONE run; wait for it to finish (bakeoff watch)"


@dataclass(frozen=True)
class EvidenceSummary:
    run_id: str | None
    signed: str  # a sentence
    attestation: str
    attestation_ok: bool | None
    problems: tuple[str, ...]
    content: str
    gate: str | None  # None: no threshold was given
    gate_pass: bool | None
    samples: str


def _num(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "—" if value is None else str(value)
    return f"{value:.3f}"


def summarize(evidence: assumed.Evidence, *, with_content_asked: bool = False) -> EvidenceSummary:
    run = evidence.run or {}
    if evidence.signature:
        signed = "signed by the queue"
    elif evidence.unsigned or evidence.signature is None:
        signed = "unsigned: the queue did not sign this bundle (its figures are not tamper-evident on their own)"
    else:
        signed = "signature: not sent"
    att = evidence.attestation
    problems: tuple[str, ...] = ()
    if att is None:
        attestation, ok = "attestation: not sent", None
    else:
        ok = att.ok
        problems = tuple(
            ": ".join(
                part for part in (f"row {p.seq}" if p.seq is not None else "", p.kind or "", p.detail or "") if part
            )
            or "a problem (not described)"
            for p in att.problems
        )
        rows = (
            f"{plural(att.checked_rows, 'row')} checked" if att.checked_rows is not None else "rows checked: not sent"
        )
        if ok is True:
            attestation = f"attestation ok ({rows})"
        elif ok is False:
            attestation = f"attestation FAILED ({rows}): {plural(len(problems), 'problem')}"
        else:
            attestation = f"attestation: the queue did not say whether it holds ({rows})"
    content = evidence.content
    if content is None or content.included is None:
        what = "content: not said whether the answers' full text is included"
    elif content.included:
        what = "content included: the prompts and answers in full"
    else:
        why = content.reason or "the queue gave no reason"
        asked = "asked for, but " if with_content_asked else "not asked for (--with-content / c adds it) and "
        what = f"content {asked}not included: {why}"
    gate, gate_pass = None, None
    if evidence.gate is not None:
        verdict: dict[str, Any] = evidence.gate.verdict or {}
        gate_pass = verdict.get("pass") if isinstance(verdict.get("pass"), bool) else None
        params = ", ".join(f"{k}={v}" for k, v in (evidence.gate.params or {}).items())
        word = {True: "PASS", False: "FAIL", None: "no verdict sent"}[gate_pass]
        failing = [c for c in verdict.get("checks") or [] if isinstance(c, dict) and c.get("pass") is False]
        detail = "; ".join(
            f"{c.get('check')} {c.get('model')}: required {_num(c.get('required'))}, "
            f"lower bound {_num(c.get('actual'))}"
            for c in failing[:4]
        )
        gate = f"gate {word} ({params})" + (f": {detail}" if detail else "")
    samples = evidence.samples or {}
    count = samples.get("count")
    lineage = samples.get("lineage")
    sample_line = (
        plural(count, "sample") if isinstance(count, int) else f"{count if count is not None else '—'} samples"
    ) + (f" · read as: {lineage_text(lineage)}" if isinstance(lineage, list) and lineage else "")
    return EvidenceSummary(run.get("id"), signed, attestation, ok, problems, what, gate, gate_pass, sample_line)


def evidence_error_sentence(error: BlahError, run_id: str, status: str | None = None) -> str:
    """412 and 404 in words (the others keep their own); ``status``: the run's, when read."""
    if error.status == 412:
        if status in ("ERROR", "CANCELLED"):
            return f"{run_id} ended {status}: the queue keeps evidence only for a run that finished DONE"
        return f"{run_id} is {NOT_FINISHED}"
    if error.status == 404:
        return (
            f"there is no run {run_id} in this workspace: it was deleted (deleting removes its samples, "
            "verdicts and evidence) or never existed"
        )
    return error.message


def write_bundle(path: str | os.PathLike[str], raw: bytes) -> Path:
    """Write ``raw`` as it is (atomically: a reader never sees half a bundle)."""
    target = Path(path)
    write_atomic(target, raw)
    return target
