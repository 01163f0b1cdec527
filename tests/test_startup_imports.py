"""What the Logs screen's start-up path imports: the heavy parts come only when they are needed.

The start-up benchmark (tests/bench/bench_startup.py) measures the time; these tests keep the
causes from coming back: the detectors (their regexes take ~70 ms to compile) are only imported
when a call is classified, and plotext only when a plot has data.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _imports_after(code: str) -> set[str]:
    """Every module loaded, and each one's top-level package."""
    probe = f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, check=True, capture_output=True, text=True)
    names = set(done.stdout.split())
    return names | {name.split(".")[0] for name in names}


def _detectors(loaded: set[str]) -> set[str]:
    """The diagnosis modules (the package's lazy front aside)."""
    return {m for m in loaded if m.startswith("diagnosis.")}


def test_checking_for_diagnosis_does_not_import_it() -> None:
    code = (
        "from application.logs.badges import diagnosis_available, make_badges_fn\n"
        "assert diagnosis_available()\nmake_badges_fn('chatml')"
    )
    assert not _detectors(_imports_after(code))


def test_badges_import_diagnosis_on_the_first_call_they_classify() -> None:
    code = (
        "from application.logs.badges import make_badges_fn\n"
        "from api_client.blahdev.shapes import LogEntry\n"
        "badges = make_badges_fn('chatml')\n"
        "kinds = badges(LogEntry(id='l1', created_at=1, prompt='hi', response='I cannot help with that request.'))\n"
        "assert 'refusal' in kinds, kinds"
    )
    assert "diagnosis.classifier" in _detectors(_imports_after(code))


def test_the_app_and_logs_screen_modules_import_neither_diagnosis_nor_plotext() -> None:
    loaded = _imports_after(START_PATH)
    assert "textual" in loaded  # the probe sees what was imported
    assert not _detectors(loaded)
    assert not {"plotext", "textual_plotext"} & loaded


START_PATH = "import tui.app, tui.screens.logs.screen, cli.app.launch, api_client.archives.archive"


def _session_with_config(config_text: str | None) -> str:
    """Probe code: what ``blah-tui`` does before the app runs, with a config file holding
    ``config_text`` (None: no file): read it and build the session's settings from it."""
    return (
        "import os, pathlib, shutil, tempfile\n"
        "folder = pathlib.Path(tempfile.mkdtemp(prefix='startup-imports-'))\n"
        "os.environ['BLAH_TUI_CONFIG_DIR'] = str(folder)\n"
        "os.environ.pop('BLAH_TUI_CONFIG', None)\n"
        + ("" if config_text is None else f"(folder / 'config.toml').write_text({config_text!r})\n")
        + START_PATH
        + "\n"
        "from application.session.settings.config import load_config\n"
        "from application.session.context import AppContext\n"
        "loaded = load_config()\n"
        "shutil.rmtree(folder)\n"
        "ctx = cli.app.launch.apply_config(AppContext(model_id='m'), loaded)\n"
        "print('PROBLEM', loaded.problem, ctx.settings.theme, ctx.settings.poll_interval, dict(ctx.settings.keymap))\n"
    )


def _pydantic(loaded: set[str]) -> set[str]:
    return {"pydantic", "pydantic_core", "pydantic_settings"} & loaded


def test_the_start_up_path_imports_no_pydantic() -> None:
    """pydantic's import and first model builds were ~60-90 ms of the Logs screen's first
    frame (issue 30): the start path reads the config, builds the settings and opens the
    archive without it. Wire models (``LogEntry``, ``LogStats``) are built on first use."""
    loaded = _imports_after(_session_with_config(None))
    assert "application.session.settings.typed" in loaded and "api_client.archives.archive" in loaded  # the probe ran
    assert not _pydantic(loaded)
    assert not {m for m in loaded if m.startswith("api_client.blahdev.shapes")}


def test_a_config_file_of_good_values_is_read_without_pydantic() -> None:
    text = (
        'theme = "blah-light"\npoll_interval = 4\nbell_on_run_end = false\ndefault_model = "m"\n'
        '[templates]\n"m" = "chatml"\n[keymap]\n"mode.runs" = "f3"\n'
    )
    loaded = _imports_after(_session_with_config(text))
    assert not _pydantic(loaded)


def test_a_wrong_value_still_gets_pydantics_one_clear_message() -> None:
    """The plain checks hand what they refuse to the pydantic model: the person reads its
    verdict, naming key, value, expectation and file, as before."""
    code = _session_with_config('poll_interval = "fast"\ntheme = "blah-light"\n')
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True, capture_output=True, text=True)
    assert 'poll_interval = "fast": should be a valid number' in done.stdout
    assert "using the default (2.0)" in done.stdout and "blah-light 2.0" in done.stdout


def test_every_wire_model_is_still_importable_from_api_client_models() -> None:
    import api_client.blahdev.shapes as models
    from api_client.blahdev import shapes_logs as models_logs
    from api_client.blahdev import shapes_platform as models_platform
    from api_client.blahdev import shapes_services as models_services

    for name in models.__all__:
        value = getattr(models, name)
        home = next(m for m in (models_logs, models_platform, models_services) if hasattr(m, name))
        assert value is getattr(home, name), name
    defined = {
        name
        for m in (models_platform, models_services)
        for name, v in vars(m).items()
        if getattr(v, "__module__", None) == m.__name__
    }
    assert defined <= set(models.__all__)  # a model added there is reachable from here too
    from api_client.blahdev.shapes import ChatroomMessageDetail

    detail = ChatroomMessageDetail.model_validate({"id": "m1", "created_at": 1, "log": {"id": "l1", "created_at": 2}})
    assert detail.log is not None and detail.log.id == "l1"


def test_the_app_imports_no_text_area_until_a_screen_has_one() -> None:
    """TextArea (~20 ms with its document and syntax modules) is the Playground's and a few
    dialogs'; the app's check for a text box does not need it before one exists."""
    loaded = _imports_after(START_PATH)
    assert "textual.widgets._input" in loaded  # the probe sees Textual's widgets
    assert "textual.widgets._text_area" not in loaded


def test_a_text_area_is_still_a_text_box() -> None:
    """The check finds TextArea where Textual defines it (a Textual that moved it fails here)."""
    from textual.widgets import TextArea

    from tui.text_focus import TEXT_AREA_MODULE, is_text_box

    assert TextArea.__module__ == TEXT_AREA_MODULE
    assert is_text_box(TextArea())
    assert not is_text_box(TextArea(read_only=True))


def test_the_bakeoff_gate_imports_no_textual_and_in_ci_reads_no_profile() -> None:
    """A CI job's `blah-tui bakeoff gate ID --min-win-rate X --base-url URL` with
    $ERRORBAR_API_KEY set: no Textual, no diagnosis, and neither the config nor the key store
    (the flag and the variable decide everything), and no event loop (the gate is one blocking
    GET), so the gate starts about as fast as httpx."""
    code = (
        "import os\n"
        "os.environ['ERRORBAR_API_KEY'] = 'sk_sovereign_probe'\n"
        "from cli.main import main\n"
        "assert main(['bakeoff', 'gate', 'ev_1', '--min-win-rate', '0.5', '--base-url', 'http://127.0.0.1:9']) == 4"
    )
    loaded = _imports_after(code)
    assert "cli.bakeoff.command" in loaded and "api_client.errorbar.gate_blocking" in loaded  # the probe ran the gate
    assert (
        not {
            "textual",
            "application.session.profiles.resolve",
            "application.session.settings.config",
            "keyring",
            "asyncio",
            # the queue's pydantic shapes (the records build them): a third of the gate's start
            "api_client.errorbar.shapes",
            "api_client.errorbar.records",
        }
        & loaded
    )
    assert not _detectors(loaded)


def test_the_start_path_reads_calls_without_building_the_rollout_and_answer_records() -> None:
    """The Logs screen reads ``Call`` only; the agent and bake-off records come when first used."""
    loaded = _imports_after(START_PATH)
    assert "common.records.call" in loaded
    assert not {"common.records.rollout", "common.records.answer"} & loaded
    later = _imports_after(START_PATH + "\nfrom common.records import Rollout, answer_call")
    assert {"common.records.rollout", "common.records.answer"} <= later


def test_the_start_path_leaves_out_what_its_first_frame_does_not_use() -> None:
    """Each was on the way to the Logs screen's first frame without drawing any of it (issue 39):
    ``importlib.abc`` (with ``importlib.resources``) for the httpx finder's base class; DataTable
    (the shared keys' type check; the Logs screen has no table); the command palette's providers
    (Textual loads them, given as callables, when the palette opens); the archive's migration
    (once per archive, for an older layout); hashlib (a model's archive name, asked once the
    screen looks for it); the plots' bucketing (their first data follows the rows' frame)."""
    loaded = _imports_after(START_PATH)
    assert "tui.bindings" in loaded and "api_client.archives.base" in loaded  # the probe ran
    assert (
        not {
            "importlib.abc",
            "importlib.resources",
            "textual.widgets._data_table",
            "tui.palette",
            "api_client.archives.migrate",
            "hashlib",
            "application.logs.series",
        }
        & loaded
    )


def test_a_start_without_a_config_file_loads_no_toml_parser() -> None:
    assert "tomllib" not in _imports_after(_session_with_config(None))
    assert "tomllib" in _imports_after(_session_with_config('theme = "blah-light"\n'))


def test_the_palette_offers_the_same_providers_loaded_when_it_opens() -> None:
    from textual.app import App

    from tui.app import BlahApp, palette_provider
    from tui.palette import PALETTE_PROVIDERS

    lazy = BlahApp.COMMANDS - App.COMMANDS
    assert {provider() for provider in lazy} == set(PALETTE_PROVIDERS)  # type: ignore[operator]
    assert palette_provider("KeysProvider") is PALETTE_PROVIDERS[0]


def test_vim_keys_still_move_a_data_table_once_one_is_loaded() -> None:
    code = (
        "from tui.bindings import _cursor_lists\n"
        "from textual.widgets import OptionList\n"
        "assert _cursor_lists() == (OptionList,)\n"
        "from textual.widgets import DataTable\n"
        "assert _cursor_lists() == (DataTable, OptionList)\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)
