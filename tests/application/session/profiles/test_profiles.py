"""Profiles: two blah.dev profiles and a Blobfish one side by side in one config; which one
a command uses, its origin, and which key goes where (each key only to its own origin, in
its own platform's header; another platform's key refused without ever being shown)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from api_client.blahdev.client import BlahClient
from application.session.credentials.stored_key import login_key
from application.session.profiles.resolve import ProfileError, resolve_profile
from application.session.settings.config import load_config
from common.constants import DEFAULT_BASE_URL
from simulator.blobfish.server import BlobfishServer
from simulator.server import SimulatorServer
from tests.support import sim_http
from tests.support.config_files import write_config_text

SIDE_BY_SIDE = """\
# two blah.dev profiles and a Blobfish one
theme = "blah-light"
base_url = "http://127.0.0.1:9"   # today's top-level address: the implicit profile's
default_model = "top-model"

[profiles.prod]
platform = "blah"
base_url = "https://evals.blah.dev/api/v1/"
default_model = "prod-model"

[profiles.local]
platform = "blah"
base_url = "http://127.0.0.1:8000"

[profiles.fish]
platform = "blobfish"
"""

BF_CANARY = "bf_canary_0d9e8f7a6b5c"
BLAH_CANARY = "blah_canary_1a2b3c4d5e6f"
SK_CANARY = "sk_canary_9f8e7d6c5b4a"


@pytest.fixture(autouse=True)
def _no_platform_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("EVALS_BLAH_API_KEY", "BLOBFISH_API_KEY", "ERRORBAR_API_KEY", "BLOBFISH_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def test_two_blah_profiles_and_a_blobfish_profile_resolve_side_by_side() -> None:
    write_config_text(SIDE_BY_SIDE)
    prod, local, fish = (resolve_profile(name) for name in ("prod", "local", "fish"))
    assert (prod.platform, prod.origin, prod.default_model) == ("blah", "https://evals.blah.dev", "prod-model")
    assert (local.platform, local.origin, local.default_model) == ("blah", "http://127.0.0.1:8000", None)
    assert (fish.platform, fish.origin, fish.spec.key_header) == ("blobfish", "https://blobfish.ai", "x-api-key")
    assert prod.spec.key_header == local.spec.key_header == "bearer"
    assert {prod.origin_source, local.origin_source, fish.origin_source} == {"profile", "default"}
    assert all(not p.implicit and p.label == p.name for p in (prod, local, fish))


def test_default_profile_is_used_when_no_profile_is_named() -> None:
    write_config_text(SIDE_BY_SIDE)
    today = resolve_profile(None)  # no default_profile: the top-level settings, as before profiles
    assert (today.name, today.origin, today.default_model, today.label) == (
        "default",
        "http://127.0.0.1:9",
        "top-model",
        "",
    )
    write_config_text(
        SIDE_BY_SIDE.replace(
            'default_model = "top-model"\n', 'default_model = "top-model"\ndefault_profile = "local"\n'
        )
    )
    assert resolve_profile(None).name == "local"
    assert resolve_profile("prod").name == "prod"  # --profile wins over default_profile
    assert resolve_profile("default").origin == "http://127.0.0.1:9"  # today's settings stay reachable


def test_a_config_without_profiles_behaves_as_today(monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_profile(None).origin == DEFAULT_BASE_URL  # no file at all
    write_config_text('base_url = "http://127.0.0.1:8123/api/v1"\ndefault_model = "m"\n')
    profile = resolve_profile(None)
    assert (profile.name, profile.platform, profile.origin, profile.default_model) == (
        "default",
        "blah",
        "http://127.0.0.1:8123",
        "m",
    )
    assert (profile.key_source, profile.has_key, profile.label) == ("none", False, "")
    monkeypatch.setenv("BLAH_BASE_URL", "http://127.0.0.1:8124")
    assert resolve_profile(None).origin == "http://127.0.0.1:8124"  # the environment over the file
    assert resolve_profile(None, base_url_flag="http://127.0.0.1:8125/").origin == "http://127.0.0.1:8125"
    login_key(BLAH_CANARY, where="file")
    assert (resolve_profile(None).key_source, resolve_profile(None).api_key) == ("config", BLAH_CANARY)
    monkeypatch.setenv("EVALS_BLAH_API_KEY", "blah_from_env")
    assert (resolve_profile(None).key_source, resolve_profile(None).api_key) == ("env", "blah_from_env")
    assert resolve_profile(None, key_flag="blah_from_flag").key_source == "flag"


def test_each_platform_reads_its_own_variable_and_each_profile_its_own_stored_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write_config_text(SIDE_BY_SIDE)
    login_key("blah_stored_for_local", where="file", profile="local")
    login_key("bf_stored_for_fish", where="file", profile="fish")
    assert (resolve_profile("local").api_key, resolve_profile("local").key_source) == (
        "blah_stored_for_local",
        "config",
    )
    assert resolve_profile("prod").api_key is None  # another profile's stored key is not its own
    assert resolve_profile("default").api_key is None
    assert resolve_profile("fish").api_key == "bf_stored_for_fish"
    monkeypatch.setenv("BLOBFISH_API_KEY", "bf_from_env")
    assert (resolve_profile("fish").api_key, resolve_profile("fish").key_source_text) == (
        "bf_from_env",
        "$BLOBFISH_API_KEY",
    )
    assert resolve_profile("local").api_key == "blah_stored_for_local"  # a Blobfish variable is not blah.dev's
    monkeypatch.setenv("EVALS_BLAH_API_KEY", "blah_from_env")
    assert resolve_profile("local").api_key == "blah_from_env"
    assert resolve_profile("fish").api_key == "bf_from_env"
    assert resolve_profile("fish", key_flag="bf_from_flag").api_key == "bf_from_flag"


def test_a_command_of_one_platform_finds_its_profile_or_says_which_to_pass() -> None:
    write_config_text(SIDE_BY_SIDE)
    assert resolve_profile(None, platform="blobfish").name == "fish"  # the only Blobfish profile
    assert resolve_profile(None, platform="blah").name == "default"
    with pytest.raises(ProfileError, match=r"profile 'fish' is a Blobfish profile; this needs a blah\.dev profile"):
        resolve_profile("fish", platform="blah")
    with pytest.raises(ProfileError, match=r"no profile 'nope' \(known: default, prod, local, fish\)"):
        resolve_profile("nope")
    write_config_text(SIDE_BY_SIDE + '\n[profiles.fish2]\nplatform = "blobfish"\nbase_url = "https://fish.example"\n')
    with pytest.raises(ProfileError, match=r"several Blobfish profiles \(fish, fish2\): pass --profile NAME"):
        resolve_profile(None, platform="blobfish")
    write_config_text("")
    implicit = resolve_profile(None, platform="blobfish")  # no Blobfish profile: its own address and variable
    assert (implicit.name, implicit.origin, implicit.implicit) == ("blobfish", "https://blobfish.ai", True)


def test_blobfish_base_url_names_the_implicit_blobfish_profile_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLOBFISH_BASE_URL", "http://127.0.0.1:8400/api/v1")
    implicit = resolve_profile(None, platform="blobfish")
    assert (implicit.origin, implicit.origin_source) == ("http://127.0.0.1:8400", "env")
    write_config_text(SIDE_BY_SIDE)
    assert resolve_profile("fish").origin == "https://blobfish.ai"  # a named profile is what it says
    assert resolve_profile("fish", base_url_flag="https://flag.example").origin == "https://flag.example"


def test_the_eval_run_queue_has_no_published_address_and_its_path_is_v1() -> None:
    with pytest.raises(ProfileError, match="no address for errorbar eval-run queue: pass --base-url"):
        resolve_profile(None, platform="errorbar")
    assert (
        resolve_profile(None, platform="errorbar", base_url_flag="https://q.example/v1/").origin == "https://q.example"
    )
    write_config_text('[profiles.q]\nplatform = "errorbar"\n')
    loaded = load_config()
    assert loaded.problem is not None and "profiles.q" in loaded.problem and "need a base_url" in loaded.problem


@pytest.mark.parametrize(
    ("profile", "variable", "key", "said"),
    [
        (
            "prod",
            "EVALS_BLAH_API_KEY",
            BF_CANARY,
            "the key from $EVALS_BLAH_API_KEY looks like a Blobfish key (bf_…), not a blah.dev key (blah_…)",
        ),
        ("fish", "BLOBFISH_API_KEY", BLAH_CANARY, "looks like a blah.dev key (blah_…), not a Blobfish key (bf_…)"),
        ("fish", None, SK_CANARY, "the key from --api-key looks like an errorbar eval-run queue key (sk_…)"),
    ],
)
def test_a_key_of_another_platform_is_refused_in_one_line_without_the_key(
    monkeypatch: pytest.MonkeyPatch, profile: str, variable: str | None, key: str, said: str
) -> None:
    write_config_text(SIDE_BY_SIDE)
    if variable:
        monkeypatch.setenv(variable, key)
    with pytest.raises(ProfileError) as refused:
        resolve_profile(profile, key_flag=None if variable else key)
    message = str(refused.value)
    assert said in message and "\n" not in message
    assert key not in message and key[3:] not in message


def test_a_resolved_profile_never_shows_its_key() -> None:
    write_config_text(SIDE_BY_SIDE)
    profile = resolve_profile("prod", key_flag=BLAH_CANARY)
    assert profile.api_key == BLAH_CANARY
    assert BLAH_CANARY not in repr(profile) and BLAH_CANARY not in str(profile)


class RecordingTransport(httpx.AsyncBaseTransport):
    """Forwards to the network and records, for every request, its origin and key headers."""

    def __init__(self) -> None:
        self.inner = sim_http.AsyncHTTPTransport()
        self.seen: list[tuple[str, str | None, str | None]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        origin = f"{request.url.scheme}://{request.url.host}:{request.url.port}"
        self.seen.append((origin, request.headers.get("authorization"), request.headers.get("x-api-key")))
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.fixture
async def recording() -> AsyncIterator[RecordingTransport]:
    transport = RecordingTransport()
    yield transport
    await transport.aclose()


async def test_each_blah_profile_sends_its_own_key_only_to_its_own_origin(
    sim: SimulatorServer, fresh_sim: SimulatorServer, recording: RecordingTransport, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config_text(
        SIDE_BY_SIDE
        + f'\n[profiles.a]\nbase_url = "{sim.base_url}/api/v1"\n\n[profiles.b]\nbase_url = "{fresh_sim.base_url}"\n'
    )
    login_key(sim.council_key, where="file", profile="a")
    login_key(fresh_sim.council_key, where="file", profile="b")
    monkeypatch.setenv("BLOBFISH_API_KEY", BF_CANARY)  # the Blobfish profile's: must reach no blah.dev origin
    for name, server in (("a", sim), ("b", fresh_sim)):
        profile = resolve_profile(name, platform="blah")
        async with BlahClient(profile.origin, api_key=profile.api_key, transport=recording) as client:
            assert client.base_url == server.base_url
            await client.list_models()
            await client.get_model(server.person_model_id)
    a_origin, b_origin = (s.base_url.replace("localhost", "127.0.0.1") for s in (sim, fresh_sim))
    assert {origin for origin, _, _ in recording.seen} == {a_origin, b_origin}
    for origin, authorization, x_api_key in recording.seen:
        expected = sim.council_key if origin == a_origin else fresh_sim.council_key
        assert authorization == f"Bearer {expected}"
        assert x_api_key is None
    assert all(BF_CANARY not in str(entry) for entry in recording.seen)


async def test_the_blobfish_profile_s_key_goes_in_x_api_key_to_blobfish_only(
    sim: SimulatorServer, recording: RecordingTransport, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Needs the Blobfish client (branch bfclient); skipped until it is merged."""
    blobfish = pytest.importorskip("api_client.blobfish")
    with BlobfishServer(seed=7, live=False) as fish_server:
        write_config_text(
            f'[profiles.local]\nbase_url = "{sim.base_url}"\n\n'
            f'[profiles.fish]\nplatform = "blobfish"\nbase_url = "{fish_server.base_url}/api/v1/"\n'
        )
        monkeypatch.setenv("BLOBFISH_API_KEY", fish_server.account_key)
        monkeypatch.setenv("EVALS_BLAH_API_KEY", sim.council_key)
        fish = resolve_profile(None, platform="blobfish")
        local = resolve_profile("local", platform="blah")
        async with blobfish.BlobfishClient(fish.origin, api_key=fish.api_key, transport=recording) as client:
            assert await client.list_evaluations()
        async with BlahClient(local.origin, api_key=local.api_key, transport=recording) as blah:
            await blah.list_models()
        fish_origin = fish_server.base_url.replace("localhost", "127.0.0.1")
    for origin, authorization, x_api_key in recording.seen:
        if origin == fish_origin:
            assert (authorization, x_api_key) == (None, fish_server.account_key)  # never an Authorization header
        else:
            assert (authorization, x_api_key) == (f"Bearer {sim.council_key}", None)
    assert {origin for origin, _, _ in recording.seen} == {fish_origin, sim.base_url.replace("localhost", "127.0.0.1")}
