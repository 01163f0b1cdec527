"""What may name a profile, without pydantic: ``application.session.settings.config`` checks the names of
the file's ``[profiles.NAME]`` tables on the start path, where no pydantic model is built
(``application.session.settings.fields``); ``profile_table`` (the pydantic ``Profile``) re-exports these."""

from __future__ import annotations

import re

__all__ = ["IMPLICIT_PROFILE", "PROFILE_NAME", "profile_name_problem"]

IMPLICIT_PROFILE = "default"
"""The profile a config without ``[profiles.*]`` tables has: blah.dev, from the top-level
``base_url`` and ``default_model`` (today's behaviour). A table of that name replaces it."""

PROFILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")


def profile_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a profile (it becomes a bare TOML key and a keyring entry)."""
    if PROFILE_NAME.match(name):
        return None
    return "a profile name is 1 to 40 letters, digits, '-' or '_', starting with a letter or digit"
