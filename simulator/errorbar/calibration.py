"""The pairwise block (``GET /v1/evals/{id}/pairwise``, contract 3.12): each arm's spec
sheet, the judge's calibration against the pairs a person labelled, and once that is usable
the corrected win rate. Recomputed on every read from the samples and the labels, so a label
posted or removed moves it at once.

What the contract leaves open is ASSUMED here (the simulator's arithmetic, stated so a client
can recompute every figure from ``GET .../samples``, whose ``outcome`` is the judge's reading
and ``human_verdict`` the person's):

- a labelled pair counts once its judge reading exists (``failed`` pairs are left out); the
  judge's verdict of a pair is its outcome: win = candidate, loss = baseline, tie = tie;
- ``agreement`` = share of counted pairs where the two verdicts are equal; ``kappa`` = Cohen's
  kappa over the three verdicts;
- per side (``wins``, ``losses``, ``decided``): ``sensitivity`` = the judge said it when the
  person did, ``specificity`` = the judge did not say it when the person did not, each with its
  95 % Wilson interval (``*_ci``) and the counts (``positives``, ``negatives``); "decided"
  means not a tie;
- ``usable`` = at least 30 counted pairs, and on both the wins and the losses side a person
  said it and said otherwise at least once, and the judge's Se+Sp-1 is above 0.2;
- ``corrected`` (per arm, with the calibration pooled over the arms): W and L, the arm's
  share of judged wins and losses mapped through Rogan-Gladen with that side's Se/Sp (clamped
  to 0..1); win rate = 1/2 + (W-L)/2; its 95 % interval is a delta-method (Lang-Reiczigel
  style) Wald interval whose variance adds the sampling term of the arm's shares to the
  calibration term of Se/Sp; ``floor_half_width`` is the calibration term's half-width alone
  (more samples cannot shrink the interval below it); ``calibration_variance_share`` is that
  term's share of the variance; ``decided`` = W/(W+L).
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from simulator.errorbar.results import Z95, spec_sheet, wilson

MIN_LABELS = 30
MIN_YOUDEN = 0.2
VERDICTS = ("candidate", "baseline", "tie")
_JUDGE = {"win": "candidate", "loss": "baseline", "tie": "tie"}


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def labelled_pairs(samples: list[Any], labels: dict[tuple[int, str], dict[str, Any]]) -> list[tuple[str, str]]:
    """(judge verdict, human verdict) of each labelled pair that has a judge reading."""
    by_index = {s.index: s for s in samples}
    pairs = []
    for (index, arm), label in sorted(labels.items()):
        sample = by_index.get(index)
        graded = next((g for g in sample.graded if g.arm == arm), None) if sample else None
        if graded is None or graded.outcome not in _JUDGE:
            continue
        pairs.append((_JUDGE[graded.outcome], label["verdict"]))
    return pairs


def _side(pairs: list[tuple[str, str]], said: Any) -> dict[str, Any]:
    positives = [j for j, h in pairs if said(h)]
    negatives = [j for j, h in pairs if not said(h)]
    tp = sum(1 for j in positives if said(j))
    tn = sum(1 for j in negatives if not said(j))
    return {
        "positives": len(positives),
        "negatives": len(negatives),
        "sensitivity": tp / len(positives) if positives else None,
        "sensitivity_ci": wilson(tp, len(positives)),
        "specificity": tn / len(negatives) if negatives else None,
        "specificity_ci": wilson(tn, len(negatives)),
    }


def _youden(side: dict[str, Any]) -> float | None:
    if side["sensitivity"] is None or side["specificity"] is None:
        return None
    return side["sensitivity"] + side["specificity"] - 1


def calibration(pairs: list[tuple[str, str]]) -> dict[str, Any] | None:
    if not pairs:
        return None
    n = len(pairs)
    agreement = sum(1 for j, h in pairs if j == h) / n
    expected = sum(
        (sum(1 for j, _ in pairs if j == v) / n) * (sum(1 for _, h in pairs if h == v) / n) for v in VERDICTS
    )
    kappa = (agreement - expected) / (1 - expected) if expected < 1 else None
    sides = {
        "wins": _side(pairs, lambda v: v == "candidate"),
        "losses": _side(pairs, lambda v: v == "baseline"),
        "decided": _side(pairs, lambda v: v != "tie"),
    }
    reason = None
    if n < MIN_LABELS:
        reason = f"fewer than {MIN_LABELS} labelled pairs with a judge reading ({n} so far)"
    else:
        for name, word in (("wins", "candidate"), ("losses", "baseline")):
            side = sides[name]
            if not side["positives"] or not side["negatives"]:
                missing = f'"{word}"' if not side["positives"] else f"otherwise than {word}"
                reason = f"the {name} side cannot be measured yet: no pair labelled {missing}"
                break
            youden = _youden(side)
            if youden is not None and youden <= MIN_YOUDEN:
                reason = f"the judge's {name} readings are near chance (Se+Sp-1 = {youden:.2f})"
                break
    return {"n": n, "agreement": agreement, "kappa": kappa, "usable": reason is None, "reason": reason, **sides}


def corrected(wins: int, losses: int, judged: int, cal: dict[str, Any]) -> dict[str, Any] | None:
    """The arm's corrected win rate, or None (no judged pair, or a side with Se+Sp-1 <= 0)."""
    if not judged or not cal or not cal["usable"]:
        return None
    z2 = Z95 * Z95
    parts = []
    for count, side in ((wins, cal["wins"]), (losses, cal["losses"])):
        se, sp = side["sensitivity"], side["specificity"]
        j = se + sp - 1
        if j <= 0:
            return None
        p = count / judged
        rate = min(1.0, max(0.0, (p + sp - 1) / j))
        # Adjusted (Agresti-Coull style) estimates in the variance terms only.
        p_adj = (count + z2 / 2) / (judged + z2)
        se_adj = (se * side["positives"] + 1) / (side["positives"] + 2)
        sp_adj = (sp * side["negatives"] + 1) / (side["negatives"] + 2)
        sampling = p_adj * (1 - p_adj) / (judged + z2) / (j * j)
        calib = (
            rate * rate * se_adj * (1 - se_adj) / (side["positives"] + 2)
            + (1 - rate) ** 2 * sp_adj * (1 - sp_adj) / (side["negatives"] + 2)
        ) / (j * j)
        parts.append((rate, j, p_adj, sampling, calib))
    (w, jw, pw, sw, cw), (l_, jl, pl, sl, cl) = parts
    covariance = 2 * pw * pl / (judged + z2) / (jw * jl)  # multinomial: the two shares move against each other
    sampling_var = (sw + sl + covariance) / 4
    calibration_var = (cw + cl) / 4
    total = sampling_var + calibration_var
    rate = min(1.0, max(0.0, 0.5 + (w - l_) / 2))
    half = Z95 * math.sqrt(total)
    return {
        "win_rate": rate,
        "win_rate_ci": [max(0.0, rate - half), min(1.0, rate + half)],
        "floor_half_width": Z95 * math.sqrt(calibration_var),
        "calibration_variance_share": calibration_var / total if total else None,
        "decided": w / (w + l_) if w + l_ > 0 else None,
    }


def pairwise_block(run: Any, samples: list[Any]) -> dict[str, Any]:
    """The whole block for ``run`` (its ``spec``, ``labels``) over ``samples`` (those visible)."""
    cal = calibration(labelled_pairs(samples, run.labels))
    candidates = {}
    for arm in run.spec["arms"]:
        key = arm["key"]
        rows = [g for s in samples for g in s.graded if g.arm == key]
        wins = sum(1 for g in rows if g.outcome == "win")
        losses = sum(1 for g in rows if g.outcome == "loss")
        judged = wins + losses + sum(1 for g in rows if g.outcome == "tie")
        candidates[key] = {
            "spec_sheet": spec_sheet(samples, key),
            "labelled_pairs": sum(1 for k in run.labels if k[1] == key),
            "corrected": corrected(wins, losses, judged, cal) if cal else None,
        }
    return {
        "v": 1,
        "computed_at": _now(),
        "labelled_pairs": len(run.labels),
        "calibration": cal,
        "candidates": candidates,
    }
