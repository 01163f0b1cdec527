"""Config precedence (env > file > defaults), broken files, `config set`, and the stored key."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from application.session.credentials.stored_key import credentials_file, load_stored_key, store_key
from application.session.paths import config_file
from application.session.settings.config import load_config, set_value
from cli.main import main, resolve_api_key


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_defaults_without_a_file() -> None:
    loaded = load_config()
    assert loaded.problem is None
    assert loaded.config.poll_interval == 2.0
    assert loaded.config.default_model is None


def test_file_then_env_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    write(config_file(), 'theme = "blah-light"\npoll_interval = 5\n[templates]\n"my-model" = "chatml"\n')
    loaded = load_config()
    assert (loaded.config.theme, loaded.config.poll_interval) == ("blah-light", 5.0)
    assert loaded.config.templates == {"my-model": "chatml"}
    monkeypatch.setenv("BLAH_POLL_INTERVAL", "9")
    assert load_config().config.poll_interval == 9.0
    assert load_config().config.theme == "blah-light"


def test_syntax_error_names_the_line_and_falls_back() -> None:
    write(config_file(), 'theme = "ok"\npoll_interval = = 3\n')
    loaded = load_config()
    assert loaded.problem is not None and "line 2" in loaded.problem
    assert loaded.config.poll_interval == 2.0


def test_invalid_value_names_the_setting() -> None:
    write(config_file(), "poll_interval = 0.001\n")
    loaded = load_config()
    assert loaded.problem is not None and "poll_interval" in loaded.problem
    assert loaded.config.poll_interval == 2.0


def test_config_set_writes_validated_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "set", "poll_interval", "3.5"]) == 0
    assert main(["config", "set", "templates.tiny", "chatml"]) == 0
    loaded = load_config()
    assert loaded.config.poll_interval == 3.5
    assert loaded.config.templates == {"tiny": "chatml"}
    before = config_file().read_text()
    assert main(["config", "set", "poll_interval", "-1"]) == 2
    assert "nothing written" in capsys.readouterr().err
    assert config_file().read_text() == before
    assert main(["config", "set", "no_such_thing", "1"]) == 2


def test_config_set_refuses_to_overwrite_a_broken_file() -> None:
    write(config_file(), "theme = \n")
    assert main(["config", "set", "theme", "x"]) == 2
    assert config_file().read_text() == "theme = \n"


def test_set_value_rejects_unknown_keys() -> None:
    with pytest.raises(KeyError):
        set_value("nope", "1")


def test_stored_key_is_private_and_tightened() -> None:
    path = store_key("blah_secret_123")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    assert load_stored_key() == ("blah_secret_123", "config")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_key_precedence_flag_env_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_api_key(None) == (None, "none")
    store_key("blah_stored")
    assert resolve_api_key(None) == ("blah_stored", "config")
    monkeypatch.setenv("EVALS_BLAH_API_KEY", "blah_env")
    assert resolve_api_key(None) == ("blah_env", "env")
    assert resolve_api_key("blah_flag") == ("blah_flag", "flag")


def test_login_reads_stdin_and_status_never_prints_the_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("blah_very_secret_key\n"))
    assert main(["login"]) == 0
    assert credentials_file().exists()
    assert main(["status"]) == 0
    out = capsys.readouterr().out
    assert "blah_very_secret_key" not in out
    assert "stored key" in out
    assert main(["logout"]) == 0
    assert not credentials_file().exists()
    assert os.environ.get("EVALS_BLAH_API_KEY") is None
