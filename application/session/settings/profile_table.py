"""One ``[profiles.NAME]`` table of the config file, validated (pydantic v2).

    [profiles.work]
    platform = "blah"                    # blah | blobfish | errorbar
    base_url = "https://evals.blah.dev"  # the origin; a trailing copy of the platform's path is accepted
    default_model = "my-model"           # blah.dev only: the model the app opens on

Kept apart from ``application.session.profiles.resolve`` (which resolves a profile and reads the config)
so that ``application.session.settings.config`` can validate these tables without an import cycle.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from application.session.base_url import base_url_problem
from application.session.credentials.key_redaction import hide_keys, shown_address
from application.session.platforms import PlatformName, platform_spec
from application.session.profile_names import IMPLICIT_PROFILE, PROFILE_NAME, profile_name_problem

__all__ = ["IMPLICIT_PROFILE", "PROFILE_NAME", "Profile", "profile_name_problem"]


class Profile(BaseModel):
    """A platform to talk to and how; the key is never here (``blah-tui login --profile``)."""

    model_config = ConfigDict(extra="forbid")

    platform: PlatformName = "blah"
    base_url: str | None = None
    default_model: str | None = None

    @field_validator("base_url")
    @classmethod
    def _an_address(cls, value: str | None) -> str | None:
        if value is None:
            return None
        problem = base_url_problem(value)
        if problem:
            raise ValueError(f"{shown_address(value)!r} is not a platform address: {hide_keys(problem)}")
        return value.strip()

    @model_validator(mode="after")
    def _fits_the_platform(self) -> Profile:
        spec = platform_spec(self.platform)
        if self.default_model is not None and not spec.has_models:
            raise ValueError(f"default_model applies to blah.dev profiles only, not to {spec.title}")
        if self.base_url is None and spec.default_origin is None:
            raise ValueError(f"{spec.title} profiles need a base_url (its address is not published)")
        return self
