"""`blah-tui profiles list|add|use|remove`, `login|logout|status --profile`, `--profile` on
the app and the commands: run in-process as a person types them (capsys)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator
from typing import Any

import keyring
import pytest

from application.session.credentials.keyring_store import SERVICE, USERNAME
from application.session.credentials.stored_key import credentials_file
from application.session.paths import config_file
from application.session.profiles.resolve import resolve_profile
from application.session.settings.config import load_config
from cli.app.serve import serve_main
from cli.main import main
from simulator.server import SimulatorServer
from tests.support.config_files import read_config_text, write_config_text
from tests.support.keyrings import MemoryKeyring
from tests.support.waiting import wait_for
from tui.app import BlahApp
from widgets.status_header import StatusHeader

ORIGINAL = """\
# my settings: every line of this file must survive the profiles commands
theme = "blah-light"   # easier on the eyes
poll_interval = 3.0

[templates]
"my-model" = "chatml"  # trained with ChatML

[keymap]
"mode.runs" = "f3"
"""

BF_CANARY = "bf_canary_0d9e8f7a6b5c"
BLAH_CANARY = "blah_canary_1a2b3c4d5e6f"


@pytest.fixture(autouse=True)
def _no_platform_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("EVALS_BLAH_API_KEY", "BLOBFISH_API_KEY", "ERRORBAR_API_KEY", "BLOBFISH_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def _login(monkeypatch: pytest.MonkeyPatch, key: str, *profile: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(key + "\n"))
    return main(["login", "--file", *(("--profile", *profile) if profile else ())])


def _list_rows(capsys: pytest.CaptureFixture[str]) -> dict[str, list[str]]:
    assert main(["profiles", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    return {line.split()[1] if line.startswith("*") else line.split()[0]: line.split() for line in lines}


def test_profiles_add_use_remove_round_trip_keeps_every_other_line(capsys: pytest.CaptureFixture[str]) -> None:
    write_config_text(ORIGINAL)
    assert main(["profiles", "add", "local", "--base-url", "http://127.0.0.1:8000/api/v1", "--default-model", "m"]) == 0
    assert main(["profiles", "add", "fish", "--platform", "blobfish"]) == 0
    assert main(["profiles", "use", "local"]) == 0
    out = capsys.readouterr().out
    assert "Profile local added (blah.dev)" in out and "Default profile: local" in out and "rewritten" not in out
    text = read_config_text()
    assert text.startswith(ORIGINAL.split("\n[templates]")[0])  # comments and order kept
    assert '"my-model" = "chatml"  # trained with ChatML' in text
    config = load_config().config
    assert (config.theme, config.poll_interval, config.templates, config.keymap) == (
        "blah-light",
        3.0,
        {"my-model": "chatml"},
        {"mode.runs": "f3"},
    )
    assert config.default_profile == "local" and set(config.profiles) == {"local", "fish"}

    rows = _list_rows(capsys)
    assert rows["local"] == ["*", "local", "blah.dev", "http://127.0.0.1:8000", "m", "none"]
    assert rows["fish"][:3] == ["fish", "Blobfish", "https://blobfish.ai"]
    assert rows["default"][:2] == ["default", "blah.dev"]  # today's settings stay a profile

    assert main(["profiles", "remove", "fish"]) == 0
    assert main(["profiles", "remove", "local"]) == 0  # the default: default_profile goes too
    assert read_config_text() == ORIGINAL  # byte for byte
    assert not config_file().with_name("config.toml.bak").exists()


def test_a_layout_a_line_edit_cannot_handle_is_rewritten_after_a_backup_and_said(
    capsys: pytest.CaptureFixture[str],
) -> None:
    inline = '# comment\ntheme = "blah-light"\nprofiles = { old = { platform = "blah" } }\n'
    write_config_text(inline)
    assert main(["profiles", "add", "fish", "--platform", "blobfish"]) == 0
    out = capsys.readouterr().out
    assert "comments are lost" in out and "config.toml.bak" in out
    assert config_file().with_name("config.toml.bak").read_text(encoding="utf-8") == inline
    config = load_config().config
    assert config.theme == "blah-light" and set(config.profiles) == {"old", "fish"}


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["profiles", "add", "taken"], "profile 'taken' exists already"),
        (["profiles", "add", "a.b"], "a profile name is 1 to 40 letters"),
        (["profiles", "add", "q", "--platform", "errorbar"], "errorbar eval-run queue profiles need a base_url"),
        (
            ["profiles", "add", "f", "--platform", "blobfish", "--default-model", "m"],
            "default_model applies to blah.dev profiles only",
        ),
        (["profiles", "add", "x", "--base-url", "ftp://x"], "it must start with https://"),
        (["profiles", "use", "nope"], "no profile 'nope' (known: default, taken)"),
        (["profiles", "remove", "nope"], "no profile 'nope'"),
    ],
)
def test_a_profiles_change_that_cannot_be_made_writes_nothing(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    write_config_text(ORIGINAL + '\n[profiles.taken]\nplatform = "blah"\n')
    before = read_config_text()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and "nothing written" in err
    assert read_config_text() == before


def test_a_broken_file_is_never_edited(capsys: pytest.CaptureFixture[str]) -> None:
    write_config_text("theme = \n")
    assert main(["profiles", "add", "x"]) == 2
    assert "fix the file first" in capsys.readouterr().err
    assert read_config_text() == "theme = \n"


def test_login_stores_one_key_per_profile_and_remove_forgets_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write_config_text(ORIGINAL)
    assert main(["profiles", "add", "local", "--base-url", "http://127.0.0.1:8000"]) == 0
    assert main(["profiles", "add", "fish", "--platform", "blobfish"]) == 0
    assert _login(monkeypatch, BLAH_CANARY) == 0  # the implicit profile: today's slot
    assert _login(monkeypatch, "blah_local_key", "local") == 0
    assert _login(monkeypatch, BF_CANARY, "fish") == 0
    out = capsys.readouterr().out
    assert "Key for profile fish stored in" in out and BF_CANARY not in out and BLAH_CANARY not in out
    assert [resolve_profile(n).api_key for n in ("default", "local", "fish")] == [
        BLAH_CANARY,
        "blah_local_key",
        BF_CANARY,
    ]
    assert main(["logout", "--profile", "local"]) == 0
    assert [resolve_profile(n).api_key for n in ("default", "local", "fish")] == [BLAH_CANARY, None, BF_CANARY]
    assert main(["profiles", "remove", "fish"]) == 0
    assert "its stored key forgotten" in capsys.readouterr().out
    # a new profile of the same name (maybe elsewhere) never inherits the old key
    assert main(["profiles", "add", "fish", "--platform", "blobfish", "--base-url", "https://elsewhere.example"]) == 0
    assert resolve_profile("fish").api_key is None
    assert BF_CANARY not in credentials_file().read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("key", "profile", "said"),
    [
        (BF_CANARY, "local", "looks like a Blobfish key (bf_…), not a blah.dev key (blah_…)"),
        (BLAH_CANARY, "fish", "looks like a blah.dev key (blah_…), not a Blobfish key (bf_…)"),
    ],
)
def test_login_refuses_another_platform_s_key_without_showing_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], key: str, profile: str, said: str
) -> None:
    write_config_text(
        '[profiles.local]\nbase_url = "http://127.0.0.1:8000"\n\n[profiles.fish]\nplatform = "blobfish"\n'
    )
    assert _login(monkeypatch, key, profile) == 2
    captured = capsys.readouterr()
    assert said in captured.err and "nothing stored" in captured.err
    assert key not in captured.out + captured.err and key[3:] not in captured.out + captured.err
    assert not credentials_file().exists()


def test_status_names_each_profile_s_key_source_never_the_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write_config_text(
        'default_profile = "fish"\n\n[profiles.local]\nbase_url = "http://127.0.0.1:8000"\n\n'
        '[profiles.fish]\nplatform = "blobfish"\n'
    )
    assert _login(monkeypatch, BF_CANARY, "fish") == 0
    monkeypatch.setenv("EVALS_BLAH_API_KEY", BLAH_CANARY)
    capsys.readouterr()
    assert main(["status"]) == 0
    out = capsys.readouterr().out
    assert (
        "Profile fish (in use): Blobfish at https://blobfish.ai; API key: set; "
        f"source: the stored key ({credentials_file()})" in out
    )
    assert "Profile local: blah.dev at http://127.0.0.1:8000; API key: set; source: $EVALS_BLAH_API_KEY" in out
    assert "Profile default: blah.dev at https://evals.blah.dev; API key: set; source: $EVALS_BLAH_API_KEY" in out
    assert main(["status", "--profile", "local"]) == 0
    only = capsys.readouterr().out
    assert "Profile local (in use)" in only and "Profile fish" not in only
    monkeypatch.setenv("BLOBFISH_API_KEY", BLAH_CANARY)  # a blah.dev key where Blobfish's belongs
    assert main(["status"]) == 0
    refused = capsys.readouterr().out
    assert (
        "Profile fish (in use): Blobfish at https://blobfish.ai; API key: refused "
        "(the key from $BLOBFISH_API_KEY looks like a blah.dev key" in refused
    )
    for text in (out, only, refused):
        assert BF_CANARY not in text and BLAH_CANARY not in text


def test_status_without_profiles_says_what_it_always_said(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["status"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "API key: not set; source: none",
        f"Config file: {config_file()} (not created yet)",
    ]


def _local_profile(sim: SimulatorServer, monkeypatch: pytest.MonkeyPatch) -> None:
    write_config_text(
        f'default_model = "not-on-the-sim"\n\n[profiles.local]\nbase_url = "{sim.base_url}/api/v1/"\n'
        f'default_model = "{sim.person_model_id}"\n\n[profiles.fish]\nplatform = "blobfish"\n'
    )
    assert _login(monkeypatch, sim.council_key, "local") == 0


def test_export_and_report_use_the_profile_s_origin(
    sim: SimulatorServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    _local_profile(sim, monkeypatch)
    out = tmp_path / "calls.jsonl"
    assert main(["export", sim.person_model_id, "--profile", "local", "--since", "0", "-o", str(out)]) == 0
    assert out.stat().st_size > 0
    assert main(["report", sim.person_model_id, "--profile", "local", "--limit", "50", "--json"]) == 0
    capsys.readouterr()
    assert main(["export", sim.person_model_id, "--profile", "fish", "-o", str(tmp_path / "x.jsonl")]) == 2
    assert "profile 'fish' is a Blobfish profile; this needs a blah.dev profile" in capsys.readouterr().err
    assert main(["report", sim.person_model_id, "--profile", "local", "--api-key", BF_CANARY]) == 2
    err = capsys.readouterr().err
    assert "the key from --api-key looks like a Blobfish key (bf_…)" in err and BF_CANARY not in err


@pytest.mark.parametrize("argv", [["--profile", "local"], []])
def test_the_app_header_names_the_profile_it_opened(
    sim: SimulatorServer, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    _local_profile(sim, monkeypatch)
    if not argv:  # no --profile, no default_profile: today's settings, today's header
        monkeypatch.setenv("BLAH_BASE_URL", sim.base_url)
        monkeypatch.setenv("BLAH_DEFAULT_MODEL", sim.person_model_id)
    seen: dict[str, Any] = {}

    def drive_headless(self: BlahApp, *args: Any, **kwargs: Any) -> None:
        async def drive() -> None:
            async with self.run_test(size=(100, 30)) as pilot:
                await wait_for(pilot, lambda: bool(self.screen.query(StatusHeader)), what="a screen with its header")
                header = self.screen.query_one(StatusHeader)
                await wait_for(pilot, lambda: header.model_id == sim.person_model_id, what="the header's model")
                seen.update(sub_title=self.sub_title, header=str(header.render()), ctx=self.ctx)

        asyncio.run(drive())

    monkeypatch.setattr(BlahApp, "run", drive_headless)
    assert main(argv) == 0
    if argv:
        assert seen["sub_title"] == f"local · blah.dev · {sim.person_model_id}"
        assert "local · blah.dev" in seen["header"]
        assert seen["ctx"].key_source == "config" and seen["ctx"].base_url == sim.base_url
    else:
        assert seen["sub_title"] == f"blah.dev · {sim.person_model_id}"
        assert "local" not in seen["header"]


def test_the_app_on_a_profile_of_another_platform_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    write_config_text('[profiles.queue]\nplatform = "errorbar"\nbase_url = "http://127.0.0.1:9"\n')
    assert main(["--profile", "queue"]) == 2
    assert "profile 'queue' is an errorbar" in capsys.readouterr().err
    assert main(["--profile", "nope"]) == 2
    assert "no profile 'nope'" in capsys.readouterr().err


def test_the_app_on_a_blobfish_profile_opens_on_its_evaluations(monkeypatch: pytest.MonkeyPatch) -> None:
    from simulator.blobfish.server import BlobfishServer
    from tests.support.launch import launch_headless
    from tui.screens.evaluations.screen import EvaluationsScreen

    seen: dict[str, Any] = {}
    with BlobfishServer(seed=7, live=False) as bf:
        write_config_text(f'[profiles.fish]\nplatform = "blobfish"\nbase_url = "{bf.base_url}"\n')
        monkeypatch.setenv("BLOBFISH_API_KEY", bf.account_key)

        async def inspect(app: BlahApp, pilot: Any) -> None:
            await wait_for(
                pilot, lambda: isinstance(app.screen, EvaluationsScreen) and app.screen.loaded, what="the evaluations"
            )
            seen.update(rows=len(app.screen.rows), sub_title=app.sub_title)
            await pilot.press("1")  # a blah.dev area: offline, and the app carries on
            await wait_for(pilot, lambda: not isinstance(app.screen, EvaluationsScreen), what="Logs")
            seen["running"] = app.is_running

        assert launch_headless(monkeypatch, ["--profile", "fish"], inspect) == 0
    assert seen["rows"] > 0 and seen["running"]
    assert seen["sub_title"].startswith("fish · Blobfish")


def test_serve_hands_the_profile_to_each_tab_and_never_the_key(
    sim: SimulatorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _local_profile(sim, monkeypatch)
    commands: list[str] = []
    assert (
        serve_main(
            host="127.0.0.1",
            port=0,
            demo=False,
            model=None,
            base_url=None,
            api_key=None,
            log_id=None,
            profile="local",
            argv_out=commands,
        )
        == 0
    )
    assert "--profile local" in commands[0] and sim.council_key not in commands[0]


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def test_each_profile_has_its_own_keyring_entry(
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write_config_text('[profiles.fish]\nplatform = "blobfish"\n')
    for key, profile in ((BLAH_CANARY, ()), (BF_CANARY, ("--profile", "fish"))):
        monkeypatch.setattr("sys.stdin", io.StringIO(key + "\n"))
        assert main(["login", *profile]) == 0
    assert memory_keyring.items == {(SERVICE, USERNAME): BLAH_CANARY, (SERVICE, f"{USERNAME}:fish"): BF_CANARY}
    stored = credentials_file().read_text(encoding="utf-8")
    assert BLAH_CANARY not in stored and BF_CANARY not in stored  # the file only says "in the keyring"
    assert [(p.api_key, p.key_source) for p in map(resolve_profile, ("default", "fish"))] == [
        (BLAH_CANARY, "keyring"),
        (BF_CANARY, "keyring"),
    ]
    assert main(["status", "--profile", "fish"]) == 0
    assert "source: the system keyring (blah-tui login --profile fish)" in capsys.readouterr().out
    assert main(["logout", "--profile", "fish"]) == 0
    assert memory_keyring.items == {(SERVICE, USERNAME): BLAH_CANARY}  # the other profile's key stays
