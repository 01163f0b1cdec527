"""What a new user hits first on the command line, typed as they typed it: a malformed
--base-url, no model, an unknown model to export, an unreachable platform, `config show` and
`config set theme`, and `open` on a file that is not a dump. Each is one plain line and the
right exit code, never a traceback or an exception's class name."""

from __future__ import annotations

from pathlib import Path

import pytest

from application.session.paths import config_file
from cli.exit_codes import ExitCode
from cli.main import main
from simulator.server import SimulatorServer


@pytest.mark.parametrize(
    "url", ["http://host:port", "ftp://evals.blah.dev", "http://[bad", "evals.blah.dev", "https://evals.blah.dev/?x=1"]
)
@pytest.mark.parametrize("command", [["--model", "m"], ["export", "m"], ["report", "m"], ["serve", "--model", "m"]])
def test_a_malformed_base_url_is_one_plain_line_that_shows_a_valid_one(
    url: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--base-url", url]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    shown = url.replace("?x=1", "?…")  # a query may hold a key: not repeated
    assert lines[0].startswith(f"blah-tui: --base-url {shown!r} is not a platform address: ")
    assert "A valid one looks like https://evals.blah.dev" in lines[0]
    assert "Error" not in lines[0] and "Traceback" not in err


def test_a_bad_base_url_in_the_config_file_is_named_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    config_file().parent.mkdir(parents=True, exist_ok=True)
    config_file().write_text('base_url = "http://host:port"\n', encoding="utf-8")
    assert main(["--model", "m"]) == 2
    err = capsys.readouterr().err
    assert "base_url (config file or BLAH_BASE_URL) 'http://host:port' is not a platform address" in err
    assert "number from 1 to 65535" in err and "Traceback" not in err


def test_no_model_says_how_to_try_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "--model MODEL_ID" in err and "blah-tui --demo" in err


def test_export_of_an_unknown_model_is_one_plain_line(
    sim: SimulatorServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "dump.jsonl"
    assert main(["export", "no-such-model", "--base-url", sim.base_url, "-o", str(out)]) == ExitCode.NOT_FOUND
    err = capsys.readouterr().err
    assert err.strip() == f"blah-tui export: no model 'no-such-model' on {sim.base_url}"
    assert not out.exists() and not list(tmp_path.iterdir())  # no file and no partial file


def test_an_unreachable_platform_is_named_by_its_host(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["export", "m", "--base-url", "http://127.0.0.1:9", "-o", str(tmp_path / "x.jsonl")])
        == ExitCode.UNREACHABLE
    )
    err = capsys.readouterr().err
    assert "http://127.0.0.1:9/api/v1/models/m" in err and "could not connect" in err


def test_config_show_includes_the_platform_address(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "show"]) == 0
    assert 'base_url = "https://evals.blah.dev"' in capsys.readouterr().out
    assert main(["config", "set", "base_url", "http://127.0.0.1:8000"]) == 0
    capsys.readouterr()
    assert main(["config", "show"]) == 0
    assert 'base_url = "http://127.0.0.1:8000"' in capsys.readouterr().out


def test_config_set_refuses_an_unknown_theme_and_leaves_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "set", "theme", "blah-light"]) == 0
    before = config_file().read_bytes()
    capsys.readouterr()
    assert main(["config", "set", "theme", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert "no theme 'nosuch'; nothing written" in err
    assert "blah-dark" in err and "blah-high-contrast" in err and "nord" in err  # the valid names
    assert config_file().read_bytes() == before
    assert main(["config", "set", "theme", "nord"]) == 0  # Textual's own themes are themes too


def test_open_on_a_markdown_file_stops_at_once_and_opens_no_app(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import cli.app.launch

    def no_app(ctx: object) -> int:
        raise AssertionError("the app was opened on a file that is not a dump")

    monkeypatch.setattr(cli.app.launch, "_run", no_app)
    report = tmp_path / "report.md"
    report.write_text("# Diagnosis of m\n\n" + "".join(f"- line {n} of prose\n" for n in range(315)), encoding="utf-8")
    assert main(["open", str(report)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "report.md: this is not a JSONL dump of calls" in err[0] and "line 1: not valid JSON" in err[0]


def test_open_of_a_directory_says_it_is_a_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`open /etc` said "no such file": the folder is there, it is just not a file."""
    import cli.app.launch

    monkeypatch.setattr(cli.app.launch, "_run", lambda ctx: pytest.fail("the app must not start"))
    assert main(["open", str(tmp_path)]) == ExitCode.USAGE
    err = capsys.readouterr().err.strip()
    said = "is a directory: open takes a file (a JSONL dump of calls or rollouts, or an evidence bundle)"
    assert err == f"blah-tui: {tmp_path} {said}"
    assert main(["open", str(tmp_path / "nope.jsonl")]) == ExitCode.USAGE
    assert "no such file" in capsys.readouterr().err
