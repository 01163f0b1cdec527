"""`blah-tui leaderboard`, `blah-tui compare A B [C]` and `blah-tui health MODEL` (no Textual).

    blah-tui leaderboard [--json]
    blah-tui compare A B [C] [--json]
    blah-tui health MODEL [--json]

The same application functions as the Leaderboard, Compare and Health screens:
``application.leaderboard.standings`` (best first, each model's change since its previous
completed run) with ``application.leaderboard.error_bars`` (each mean's 95% interval, the tier
of models tied with the leader within noise, the board's MDE; ``--json``: each row's
``error_bars``), ``application.compare.rows`` (A's losses first) with
``application.compare.error_bars`` (A's paired difference from each peer, Holm-corrected) and
``application.health.windows`` (uptime and outage windows). Exit codes: see
``cli.blah.connection``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from typing import TextIO

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import Comparison, Health
from api_client.errors import BlahError
from application.compare.error_bars import comparison_reading, versus_sentences
from application.compare.rows import mean_scores, order_for_person, tally
from application.health.windows import outage_windows, uptime, uptime_sentence
from application.leaderboard.error_bars import (
    mde_sentence,
    mean_cell,
    method_sentence,
    model_error_bars,
    tier_cell,
    tier_sentence,
)
from application.leaderboard.standings import Board, load_board
from cli.blah.connection import (
    EXIT_CODES_HELP,
    EXIT_OK,
    EXIT_USAGE,
    GlobalOptions,
    VerbError,
    connection_parent,
    describe,
    exit_for,
    resolve,
    run_verb,
    when,
)
from cli.global_options import add_json_option, parse_command
from cli.output import cell, number, print_json, table
from cli.parsing import OneLineParser
from common.format import DASH
from common.safe_strings import clip

_DESCRIPTIONS = {
    "leaderboard": "The blah.dev leaderboard, best first: each model's mean score over its own latest "
    "completed run, and the change since its completed run before that.",
    "compare": "The same evals answered by two or three models, A's losses first (biggest gap first), "
    "then evals not every model was scored on, ties, and wins.",
    "health": "A model's recent health checks: uptime, outage windows, the checks newest first.",
}


def build_parser(verb: str) -> argparse.ArgumentParser:
    """The parser of ``verb``: leaderboard, compare or health."""
    parser = OneLineParser(prog=f"blah-tui {verb}", parents=[connection_parent()], description=_DESCRIPTIONS[verb])
    if verb == "compare":
        parser.add_argument("models", nargs="+", metavar="MODEL", help="A B [C]: two or three model ids")
    elif verb == "health":
        parser.add_argument("model", metavar="MODEL")
    add_json_option(parser, "JSON instead of a table")
    parser.epilog = EXIT_CODES_HELP
    return parser


CHECKS_SHOWN = 24
"""Health checks listed in the table (two hours at the platform's 5-minute pace); --json has all."""

# ---------------------------------------------------------------------------- printing


def print_board(board: Board, out: TextIO, err: TextIO) -> None:
    if not board.rows:
        out.write("the platform returned no leaderboard entries\n")
        return
    reading = board.reading
    entries = {e.model: e for e in reading.entries} if reading is not None else {}

    def bars(model_id: str, average: float | None) -> list[str]:
        entry = entries.get(model_id)
        if entry is None or reading is None:
            return [number(average), DASH]
        return [mean_cell(entry.estimate, average), tier_cell(entry, reading)]

    rows = [
        [
            str(r.rank),
            cell(r.entry.model_name or r.entry.model_id, 40),
            cell(r.entry.model_id, 40),
            *bars(r.entry.model_id, r.entry.avg_score),
            r.change_text(),
            number(r.entry.eval_count),
            when(r.entry.last_run_at),
        ]
        for r in board.rows
    ]
    table(
        ("#", "model", "id", "mean [95% CI]", "tier", "Δ vs previous", "evals", "last run (UTC)"),
        rows,
        out,
        numeric=(0, 6),
    )
    if reading is not None:
        names = {r.entry.model_id: clip(r.entry.model_name or r.entry.model_id, 40) for r in board.rows}
        out.write(f"\n{tier_sentence(reading, names)}\n{mde_sentence(reading)}\n{method_sentence(reading)}\n")
    if board.runs_problem is not None:
        err.write(f"couldn't load the runs, so no change is shown: {clip(board.runs_problem.message, 200)}\n")


def comparison_json(comparison: Comparison, own: str) -> dict[str, object]:
    lines = order_for_person(comparison, own)
    return {
        "models": comparison.models,
        "mean_scores": mean_scores(comparison),
        "error_bars": comparison_reading(comparison).to_json(),  # intervals, paired differences, Holm, tiers, MDE
        "tally": tally(lines),
        "rows": [
            {
                "eval_id": ln.row.eval_id,
                "prompt": ln.row.prompt,
                "outcome": ln.outcome,
                "margin": ln.margin,
                "answers": {m: a.model_dump(mode="json") for m, a in ln.row.answers.items()},
            }
            for ln in lines
        ],
    }


def print_comparison(comparison: Comparison, own: str, out: TextIO) -> None:
    models = [own, *[m for m in comparison.models if m != own]]
    lines = order_for_person(comparison, own)
    means = mean_scores(comparison)
    counts = tally(lines)
    out.write(
        f"{cell(own, 40)} against {', '.join(cell(m, 40) for m in models[1:])}: "
        f"{counts['loss']} lost, {counts['tie']} tied, {counts['win']} won, {counts['unscored']} not scored "
        f"for every model\n"
    )
    reading = comparison_reading(comparison)
    estimates = {e.model: e.estimate for e in reading.entries}
    out.write(
        "mean [95% CI]: "
        + " · ".join(f"{cell(m, 40)} {mean_cell(estimates.get(m), means.get(m))}" for m in models)
        + "\n"
    )
    for sentence in versus_sentences(reading, own, {m: cell(m, 40) for m in models}, me=cell(own, 40)):
        out.write(sentence + "\n")
    out.write(mde_sentence(reading) + "\n\n")
    if not lines:
        out.write("the platform returned no evals answered by these models\n")
        return
    rows = []
    for line in lines:
        scores = [number(line.row.answers[m].score) if m in line.row.answers else DASH for m in models]
        rows.append([cell(line.row.eval_id, 30), *scores, line.outcome, number(line.margin), cell(line.row.prompt, 60)])
    table(("eval", *(cell(m, 24) for m in models), "A", "Δ A", "prompt"), rows, out)


def health_json(health: Health) -> dict[str, object]:
    checks = sorted(health.checks, key=lambda c: c.checked_at)
    up = uptime(checks)
    return {
        "model_id": health.model_id,
        "uptime": {
            "ok": up.ok,
            "failed": up.failed,
            "unknown": up.unknown,
            "ratio": up.ratio,
            "from": up.span_from,
            "to": up.span_to,
        },
        "outage_windows": [
            {"start": w.start, "end": w.end, "failed_checks": w.failed_checks, "errors": list(w.errors)}
            for w in outage_windows(checks)
        ],
        "checks": [c.model_dump(mode="json") for c in health.checks],
    }


def print_health(model_id: str, health: Health, out: TextIO) -> None:
    checks = sorted(health.checks, key=lambda c: c.checked_at)
    out.write(f"health of {cell(model_id, 60)}: {uptime_sentence(uptime(checks))}\n")
    windows = outage_windows(checks)
    if windows:
        out.write(
            f"\n{len(windows)} outage window{'s' if len(windows) != 1 else ''} (first failed check to the "
            "next ok one):\n"
        )
        table(
            ("from (UTC)", "back up (UTC)", "checks", "errors"),
            [
                [
                    when(w.start),
                    "still down" if w.end is None else when(w.end),
                    str(w.failed_checks),
                    cell(" · ".join(w.errors), 60),
                ]
                for w in reversed(windows)
            ],
            out,
        )
    if health.checks:
        shown = health.checks[:CHECKS_SHOWN]
        more = (
            f" ({len(health.checks) - len(shown)} older not shown; --json has all)"
            if len(shown) < len(health.checks)
            else ""
        )
        out.write(f"\nchecks, newest first{more}:\n")
        table(
            ("time (UTC)", "ok", "latency ms", "status", "error"),
            [
                [
                    when(c.checked_at),
                    DASH if c.ok is None else ("ok" if c.ok else "FAILED"),
                    number(c.latency_ms),
                    number(c.status_code),
                    cell(c.error, 60),
                ]
                for c in shown
            ],
            out,
            numeric=(2, 3),
        )


# ---------------------------------------------------------------------------- commands


async def _dispatch(
    verb: str, args: argparse.Namespace, base_url: str, api_key: str | None, out: TextIO, err: TextIO
) -> int:
    async with BlahClient(base_url, api_key=api_key) as client:
        try:
            if verb == "leaderboard":
                board = await load_board(client)
                if args.json:
                    reading = board.reading
                    print_json(
                        [
                            {
                                **r.to_json(),
                                "error_bars": model_error_bars(reading, r.entry.model_id)
                                if reading is not None
                                else None,
                            }
                            for r in board.rows
                        ],
                        out,
                    )
                else:
                    print_board(board, out, err)
            elif verb == "compare":
                comparison = await client.compare(list(args.models))
                own = args.models[0]
                print_json(comparison_json(comparison, own), out) if args.json else print_comparison(
                    comparison, own, out
                )
            else:
                health = await client.health(args.model)
                print_json(health_json(health), out) if args.json else print_health(args.model, health, out)
        except BlahError as error:
            what = (
                f"model {args.model!r}"
                if verb == "health"
                else ("one of the models " + ", ".join(repr(m) for m in args.models) if verb == "compare" else None)
            )
            raise VerbError(describe(error, what=what, base_url=base_url), exit_for(error)) from None
    return EXIT_OK


def standings_main(
    verb: str,
    argv: Sequence[str],
    globals_: GlobalOptions | None = None,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Run `blah-tui leaderboard|compare|health`; the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    args = parse_command(build_parser(verb), argv, (globals_ or GlobalOptions()).before())
    prog = f"blah-tui {verb}"

    def body() -> int:
        if verb == "compare" and not 2 <= len(args.models) <= 3:
            raise VerbError("compare takes two or three models: compare A B [C]", EXIT_USAGE)
        connection = resolve(args, globals_ or GlobalOptions(), err)
        return asyncio.run(_dispatch(verb, args, connection.base_url, connection.api_key, out, err))

    return run_verb(prog, body, err)


def build_parser_leaderboard() -> argparse.ArgumentParser:
    return build_parser("leaderboard")


def build_parser_compare() -> argparse.ArgumentParser:
    return build_parser("compare")


def build_parser_health() -> argparse.ArgumentParser:
    return build_parser("health")


def run_leaderboard(argv: list[str], given: argparse.Namespace) -> int:
    return standings_main("leaderboard", argv, GlobalOptions.of(given))


def run_compare(argv: list[str], given: argparse.Namespace) -> int:
    return standings_main("compare", argv, GlobalOptions.of(given))


def run_health(argv: list[str], given: argparse.Namespace) -> int:
    return standings_main("health", argv, GlobalOptions.of(given))
