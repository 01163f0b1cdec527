"""Model registration: checked before sending (pure), then the form against the simulator."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static, TextArea

from api_client.blahdev.client import BlahClient
from application.models.registration import (
    DESCRIPTION_MAX,
    NAME_MAX,
    classify_inference_uri,
    validate_registration,
)
from simulator.server import SimulatorServer
from tests.support.chatroom import SIZE, RecordingTransport, make_app, wait_for
from tui.screens.models.register import RegisterModelScreen
from tui.screens.models.screen import ModelsScreen
from widgets.confirm import ConfirmScreen


@pytest.mark.parametrize(
    ("uri", "kind"),
    [
        ("https://gpu.example.test/v1/chat/completions", "url"),
        ("http://127.0.0.1:8000", "url"),
        ("anthropic/claude-sonnet-4-6", "openrouter"),
        ("meta-llama/llama-3.1-8b-instruct:free", "openrouter"),
        ("openai-compatible:https://gpu-box.example.test/v1#tinystories-chat-1m", "openai-compatible"),
        ("openai-compatible:https://host#model-name", "openai-compatible"),
    ],
)
def test_accepted_inference_uris(uri: str, kind: str) -> None:
    assert classify_inference_uri(uri) == kind
    checked, problems = validate_registration("My Model", uri)
    assert problems == [] and checked is not None and checked.inference_uri == uri and checked.uri_kind == kind


@pytest.mark.parametrize(
    ("uri", "says"),
    [
        ("", "required"),
        ("claude", "not a URL and not an OpenRouter path"),
        ("ftp://host/model", "only http:// and https://"),
        ("https://", "not valid"),
        ("https://exa mple.test", "not valid"),
        ("org/", "org/model"),
        ("a/b/c", "org/model"),
        ("openai-compatible:https://host", "model name after '#'"),
        ("openai-compatible:https://host#", "model name after '#'"),
        ("openai-compatible:host#model", "http(s) URL before '#'"),
        ("https://host/\x1b]52;c;x\x07", "control characters"),
    ],
)
def test_rejected_inference_uris_say_why(uri: str, says: str) -> None:
    checked, problems = validate_registration("My Model", uri)
    assert checked is None
    assert [p.field for p in problems] == ["inference_uri"]
    assert says in problems[0].message


def test_name_and_description_limits() -> None:
    uri = "org/model"
    assert validate_registration("x" * NAME_MAX, uri)[0] is not None
    assert validate_registration("  padded  ", uri)[0].name == "padded"  # type: ignore[union-attr]
    for name, says in (
        ("", "required"),
        ("   ", "required"),
        ("x" * (NAME_MAX + 1), "101 characters; at most 100"),
        ("a\x00b", "control"),
    ):
        checked, problems = validate_registration(name, uri)
        assert checked is None and problems[0].field == "name" and says in problems[0].message
    assert validate_registration("m", uri, "d" * DESCRIPTION_MAX)[0] is not None
    checked, problems = validate_registration("m", uri, "d" * (DESCRIPTION_MAX + 1))
    assert checked is None and problems[0].field == "description" and "1001 characters" in problems[0].message
    assert validate_registration("m", uri, "   ")[0].description is None  # type: ignore[union-attr]


def test_every_problem_is_reported_at_once() -> None:
    checked, problems = validate_registration("", "nope", "d" * 2000)
    assert checked is None
    assert [p.field for p in problems] == ["name", "inference_uri", "description"]


# --------------------------------------------------------------------------- the form


async def _open_form(pilot: object, app: object) -> RegisterModelScreen:
    await pilot.press("6")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, ModelsScreen) and bool(app.screen.models), what="models")  # type: ignore[arg-type, attr-defined]
    await pilot.press("n")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, RegisterModelScreen), what="the form")  # type: ignore[arg-type, attr-defined]
    return app.screen  # type: ignore[attr-defined, no-any-return]


def _fill(form: RegisterModelScreen, name: str, uri: str, description: str = "") -> None:
    form.query_one("#reg-name", Input).value = name
    form.query_one("#reg-uri", Input).value = uri
    form.query_one("#reg-description", TextArea).text = description


async def test_invalid_input_sends_nothing_then_the_fixed_input_is_sent_once(fresh_sim: SimulatorServer) -> None:
    spy = RecordingTransport()
    models_before = len(fresh_sim.world.models)
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key, transport=spy) as client:
        app = make_app(fresh_sim, client)
        async with app.run_test(size=SIZE) as pilot:
            form = await _open_form(pilot, app)
            _fill(form, "", "claude", "x" * 1001)
            await pilot.press("ctrl+s")
            await pilot.pause()
            shown = str(form.query_one("#reg-problems", Static).render())
            assert "Name: the name is required" in shown
            assert "Inference URI: not a URL and not an OpenRouter path" in shown
            assert "Description: the description is 1001 characters" in shown
            assert app.focused is form.query_one("#reg-name")  # the first bad field
            _fill(form, "Fine name", "openai-compatible:https://host", "")
            await pilot.press("ctrl+s", "ctrl+s")
            await pilot.pause()
            assert "model name after '#'" in str(form.query_one("#reg-problems", Static).render())
            assert not isinstance(app.screen, ConfirmScreen)  # nothing to confirm: nothing to send
            assert spy.count("POST", "/models") == 0
            assert len(fresh_sim.world.models) == models_before

            # fixed: confirmed, sent once (double presses included), the server's answer shown
            _fill(
                form,
                "Tiny v2 [@click=app.quit]x[/]",
                "openai-compatible:https://gpu.example.test/v1#tiny-v2",
                "second try",
            )
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
            await pilot.press("y", "y")
            await wait_for(pilot, lambda: form.registered is not None, what="the server's answer")
            await pilot.press("ctrl+s")  # registering the same again does nothing
            await pilot.pause(0.2)
            answer = str(form.query_one("#reg-answer", Static).render())
            assert "Registered. The platform answered:" in answer and form.registered.id in answer  # type: ignore[union-attr]
            assert "[@click=app.quit]x[/]" in answer  # the name is shown as text
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, ModelsScreen), what="back on the list")
            models = app.screen
            assert isinstance(models, ModelsScreen)
            await wait_for(
                pilot, lambda: models.highlighted_model_id() == form.registered.id, what="new model highlighted"
            )  # type: ignore[union-attr]
    assert spy.count("POST", "/models") == 1
    assert len(fresh_sim.world.models) == models_before + 1


async def test_the_servers_refusal_is_shown(sim: SimulatorServer, client: BlahClient) -> None:
    """A URI the local checks accept but this platform refuses (it caps URIs at 500 chars)."""
    app = make_app(sim, client)
    models_before = len(sim.world.models)
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_form(pilot, app)
        _fill(form, "Long URI model", "https://host.example.test/" + "v" * 600)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
        await pilot.press("y")
        answer = form.query_one("#reg-answer", Static)
        await wait_for(pilot, lambda: "The platform refused it" in str(answer.render()), what="the refusal")
        assert "inference_uri" in str(answer.render())  # the server's own words
        assert form.registered is None
    assert len(sim.world.models) == models_before
