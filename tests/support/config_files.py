"""The person's config file in a test: written as text (so comments and layout are the
test's own) where ``application.session.paths.config_file()`` looks for it (the isolated config dir
of tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from application.session.paths import config_file


def write_config_text(text: str) -> Path:
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def read_config_text() -> str:
    return config_file().read_text(encoding="utf-8")
