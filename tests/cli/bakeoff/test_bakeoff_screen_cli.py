"""`blah-tui bakeoff screen` and `bakeoff show` on a screening run, against the queue simulator:
confirmed (or --yes), sent once, watched to the end, the screening printed as the queue sent it;
402 and 422 said in a sentence with exit 7 and nothing queued; bad flags exit 2 with nothing
sent; a member's key told which role is needed and which key was used."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest

from cli.bakeoff.command import bakeoff_main
from cli.exit_codes import ExitCode
from simulator.errorbar.server import ErrorbarServer
from tests.support.errorbar import queue_server


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


class TtyIn(io.StringIO):
    def isatty(self) -> bool:
        return True


def bakeoff(
    queue: ErrorbarServer, *argv: str, key: str | None = None, stdin: io.StringIO | None = None
) -> tuple[int, str, str]:
    """Run the command; each poll's wait ends every queued run (the queue's time has passed)."""
    out, err = io.StringIO(), io.StringIO()

    async def sleep(_: float) -> None:
        for run_id in queue.store.ids():
            queue.finish(run_id)

    code = bakeoff_main(
        [*argv, "--base-url", queue.base_url],
        out=out,
        err=err,
        stdin=stdin or io.StringIO(""),
        env={"ERRORBAR_API_KEY": key or queue.admin_key},
        sleep=sleep,
    )
    return code, out.getvalue(), err.getvalue()


def _creates(queue: ErrorbarServer) -> int:
    return sum(1 for r in queue.requests.records() if r.method == "POST" and r.path == "/v1/evals")


def test_screen_yes_sends_once_watches_and_prints_the_screening(queue: ErrorbarServer) -> None:
    code, out, err = bakeoff(queue, "screen", "--yes")
    assert code == 0, err
    assert _creates(queue) == 1
    [run_id] = queue.store.ids()
    screening = queue.store.get(run_id).results["screening"]  # type: ignore[index]
    assert f"screening {run_id} queued; watching it to the end" in err and "DONE 100%" in err
    lines = out.splitlines()
    assert lines[0] == f"screening {run_id} · Screening of Qwen/Qwen3-32B · DONE"
    incumbent = screening["incumbent"]
    assert lines[1] == (
        f"incumbent     Qwen/Qwen3-32B · ${incumbent['est_usd_per_request']:.6f}/request · "
        f"${incumbent['projected_monthly_usd']:.2f}/month (120,000 requests)"
    )
    shape = screening["token_shape"]
    assert lines[2].startswith(f"token shape   prompts {shape['median_prompt_tokens']:.0f} tokens (median)")
    for candidate in screening["per_candidate"]:
        row = next(line for line in lines if line[2:].startswith(candidate["model"] + " "))
        sim = candidate["similarity"]
        cells = row[2:].split()
        assert cells[1:4] == [str(sim["matched"]), str(sim["differed"]), str(sim["unparsed"])]
        assert f"{round(sim['match_rate'] * 100)}% [{round(sim['ci95'][0] * 100)}-{round(sim['ci95'][1] * 100)}]" in row
        assert f"${candidate['est_usd_per_request']:.6f}" in row and f"{candidate['est_savings_pct']:+.1f}%" in row
        assert row.startswith("→ ") is (candidate["model"] == screening["recommendation"]["model"])
    best = next(c for c in screening["per_candidate"] if c["model"] == screening["recommendation"]["model"])
    assert (
        f"recommended   switch to {best['model']}: {round(best['est_savings_pct'])}% cheaper, answers match "
        f"{round(best['similarity']['match_rate'] * 100)}%"
    ) in out


def test_show_prints_a_screening_runs_result_not_only_with_json(queue: ErrorbarServer) -> None:
    code, _, _ = bakeoff(
        queue,
        "screen",
        "--yes",
        "--candidate",
        "anthropic/claude-sonnet-4",
        "--sample-count",
        "8",
        "--name",
        "big only",
    )
    assert code == 0
    [run_id] = queue.store.ids()
    code, out, _ = bakeoff(queue, "show", run_id)
    assert code == 0
    assert "baseline      your logged answers (what you shipped, not regenerated)" in out
    assert "__stored__" not in out and "candidates    anthropic/claude-sonnet-4" in out
    assert "kind          screening" in out  # a comparison on the wire; a screening to the person who asked
    assert "recommended   keep the incumbent (Qwen/Qwen3-32B)" in out and "A good outcome" in out
    assert "anthropic/claude-sonnet-4" in out.split("token shape", 1)[1]
    code, out, _ = bakeoff(queue, "show", run_id, "--json")
    assert json.loads(out)["results"]["screening"]["recommendation"]["action"] == "keep"


def test_402_and_422_are_sentences_exit_7_and_queue_nothing(queue: ErrorbarServer) -> None:
    queue.set_balance(0)
    code, out, err = bakeoff(queue, "screen", "--yes")
    assert code == ExitCode.REFUSED and out == ""
    assert "HTTP 402: the workspace's balance cannot pay for this: top up the wallet; nothing was queued" in err
    queue.set_balance(100)
    queue.clear_traffic()
    code, out, err = bakeoff(queue, "screen", "--yes")
    assert code == ExitCode.REFUSED and out == ""
    assert "HTTP 422: there is nothing to screen: the workspace has no logged traffic to sample" in err
    assert queue.store.ids() == [] and _creates(queue) == 2  # each sent once, none queued


def test_bad_flags_and_no_confirmation_send_nothing(queue: ErrorbarServer) -> None:
    for argv, said in (
        (["--sample-count", "3"], "--sample-count: a whole number 5..500, not 3"),
        (["--candidate", "a/b", "--candidate", "a/b"], "--candidate: a/b is given twice"),
        ([f"--candidate=m/{i}" for i in range(7)], "at most 6, not 7"),
    ):
        code, _, err = bakeoff(queue, "screen", "--yes", *argv)
        assert code == 2 and said in err and "nothing was sent" in err
    code, _, err = bakeoff(queue, "screen")  # not a terminal, no --yes
    assert code == 2 and "add --yes to confirm; nothing was sent" in err
    code, _, err = bakeoff(queue, "screen", stdin=TtyIn("n\n"))
    assert code == 2 and "screen for a cheaper model (the cheapest model of each family" in err
    assert "It spends money [y/N]" in err and "not confirmed; nothing was sent" in err
    assert queue.requests.records() == []


def test_a_terminal_yes_screens_and_json_prints_the_run(queue: ErrorbarServer) -> None:
    code, out, err = bakeoff(queue, "screen", "--json", stdin=TtyIn("y\n"))
    assert code == 0, err
    assert json.loads(out)["results"]["screening"]["incumbent"]["model"] == "Qwen/Qwen3-32B"


def test_a_members_key_is_told_the_role_and_which_key(queue: ErrorbarServer) -> None:
    code, _, err = bakeoff(queue, "screen", "--yes", key=queue.member_key)
    assert code == ExitCode.UNREACHABLE
    assert "OWNER or ADMIN" in err and "the key used ($ERRORBAR_API_KEY) is not one" in err
    assert queue.member_key not in err
