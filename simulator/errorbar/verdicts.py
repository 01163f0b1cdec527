"""The gate (``GET /v1/evals/{id}/gate``), compare (``/v1/evals/compare``) and the pairwise
block: each computed from a run's ``results`` and samples (contract sections 3.3, 3.9, 3.12)."""

from __future__ import annotations

from typing import Any

from simulator.errorbar.calibration import pairwise_block
from simulator.errorbar.errors import QueueError
from simulator.errorbar.results import wilson
from simulator.errorbar.runs import Run, RunStore
from simulator.errorbar.world import STORED

NOT_DONE = "Run not complete yet — poll until status is DONE."
THRESHOLDS = ("min_win_rate", "min_pass_rate", "min_assertion_pass_rate", "noninferiority_margin")
PRINTED_NOTE = "basis printed: no usable calibration (it needs 30 human pair labels)"


def threshold(raw: str | None) -> float | None:
    """A number in 0..1, or absent (anything else counts as absent, as the contract says)."""
    try:
        value = float(raw) if raw is not None else None
    except ValueError:
        return None
    return value if value is not None and 0.0 <= value <= 1.0 else None


def _check(
    check: str, model: str, required: float, actual: float | None, note: str | None = None, passed: bool | None = None
) -> dict[str, Any]:
    ok = passed if passed is not None else (actual is not None and actual >= required)
    item = {"check": check, "model": model, "required": required, "actual": actual, "pass": ok}
    if note:
        item["note"] = note
    return item


def gate(store: RunStore, run_id: str, query: dict[str, str]) -> tuple[int, dict[str, Any]]:
    with store._lock:
        run = store.get(run_id)
        ties = query.get("win_rate_ties", "half")
        if ties not in ("half", "decided"):
            raise QueueError(400, "win_rate_ties must be half or decided")
        status = store.status(run)
        wanted = {name: threshold(query.get(name)) for name in THRESHOLDS}
        if status != "DONE":
            reason = NOT_DONE if status in ("PENDING", "RUNNING") else f"Run is {status}: {run.error or 'no results'}"
            return 412, {"pass": False, "status": status, "checks": [], "reason": reason}
        if all(v is None for v in wanted.values()):
            return 412, {
                "pass": False,
                "status": status,
                "checks": [],
                "reason": "No threshold given: pass min_win_rate, min_pass_rate, "
                "min_assertion_pass_rate or noninferiority_margin.",
            }
        checks = _checks(run, wanted, ties, query.get("model"))
        passed = bool(checks) and all(c["pass"] for c in checks)
        body: dict[str, Any] = {"pass": passed, "status": status, "checks": checks}
        if not checks:
            body["reason"] = "No arm matches the model asked for."
        return (200 if passed else 412), body


def _checks(run: Run, wanted: dict[str, float | None], ties: str, model: str | None) -> list[dict[str, Any]]:
    results = run.results or {}
    criterion = run.spec["eval_kind"] == "criterion"
    checks: list[dict[str, Any]] = []
    arms = [a["key"] for a in run.spec["arms"]]
    if model:
        arms = [a for a in arms if a == model]
    if (required := wanted["min_win_rate"]) is not None:
        if criterion:
            checks.append(_check("win_rate", model or "*", required, None, "not a comparison run", False))
        block = None if criterion else pairwise_block(run, run.samples)
        for row in results.get("per_candidate", []):
            if row["arm"] not in arms:
                continue
            fixed = (block or {}).get("candidates", {}).get(row["arm"], {}).get("corrected")
            if fixed is not None and block is not None and ties != "decided":
                ci, note = fixed["win_rate_ci"], f"basis corrected: {block['labelled_pairs']} human pair labels"
            else:
                ci = wilson(row["wins"], row["wins"] + row["losses"]) if ties == "decided" else row["ci95"]
                note = PRINTED_NOTE
            actual = ci[0] if ci else None
            note += "; unreportable: too many pairs without a judge reading" if row["unreportable"] else ""
            checks.append(
                _check("win_rate", row["arm"], required, actual, note, False if row["unreportable"] else None)
            )
    by_model = {row["model"]: row for row in results.get("per_model", [])}
    graded = arms if arms or model else [run.spec["baseline_model"]]
    if (required := wanted["min_pass_rate"]) is not None:
        if not criterion:
            checks.append(_check("pass_rate", model or "*", required, None, "not a criterion run", False))
        for key in graded if criterion else []:
            row = by_model.get(key)
            if row is None:
                continue
            if row["corrected_ci"] is not None:
                checks.append(_check("pass_rate", key, required, row["corrected_ci"][0]))
            else:
                ci = row["observed_ci"]
                checks.append(
                    _check(
                        "pass_rate", key, required, ci[0] if ci else None, "the judge is unvalidated: observed interval"
                    )
                )
    if (required := wanted["min_assertion_pass_rate"]) is not None:
        assertion_rows = {r["model"]: r for r in (results.get("assertion_results") or {}).get("per_model", [])}
        if not assertion_rows:
            checks.append(
                _check("assertion_pass_rate", model or "*", required, None, "no assertions configured", False)
            )
        for key in arms:
            row = assertion_rows.get(key)
            if row is not None:
                checks.append(_check("assertion_pass_rate", key, required, row["pass_rate"]))
    if (margin := wanted["noninferiority_margin"]) is not None:
        incumbent = by_model.get(run.spec["baseline_model"])
        usable = (
            criterion
            and run.spec["baseline_model"] == STORED
            and incumbent is not None
            and incumbent["corrected_pass_rate"] is not None
        )
        if not usable or incumbent is None:
            checks.append(
                _check(
                    "noninferiority",
                    model or "*",
                    margin,
                    None,
                    "needs a criterion run on __stored__ with a calibrated judge",
                    False,
                )
            )
        else:
            # ASSUMED: the margin is scaled by the judge's measured error as margin × (TPR+TNR−1),
            # so a judge that errs more leaves less room (the page says only "scaled").
            snapshot = run.spec.get("criterion_snapshot") or {}
            youden = (snapshot.get("tpr") or 0) + (snapshot.get("tnr") or 0) - 1
            scaled = margin * youden
            floor = incumbent["corrected_pass_rate"] - scaled
            note = (
                f"margin {margin:.3f} scaled by the judge's TPR+TNR-1 {youden:.3f} to {scaled:.3f}; incumbent "
                f"(what you shipped) corrected pass rate {incumbent['corrected_pass_rate']:.3f}"
            )
            for key in arms:
                row = by_model.get(key)
                actual = row["corrected_ci"][0] if row and row["corrected_ci"] else None
                checks.append(_check("noninferiority", key, round(floor, 6), actual, note))
    return checks


def _rows(run: Run) -> dict[tuple[str, str], tuple[float, int, list[float] | None]]:
    """(arm, metric) -> (successes, n, ci) of a DONE run."""
    results, out = run.results or {}, {}
    for row in results.get("per_candidate", []):
        judged = row["wins"] + row["losses"] + row["ties"]
        out[(row["arm"], "win_rate")] = (row["wins"] + row["ties"] / 2, judged, row["ci95"])
    for row in results.get("per_model", []):
        judged = row["judged_pass"] + row["judged_fail"]
        out[(row["model"], "observed_pass_rate")] = (row["judged_pass"], judged, row["observed_ci"])
        if row["corrected_pass_rate"] is not None:
            out[(row["model"], "corrected_pass_rate")] = (
                row["corrected_pass_rate"] * judged,
                judged,
                row["corrected_ci"],
            )
    return out


def compare(store: RunStore, a_id: str | None, b_id: str | None) -> dict[str, Any]:
    from simulator.errorbar.results import newcombe

    if not a_id or not b_id:
        raise QueueError(400, "Both a and b are required.")
    with store._lock:
        a, b = store.get(a_id), store.get(b_id)
        if store.status(a) != "DONE" or store.status(b) != "DONE":
            raise QueueError(412, "Both runs must be DONE to compare.", "precondition_failed")
        if a.spec["eval_kind"] != b.spec["eval_kind"]:
            raise QueueError(412, "The runs are of different kinds.", "precondition_failed")
        if a.spec["judge_model"] != b.spec["judge_model"]:
            raise QueueError(412, "The runs were judged by different judge models.", "precondition_failed")
        rows_a, rows_b = _rows(a), _rows(b)
        rows = []
        for key in rows_a:
            if key not in rows_b:
                continue
            (xa, na, cia), (xb, nb, cib) = rows_a[key], rows_b[key]
            if not na or not nb:
                continue
            ci = newcombe(xb, nb, xa, na)
            rows.append(
                {
                    "arm": key[0],
                    "metric": key[1],
                    "a": {"rate": xa / na, "n": na, "ci": cia},
                    "b": {"rate": xb / nb, "n": nb, "ci": cib},
                    "delta": xb / nb - xa / na,
                    "delta_ci": ci,
                    "significant": ci[0] > 0 or ci[1] < 0,
                }
            )
        arms_a = {k[0] for k in rows_a}
        arms_b = {k[0] for k in rows_b}

        def head(run: Run) -> dict[str, Any]:
            return {
                "id": run.id,
                "name": run.spec["name"],
                "created_at": run.created_at,
                "judge_model": run.spec["judge_model"],
                "eval_kind": run.spec["eval_kind"],
            }

        return {
            "a": head(a),
            "b": head(b),
            "rows": rows,
            "unmatched": {"a": sorted(arms_a - arms_b), "b": sorted(arms_b - arms_a)},
        }


def pairwise(store: RunStore, run_id: str) -> dict[str, Any]:
    with store._lock:
        run = store.get(run_id)
        if run.spec["eval_kind"] == "criterion":
            raise QueueError(400, "Pairwise analysis is for comparison runs only.")
        return pairwise_block(run, store.visible_samples(run))
