"""How the session gets its errorbar client (cli.app.launch.attach_errorbar, the one place): from
an errorbar profile with $ERRORBAR_API_KEY, never from nothing, never showing a refused key;
and the demo queue's runs (three finished bake-offs and one running)."""

from __future__ import annotations

import pytest

from api_client.errorbar.client import ErrorbarClient
from application.session.context import AppContext
from cli.app.launch import _attach_configured_errorbar, attach_errorbar
from simulator.errorbar.demo import DEMO_RUNS, queue_demo_runs
from simulator.errorbar.server import ErrorbarServer
from tests.support.config_files import write_config_text

SK = "sk_canary_9f8e7d6c5b4a"


@pytest.fixture(autouse=True)
def _no_errorbar_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ERRORBAR_API_KEY", raising=False)


def test_no_key_no_bakeoffs() -> None:
    assert attach_errorbar(AppContext(model_id="m"), "http://127.0.0.1:9", None).errorbar is None
    assert _attach_configured_errorbar(AppContext(model_id="m")).errorbar is None  # nothing configured, no problem
    assert AppContext(model_id="m").errorbar_problem is None


def test_a_key_of_another_platform_is_refused_and_never_shown() -> None:
    key = "blah_" + "s3cr3t" * 6
    ctx = attach_errorbar(AppContext(model_id="m"), "http://127.0.0.1:9", key)
    assert ctx.errorbar is None
    assert ctx.errorbar_problem is not None and "errorbar not connected" in ctx.errorbar_problem
    assert key not in ctx.errorbar_problem and "s3cr3t" not in ctx.errorbar_problem


def test_an_errorbar_profile_and_the_key_variable_attach_the_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    write_config_text('[profiles.q]\nplatform = "errorbar"\nbase_url = "https://queue.example/v1"\n')
    monkeypatch.setenv("ERRORBAR_API_KEY", SK)
    ctx = _attach_configured_errorbar(AppContext(model_id="m"))
    assert isinstance(ctx.errorbar, ErrorbarClient)
    assert ctx.errorbar.base_url == "https://queue.example"
    assert SK not in repr(ctx)


def test_a_profile_without_a_key_says_so() -> None:
    write_config_text('[profiles.q]\nplatform = "errorbar"\nbase_url = "https://queue.example/v1"\n')
    ctx = _attach_configured_errorbar(AppContext(model_id="m"))
    assert ctx.errorbar is None
    assert ctx.errorbar_problem == (
        "errorbar not connected: profile 'q' has no key (set $ERRORBAR_API_KEY or run blah-tui login --profile q)"
    )


def test_a_key_without_an_address_is_said_once_the_app_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRORBAR_API_KEY", SK)
    ctx = _attach_configured_errorbar(AppContext(model_id="m"))
    assert ctx.errorbar is None
    assert ctx.errorbar_problem is not None and "no address" in ctx.errorbar_problem and SK not in ctx.errorbar_problem


def test_the_demo_queue_has_three_finished_bakeoffs_and_one_running() -> None:
    with ErrorbarServer(seed=7, speed=0.0001) as server:
        ids = queue_demo_runs(server)
        statuses = [server.store.status(server.store.get(run_id)) for run_id in ids]
    assert len(ids) == len(DEMO_RUNS)
    assert statuses == ["DONE", "DONE", "DONE", "PENDING"]
