"""`blah-tui report MODEL --from FILE.jsonl` and `--offline`: the same diagnosis as from the
platform for the same calls (the real simulator, the real `export`), the source and its time
range said; bad input is one clear line and a non-zero exit, unreadable lines counted and said."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from api_client.blahdev.client import BlahClient
from application.diagnosis.analysis import analyse
from application.diagnosis.data import Fetched, fetch_inputs
from cli.blah.report.local import UNREADABLE_LINES, local_report_main
from cli.exit_codes import ExitCode
from cli.main import main as cli_main
from diagnosis import render_json
from simulator.server import SimulatorServer
from tests.support.config_files import write_config_text

#: The parts of the report that come from the calls alone (the platform-only inputs aside).
FROM_THE_CALLS = (
    "calls_examined",
    "model_calls",
    "failing_calls",
    "failure_rate",
    "window_from",
    "window_to",
    "rates",
    "finish_reasons",
    "templates",
    "failing_groups",
    "groups",
    "examples",
    "suggestions",
)


def export(sim: SimulatorServer, path: Path) -> None:
    assert cli_main(["export", sim.person_model_id, "--base-url", sim.base_url, "-o", str(path)]) == 0


def report(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli_main(["report", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


async def platform_report(sim: SimulatorServer) -> dict[str, object]:
    """The platform path's report over every call, with /results and /health left out."""
    async with BlahClient(sim.base_url) as client:
        inputs = await fetch_inputs(client, sim.person_model_id, limit=1_000_000, config_template="chatml")
    inputs.results = Fetched(None, "left out")
    inputs.health = Fetched(None, "left out")
    return json.loads(render_json(analyse(inputs).report))


def test_from_a_dump_and_offline_give_the_platform_s_diagnosis_of_the_same_calls(
    sim: SimulatorServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    write_config_text(f'[templates]\n"{sim.person_model_id}" = "chatml"\n')
    dump = tmp_path / "calls.jsonl"
    export(sim, dump)
    lines = dump.read_text().count("\n")
    expected = asyncio.run(platform_report(sim))
    assert expected["calls_examined"] == lines > 100

    code, out, err = report([sim.person_model_id, "--from", str(dump), "--json"], capsys)
    assert code == 0, err
    from_file = json.loads(out)
    assert {k: from_file[k] for k in FROM_THE_CALLS} == {k: expected[k] for k in FROM_THE_CALLS}
    assert from_file["source"]["kind"] == "file" and from_file["source"]["calls_read"] == lines
    assert from_file["source"]["unreadable_lines"] == 0
    assert from_file["trained_template"] == "chatml" and from_file["template_source"] == "config"

    # `export` filled the profile's local archive with the same calls.
    code, out, err = report([sim.person_model_id, "--offline", "--base-url", sim.base_url, "--json"], capsys)
    assert code == 0, err
    offline = json.loads(out)
    assert {k: offline[k] for k in FROM_THE_CALLS} == {k: expected[k] for k in FROM_THE_CALLS}
    assert offline["source"]["kind"] == "archive" and offline["calls_limit"] is None
    assert offline["source"]["oldest_ms"] == expected["window_from"]

    code, out, err = report([sim.person_model_id, "--offline", "--base-url", sim.base_url], capsys)
    assert code == 0, err
    assert out.startswith("# Diagnosis of ")
    assert f"Read all {lines} calls of the local archive" in out
    assert "UTC to 20" in out  # the archive's time range, in words
    assert "The platform was not asked" in out

    code, out, err = report(
        [sim.person_model_id, "--offline", "--base-url", sim.base_url, "--limit", "50", "--json"], capsys
    )
    assert code == 0, err
    assert json.loads(out)["calls_examined"] == 50


def test_a_file_that_is_not_jsonl_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "calls.csv"
    csv.write_text("id,prompt,response\n" + "".join(f"{i},hello,hi\n" for i in range(20)))
    code, out, err = report(["m", "--from", str(csv)], capsys)
    assert code == ExitCode.USAGE and out == ""
    assert err.count("\n") == 1
    assert "is not a JSONL dump of calls" in err and "line 1: not valid JSON" in err


def test_lines_that_are_not_calls_are_counted_said_and_exit_9(tmp_path: Path) -> None:
    good = [
        {"id": f"c{i}", "created_at": 1_770_000_000_000 - i, "prompt": "What is 2+2?", "response": "4."}
        for i in range(5)
    ]
    lines = [
        json.dumps(good[0]),
        "not json at all",
        json.dumps(good[1]),
        json.dumps({"prompt": "no id"}),
        json.dumps(good[2]),
        "[1, 2]",
        json.dumps({"logs": good[3:]}),
        json.dumps(good[0]),
    ]
    dump = tmp_path / "mixed.jsonl"
    dump.write_text("\n".join(lines) + "\n")
    out, err = io.StringIO(), io.StringIO()
    code = local_report_main("m", dump_path=dump, as_json=False, limit=None, out=out, err=err)
    assert code == UNREADABLE_LINES == ExitCode.SKIPPED_INPUT == 9
    assert err.getvalue().count("\n") == 1
    assert "3 lines of 8 could not be read as calls" in err.getvalue()
    assert "line 2: not valid JSON" in err.getvalue() and "line 4: not a call (id" in err.getvalue()
    text = out.getvalue()
    assert "5 calls examined" in text  # the good ones, the repeated one once
    assert "3 lines of 8 could not be read as calls" in text and "1 repeated call read once" in text

    out, err = io.StringIO(), io.StringIO()
    assert local_report_main("m", dump_path=dump, as_json=True, limit=None, out=out, err=err) == ExitCode.SKIPPED_INPUT
    doc = json.loads(out.getvalue())
    assert doc["source"]["unreadable_lines"] == 3 and doc["source"]["duplicates"] == 1
    assert doc["source"]["unreadable"][0] == "line 2: not valid JSON"


def test_a_missing_archive_or_file_is_one_line_and_exit_6_or_8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = report(["never-seen", "--offline", "--base-url", "http://127.0.0.1:9"], capsys)
    assert code == ExitCode.NOT_FOUND and out == ""
    assert err.count("\n") == 1 and "there is no local archive of model 'never-seen'" in err
    code, out, err = report(["m", "--from", str(tmp_path / "absent.jsonl")], capsys)
    assert code == ExitCode.LOCAL_FILE and out == "" and err.count("\n") == 1 and "cannot read" in err


def test_bad_flag_combinations_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = report(["m", "--from", str(tmp_path / "x.jsonl"), "--limit", "0"], capsys)
    assert code == 2 and "--limit must be at least 1" in err
    code, _, err = report(["m", "--offline", "--compare", "other"], capsys)
    assert code == 2 and "--compare reads the platform" in err
    with pytest.raises(SystemExit) as exited:
        cli_main(["report", "m", "--offline", "--from", "x.jsonl"])
    assert exited.value.code == 2


def test_a_logs_page_as_the_platform_answers_it_is_read_whole(tmp_path: Path) -> None:
    calls = [
        {
            "id": f"c{i}",
            "created_at": 1_770_000_000_000 - i,
            "prompt": "Say hi.",
            "response": "hi hi hi hi hi hi hi hi hi hi hi hi hi hi hi hi hi hi hi hi" if i % 2 else "Hi!",
        }
        for i in range(6)
    ]
    page = tmp_path / "page.json"
    page.write_text(json.dumps({"logs": calls, "next_before": None, "stats": {"total": 6}}, indent=2))
    out, err = io.StringIO(), io.StringIO()
    assert local_report_main("m", dump_path=page, as_json=True, limit=None, out=out, err=err) == 0, err.getvalue()
    doc = json.loads(out.getvalue())
    assert doc["calls_examined"] == 6 and doc["rates"]["loop"]["count"] == 3
    assert doc["source"]["unreadable_lines"] == 0
