"""`blah-tui bakeoff labels|label|criteria|criterion|align|evidence|clusters|delete|verdict`
against the queue simulator: what a person reads, the exit codes, and that a write is
confirmed, sent once, and that bad input sends nothing."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.bakeoff.command import bakeoff_main
from cli.exit_codes import ExitCode
from simulator.errorbar.server import ErrorbarServer
from tests.support.errorbar import COMPARISON, CRITERION, queue_run, queue_server


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


async def _no_wait(_: float) -> None:
    return None


def bakeoff(queue: ErrorbarServer, *argv: str, key: str | None = None, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = bakeoff_main(
        [*argv, "--base-url", queue.base_url],
        out=out,
        err=err,
        env={"ERRORBAR_API_KEY": key or queue.admin_key},
        stdin=io.StringIO(stdin),
        sleep=_no_wait,
    )
    return code, out.getvalue(), err.getvalue()


def _writes(queue: ErrorbarServer, suffix: str) -> int:
    return sum(1 for r in queue.requests.records() if r.method in ("POST", "DELETE") and r.path.endswith(suffix))


def test_label_then_labels_shows_the_calibration_moving(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, COMPARISON)["id"]
    code, out, err = bakeoff(queue, "label", run_id, "1", "you/tiny-sft-v3", "tie", "--critique", "both fine")
    assert code == 0 and err == ""
    assert out.startswith("labelled #1 you/tiny-sft-v3: tie\nlabelled pairs 1 · counted 1 · agreement")
    assert "label 29 more pairs for a corrected win rate (1 of 30 counted so far)" in out
    code, out, _ = bakeoff(queue, "labels", run_id, "--json")  # as the queue keeps it: #1 is its 0
    assert code == 0 and [lab["sample_index"] for lab in json.loads(out)["labels"]] == [0]
    code, out, _ = bakeoff(queue, "labels", run_id)
    assert code == 0 and "1 pair label on" in out and "#1 you/tiny-sft-v3: tie · both fine" in out
    code, out, _ = bakeoff(queue, "label", run_id, "1", "you/tiny-sft-v3", "remove", "--json")
    assert code == 0 and json.loads(out)["pairwise"]["labelled_pairs"] == 0


def test_bad_labels_get_a_sentence_and_send_nothing(queue: ErrorbarServer) -> None:
    comparison = queue_run(queue, COMPARISON)["id"]
    graded = queue_run(queue, CRITERION)["id"]
    code, out, err = bakeoff(queue, "label", graded, "1", "you/tiny-sft-v3", "candidate")
    assert (code, out) == (2, "")
    assert "pair labels are for comparison runs" in err and err.rstrip().endswith("nothing was sent")
    code, _, err = bakeoff(queue, "label", comparison, "41", "you/tiny-sft-v3", "tie")
    assert code == 2 and "sample #41 is not a sample of" in err and "#1..#40" in err
    code, _, err = bakeoff(queue, "label", comparison, "0", "you/tiny-sft-v3", "tie")  # there is no #0
    assert code == 2 and "sample #0 is not a sample of" in err
    code, _, err = bakeoff(queue, "label", comparison, "1", "gpt-9", "tie")
    assert code == 2 and "'gpt-9' is not an arm" in err
    with pytest.raises(SystemExit) as bad:
        bakeoff(queue, "label", comparison, "1", "you/tiny-sft-v3", "better")
    assert bad.value.code == 2
    assert _writes(queue, "/pair_labels") == 0


def test_criteria_says_when_a_judge_is_no_better_than_chance(queue: ErrorbarServer) -> None:
    code, out, _ = bakeoff(queue, "criteria", key=queue.read_key)
    assert code == 0
    assert "trust misaligned · TPR 0.550 [0.398, 0.693] · TNR 0.400 [0.263, 0.554] · kappa -0.050" in out
    assert "the app's reading: this pass rate says nothing: the judge's TPR+TNR-1 is -0.05" in out
    code, out, _ = bakeoff(queue, "criteria", "--json", key=queue.read_key)
    assert code == 0 and [c["id"] for c in json.loads(out)] == [
        "crit_helpful",
        "crit_concise",
        "crit_tone",
        "crit_support_resolved",
    ]


def test_criterion_prints_the_disagreements_verbatim(queue: ErrorbarServer) -> None:
    code, out, _ = bakeoff(queue, "criterion", "crit_concise", key=queue.read_key)
    assert code == 0 and "42 disagreements (38 agreements)" in out
    assert "critique: misses the refund window" in out and "judge pass · person fail" in out
    code, out, _ = bakeoff(queue, "criterion", "crit_tone", key=queue.read_key)
    assert code == 0 and "no alignment report" in out and "no alignment run yet" in out


def test_align_is_confirmed_sent_once_and_reports(queue: ErrorbarServer) -> None:
    code, out, err = bakeoff(queue, "align", "crit_tone")
    assert (code, out) == (2, "") and "one metered judge call per label" in err and "add --yes" in err
    assert _writes(queue, "/align") == 0
    code, out, _ = bakeoff(queue, "align", "crit_tone", stdin="y\n")
    assert code == 2  # not a terminal: a piped "y" is not a confirmation
    code, out, err = bakeoff(queue, "align", "crit_tone", "--yes")
    assert code == 0 and "36 labels · TPR 0.833 [0.608, 0.942] · TNR 0.778 [0.548, 0.910] · kappa 0.611" in out
    assert "critique: [bold]ignores the question[/bold]" in out  # as the person wrote it, not styled
    assert _writes(queue, "/align") == 1
    code, _, err = bakeoff(queue, "align", "crit_helpful", "--yes", key=queue.member_key)
    assert code == ExitCode.UNREACHABLE and "HTTP 403" in err and "OWNER or ADMIN" in err


def test_a_queued_align_polls_in_progress(queue: ErrorbarServer) -> None:
    out, err = io.StringIO(), io.StringIO()

    async def sleep(_: float) -> None:  # the queue's time passes while the command waits
        queue.store.alignments.finish("crit_helpful")

    code = bakeoff_main(
        ["align", "crit_helpful", "--yes", "--base-url", queue.base_url],
        out=out,
        err=err,
        env={"ERRORBAR_API_KEY": queue.admin_key},
        stdin=io.StringIO(),
        sleep=sleep,
    )
    assert code == 0 and "alignment in progress: 0 of 100 labels judged" in err.getvalue()
    assert "100 labels · TPR 0.900" in out.getvalue()
    assert _writes(queue, "/align") == 1


def test_evidence_writes_the_bundle_and_refuses_what_it_must(queue: ErrorbarServer, tmp_path: Path) -> None:
    live = queue_run(queue, COMPARISON, finish=False)["id"]
    done = queue_run(queue, COMPARISON)["id"]
    target = tmp_path / "evidence.json"
    code, out, err = bakeoff(queue, "evidence", live, "-o", str(target))
    assert code == ExitCode.REFUSED and f"{live} is not finished yet" in err and not target.exists()
    queue.fail_run(live)
    code, out, err = bakeoff(queue, "evidence", live, "-o", str(target))
    assert (
        code == ExitCode.REFUSED
        and f"{live} ended ERROR: the queue keeps evidence only for a run that finished DONE" in err
    )
    with pytest.raises(SystemExit) as bad:
        bakeoff(queue, "evidence", done, "-o", str(target), "--min-win-rate", "1.5")
    assert bad.value.code == 2 and not target.exists()
    code, out, err = bakeoff(queue, "evidence", done, "-o", str(target), "--min-win-rate", "0.3", key=queue.read_key)
    assert code == 0, err
    bundle = json.loads(target.read_bytes())
    assert bundle["run"]["id"] == done and bundle["gate"]["verdict"]["pass"] is False
    assert out.startswith(f"wrote {target.stat().st_size:,} bytes to ")
    assert "unsigned: the queue did not sign this bundle" in out and "attestation ok (40 rows checked)" in out
    assert "gate FAIL (min_win_rate=0.3)" in out
    code, out, _ = bakeoff(queue, "evidence", done, "-o", str(target), "--json", key=queue.read_key)
    assert code == 0 and json.loads(out)["attestation_ok"] is True


def test_delete_refuses_a_live_run_and_deletes_a_finished_one(queue: ErrorbarServer, tmp_path: Path) -> None:
    live = queue_run(queue, COMPARISON, finish=False)["id"]
    done = queue_run(queue, COMPARISON)["id"]
    code, _, err = bakeoff(queue, "delete", live, "--yes")
    assert code == ExitCode.REFUSED and "a live run can't be deleted; cancel it first" in err
    code, _, err = bakeoff(queue, "delete", done)
    assert code == 2 and "irreversible" in err and "add --yes" in err
    assert _writes(queue, f"/evals/{live}") + _writes(queue, f"/evals/{done}") == 0
    code, out, _ = bakeoff(queue, "delete", done, "--yes")
    assert (code, out) == (0, f"deleted {done}\n")
    code, _, err = bakeoff(queue, "evidence", done, "-o", str(tmp_path / "x.json"))
    assert code == ExitCode.NOT_FOUND and f"there is no run {done} in this workspace: it was deleted" in err


def test_clusters_force_is_confirmed_and_metered_once(queue: ErrorbarServer) -> None:
    queue_run(queue, {**CRITERION, "criterion_id": "crit_concise"})
    code, out, _ = bakeoff(queue, "clusters", "--criterion", "crit_concise", key=queue.read_key)
    assert code == 0 and "freshly clustered" in out and "Concise (crit_concise):" in out and "example:" in out
    code, out, _ = bakeoff(queue, "clusters", key=queue.read_key)
    assert code == 0 and "from the queue's cache" in out
    code, _, err = bakeoff(queue, "clusters", "--force")
    assert code == 2 and "spends money" in err
    assert queue.store.alignments.clusters.metered_calls == 1
    code, out, _ = bakeoff(queue, "clusters", "--force", "--yes", "--json")
    assert code == 0 and json.loads(out)["cached"] is False
    assert queue.store.alignments.clusters.metered_calls == 2
    with pytest.raises(SystemExit):
        bakeoff(queue, "clusters", "--window-days", "91")


def test_verdict_answers_with_its_exit_code(queue: ErrorbarServer) -> None:
    chance = queue_run(queue, {**CRITERION, "criterion_id": "crit_concise"})["id"]
    live = queue_run(queue, COMPARISON, finish=False)["id"]
    code, out, _ = bakeoff(queue, "verdict", chance, key=queue.read_key)
    assert code == 3
    assert out.startswith("not enough evidence: this pass rate says nothing: the judge's TPR+TNR-1 is -0.05")
    assert "what would settle it: a calibrated criterion" in out
    code, out, _ = bakeoff(queue, "verdict", live, "--json", key=queue.read_key)
    assert code == 3 and json.loads(out)["settle"] == "wait for it to finish (bakeoff watch)"
    code, _, err = bakeoff(queue, "verdict", "ev_nope", key=queue.read_key)
    assert code == ExitCode.NOT_FOUND and "HTTP 404" in err


def test_verdict_on_a_comparison_uses_the_corrected_rate_once_labels_allow(queue: ErrorbarServer) -> None:
    from tests.support import sim_http
    from tests.support.errorbar import get, headers

    run_id = queue_run(queue, COMPARISON)["id"]
    code, out, _ = bakeoff(queue, "verdict", run_id, key=queue.read_key)
    assert code == 3 and "printed win rate" in out and "or 30 labelled pairs for a corrected rate" in out
    judge = {"win": "candidate", "loss": "baseline", "tie": "tie"}
    labelled = 0
    for sample in get(queue, f"/v1/evals/{run_id}/samples").json():
        for answer in sample["candidates"]:
            if labelled < 30 and answer["outcome"] in judge:
                body = {
                    "sample_index": sample["index"],
                    "candidate": answer["model"],
                    "verdict": judge[answer["outcome"]] if labelled % 5 else "tie",
                }
                sim_http.post(
                    f"{queue.base_url}/v1/evals/{run_id}/pair_labels", json=body, headers=headers(queue.member_key)
                )
                labelled += 1
    code, out, _ = bakeoff(queue, "verdict", run_id, "--json", key=queue.read_key)
    answer = json.loads(out)
    assert code == answer["exit_code"] and "corrected win rate" in answer["why"] and answer["reading"] is None
