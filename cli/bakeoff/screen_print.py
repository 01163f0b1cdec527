"""A screening's result as plain text (`bakeoff screen`, and `bakeoff show` on a screening run):
the incumbent and its token shape, per candidate the similarity with its interval, $/request,
savings and the monthly projection, then the recommendation said plainly. Every value is the
queue's (``application.bakeoffs.screening``); what it did not send is the dash."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from application.bakeoffs.screening import (
    candidate_lines,
    no_result_sentence,
    report_head,
    report_tail,
    screening_of,
)
from cli.output import table
from common.safe_strings import clip

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

NUMERIC = frozenset({1, 2, 3, 5, 6, 7, 8})


def print_screening(run: assumed.Run, out: TextIO) -> None:
    out.write(f"screening {clip(run.id, 60)} · {clip(run.name or '—', 80)} · {clip(run.status or '?', 12)}\n")
    screening = screening_of(run)
    if screening is None:
        out.write(no_result_sentence(run) + "\n")
        return
    print_screening_result(screening, out)


def print_screening_result(screening: assumed.Screening, out: TextIO) -> None:
    for text in report_head(screening):
        out.write(text + "\n")
    out.write("\n")
    rows = [
        [
            ("→ " if c.recommended else "  ") + c.model,
            c.matched,
            c.differed,
            c.unparsed,
            c.match,
            c.usd_per_request,
            c.savings,
            c.monthly,
            c.monthly_savings,
            c.placement,
        ]
        for c in candidate_lines(screening)
    ]
    if rows:
        table(
            (
                "candidate",
                "matched",
                "differed",
                "unparsed",
                "match rate [95%]",
                "$/request",
                "savings",
                "$/month",
                "saved/month",
                "placement",
            ),
            rows,
            out,
            NUMERIC,
        )
    else:
        out.write("the queue sent no screened candidate\n")
    out.write("\n")
    for text in report_tail(screening):
        out.write(text + "\n")
