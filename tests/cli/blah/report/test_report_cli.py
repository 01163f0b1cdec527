"""`blah-tui report`: the blunt report of a model, against the real simulator, as markdown and
as JSON; an unknown model and an unreachable platform are one clear line and a non-zero exit;
failed endpoints are said in the report; hostile model text never reaches the terminal raw."""

from __future__ import annotations

import asyncio
import io
import json
import re
import socket

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import Diagnosis
from application.diagnosis.analysis import analyse
from application.diagnosis.data import Fetched, fetch_inputs
from cli.blah.report.remote import build_report_text, report_main
from cli.exit_codes import ExitCode
from cli.main import main as cli_main
from simulator.server import SimulatorServer
from tests.support import sim_http
from tests.support.hostile_payloads import assert_inert
from tests.support.logs_world import add_hostile_calls

LIMIT = 300


def run(model_id: str, base_url: str, *, as_json: bool = False, limit: int = LIMIT) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = report_main(model_id, base_url=base_url, api_key=None, as_json=as_json, limit=limit, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def platform_diagnosis(sim: SimulatorServer) -> Diagnosis:
    answer = sim_http.get(f"{sim.base_url}/api/v1/models/{sim.person_model_id}/diagnose", timeout=10)
    return Diagnosis.model_validate(answer.json())


def test_markdown_report_reads_the_calls_and_says_what_it_did_not_ask(sim: SimulatorServer) -> None:
    code, out, err = run(sim.person_model_id, sim.base_url)
    assert code == 0, err
    assert err == ""
    assert out.startswith("# Diagnosis of ")
    assert f"{LIMIT} calls examined" in out
    assert "Trained chat template: `chatml`" in out  # the platform's model record names it
    platform = platform_diagnosis(sim)
    assert f"The platform examined {platform.calls_examined} calls." in out
    for heading in (
        "## Failure kinds",
        "## Which prompts fail",
        "## Prompt format",
        "## Cut off or stopped",
        "## Judge results worth doubting",
        "## Health: the model or its host?",
        "## Training data to add",
        "## What the platform did not give",
    ):
        assert heading in out
    assert "Every endpoint answered." in out
    assert "failure-clusters` was not asked: it spends a judge call" in out
    assert_inert(out)


def test_json_report_carries_the_numbers_and_the_fetch_problems(sim: SimulatorServer) -> None:
    code, out, err = run(sim.person_model_id, sim.base_url, as_json=True)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["model_id"] == sim.person_model_id
    assert doc["calls_examined"] == LIMIT
    assert doc["calls_limit"] == LIMIT
    assert doc["fetch_problems"] == {}
    assert doc["model_calls"] + (doc["host"]["calls"] if doc["host"] else 0) == LIMIT
    assert doc["platform"]["calls_examined"] == platform_diagnosis(sim).calls_examined
    assert doc["rates"]["loop"]["population"] == doc["model_calls"]
    assert doc["trained_template"] == "chatml" and doc["template_source"] == "platform"
    assert out.isascii()


def test_unknown_model_is_one_line_and_exit_6(sim: SimulatorServer) -> None:
    code, out, err = run("no-such-model", sim.base_url)
    assert code == ExitCode.NOT_FOUND
    assert out == ""
    assert err.count("\n") == 1
    assert "does not know model 'no-such-model'" in err


def test_unreachable_platform_is_one_line_and_exit_4() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, out, err = run("any-model", f"http://127.0.0.1:{port}")
    assert code == ExitCode.UNREACHABLE
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("blah-tui report: cannot reach the platform")


def test_bad_limit_is_refused_before_any_request(capsys: object) -> None:
    code = cli_main(["report", "m", "--limit", "0", "--base-url", "http://127.0.0.1:9"])
    assert code == 2
    captured = capsys.readouterr()  # type: ignore[attr-defined]
    assert "--limit must be at least 1" in captured.err and captured.out == ""


def test_failed_and_empty_endpoints_are_said_in_the_report(sim: SimulatorServer) -> None:
    async def gather() -> object:
        async with BlahClient(sim.base_url) as client:
            return await fetch_inputs(client, sim.person_model_id, limit=120)

    inputs = asyncio.run(gather())
    inputs.diagnose = Fetched(None, "the platform's /diagnose failed: HTTP 500: boom")  # type: ignore[attr-defined]
    inputs.results = Fetched([])  # type: ignore[attr-defined]
    view = analyse(inputs)  # type: ignore[arg-type]
    text = build_report_text(view, as_json=False, limit=120)
    assert "`/models/{id}/diagnose`: the platform's /diagnose failed: HTTP 500: boom" in text
    assert "`/models/{id}/results`: the platform returned no results for this model" in text
    assert "The platform's /diagnose returned nothing" in text
    doc = json.loads(build_report_text(view, as_json=True, limit=120))
    assert set(doc["fetch_problems"]) == {"/models/{id}/diagnose", "/models/{id}/results"}
    assert doc["agreements"] is None


def test_hostile_model_text_never_reaches_the_terminal_raw(fresh_sim: SimulatorServer) -> None:
    ids = add_hostile_calls(fresh_sim.world, fresh_sim.person_model_id)
    assert ids

    # diagnosis's own markdown is already inert (checked before the command's last sanitise)...
    async def gather() -> object:
        async with BlahClient(fresh_sim.base_url) as client:
            return await fetch_inputs(client, fresh_sim.person_model_id, limit=200)

    view = analyse(asyncio.run(gather()))  # type: ignore[arg-type]
    assert set(ids) <= set(view.entries_by_id)
    markdown = build_report_text(view, as_json=False, limit=200)
    assert_inert(markdown)
    assert not re.search(r"[\u202a-\u202e\u2066-\u2069]", markdown), "no raw bidi control"
    # ...and so is what the command prints
    code, out, err = run(fresh_sim.person_model_id, fresh_sim.base_url, limit=200)
    assert code == 0, err
    assert_inert(out)
    assert not re.search(r"[\u202a-\u202e\u2066-\u2069]", out), "no raw bidi control"
