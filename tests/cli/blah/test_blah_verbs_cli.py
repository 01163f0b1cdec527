"""`blah-tui runs|leaderboard|compare|health|chatroom`: blah.dev from the shell, over real HTTP
against the simulator and against a server in the live service's shapes (tests/support/live_shapes.py)."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable, Iterator

import pytest

from api_client.blahdev.shapes import Result
from application.runs.blah.judge_verdict import parse_judgement
from cli.blah import chatroom as chatroom_cli
from cli.blah import runs as runs_cli
from cli.exit_codes import ExitCode
from cli.main import main
from simulator.blahdev import runs as sim_runs
from simulator.server import SimulatorServer
from tests.support import sim_http
from tests.support.live_shapes import (
    JSON_REASONING,
    LEADERBOARD,
    PLAIN_DETAILS,
    live_shaped_server,
)


@pytest.fixture(scope="module")
def fast() -> Iterator[SimulatorServer]:
    with SimulatorServer(seed=11, speed=400.0, live=False) as server:
        yield server


class Shell:
    """``blah-tui ARGS`` in-process, with its stdout, stderr and exit code."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys

    def __call__(self, *argv: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main(list(argv))
        captured = self.capsys.readouterr()
        return code, captured.out, captured.err


@pytest.fixture
def shell(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Shell:
    async def quick(_seconds: float) -> None:  # the watch's waits: poll again soon (the sim runs at 400x)
        await asyncio.sleep(0.02)

    monkeypatch.setitem(runs_cli.PACE, "sleep", quick)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal: writes need --yes
    return Shell(capsys)


def on(server: SimulatorServer, key: str | None = None) -> list[str]:
    return ["--base-url", server.base_url, "--api-key", key or server.council_key]


def api_runs(server: SimulatorServer) -> list[dict[str, object]]:
    return sim_http.get(server.base_url + "/api/v1/runs").json()


# ---------------------------------------------------------------------------- runs list / show / results


def test_runs_list_json_is_the_platforms_runs_newest_first(fast: SimulatorServer, shell: Shell) -> None:
    code, out, err = shell(*on(fast), "runs", "list", "--json")
    assert code == 0 and err == ""
    listed = json.loads(out)
    assert [r["id"] for r in listed] == [r["id"] for r in api_runs(fast)]
    assert {"id", "status", "completed_count", "total_evals", "total_models"} <= set(listed[0])


def test_runs_list_model_filter_without_model_ids_uses_the_models_results(shell: Shell) -> None:
    with live_shaped_server() as origin:
        code, out, _ = shell("--base-url", origin, "runs", "list", "--model", "m-big", "--json")
        assert code == 0
        assert [r["id"] for r in json.loads(out)] == ["r-live-1"]  # the running run has no result of m-big
        code, out, _ = shell("--base-url", origin, "runs", "list", "--json")
        assert all("model_ids" not in r for r in json.loads(out))  # not sent, so not made up
        code, out, _ = shell("--base-url", origin, "runs", "list")
        assert code == 0 and "r-live-2" in out and "running" in out and "1/2 (50%)" in out


def test_runs_results_print_the_judges_reasoning_verbatim_in_both_forms(fast: SimulatorServer, shell: Shell) -> None:
    run_id = next(r["id"] for r in api_runs(fast) if r["status"] == "completed")
    results = [Result.model_validate(r) for r in sim_http.get(f"{fast.base_url}/api/v1/runs/{run_id}/results").json()]
    json_form = [r for r in results if r.score_details_parsed is not None]
    plain_form = [r for r in results if r.score_details and r.score_details_parsed is None]
    assert json_form and plain_form
    code, out, err = shell(*on(fast), "runs", "results", run_id)
    assert code == 0 and err == ""
    for result in json_form:
        assert parse_judgement(result).reasoning in out
    for result in plain_form:
        assert result.score_details in out
    assert out.count("── ") == len(results)


def test_runs_results_against_the_live_shapes(shell: Shell) -> None:
    with live_shaped_server() as origin:
        code, out, _ = shell("--base-url", origin, "runs", "results", "r-live-1")
        assert code == 0
        assert JSON_REASONING in out  # multi-line, with template tokens and markup-looking text, as sent
        assert PLAIN_DETAILS in out
        assert "score 0.6\n" in out and "score 0.3\n" in out  # as sent, not rounded
        code, out, _ = shell("--base-url", origin, "runs", "results", "r-live-1", "--json")
        by_id = {r["id"]: r for r in json.loads(out)}
        assert by_id["res-a"]["judge"] == {
            "form": "json",
            "reasoning": JSON_REASONING,
            "criteria": [{"name": "accuracy", "score": 0.9, "value": None, "note": None}],
            "fields": {},
        }
        assert by_id["res-b"]["judge"]["form"] == "text" and by_id["res-b"]["judge"]["reasoning"] == PLAIN_DETAILS
        assert by_id["res-b"]["score_details"] == PLAIN_DETAILS and by_id["res-b"]["score"] == 0.3


@pytest.mark.parametrize("verb", ["show", "results", "watch"])
def test_an_unknown_run_is_one_clear_line(fast: SimulatorServer, shell: Shell, verb: str) -> None:
    code, out, err = shell(*on(fast), "runs", verb, "run_nope")
    assert code == ExitCode.NOT_FOUND and out == ""
    assert err.count("\n") == 1 and "does not know run 'run_nope'" in err
    with live_shaped_server() as origin:  # its results of an unknown run are [] (no 404)
        code, out, err = shell("--base-url", origin, "runs", verb, "run_nope")
        assert (
            code == ExitCode.NOT_FOUND and out == "" and err.count("\n") == 1 and "does not know run 'run_nope'" in err
        )


def test_a_service_without_the_one_run_route_still_shows_and_lists_results(shell: Shell) -> None:
    with live_shaped_server(one_run_route=False) as origin:
        code, out, _ = shell("--base-url", origin, "runs", "show", "r-live-1", "--json")
        assert code == 0 and json.loads(out)["status"] == "completed"  # found in GET /runs
        code, out, _ = shell("--base-url", origin, "runs", "results", "r-live-1")
        assert code == 0 and "run r-live-1 · completed · 4 results" in out and PLAIN_DETAILS in out
        code, out, err = shell("--base-url", origin, "runs", "results", "run_nope")
        assert code == ExitCode.NOT_FOUND and out == "" and "does not know run 'run_nope'" in err
        code, out, err = shell("--base-url", origin, "runs", "watch", "r-live-1", "--json")
        assert code == 0 and json.loads(out)["id"] == "r-live-1" and "completed" in err


# ---------------------------------------------------------------------------- leaderboard / compare / health


def test_leaderboard_is_best_first_with_each_models_change(fast: SimulatorServer, shell: Shell) -> None:
    code, out, _ = shell(*on(fast), "leaderboard", "--json")
    assert code == 0
    rows = json.loads(out)
    scores = [r["avg_score"] for r in rows if r["avg_score"] is not None]
    assert scores == sorted(scores, reverse=True) and [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    assert any(r["change"] is not None for r in rows)  # the seeded world has two completed runs per model
    code, text, _ = shell(*on(fast), "leaderboard")
    lines = text.splitlines()
    assert lines[0].split()[:2] == ["#", "model"] and rows[0]["model_id"] in lines[1]


def test_leaderboard_against_the_live_shapes_is_ordered_best_first(shell: Shell) -> None:
    with live_shaped_server() as origin:
        code, out, _ = shell("--base-url", origin, "leaderboard", "--json")
    assert code == 0
    assert [r["model_id"] for r in json.loads(out)] == ["m-big", "m-small", "m-none"]
    assert [e["model_id"] for e in LEADERBOARD] != ["m-big", "m-small", "m-none"]  # the server's order was not


def test_compare_and_health(fast: SimulatorServer, shell: Shell) -> None:
    own, peer = fast.person_model_id, fast.world.peer_model_ids[0]
    code, out, _ = shell(*on(fast), "compare", own, peer, "--json")
    body = json.loads(out)
    assert code == 0 and body["models"] == [own, peer] and body["rows"]
    outcomes = [r["outcome"] for r in body["rows"]]
    assert outcomes == sorted(outcomes, key=["loss", "unscored", "tie", "win"].index)  # A's losses first
    code, _, err = shell(*on(fast), "compare", own)
    assert code == 2 and "two or three models" in err
    code, out, _ = shell(*on(fast), "health", peer)
    assert code == 0 and "of checks ok" in out
    code, _, err = shell(*on(fast), "health", "no-such-model")
    assert code == ExitCode.NOT_FOUND and "does not know model 'no-such-model'" in err


# ---------------------------------------------------------------------------- writes and the watch


def test_a_start_is_not_sent_unconfirmed_and_once_confirmed(fast: SimulatorServer, shell: Shell) -> None:
    before = len(api_runs(fast))
    code, out, err = shell(*on(fast), "runs", "start", "--model", fast.person_model_id)
    assert code == 2 and out == "" and "add --yes" in err
    assert len(api_runs(fast)) == before  # nothing was sent
    code, out, err = shell(*on(fast), "runs", "start", "--model", fast.person_model_id, "--eval", "e1", "--yes")
    assert code == 2 and "runs every eval" in err and len(api_runs(fast)) == before
    code, out, err = shell(*on(fast), "runs", "start", "--model", fast.person_model_id, "--yes", "--watch", "--json")
    assert code == 0, err
    assert json.loads(out)["status"] == "completed"
    assert len(api_runs(fast)) == before + 1  # sent once
    assert "started" in err and "completed" in err.splitlines()[-1]


def test_start_with_a_key_without_council_tier_is_refused_with_exit_4(fast: SimulatorServer, shell: Shell) -> None:
    before = len(api_runs(fast))
    code, out, err = shell(*on(fast, fast.member_key), "runs", "start", "--model", fast.person_model_id, "--yes")
    assert code == 4 and out == "" and "council tier" in err and err.count("\n") == 1
    assert len(api_runs(fast)) == before


def _active_run(server: SimulatorServer) -> str:
    with server.world.lock:  # a queued run nobody progresses: the test moves it by hand
        return sim_runs.create_run(server.world, [server.person_model_id])["id"]


@pytest.mark.parametrize(
    ("end", "code"),
    [
        (lambda w, rid: sim_runs.stall_run(w, rid), 3),
        (lambda w, rid: sim_runs.cancel_run(w, rid), 3),
        (lambda w, rid: sim_runs.fail_run(w, rid, "model unreachable"), 1),
    ],
)
def test_watch_exit_codes(
    fast: SimulatorServer,
    shell: Shell,
    monkeypatch: pytest.MonkeyPatch,
    end: Callable[[object, str], object],
    code: int,
) -> None:
    run_id = _active_run(fast)
    polls = {"n": 0}

    async def end_after_first_poll(_seconds: float) -> None:
        polls["n"] += 1
        if polls["n"] == 1:
            end(fast.world, run_id)

    monkeypatch.setitem(runs_cli.PACE, "sleep", end_after_first_poll)
    got, out, err = shell(*on(fast), "runs", "watch", run_id, "--json")
    assert got == code
    assert json.loads(out)["id"] == run_id
    assert err.splitlines()[0].startswith("queued")


def test_watch_of_an_unreachable_platform_exits_4(shell: Shell) -> None:
    code, out, err = shell("--base-url", "http://127.0.0.1:9", "runs", "watch", "run_1")
    assert code == 4 and out == "" and "cannot reach" in err.splitlines()[-1]


def test_cancel_and_resume_are_confirmed_sent_once_and_say_a_conflict(fast: SimulatorServer, shell: Shell) -> None:
    run_id = _active_run(fast)
    code, _, err = shell(*on(fast), "runs", "cancel", run_id)
    assert code == 2 and "add --yes" in err
    assert sim_http.get(f"{fast.base_url}/api/v1/runs/{run_id}").json()["status"] == "queued"
    code, out, err = shell(*on(fast), "runs", "cancel", run_id, "--yes", "--json")
    assert code == 0 and json.loads(out)["status"] == "cancelled"
    code, out, err = shell(*on(fast), "runs", "cancel", run_id, "--yes")
    assert code == ExitCode.REFUSED and out == "" and "nothing to cancel" in err
    code, out, err = shell(*on(fast), "runs", "resume", run_id, "--yes")
    assert code == ExitCode.REFUSED and "nothing to resume" in err


# ---------------------------------------------------------------------------- chatroom


def test_chatroom_reads_newest_last_and_follow_tails_new_messages(
    fast: SimulatorServer, shell: Shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = shell(*on(fast), "chatroom", "--json", "--limit", "10")
    messages = json.loads(out)
    assert code == 0 and len(messages) == 10
    times = [m["created_at"] for m in messages]
    assert times == sorted(times)  # newest last
    polls = {"n": 0}

    async def post_then_stop(_seconds: float) -> None:
        polls["n"] += 1
        if polls["n"] == 1:  # someone posts while we follow
            sim_http.post(
                f"{fast.base_url}/api/v1/chatroom",
                json={"content": "tail me \x1b[31m please"},
                headers={"Authorization": f"Bearer {fast.member_key}"},
            )
        if polls["n"] >= 3:
            raise KeyboardInterrupt  # the person presses ^C

    monkeypatch.setitem(chatroom_cli.PACE, "sleep", post_then_stop)
    code, out, err = shell(*on(fast), "chatroom", "--follow", "--limit", "1", "--json")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert [m["content"] for m in lines].count("tail me \x1b[31m please") == 1  # once, decoded as sent
    assert "\x1b" not in out  # inert on the terminal
    assert len({m["id"] for m in lines}) == len(lines)


def test_chatroom_post_mute_unmute_are_confirmed_and_sent_once(fast: SimulatorServer, shell: Shell) -> None:
    peer = fast.world.peer_model_ids[-1]
    code, _, err = shell(*on(fast), "chatroom", "post", "hello from a script")
    assert code == 2 and "add --yes" in err
    code, out, err = shell(
        *on(fast), "chatroom", "post", "hello from a script", "--reply-from", peer, "--yes", "--json"
    )
    assert code == 0 and json.loads(out)["replies_expected_from"] == [peer]
    room = sim_http.get(f"{fast.base_url}/api/v1/chatroom", params={"limit": 100}).json()["messages"]
    assert [m["content"] for m in room].count("hello from a script") == 1
    code, _, err = shell(*on(fast), "chatroom", "mute", peer)
    assert code == 2 and fast.world.models[peer]["chatroom_enabled"] is True
    code, out, _ = shell(*on(fast), "chatroom", "mute", peer, "--yes")
    assert code == 0 and "muted" in out and fast.world.models[peer]["chatroom_enabled"] is False
    code, out, _ = shell(*on(fast), "chatroom", "unmute", peer, "--yes", "--json")
    assert code == 0 and json.loads(out) == {"model_id": peer, "chatroom_enabled": True}
    writes = fast.requests.count("POST", "/chatroom")
    code, out, _ = shell(*on(fast), "chatroom", "unmute", peer, "--yes")  # it is not muted
    assert code == 0 and out.strip() == f"{peer} is not muted: nothing to unmute; nothing was sent."
    assert fast.requests.count("POST", "/chatroom") == writes  # nothing was sent
    code, _, err = shell(*on(fast, fast.member_key), "chatroom", "mute", peer, "--yes")
    assert code == 4 and "council tier" in err


# ---------------------------------------------------------------------------- global options


def test_global_options_reach_the_verbs_before_or_after_it(
    fast: SimulatorServer, shell: Shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EVALS_BLAH_API_KEY", raising=False)
    code, before, _ = shell("--base-url", fast.base_url, "runs", "list", "--json")
    code2, after, _ = shell("runs", "list", "--base-url", fast.base_url, "--json")
    assert code == code2 == 0 and json.loads(before) == json.loads(after)
    code, _, err = shell("--base-url", "not a url", "leaderboard")
    assert code == 2 and err.count("\n") == 1
    code, out, err = shell("--model", "m", "runs", "list")  # not the app: a clear refusal
    assert code == 2 and out == "" and "only --base-url, --api-key, --profile and --json apply to `runs`" in err
    code, out, err = shell(*on(fast), "runs", "list", "--model", "no-such-model")
    assert code == ExitCode.NOT_FOUND and "does not know model 'no-such-model'" in err


# ---------------------------------------------------------------------------- lost answers


def _lose_answers(monkeypatch: pytest.MonkeyPatch, method: str, *, after_sending: bool) -> list[int]:
    """The platform does the write (or not) and its answer is lost on the way back."""
    from api_client.blahdev.client import BlahClient
    from api_client.errors import OutcomeUnknownError

    sent: list[int] = []
    real = getattr(BlahClient, method)

    async def lossy(self: BlahClient, *args: object, **kwargs: object) -> object:
        sent.append(1)
        if after_sending:
            await real(self, *args, **kwargs)
        raise OutcomeUnknownError("timed out waiting for the answer")

    monkeypatch.setattr(BlahClient, method, lossy)
    return sent


def test_a_lost_post_answer_is_settled_by_reading_the_room_never_resent(
    fast: SimulatorServer, shell: Shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = _lose_answers(monkeypatch, "post_chatroom", after_sending=True)
    code, out, err = shell(*on(fast), "chatroom", "post", "did this land?", "--yes")
    assert code == 0 and sent == [1] and "it was posted" in err
    room = sim_http.get(f"{fast.base_url}/api/v1/chatroom", params={"limit": 100}).json()["messages"]
    assert [m["content"] for m in room].count("did this land?") == 1
    monkeypatch.undo()
    sent = _lose_answers(monkeypatch, "post_chatroom", after_sending=False)
    code, out, err = shell(*on(fast), "chatroom", "post", "this one did not", "--yes")
    assert code == ExitCode.REFUSED and sent == [1] and "it was not posted" in err and out == ""


def test_a_lost_mute_answer_is_settled_by_reading_the_model(
    fast: SimulatorServer, shell: Shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    peer = fast.world.peer_model_ids[0]
    sent = _lose_answers(monkeypatch, "set_chatroom_enabled", after_sending=True)
    code, out, _ = shell(*on(fast), "chatroom", "mute", peer, "--yes")
    assert code == 0 and sent == [1] and "timed out, but" in out and "muted" in out
    assert fast.world.models[peer]["chatroom_enabled"] is False
    monkeypatch.undo()
    assert shell(*on(fast), "chatroom", "unmute", peer, "--yes")[0] == 0


def test_a_lost_start_answer_is_looked_for_in_the_runs_never_resent(
    fast: SimulatorServer, shell: Shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = len(api_runs(fast))
    sent = _lose_answers(monkeypatch, "start_run", after_sending=True)
    code, out, err = shell(*on(fast), "runs", "start", "--model", fast.person_model_id, "--yes", "--json")
    assert code == 0 and sent == [1] and "it did start" in err
    assert len(api_runs(fast)) == before + 1 and json.loads(out)["id"] == api_runs(fast)[0]["id"]


def test_leaderboard_and_compare_carry_intervals_paired_differences_and_tiers(
    fast: SimulatorServer, shell: Shell
) -> None:
    code, out, _ = shell(*on(fast), "leaderboard", "--json")
    rows = json.loads(out)
    assert code == 0
    for row in rows:
        bars = row["error_bars"]
        estimate = bars["estimate"]
        assert estimate["interval"][0] <= estimate["mean"] <= estimate["interval"][1]
        assert estimate["method"] in ("wilson", "clt", "clustered") and bars["tier"] >= 1
        assert {p["other"] for p in bars["pairs"]} == {r["model_id"] for r in rows} - {row["model_id"]}
        assert all(0.0 <= p["p_holm"] <= 1.0 and p["p_holm"] >= p["p_value"] for p in bars["pairs"])
    assert rows[0]["error_bars"]["tied_with_leader"] is True and rows[0]["error_bars"]["board"]["mde"] > 0
    code, text, _ = shell(*on(fast), "leaderboard")
    lines = text.splitlines()
    assert lines[0].split()[:7] == ["#", "model", "id", "mean", "[95%", "CI]", "tier"]
    assert "leader" in lines[1] and any("cannot be seen reliably" in line for line in lines)
    assert any(line.startswith(("tied with the leader within noise", rows[0]["model_name"] or "")) for line in lines)

    own, peer = fast.person_model_id, fast.world.peer_model_ids[0]
    code, out, _ = shell(*on(fast), "compare", own, peer, "--json")
    bars = json.loads(out)["error_bars"]
    assert (
        code == 0
        and len(bars["pairs"]) == 1
        and bars["pairs"][0]["paired"]["test"] in ("paired t", "exact McNemar", "clustered paired t")
    )
    assert {e["model"] for e in bars["entries"]} == {own, peer} and bars["tiers"]
    code, text, _ = shell(*on(fast), "compare", own, peer)
    assert code == 0 and text.startswith(f"{own} against {peer}")
    assert f"{own} − {peer}: " in text and "paired evals, p " in text and "cannot be seen reliably" in text
