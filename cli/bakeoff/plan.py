"""`blah-tui bakeoff plan` and `blah-tui bakeoff verify`: the two bake-off commands that need no
queue (nothing is sent, no key is read).

    blah-tui bakeoff plan [--samples N] [--rate P] [--half-width H] [--margin D] [--tie-share T]
                          [--tpr X --tnr Y] [--power Q] [--candidates K] [--best-of N] [--stored]
                          [--usd-per-answer X] [--json]
    blah-tui bakeoff verify BUNDLE.json [--json]

plan: what a run of that size can answer before it is paid for (diagnosis/planning.py);
exit 0, or 2 for a bad value. verify: every figure of an evidence bundle recomputed; exit 0
when every recomputable figure matches, 1 when one differs, 2 when the file is not a bundle.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from cli.exit_codes import ExitCode
from cli.global_options import add_json_option
from cli.parsing import finite_float
from common.format import plural
from common.safe_strings import clip, inert_json

# The arithmetic is imported when plan or verify runs, not when `bakeoff gate` (a CI job's
# command, which shares this parser) starts.

OFFLINE_ACTIONS = ("plan", "verify")
EXIT_OK, EXIT_DIFFERS, EXIT_USAGE = ExitCode.OK, ExitCode.NO, ExitCode.USAGE


def add_parsers(sub: Any) -> None:
    """The two sub-commands, added to `blah-tui bakeoff`'s parser."""
    p = sub.add_parser("plan", help="before spending: the interval, samples and power a run will have (sends nothing)")
    p.add_argument("--samples", type=int, metavar="N", help="the run's sample count (5-500)")
    p.add_argument(
        "--rate",
        type=finite_float,
        metavar="P",
        help="the expected rate 0..1 (an earlier run's or screening's); default 0.5, where an interval is widest",
    )
    p.add_argument(
        "--half-width", type=finite_float, metavar="H", help="the interval half-width wanted (0.05 = 5 points)"
    )
    p.add_argument("--margin", type=finite_float, metavar="D", help="a noninferiority margin (0.05 = 5 points)")
    p.add_argument("--tie-share", type=finite_float, metavar="T", help="the share of ties seen before (0..1)")
    p.add_argument("--tpr", type=finite_float, metavar="X", help="the criterion judge's measured TPR")
    p.add_argument("--tnr", type=finite_float, metavar="Y", help="the criterion judge's measured TNR")
    p.add_argument(
        "--power", type=finite_float, default=0.8, metavar="Q", help="wanted power for the margin (default 0.8)"
    )
    p.add_argument("--candidates", type=int, default=1, metavar="K", help="candidate arms (default 1)")
    p.add_argument("--best-of", type=int, default=1, metavar="N", help="best-of-N per arm (default 1)")
    p.add_argument("--stored", action="store_true", help="the baseline is __stored__ (not regenerated)")
    p.add_argument(
        "--usd-per-answer",
        type=finite_float,
        metavar="X",
        help="a price per generated answer, e.g. from a screening's est. $/request",
    )
    add_json_option(p)
    v = sub.add_parser("verify", help="recompute an evidence bundle's figures offline (sends nothing)")
    v.add_argument("bundle", metavar="BUNDLE.json")
    add_json_option(v)


def run_offline(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.action == "plan":
        return _plan(args, out, err)
    return _verify(args, out, err)


def spend_lines(
    samples: int | None, candidates: int, best_of: int, stored: bool, usd_per_answer: float | None
) -> list[str]:
    """What a run of that shape spends on (counts from the contract's rules; a price only when given)."""
    from application.bakeoffs.cost import run_size

    if samples is None:
        return ["spend: give --samples to count the generations and judge calls"]
    size = run_size(samples, [best_of] * candidates, stored)
    generations, knockouts, judge_calls = size.generations, size.knockouts, 2 * size.pairs
    lines = [
        f"spend: {plural(generations, 'generation')} ({plural(candidates, 'arm')} x {plural(samples, 'sample')}"
        + (f" x best-of-{best_of}" if best_of > 1 else "")
        + ("" if stored else f" + {samples} baseline")
        + f"), {plural(judge_calls, 'judge call')} (2 per pair, both orderings)"
    ]
    if knockouts:
        lines.append(
            f"  plus {knockouts} best-of-N knockouts (the contract does not say how many judge calls each takes)"
        )
    if usd_per_answer is not None:
        lines.append(
            f"cost: about ${generations * usd_per_answer:.2f} for the generations at "
            f"${usd_per_answer:g} each (judge calls not priced)"
        )
    else:
        lines.append("cost: no price known (give --usd-per-answer, e.g. a screening's est. $/request)")
    return lines


def _plan(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from application.bakeoffs.planning import plan_lines
    from diagnosis.planning import SAMPLE_CAP, PlanQuestion, plan

    question = PlanQuestion(
        samples=args.samples,
        rate=args.rate,
        half_width=args.half_width,
        margin=args.margin,
        tie_share=args.tie_share,
        tpr=args.tpr,
        tnr=args.tnr,
        power=args.power,
    )
    problems = question.problems()
    if args.candidates < 1 or args.candidates > 6:
        problems.append(f"candidates must be 1..6 (the queue's limit), got {args.candidates}")
    if not 1 <= args.best_of <= 8:
        problems.append(f"best-of must be 1..8 (the queue allows 2..8), got {args.best_of}")
    if problems:
        err.write(f"blah-tui bakeoff plan: {clip('; '.join(problems), 600)}\n")
        return EXIT_USAGE
    result = plan(question)
    spend = spend_lines(args.samples, args.candidates, args.best_of, args.stored, args.usd_per_answer)
    if args.json:
        body = {
            "question": {
                k: getattr(question, k)
                for k in ("samples", "rate", "half_width", "margin", "tie_share", "tpr", "tnr", "power")
            },
            "rate": result.rate,
            "rate_assumed": result.rate_assumed,
            "judge_youden": result.judge_youden,
            "half_width": result.half_width,
            "decided_pairs": result.decided_pairs,
            "decided_half_width": result.decided_half_width,
            "samples_for_half_width": result.samples_for_half_width,
            "power": result.power,
            "samples_for_margin": result.samples_for_margin,
            "smallest_margin_at_cap": result.smallest_margin_at_cap,
            "underpowered": result.underpowered,
            "sample_cap": SAMPLE_CAP,
            "spend": spend,
            "notes": result.notes,
            "lines": plan_lines(result),  # the same sentences as the text: each says its question and the cap
        }
        out.write(json.dumps(body, indent=2) + "\n")
    else:
        out.write("\n".join(plan_lines(result) + spend) + "\n")
    return EXIT_OK


def _verify(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from application.bakeoffs.verify import BundleError, verify_bundle

    try:
        with open(args.bundle, encoding="utf-8") as handle:
            bundle = json.load(handle)
        report = verify_bundle(bundle)
    except (OSError, ValueError) as error:  # BundleError is a ValueError, as is bad JSON
        what = str(error) if isinstance(error, BundleError) else f"cannot read {args.bundle}: {error}"
        err.write(f"blah-tui bakeoff verify: {clip(what, 600)}\n")
        return ExitCode.LOCAL_FILE if isinstance(error, OSError) else EXIT_USAGE  # unreadable, or not a bundle
    if args.json:
        rows = [
            {"what": r.what, "stated": r.stated, "recomputed": r.recomputed, "status": r.status, "detail": r.detail}
            for r in report.rows
        ]
        body = {
            "run_id": report.run_id,
            "eval_kind": report.eval_kind,
            "matches": report.matches,
            "differs": report.differs,
            "cannot": report.cannot,
            "rows": rows,
        }
        out.write(inert_json(json.dumps(body, ensure_ascii=False, indent=2)) + "\n")
    else:
        for row in report.rows:
            out.write(clip(row.line(), 400) + "\n")
        out.write(clip(report.summary(), 300) + "\n")
    return EXIT_DIFFERS if report.differs else EXIT_OK
