"""Where blah-tui keeps its config and data.

``BLAH_TUI_CONFIG_DIR`` / ``BLAH_TUI_DATA_DIR`` override the platform's user directories
(tests point them at a temporary folder); ``BLAH_TUI_CONFIG`` names the config file itself.
No Textual import: the CLI subcommands use this too.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "blah-tui"


def config_dir() -> Path:
    override = os.environ.get("BLAH_TUI_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    override = os.environ.get("BLAH_TUI_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME))


def config_file() -> Path:
    override = os.environ.get("BLAH_TUI_CONFIG")
    return Path(override) if override else config_dir() / "config.toml"
