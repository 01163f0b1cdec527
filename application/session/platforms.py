"""The platforms a profile can name, and what each one's key looks like and where it goes.

One row per platform: its default origin (none for the eval-run queue: its address is not
published, so a profile must give one), the path its client adds to the origin, the
environment variable and prefix of its key, and the header the key travels in. Pure data
and two pure functions: no IO, no Textual.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from common.constants import DEFAULT_BASE_URL

__all__ = [
    "PLATFORMS",
    "PLATFORM_NAMES",
    "KeyHeaderStyle",
    "PlatformName",
    "PlatformSpec",
    "foreign_key_problem",
    "origin_of_base_url",
    "platform_spec",
]

PlatformName = Literal["blah", "blobfish", "errorbar"]
PLATFORM_NAMES: tuple[str, ...] = get_args(PlatformName)

KeyHeaderStyle = Literal["bearer", "x-api-key"]
"""``bearer``: ``Authorization: Bearer KEY``; ``x-api-key``: ``X-API-Key: KEY`` and never an
``Authorization`` header."""


@dataclass(frozen=True)
class PlatformSpec:
    name: PlatformName
    title: str  # what a person reads: "blah.dev"
    default_origin: str | None  # None: the platform's address is not known; a profile must give it
    api_path: str  # what the client adds to the origin
    key_env: str  # the conventional environment variable of its key
    key_prefix: str  # every key of this platform starts with it
    key_header: KeyHeaderStyle
    has_models: bool  # a profile's ``default_model`` applies (the app opens on a model)
    base_url_env: str | None = None  # names the origin of the platform's implicit profile (not blah.dev's:
    # BLAH_BASE_URL is a setting, read with the config)

    @property
    def key_class(self) -> str:
        """The key's kind, named by its prefix only: ``a blah.dev key (blah_…)``."""
        article = "an" if self.title[:1].lower() in "aeiou" else "a"
        return f"{article} {self.title} key ({self.key_prefix}…)"


PLATFORMS: dict[str, PlatformSpec] = {
    "blah": PlatformSpec(
        name="blah",
        title="blah.dev",
        default_origin=DEFAULT_BASE_URL,
        api_path="/api/v1",
        key_env="EVALS_BLAH_API_KEY",
        key_prefix="blah_",
        key_header="bearer",
        has_models=True,
    ),
    "blobfish": PlatformSpec(
        name="blobfish",
        title="Blobfish",
        default_origin="https://blobfish.ai",
        api_path="/api/v1",
        key_env="BLOBFISH_API_KEY",
        key_prefix="bf_",
        key_header="x-api-key",
        has_models=False,
        base_url_env="BLOBFISH_BASE_URL",
    ),
    "errorbar": PlatformSpec(
        name="errorbar",
        title="errorbar eval-run queue",
        default_origin=None,
        api_path="/v1",
        key_env="ERRORBAR_API_KEY",
        key_prefix="sk_",
        key_header="bearer",
        has_models=False,
        base_url_env="ERRORBAR_BASE_URL",  # no public default: each team runs its own queue
    ),
}


def platform_spec(name: str) -> PlatformSpec:
    """The platform called ``name``; ``KeyError`` naming the known ones otherwise."""
    try:
        return PLATFORMS[name]
    except KeyError:
        raise KeyError(f"unknown platform {name!r}; known: {', '.join(PLATFORM_NAMES)}") from None


def foreign_key_problem(key: str, platform: PlatformSpec, *, source: str) -> str | None:
    """One line when ``key`` carries another platform's prefix (it would be sent to the wrong
    platform), naming the prefix class and where the key came from, never the key; else None.

    A key with no known prefix is let through: the platform itself judges it (the blah.dev
    simulator's and older keys need not follow the convention)."""
    stripped = key.strip()
    if stripped.startswith(platform.key_prefix):
        return None
    for other in PLATFORMS.values():
        if other.name != platform.name and stripped.startswith(other.key_prefix):
            return (
                f"the key from {source} looks like {other.key_class}, not {platform.key_class}: "
                f"refusing to send it to {platform.title}"
            )
    return None


def origin_of_base_url(base_url: str, platform: PlatformSpec) -> str:
    """``scheme://host[:port]``: the address without a trailing slash or a trailing copy of the
    platform's own path (``https://blobfish.ai/api/v1/`` -> ``https://blobfish.ai``). Only that
    path is removed: any other path is kept for the client to refuse or use."""
    text = base_url.strip().rstrip("/")
    if text.endswith(platform.api_path):
        text = text[: -len(platform.api_path)].rstrip("/")
    return text
