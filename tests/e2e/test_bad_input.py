"""Bad input everywhere: each mistake a person (or the platform) can make gets a clear message
and a way on, never a traceback.

- an unknown model (`--model nope`): the app opens and says the model is not on the platform
  and which key picks one;
- a malformed base URL: one line and exit code 2, for the app, `export` and `report`;
- an unreachable host: the app opens, the header says unreachable, the tail keeps retrying and
  recovers by itself once the platform answers;
- an unknown or expired key: a write answered 401 says the key was not accepted;
- a config file with a syntax error: the app starts on the defaults and names the line;
- a corrupt archive file: moved aside (not deleted), a fresh one is used, the person is told;
- a reply holding a lone UTF-16 surrogate (valid JSON, what JavaScript writes for a broken
  emoji): the page still loads and can be archived.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import httpx
import pytest

from api_client.archives.archive import Archive
from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from application.session.paths import config_file, data_dir
from application.session.settings.config import load_config
from application.session.settings.typed import Settings
from cli.app.launch import apply_config
from cli.main import main
from simulator.server import SimulatorServer
from tests.support import sim_http
from tests.support.hostile_e2e import SIZE, frame_text, press_now, settle, wait_until
from tests.support.notify_log import NotificationLog
from tui.app import create_app
from widgets.confirm import ConfirmScreen


@pytest.fixture(scope="module")
def bad_sim() -> Iterator[SimulatorServer]:
    with SimulatorServer(seed=37, speed=50.0, live=False) as server:
        yield server


# --------------------------------------------------------------------------- the model, the address


async def test_an_unknown_model_is_named_with_the_way_on(
    bad_sim: SimulatorServer, notifications: NotificationLog
) -> None:
    async with BlahClient(bad_sim.base_url, api_key=bad_sim.council_key) as client:
        app = create_app(
            AppContext(
                model_id="nope", client=client, base_url=bad_sim.base_url, settings=Settings(persist_theme=False)
            )
        )
        async with app.run_test(size=SIZE):
            said = await wait_until(lambda: any("not found on" in n for n in notifications.messages(app)), 20)
            assert said, notifications.messages(app)
            message = next(n for n in notifications.messages(app) if "not found on" in n)
            assert "'nope'" in message and bad_sim.base_url in message and "press 6 to pick a model" in message
            assert await wait_until(lambda: "not found" in frame_text(app), 10)  # the Logs screen too
            press_now(app, "6")  # ... and the way on works
            assert await wait_until(lambda: app.current_mode == "models", 10)
            assert app.is_running


@pytest.mark.parametrize(
    "argv",
    [
        ["--base-url", "notaurl", "--model", "m"],
        ["--base-url", "http://", "--model", "m"],
        ["export", "m", "--base-url", "notaurl"],
        ["export", "m", "--base-url", "ftp://example.com"],
        ["report", "m", "--base-url", "notaurl"],
    ],
)
def test_a_malformed_base_url_is_one_clear_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 or (argv[0] in ("export", "report") and code != 0), code
    assert "--base-url" in err and "is not a platform address" in err
    assert "A valid one looks like https://evals.blah.dev" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_an_unreachable_platform_opens_says_so_and_recovers_by_itself() -> None:
    from tui.screens.logs.screen import LogsScreen

    port = _free_port()  # nothing listens here (yet)
    base = f"http://127.0.0.1:{port}"
    async with BlahClient(base, deadline=3.0, max_attempts=2) as client:
        app = create_app(
            AppContext(
                model_id="tinystories-chat-1m",
                client=client,
                base_url=base,
                settings=Settings(persist_theme=False, logs_interval=0.2, logs_max_interval=1.0),
            )
        )
        async with app.run_test(size=SIZE):
            # Each state is waited for, none is assumed from another: on a busy machine the tail
            # can be retrying before the first page has failed (and said so), and the frame
            # shows the recovered rows a moment before the error line is repainted away.
            assert await wait_until(lambda: "unreachable" in frame_text(app).splitlines()[0], 20), frame_text(app)[:300]
            screen = app.screen
            assert isinstance(screen, LogsScreen)
            assert await wait_until(
                lambda: (
                    screen.feed is not None
                    and screen.feed.tail_state() is not None
                    and screen.feed.tail_state().phase == "retrying"
                ),
                20,
            )
            assert await wait_until(lambda: "couldn't load" in frame_text(app), 20), frame_text(app)[:600]
            with SimulatorServer(seed=37, speed=50.0, live=False, port=port):
                # the newest page (missed at start) and the live tail both come back by themselves
                recovered = await wait_until(
                    lambda: (
                        screen.log_list.row_count > 0
                        and "connected" in frame_text(app).splitlines()[0]
                        and "couldn't load" not in frame_text(app)
                    ),
                    40,
                )
                assert recovered, frame_text(app)[:600]
                assert app.is_running


async def test_a_rejected_key_on_a_write_says_so(bad_sim: SimulatorServer, notifications: NotificationLog) -> None:
    from tui.screens.runs.pick import ModelPickerScreen

    async with BlahClient(bad_sim.base_url, api_key="blah_expired_0000000000000000") as client:
        app = create_app(
            AppContext(
                model_id=bad_sim.person_model_id,
                client=client,
                base_url=bad_sim.base_url,
                settings=Settings(persist_theme=False),
            )
        )
        async with app.run_test(size=SIZE):
            press_now(app, "3")
            assert await wait_until(lambda: app.current_mode == "runs", 10)
            await settle(app)
            press_now(app, "s")
            assert await wait_until(lambda: isinstance(app.screen, ModelPickerScreen), 15)
            press_now(app, "y")
            assert await wait_until(lambda: isinstance(app.screen, ConfirmScreen), 15)
            press_now(app, "y")
            said = await wait_until(
                lambda: any("did not accept the API key" in n for n in notifications.messages(app)), 20
            )
            assert said, notifications.messages(app)
            assert any("401" in n for n in notifications.messages(app))
            assert app.is_running


# --------------------------------------------------------------------------- local files


async def test_a_config_file_with_a_syntax_error_starts_on_defaults_and_names_the_line(
    bad_sim: SimulatorServer,
    notifications: NotificationLog,
) -> None:
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('theme = "blah-light"\npoll_interval = = 3\n', encoding="utf-8")
    loaded = load_config()
    assert loaded.config.theme == "blah-dark"  # the defaults, not half the file
    async with BlahClient(bad_sim.base_url) as client:
        ctx = apply_config(
            AppContext(model_id=bad_sim.person_model_id, client=client, base_url=bad_sim.base_url), loaded
        )
        ctx.settings.persist_theme = False
        app = create_app(ctx)
        async with app.run_test(size=SIZE):
            said = await wait_until(lambda: any("line 2" in n for n in notifications.messages(app)), 10)
            assert said, notifications.messages(app)
            message = next(n for n in notifications.messages(app) if "line 2" in n)
            assert str(path) in message and "defaults" in message
            assert app.theme == "blah-dark" and app.is_running
    assert path.read_text(encoding="utf-8").startswith('theme = "blah-light"')  # never overwritten


async def test_a_corrupt_archive_is_moved_aside_and_a_fresh_one_used(
    bad_sim: SimulatorServer, notifications: NotificationLog
) -> None:
    from tui.screens.logs.screen import LogsScreen

    path = Archive.path_for(data_dir(), bad_sim.base_url, bad_sim.person_model_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    garbage = b"SQLite format 3\x00" + b"\xde\xad\xbe\xef" * 4096  # a header, then rubbish
    path.write_bytes(garbage)
    async with BlahClient(bad_sim.base_url) as client:
        app = create_app(
            AppContext(
                model_id=bad_sim.person_model_id,
                client=client,
                base_url=bad_sim.base_url,
                settings=Settings(persist_theme=False),
            )
        )
        async with app.run_test(size=SIZE):
            said = await wait_until(lambda: any("moved aside" in n for n in notifications.messages(app)), 20)
            assert said, notifications.messages(app)
            screen = app.screen
            assert isinstance(screen, LogsScreen)
            assert await wait_until(lambda: screen.log_list.row_count > 0, 20)  # the fresh archive works
            assert screen.feed is not None and screen.feed.archive is not None
    moved = [p for p in path.parent.iterdir() if p.name.startswith(path.name + ".corrupt")]
    assert len(moved) == 1 and moved[0].read_bytes() == garbage  # not lost
    assert Archive(path).count() > 0


# --------------------------------------------------------------------------- what the platform sends


async def test_a_lone_surrogate_in_a_reply_does_not_break_the_page() -> None:
    entry = {
        "id": "log_1",
        "model_id": "m",
        "source": "test",
        "created_at": 1_700_000_000_000,
        "prompt": "hi",
        "response": "broken emoji: PLACEHOLDER",
        "error": None,
    }
    body = json.dumps({"logs": [entry], "next_since": 1_700_000_000_000, "next_before": 1_700_000_000_000})
    body = body.replace("PLACEHOLDER", "\\ud83d and a good one \\ud83d\\ude00")  # as JSON.stringify writes it

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body.encode(), headers={"content-type": "application/json"})

    async with BlahClient("https://example.invalid", transport=httpx.MockTransport(handler)) as client:
        page = await client.get_logs("m")
    reply = page.logs[0].response
    assert reply == "broken emoji: \ufffd and a good one \U0001f600"
    archive = Archive.create_temporary()
    try:
        assert archive.add(page.logs) == 1  # storable (a lone surrogate would not encode)
        assert archive.get("log_1").response == reply
    finally:
        archive.close()


async def test_json_that_is_broken_otherwise_is_still_refused() -> None:
    from api_client.errors import InvalidResponseError

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b'{"logs": [{"id": "\\ud83d', headers={"content-type": "application/json"})

    async with BlahClient("https://example.invalid", transport=httpx.MockTransport(handler)) as client:
        with pytest.raises(InvalidResponseError):
            await client.get_logs("m")


def test_the_simulator_serves_a_lone_surrogate_as_an_escape(bad_sim: SimulatorServer) -> None:
    with bad_sim.world.lock:  # a call whose logged prompt holds a lone surrogate
        entry = dict(bad_sim.world.logs.all_for(bad_sim.person_model_id)[-1])
        entry.update(id=bad_sim.world.logs.next_id(), prompt="emoji \ud83d please")
        bad_sim.world.logs.add(entry)
    response = sim_http.get(f"{bad_sim.base_url}/api/v1/logs/{entry['id']}", timeout=10)
    assert response.status_code == 200 and b"\\ud83d" in response.content
    # and a prompt sent with one (JSON allows the escape) is refused plainly, never a 500
    infer = sim_http.post(
        f"{bad_sim.base_url}/api/v1/models/{bad_sim.person_model_id}/infer",
        content=b'{"prompt": "broken \\ud83d emoji", "max_tokens": 8}',
        headers={"Authorization": f"Bearer {bad_sim.council_key}", "Content-Type": "application/json"},
        timeout=10,
    )
    assert infer.status_code == 422 and "valid string" in infer.json()["error"], infer.text
