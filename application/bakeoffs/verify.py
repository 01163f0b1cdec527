"""Re-check a switch verdict offline: recompute from an evidence bundle every figure it allows.

The bundle (``GET /v1/evals/{id}/evidence``) carries the run's ``results`` (counts and the
queue's printed rates and intervals), the frozen judge (``instrument.criterion_snapshot``:
TPR/TNR) and, when thresholds were given, the gate's verdict. From those ``recompute``
recomputes, with the same arithmetic the app uses everywhere (``diagnosis.stats``):

* comparison arms: the printed win rate (a tie half a win, failed pairs out of the
  denominator) and its Wilson 95 % interval, from wins/losses/ties;
* criterion models: the observed pass rate and its Wilson interval from the pass/fail counts,
  and the Rogan–Gladen corrected rate from the frozen judge's TPR/TNR; the corrected
  interval's ends mapped through the same correction (the contract does not state the queue's
  method, so a "differs" there says the queue used another one, not that the bundle lies);
* assertion pass rates from the per-model counts;
* each gate check: its ``actual`` from the recomputed intervals and its pass (``actual >=
  required``), and the verdict (every check passes).

What it cannot recompute it says, with why: per-sample outcomes need the content (not
included: the bundle's own reason is quoted), the corrected win rate needs the person's pair
labels (not in the bundle), a signature cannot be checked offline without the signer's key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from application.bakeoffs.recompute import (
    Recheck,
    assertion_rows,
    comparison_rows,
    criterion_rows,
    gate_rows,
)
from common.format import plural

__all__ = [
    "BundleError",
    "Recheck",
    "VerifyReport",
    "bundle_summary",
    "looks_like_bundle",
    "read_bundle",
    "verify_bundle",
]


@dataclass(frozen=True, slots=True)
class VerifyReport:
    run_id: str
    eval_kind: str
    rows: list[Recheck]

    @property
    def matches(self) -> int:
        return sum(r.status == "matches" for r in self.rows)

    @property
    def differs(self) -> int:
        return sum(r.status == "differs" for r in self.rows)

    @property
    def cannot(self) -> int:
        return sum(r.status == "cannot" for r in self.rows)

    def summary(self) -> str:
        return (
            f"run {self.run_id}: {self.matches} figures match, {self.differs} differ, "
            f"{self.cannot} cannot be recomputed from this bundle"
        )


class BundleError(ValueError):
    """The file is not an evidence bundle (said in one sentence)."""


def verify_bundle(bundle: Any) -> VerifyReport:
    """Every recomputable figure of ``bundle`` (a parsed evidence bundle), in order."""
    if not isinstance(bundle, Mapping) or "bundle_v" not in bundle or not isinstance(bundle.get("run"), Mapping):
        raise BundleError(
            "not an evidence bundle: no bundle_v and run (write one with `blah-tui bakeoff evidence ID -o FILE`)"
        )
    run = bundle["run"]
    results = bundle.get("results")
    if not isinstance(results, Mapping):
        raise BundleError("the bundle has no results: the run was not DONE when it was written")
    kind = str(run.get("eval_kind") or results.get("eval_kind") or "comparison")
    instrument = bundle.get("instrument") or {}
    snapshot = instrument.get("criterion_snapshot") or {}
    floors: dict[str, Any] = {}
    figures: dict[str, Any] = {}
    if kind == "criterion":
        rows, figures = criterion_rows(results, snapshot)
    else:
        rows, floors = comparison_rows(results)
    checked, assertion_rates = assertion_rows(results)
    rows += checked
    rows += gate_rows(bundle, floors, figures, assertion_rates)
    content = bundle.get("content") or {}
    if not content.get("included"):
        reason = content.get("reason") or "no reason given"
        rows.append(
            Recheck.impossible(
                "per-sample outcomes",
                None,
                f"content not included (the bundle says: {reason}); the counts are taken as stated",
            )
        )
    if kind != "criterion":
        rows.append(
            Recheck.impossible(
                "corrected win rate",
                None,
                "it rests on the person's pair labels, which an evidence bundle does not carry",
            )
        )
    if bundle.get("signature") is None:
        rows.append(Recheck.impossible("signature", None, "the bundle is unsigned"))
    else:
        rows.append(
            Recheck.impossible(
                "signature", "present", "a signature is checked against the signer's key, which is not offline"
            )
        )
    attestation = bundle.get("attestation") or {}
    if attestation.get("ok") is False:
        problems = attestation.get("problems") or []
        rows.append(
            Recheck.impossible(
                "attestation", False, f"the queue's own attestation reports {plural(len(problems), 'problem')}"
            )
        )
    return VerifyReport(run_id=str(run.get("id")), eval_kind=kind, rows=rows)


def _kind(bundle: Mapping[str, Any]) -> str:
    """The run's kind as people say it: a screening travels as a ``comparison`` with
    ``screening`` in its filters (or its samples read by similarity, ``sim``)."""
    run = bundle.get("run") or {}
    filters = run.get("sample_filters")
    filters = filters if isinstance(filters, Mapping) else {}
    lineage = (bundle.get("samples") or {}).get("lineage")
    if filters.get("screening") or (isinstance(lineage, list) and "sim" in lineage):
        return "screening"
    return str(run.get("eval_kind") or "comparison")


def bundle_summary(bundle: Mapping[str, Any]) -> list[str]:
    """What a person reads first about a bundle: whose run, signed or not, the queue's own
    attestation, what content is in it and the gate it was written with."""
    run = bundle.get("run") or {}
    said = [
        f"run {run.get('id')} ({_kind(bundle)}): {run.get('name') or ''}".rstrip(": "),
        f"written {bundle.get('generated_at') or 'at a time the bundle does not state'}",
    ]
    said.append("signed" if bundle.get("signature") is not None else "unsigned")
    attestation = bundle.get("attestation") or {}
    if attestation.get("ok") is True:
        rows = attestation.get("checked_rows")
        said.append(f"attestation ok ({plural(rows, 'row') if isinstance(rows, int) else f'{rows} rows'} checked)")
    elif attestation:
        problems = attestation.get("problems") or []
        kinds = ", ".join(str(p.get("kind")) for p in problems[:3] if isinstance(p, Mapping)) or "no detail"
        said.append(f"attestation NOT ok: {plural(len(problems), 'problem')} ({kinds})")
    else:
        said.append("no attestation in the bundle")
    content = bundle.get("content") or {}
    said.append(
        "content included"
        if content.get("included")
        else f"content not included: {content.get('reason') or 'no reason given'}"
    )
    gate = bundle.get("gate")
    if isinstance(gate, Mapping) and isinstance(gate.get("verdict"), Mapping):
        verdict = gate["verdict"]
        params = ", ".join(f"{k}={v}" for k, v in (gate.get("params") or {}).items())
        said.append(f"gate {'PASS' if verdict.get('pass') else 'FAIL'} with {params or 'no thresholds stated'}")
    else:
        said.append("no gate (written without thresholds)")
    return said


def read_bundle(path: str | Path) -> tuple[Mapping[str, Any], VerifyReport]:
    """Read and verify a bundle file; ``BundleError`` (a ValueError) when it is not one,
    ``OSError`` when it cannot be read."""
    import json

    with open(path, encoding="utf-8") as handle:
        try:
            bundle = json.load(handle)
        except ValueError as error:
            raise BundleError(f"not JSON: {error}") from None
    return bundle, verify_bundle(bundle)


def looks_like_bundle(path: str | Path, max_bytes: int = 64 * 1024 * 1024) -> bool:
    """Whether a file is an evidence bundle (one JSON object with ``bundle_v``) rather than a
    JSONL dump of calls (whose lines each hold a call, so the whole file is not one object)."""
    import json

    try:
        with open(path, "rb") as handle:
            if not handle.read(64).lstrip().startswith(b"{"):
                return False
            handle.seek(0)
            data = handle.read(max_bytes + 1)
    except OSError:
        return False
    if len(data) > max_bytes:
        return False
    try:
        document = json.loads(data)
    except ValueError:
        return False
    return isinstance(document, dict) and "bundle_v" in document
