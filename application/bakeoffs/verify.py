"""Re-check a switch verdict offline: recompute from an evidence bundle every figure it allows.

The bundle (``GET /v1/evals/{id}/evidence``) carries the run's ``results`` (counts and the
queue's printed rates and intervals), the frozen judge (``instrument.criterion_snapshot``:
TPR/TNR) and, when thresholds were given, the gate's verdict. From those this module
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

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from application.bakeoffs.gate import CHECK_WORDS
from application.bakeoffs.words import model_text
from common.format import plural
from diagnosis.stats import rogan_gladen, wilson_interval

Status = Literal["matches", "differs", "cannot"]
TOLERANCE = 1e-6


@dataclass(frozen=True, slots=True)
class Recheck:
    """One figure: what the bundle says, what the recomputation gives, and the outcome."""

    what: str
    stated: Any
    recomputed: Any
    status: Status
    detail: str = ""

    def line(self) -> str:
        if self.status == "cannot":
            return f"cannot   {self.what}: {self.detail}"
        shown = f"{_show(self.stated)}"
        if self.status == "matches":
            return f"matches  {self.what}: {shown}"
        return f"DIFFERS  {self.what}: bundle {shown}, recomputed {_show(self.recomputed)} ({self.detail})"


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
            f"run {self.run_id}: {plural(self.matches, 'figure')} {'matches' if self.matches == 1 else 'match'}, "
            f"{self.differs} {'differs' if self.differs == 1 else 'differ'}, "
            f"{self.cannot} cannot be recomputed from this bundle"
        )


class BundleError(ValueError):
    """The file is not an evidence bundle (said in one sentence)."""


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value):
        return f"[{value[0]:.6g}, {value[1]:.6g}]"
    return str(value)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _interval(value: Any) -> tuple[float, float] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        low, high = _number(value[0]), _number(value[1])
        if low is not None and high is not None:
            return low, high
    return None


def _compare(what: str, stated: Any, recomputed: Any) -> Recheck:
    """Numbers or [lo, hi] pairs, within ``TOLERANCE`` (the queue rounds some to 4-6 places)."""
    if recomputed is None:
        return Recheck(what, stated, None, "cannot", "the counts it comes from are missing")
    if stated is None:
        return Recheck(what, None, recomputed, "cannot", "the bundle states no value to check")
    if isinstance(recomputed, tuple):
        pair = _interval(stated)
        if pair is None:
            return Recheck(what, stated, recomputed, "differs", "the bundle's value is not an interval")
        gap = max(abs(pair[0] - recomputed[0]), abs(pair[1] - recomputed[1]))
    else:
        number = _number(stated)
        if number is None:
            return Recheck(what, stated, recomputed, "differs", "the bundle's value is not a number")
        gap = abs(number - recomputed)
    if gap <= TOLERANCE:
        return Recheck(what, stated, recomputed, "matches")
    return Recheck(what, stated, recomputed, "differs", f"by {gap:.4g}")


def _comparison_rows(results: Mapping[str, Any]) -> tuple[list[Recheck], dict[str, tuple[float, float] | None]]:
    rows: list[Recheck] = []
    floors: dict[str, tuple[float, float] | None] = {}
    for arm in results.get("per_candidate") or []:
        key = str(arm.get("arm") or arm.get("model"))
        wins, losses, ties = (_number(arm.get(k)) for k in ("wins", "losses", "ties"))
        if wins is None or losses is None or ties is None:
            rows.append(Recheck(f"{key} win rate", arm.get("win_rate"), None, "cannot", "wins/losses/ties missing"))
            continue
        judged = wins + losses + ties
        score = wins + ties / 2
        rate = score / judged if judged else None
        ci = wilson_interval(score, judged) if judged else None
        rows.append(_compare(f"{key} win rate", arm.get("win_rate"), rate))
        rows.append(_compare(f"{key} win rate 95% interval", arm.get("ci95"), ci))
        floors[key] = ci
        decided = wins + losses
        floors[f"{key}#decided"] = wilson_interval(wins, decided) if decided else None
    return rows, floors


def _criterion_rows(results: Mapping[str, Any], snapshot: Mapping[str, Any]) -> tuple[list[Recheck], dict[str, Any]]:
    rows: list[Recheck] = []
    figures: dict[str, Any] = {}
    tpr, tnr = _number(snapshot.get("tpr")), _number(snapshot.get("tnr"))
    for model in results.get("per_model") or []:
        key = str(model.get("model"))
        passed, failed = _number(model.get("judged_pass")), _number(model.get("judged_fail"))
        if passed is None or failed is None:
            rows.append(
                Recheck(f"{key} pass rate", model.get("observed_pass_rate"), None, "cannot", "pass/fail counts missing")
            )
            continue
        judged = passed + failed
        observed = passed / judged if judged else None
        ci = wilson_interval(passed, judged) if judged else None
        rows.append(_compare(f"{key} observed pass rate", model.get("observed_pass_rate"), observed))
        rows.append(_compare(f"{key} observed 95% interval", model.get("observed_ci"), ci))
        corrected = corrected_ci = None
        if tpr is None or tnr is None:
            rows.append(
                Recheck(
                    f"{key} corrected pass rate",
                    model.get("corrected_pass_rate"),
                    None,
                    "cannot",
                    "the frozen judge has no measured TPR/TNR (unvalidated)",
                )
            )
        elif observed is not None and ci is not None:
            corrected = rogan_gladen(observed, tpr, tnr)
            if corrected is None:
                rows.append(
                    Recheck(
                        f"{key} corrected pass rate",
                        model.get("corrected_pass_rate"),
                        None,
                        "cannot",
                        f"the judge is no better than chance (TPR+TNR-1 = {tpr + tnr - 1:+.3f})",
                    )
                )
            else:
                low, high = rogan_gladen(ci[0], tpr, tnr), rogan_gladen(ci[1], tpr, tnr)
                corrected_ci = (low, high) if low is not None and high is not None else None
                rows.append(_compare(f"{key} corrected pass rate", model.get("corrected_pass_rate"), corrected))
                check = _compare(f"{key} corrected 95% interval", model.get("corrected_ci"), corrected_ci)
                if check.status == "differs":
                    check = Recheck(
                        check.what,
                        check.stated,
                        check.recomputed,
                        "differs",
                        check.detail + "; recomputed by mapping the observed interval's ends "
                        "(the queue's method is not stated)",
                    )
                rows.append(check)
        figures[key] = {"observed_ci": ci, "corrected": corrected, "corrected_ci": corrected_ci}
    return rows, figures


def _assertion_rows(results: Mapping[str, Any]) -> tuple[list[Recheck], dict[str, float | None]]:
    rows: list[Recheck] = []
    rates: dict[str, float | None] = {}
    for model in (results.get("assertion_results") or {}).get("per_model") or []:
        key = str(model.get("model"))
        answers, passed = _number(model.get("answers")), _number(model.get("passed_all"))
        rate = passed / answers if answers and passed is not None else None
        rates[key] = rate
        rows.append(_compare(f"{key} all-assertions pass rate", model.get("pass_rate"), rate))
    return rows, rates


def _gate_rows(
    bundle: Mapping[str, Any], floors: dict[str, Any], figures: dict[str, Any], assertion_rates: dict[str, float | None]
) -> list[Recheck]:
    gate = bundle.get("gate")
    if not isinstance(gate, Mapping) or not isinstance(gate.get("verdict"), Mapping):
        return [Recheck("gate", None, None, "cannot", "the bundle was made without thresholds, so it holds no gate")]
    verdict = gate["verdict"]
    params = gate.get("params") or {}
    ties = params.get("win_rate_ties", "half")
    rows: list[Recheck] = []
    passes: list[bool] = []
    for check in verdict.get("checks") or []:
        kind, key = check.get("check"), str(check.get("model"))
        said = f"gate {CHECK_WORDS.get(str(kind), str(kind))} {model_text(key)}"  # in words, not the wire's keys
        required = _number(check.get("required"))
        actual: float | None = None
        reason = ""
        if kind == "win_rate":
            ci = floors.get(f"{key}#decided" if ties == "decided" else key)
            actual = ci[0] if ci else None
            if (
                "corrected" in str(check.get("note") or "").lower()
                and "printed" not in str(check.get("note") or "").lower()
            ):
                reason = "a corrected basis needs the person's pair labels, which the bundle does not carry"
        elif kind == "pass_rate":
            figure = figures.get(key) or {}
            ci = figure.get("corrected_ci") or figure.get("observed_ci")
            actual = ci[0] if ci else None
        elif kind == "assertion_pass_rate":
            actual = assertion_rates.get(key)
        elif kind == "noninferiority":
            figure = figures.get(key) or {}
            ci = figure.get("corrected_ci")
            actual = ci[0] if ci else None
        if reason:
            rows.append(Recheck(said, check.get("actual"), None, "cannot", reason))
            continue
        if actual is None:
            stated_pass = check.get("pass")
            rows.append(
                Recheck(
                    said,
                    check.get("actual"),
                    None,
                    "cannot",
                    check.get("note") or "no figure to recompute it from",
                )
            )
            passes.append(bool(stated_pass))
            continue
        rows.append(_compare(f"{said} actual", check.get("actual"), actual))
        recomputed_pass = required is not None and actual >= required - TOLERANCE
        passes.append(recomputed_pass)
        rows.append(
            Recheck(
                f"{said} pass",
                check.get("pass"),
                recomputed_pass,
                "matches" if check.get("pass") == recomputed_pass else "differs",
                "" if check.get("pass") == recomputed_pass else "the check's pass does not follow from its figures",
            )
        )
    if passes:
        overall = all(passes)
        rows.append(
            Recheck(
                "gate verdict",
                verdict.get("pass"),
                overall,
                "matches" if verdict.get("pass") == overall else "differs",
                "" if verdict.get("pass") == overall else "the verdict does not follow from its checks",
            )
        )
    return rows


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
        rows, figures = _criterion_rows(results, snapshot)
    else:
        rows, floors = _comparison_rows(results)
    assertion_rows, assertion_rates = _assertion_rows(results)
    rows += assertion_rows
    rows += _gate_rows(bundle, floors, figures, assertion_rates)
    content = bundle.get("content") or {}
    if not content.get("included"):
        reason = content.get("reason") or "no reason given"
        rows.append(
            Recheck(
                "per-sample outcomes",
                None,
                None,
                "cannot",
                f"content not included (the bundle says: {reason}); the counts are taken as stated",
            )
        )
    if kind != "criterion":
        rows.append(
            Recheck(
                "corrected win rate",
                None,
                None,
                "cannot",
                "it rests on the person's pair labels, which an evidence bundle does not carry",
            )
        )
    if bundle.get("signature") is None:
        rows.append(Recheck("signature", None, None, "cannot", "the bundle is unsigned"))
    else:
        rows.append(
            Recheck(
                "signature",
                "present",
                None,
                "cannot",
                "a signature is checked against the signer's key, which is not offline",
            )
        )
    attestation = bundle.get("attestation") or {}
    if attestation.get("ok") is False:
        problems = attestation.get("problems") or []
        rows.append(
            Recheck(
                "attestation", False, None, "cannot", f"the queue's own attestation reports {len(problems)} problem(s)"
            )
        )
    return VerifyReport(run_id=str(run.get("id")), eval_kind=kind, rows=rows)


def bundle_summary(bundle: Mapping[str, Any]) -> list[str]:
    """What a person reads first about a bundle: whose run, signed or not, the queue's own
    attestation, what content is in it and the gate it was written with."""
    run = bundle.get("run") or {}
    said = [
        f"run {run.get('id')} ({run.get('eval_kind') or 'comparison'}): {run.get('name') or ''}".rstrip(": "),
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
