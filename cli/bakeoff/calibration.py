"""`blah-tui bakeoff` verbs for calibration, criteria, evidence, failure clusters, delete and
the verdict (issue 29, items 5-7 and 10). Dispatched from :mod:`cli.bakeoff.command`.

    blah-tui bakeoff labels ID [--json]
    blah-tui bakeoff label ID SAMPLE ARM candidate|baseline|tie|remove [--critique TEXT] [--json]
    blah-tui bakeoff criteria [--json]
    blah-tui bakeoff criterion ID [--json]
    blah-tui bakeoff align ID [--yes] [--json]
    blah-tui bakeoff evidence ID -o FILE [--with-content] [--min-win-rate X] [--min-pass-rate X]
                              [--min-assertion-pass-rate X] [--noninferiority-margin X] [--model M] [--json]
    blah-tui bakeoff clusters [--criterion ID] [--window-days N] [--force --yes] [--json]
    blah-tui bakeoff delete ID [--yes] [--json]
    blah-tui bakeoff verdict ID [--margin D] [--json]

A label relays the verdict the person typed, nothing else. ``align`` spends one judge call per
label and ``clusters --force`` a metered clustering: both are confirmed (on a terminal, or
``--yes``) and sent once; align is then polled while the queue says "in progress". ``delete``
is confirmed too and refused here for a live run (cancel it first). ``evidence`` writes the
bundle's exact bytes to FILE and prints its summary.

Exit codes (:class:`cli.exit_codes.ExitCode`). verdict: 0 switch; 1 don't switch; 3 not
enough evidence. Every verb: 2 bad usage, a label refused here, or a write not confirmed
(nothing sent); 4 the queue unreachable or the key refused (403 included); 6 an unknown run
(404); 7 the queue refused (400/412: the run is not finished, is live, ...); 8 the evidence
file cannot be written.
"""

from __future__ import annotations

import argparse
from typing import Any

from api_client.errorbar.checks import GATE_THRESHOLDS
from cli.global_options import add_json_option
from cli.parsing import unit_rate

ACTIONS = ("labels", "label", "criteria", "criterion", "align", "evidence", "clusters", "delete", "verdict")
"""The verbs themselves are in :mod:`cli.bakeoff.calibration_verbs` (``run_verb``), which
:mod:`cli.bakeoff.command` imports only when one runs: the parser is built for every `bakeoff`
command, the CI gate's included."""


def _days(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 90:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of days 1..90")
    return int(text)


def add_parsers(sub: Any, connection: argparse.ArgumentParser) -> None:
    """The verbs, on the bakeoff parser's subparsers (``connection``: --base-url/--profile)."""

    def verb(name: str, help_text: str) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = sub.add_parser(name, parents=[connection], help=help_text)
        add_json_option(parser)
        return parser

    verb("labels", "a comparison run's pair labels and the calibration they buy").add_argument("run_id", metavar="ID")
    label = verb("label", "label one pair with your verdict (overwrites; remove deletes it)")
    label.add_argument("run_id", metavar="ID")
    label.add_argument(
        "sample", metavar="SAMPLE", type=int, help="the sample's number as `bakeoff samples` lists it (the first is 1)"
    )
    label.add_argument("arm", metavar="ARM", help="the candidate's arm key")
    label.add_argument(
        "verdict",
        metavar="VERDICT",
        choices=("candidate", "baseline", "tie", "remove"),
        help="candidate, baseline, tie (which answer was better), or remove",
    )
    label.add_argument("--critique", metavar="TEXT", help="why (at most 2000 characters)")
    verb("criteria", "the saved judges: trust, TPR/TNR, kappa, drift")
    verb("criterion", "one criterion and its alignment report").add_argument("criterion_id", metavar="ID")
    align = verb("align", "re-measure a criterion's judge against its labels (spends one judge call per label)")
    align.add_argument("criterion_id", metavar="ID")
    align.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    bundle = verb("evidence", "write a finished run's evidence bundle to a file")
    bundle.add_argument("run_id", metavar="ID")
    bundle.add_argument("-o", "--output", required=True, metavar="FILE", help="where the bundle is written")
    bundle.add_argument("--with-content", action="store_true", help="ask for the full prompts and answers")
    for name in GATE_THRESHOLDS:
        bundle.add_argument("--" + name.replace("_", "-"), dest=name, type=unit_rate, metavar="X", help="0..1")
    bundle.add_argument("--model", help="limit the gate to one arm")
    groups = verb("clusters", "why answers failed, grouped per criterion")
    groups.add_argument("--criterion", metavar="ID", help="one criterion only")
    groups.add_argument("--window-days", type=_days, default=7, metavar="N", help="1-90 (default 7)")
    groups.add_argument("--force", action="store_true", help="skip the hour's cache (metered: spends money)")
    groups.add_argument("--yes", action="store_true", help="do not ask for confirmation of --force")
    delete = verb("delete", "delete a finished run and its samples (irreversible)")
    delete.add_argument("run_id", metavar="ID")
    delete.add_argument("--yes", action="store_true")
    said = verb("verdict", "switch, don't, or not enough evidence; with why and each figure's question")
    said.add_argument("run_id", metavar="ID")
    said.add_argument(
        "--margin",
        type=unit_rate,
        metavar="D",
        help="a noninferiority margin (0..1): is the candidate more than D worse? (default: worse at all?)",
    )
