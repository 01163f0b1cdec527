"""The canary scan of tests/e2e/test_security_key.py, for the keys of all three platforms: a
blah.dev key (``blah_``), a Blobfish key (``bf_``) and an errorbar queue key (``sk_``), set in
the environment and stored per profile, are in no command output (``status``, ``profiles
list``, ``report``, ``export``, ``blobfish ...``), no log record, no file the app writes (the
config after ``profiles add`` included; only the 0600 credentials file holds stored keys), no
rendered frame, no crash traceback (Textual prints the locals of crashed frames), and each
goes only to its own origin in its own header (a Blobfish request never carries
``Authorization``), seen by a transport that records every request the process sends.
"""

from __future__ import annotations

import dataclasses
import io
import logging
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
from rich.pretty import pretty_repr
from textual import work
from textual.binding import Binding, BindingType
from textual.widgets import Static
from textual.worker import WorkerFailed

from api_client.archives.archive import Archive
from api_client.blahdev.client import BlahClient
from api_client.blobfish.client import BlobfishClient
from application.session.context import AppContext
from application.session.credentials.stored_key import credentials_file
from application.session.paths import config_file
from application.session.profiles.resolve import resolve_profile
from application.session.settings.typed import Settings
from cli.main import main
from simulator.blobfish.server import BlobfishServer
from simulator.server import SimulatorServer
from tests.support.config_files import write_config_text
from tests.support.hostile_e2e import SIZE, frame_text, visit_every_mode, wait_until
from tui.app import create_app
from tui.base_screen import BlahScreen

BLAH_CANARY = "blah_canary_3c5e7a9b1d2f4608bdf1"
SK_CANARY = "sk_canary_8e6c4a2b0d9f7531eca2"
SK_STORED = "sk_stored_5b7d9f1a3c2e4680acb3"
QUEUE_ORIGIN = "https://queue.errorbar.invalid"


def _fragments(key: str) -> tuple[str, str]:
    return key, key[-16:]  # a fragment is a leak too


def assert_no_keys(text: str | bytes, where: str, *keys: str) -> None:
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    for key in keys:
        for fragment in _fragments(key):
            assert fragment.encode() not in data, f"a {key.split('_')[0]}_ key leaked into {where}"


@pytest.fixture(autouse=True)
def _no_platform_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("EVALS_BLAH_API_KEY", "BLOBFISH_API_KEY", "ERRORBAR_API_KEY", "BLOBFISH_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def blah_sim() -> Iterator[SimulatorServer]:
    with SimulatorServer(seed=31, speed=50.0, live=False) as server:
        server.world.keys[BLAH_CANARY] = {"user": "canary", "tier": "council"}
        yield server


@pytest.fixture(scope="module")
def fish_sim() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=5, live=False) as server:
        yield server


class SentRequests:
    """Every request this process sends over the network, whichever client sends it: its
    origin and its key headers (``Authorization``, ``X-API-Key``) and all its other headers."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, str], bytes]] = []

    def origins(self) -> set[str]:
        return {origin for origin, _, _ in self.seen}


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> SentRequests:
    recorder = SentRequests()
    forward = httpx.AsyncHTTPTransport.handle_async_request

    async def recording(self: httpx.AsyncHTTPTransport, request: httpx.Request) -> httpx.Response:
        origin = f"{request.url.scheme}://{request.url.host}:{request.url.port}"
        body = request.content if isinstance(request.stream, httpx.ByteStream) else b""
        recorder.seen.append((origin, {k.lower(): v for k, v in request.headers.items()}, body))
        return await forward(self, request)

    monkeypatch.setattr(httpx.AsyncHTTPTransport, "handle_async_request", recording)
    return recorder


def _origin(base_url: str) -> str:
    url = httpx.URL(base_url)
    return f"{url.scheme}://{url.host}:{url.port}"


def _three_profiles(blah_sim: SimulatorServer, fish_sim: BlobfishServer) -> None:
    """A config with a blah.dev, a Blobfish and an errorbar profile, made by the commands a
    person types."""
    write_config_text("# three platforms\n")
    assert main(["profiles", "add", "local", "--base-url", blah_sim.base_url]) == 0
    assert main(["profiles", "add", "fish", "--platform", "blobfish", "--base-url", fish_sim.base_url]) == 0
    assert main(["profiles", "add", "queue", "--platform", "errorbar", "--base-url", QUEUE_ORIGIN]) == 0


def _login(monkeypatch: pytest.MonkeyPatch, key: str, profile: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(key + "\n"))
    assert main(["login", "--file", "--profile", profile]) == 0


def test_three_platforms_keys_are_in_no_output_log_or_file_and_each_goes_only_to_its_origin(
    blah_sim: SimulatorServer,
    fish_sim: BlobfishServer,
    sent: SentRequests,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bf_key = fish_sim.account_key
    keys = (BLAH_CANARY, bf_key, SK_CANARY, SK_STORED)
    caplog.set_level(logging.DEBUG)
    _three_profiles(blah_sim, fish_sim)
    assert_no_keys(config_file().read_bytes(), "the config file after `profiles add`", *keys)
    _login(monkeypatch, bf_key, "fish")  # stored per profile ...
    _login(monkeypatch, SK_STORED, "queue")
    _login(monkeypatch, BLAH_CANARY, "local")
    assert stat.S_IMODE(credentials_file().stat().st_mode) == 0o600
    assert_no_keys(config_file().read_bytes(), "the config file after `login --profile`", *keys)
    model = blah_sim.person_model_id
    commands: list[list[str]] = [
        ["status"],
        ["status", "--profile", "fish"],
        ["status", "--profile", "queue"],
        ["profiles", "list"],
        ["blobfish", "evals"],
        ["blobfish", "evals", "--json"],
        ["blobfish", "show", "missing"],
        ["blobfish", "export", "--all", "-o", str(tmp_path / "fish.jsonl")],
        ["blobfish", "search", "strawberry"],
        ["blobfish", "search", "strawberry", "--json"],
        ["report", model, "--profile", "local", "--limit", "50"],
        ["report", model, "--profile", "local", "--json", "--limit", "20"],
        ["report", "no-such-model", "--profile", "local"],
        ["export", model, "--profile", "local", "--since", "0", "-o", str(tmp_path / "calls.jsonl")],
    ]
    codes = [main(command) for command in commands]
    monkeypatch.setenv("ERRORBAR_API_KEY", SK_CANARY)  # ... and in the environment
    monkeypatch.setenv("BLOBFISH_API_KEY", bf_key)
    codes += [main(command) for command in commands]
    assert codes == [0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 6, 0] * 2, (
        codes
    )  # success and error paths both ran (6: unknown)
    out = capsys.readouterr()
    assert "source: $ERRORBAR_API_KEY" in out.out and "source: $BLOBFISH_API_KEY" in out.out
    assert_no_keys(out.out + out.err, "command output", *keys)
    assert_no_keys("\n".join(r.getMessage() for r in caplog.records) + caplog.text, "Python's logs", *keys)
    scanned = 0
    for path in tmp_path.rglob("*"):
        if path.is_file() and path != credentials_file():
            assert_no_keys(path.read_bytes(), f"the file {path.relative_to(tmp_path)}", *keys)
            scanned += 1
    assert scanned >= 4  # the config, the exports, the archives at least
    archives = [p for p in tmp_path.rglob("*.sqlite3") if "archives" in p.parts]
    assert archives
    for path in archives:  # the calls' texts are stored compressed: read them back too
        with Archive(path) as archive:
            calls = "".join(repr(dataclasses.asdict(call)) for call in archive.iter_all())
            assert_no_keys(calls, f"the calls of {path.name}", *keys)
    assert any(path.name.endswith(".sqlite3") and "blobfish-steps" in path.name for path in tmp_path.rglob("*"))
    assert_no_keys(fish_sim.requests.text() + blah_sim.requests.text(), "a simulator's request log", *keys)

    fish_origin, blah_origin = _origin(fish_sim.base_url), _origin(blah_sim.base_url)
    assert sent.origins() == {fish_origin, blah_origin}  # the queue profile was never contacted
    for origin, headers, body in sent.seen:
        if origin == fish_origin:
            assert "authorization" not in headers, "a Blobfish request carried an Authorization header"
            assert headers.get("x-api-key") == bf_key
            others = (BLAH_CANARY, SK_CANARY, SK_STORED)
        else:
            assert headers.get("authorization") == f"Bearer {BLAH_CANARY}" and "x-api-key" not in headers
            others = (bf_key, SK_CANARY, SK_STORED)
        rest = {k: v for k, v in headers.items() if k not in ("authorization", "x-api-key")}
        assert_no_keys(f"{rest} {body!r}", f"a request to {origin}", *others)
        assert_no_keys(f"{rest} {body!r}", f"a request's other headers or body to {origin}", *keys)


def test_resolved_profiles_and_clients_of_every_platform_show_no_key(
    fish_sim: BlobfishServer, blah_sim: SimulatorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _three_profiles(blah_sim, fish_sim)
    monkeypatch.setenv("BLOBFISH_API_KEY", fish_sim.account_key)
    monkeypatch.setenv("ERRORBAR_API_KEY", SK_CANARY)
    monkeypatch.setenv("EVALS_BLAH_API_KEY", BLAH_CANARY)
    keys = (BLAH_CANARY, fish_sim.account_key, SK_CANARY)
    profiles = [resolve_profile(name) for name in ("local", "fish", "queue")]
    assert [p.api_key for p in profiles] == list(keys)  # each profile has its platform's key ...
    fish_client = BlobfishClient(fish_sim.base_url, api_key=fish_sim.account_key)
    blah_client = BlahClient(blah_sim.base_url, api_key=BLAH_CANARY)
    for value in (*profiles, fish_client, blah_client):  # ... and shows none of them
        for text in (repr(value), str(value), pretty_repr(value)):
            assert_no_keys(text, f"the repr of {type(value).__name__}", *keys)
    for client in (fish_client, blah_client):
        for name, attribute in vars(client._http).items():
            assert_no_keys(repr(attribute) + pretty_repr(attribute), f"{type(client).__name__}._http.{name}", *keys)


# --------------------------------------------------------------------------- the app


async def test_no_frame_of_the_app_shows_the_other_platforms_keys(
    blah_sim: SimulatorServer, fish_sim: BlobfishServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app on the blah.dev profile, with a Blobfish and an errorbar profile configured and
    their keys in the environment: no area shows any of the three keys."""
    _three_profiles(blah_sim, fish_sim)
    monkeypatch.setenv("BLOBFISH_API_KEY", fish_sim.account_key)
    monkeypatch.setenv("ERRORBAR_API_KEY", SK_CANARY)
    keys = (BLAH_CANARY, fish_sim.account_key, SK_CANARY)
    async with BlahClient(blah_sim.base_url, api_key=BLAH_CANARY) as client:
        ctx = AppContext(
            model_id=blah_sim.person_model_id,
            client=client,
            base_url=blah_sim.base_url,
            key_source="flag",
            settings=Settings(timezone="UTC", persist_theme=False),
        )
        app = create_app(ctx)
        async with app.run_test(size=SIZE):

            async def scan(name: str) -> None:
                assert_no_keys(frame_text(app), f"the {name} screen", *keys)
                assert_no_keys(app.export_screenshot(), f"a screenshot of {name}", *keys)

            visited = await visit_every_mode(app, scan, timeout=5)
    assert len(visited) >= 10


class CrashingBlobfishScreen(BlahScreen):
    """A worker holding every platform's resolved profile and a Blobfish client, whose
    request fails uncaught: Textual ends the app and prints each frame's locals."""

    def compose(self) -> Any:
        yield Static("crashing")

    def on_mount(self) -> None:
        self.fail()

    @work(exit_on_error=True)
    async def fail(self) -> None:
        fish = resolve_profile("fish", platform="blobfish")
        queue = resolve_profile("queue", platform="errorbar")
        async with BlobfishClient(fish.origin, api_key=fish.api_key) as client:
            await client.get_evaluation(f"missing-{queue.name}")  # 404, raised from deep in the client


class ExplodingProfilesScreen(BlahScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "explode", "Explode", id="test.explode_profiles")]

    def compose(self) -> Any:
        yield Static("press x")

    def action_explode(self) -> None:
        profiles = {name: resolve_profile(name) for name in ("local", "fish", "queue")}
        raise RuntimeError(f"boom with {profiles!r}")


@pytest.mark.parametrize(
    "screen_type, key, crash",
    [(CrashingBlobfishScreen, None, WorkerFailed), (ExplodingProfilesScreen, "x", RuntimeError)],
)
async def test_a_crash_traceback_shows_the_profiles_but_no_platform_s_key(
    blah_sim: SimulatorServer,
    fish_sim: BlobfishServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    screen_type: type[BlahScreen],
    key: str | None,
    crash: type[Exception],
) -> None:
    _three_profiles(blah_sim, fish_sim)
    monkeypatch.setenv("BLOBFISH_API_KEY", fish_sim.account_key)
    monkeypatch.setenv("ERRORBAR_API_KEY", SK_CANARY)
    monkeypatch.setenv("EVALS_BLAH_API_KEY", BLAH_CANARY)
    keys = (BLAH_CANARY, fish_sim.account_key, SK_CANARY)
    capsys.readouterr()
    async with BlahClient(blah_sim.base_url, api_key=BLAH_CANARY) as client:
        ctx = AppContext(
            model_id=blah_sim.person_model_id,
            client=client,
            base_url=blah_sim.base_url,
            settings=Settings(persist_theme=False, start_mode="health"),
        )
        app = create_app(ctx)
        screen = screen_type()
        with pytest.raises(crash):
            async with app.run_test(size=SIZE) as pilot:
                app.push_screen(screen)
                await wait_until(lambda: app.screen is screen, 10)
                if key:
                    await pilot.press(key)
                await wait_until(lambda: app._exception is not None, 15)
    printed = capsys.readouterr().err
    assert "Traceback" in printed, printed[-2000:]
    assert "ResolvedProfile(" in printed and "key_source=" in printed  # the profiles are shown ...
    assert_no_keys(printed, "the crash traceback", *keys)  # ... without their keys


# --------------------------------------------------------------------------- a key where an address goes

BF_PASTED = "bf_pasted_4d6f8a0c2e1b3957"


@pytest.mark.parametrize(
    "command",
    [
        ["profiles", "add", "q", "--platform", "errorbar", "--base-url", f"https://me:{SK_CANARY}@queue.example"],
        ["profiles", "add", "q", "--platform", "errorbar", "--base-url", f"https://queue.example/?key={SK_CANARY}"],
        ["profiles", "add", "q", "--platform", "errorbar", "--base-url", SK_CANARY],  # pasted in the wrong place
        ["profiles", "add", "f", "--platform", "blobfish", "--base-url", f"https://{BF_PASTED}@blobfish.example"],
        ["blobfish", "evals", "--base-url", f"https://{BF_PASTED}@blobfish.example"],
        ["blobfish", "evals", "--base-url", f"https://blobfish.example#{BF_PASTED}"],
        ["report", "m", "--base-url", f"https://user:{BLAH_CANARY}@evals.example"],
        ["report", "m", "--base-url", f"https://{BLAH_CANARY}.example:99999"],
    ],
)
def test_an_address_carrying_a_key_is_refused_without_repeating_the_key(
    command: list[str], sent: SentRequests, capsys: pytest.CaptureFixture[str]
) -> None:
    """A key inside an address (user:key@host, ?key=, #key, or the key pasted for the address)
    is refused: never written to the config, never sent (httpx logs every URL with its
    user:key@, and sends it as ``Authorization: Basic`` when no key is set), and the refusal
    does not repeat it."""
    write_config_text("# before\n")
    assert main(command) == 2
    out = capsys.readouterr()
    assert "is not a platform address" in out.err and out.err.count("\n") == 1
    assert_no_keys(out.out + out.err, "the refusal", BLAH_CANARY, SK_CANARY, BF_PASTED)
    assert config_file().read_text(encoding="utf-8") == "# before\n"
    assert sent.seen == []


def test_a_config_address_carrying_a_key_is_left_out_and_never_shown(
    sent: SentRequests, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config_text(
        f'[profiles.q]\nplatform = "errorbar"\nbase_url = "https://u:{SK_CANARY}@queue.example"\n\n'
        f'[profiles.f]\nplatform = "blobfish"\nbase_url = "https://blobfish.example/?k={BF_PASTED}"\n'
    )
    monkeypatch.setenv("BLOBFISH_BASE_URL", f"https://{BF_PASTED}@blobfish.example")
    assert main(["status"]) == 0
    assert main(["profiles", "list"]) == 0
    assert main(["blobfish", "evals"]) == 2  # the implicit Blobfish profile's $BLOBFISH_BASE_URL
    out = capsys.readouterr()
    assert "must not carry a user name or password" in out.out + out.err
    assert "profiles.q.base_url" in out.out + out.err and "profiles.f.base_url" in out.out + out.err
    assert_no_keys(out.out + out.err, "status / profiles list / blobfish", SK_CANARY, BF_PASTED)
    assert sent.seen == []
