"""Which profile a command or the app talks to: its platform, origin, key and the key's source.

A profile is a ``[profiles.NAME]`` table of the config (``application.session.settings.profile_table``). A
config without one behaves as it always has: one implicit blah.dev profile (``default``)
made of the top-level ``base_url`` / ``BLAH_BASE_URL`` and ``default_model``.

Every CLI command and the app call :func:`resolve_profile`; for example a Blobfish command::

    profile = resolve_profile(args.profile, platform="blobfish",
                              base_url_flag=args.base_url, key_flag=args.api_key)
    client = BlobfishClient(profile.origin, api_key=profile.api_key)
    # profile.key_source: "flag" | "env" | "config" | "keyring" | "none", never the key

Which profile, in order: the ``name`` given (``--profile``); else ``default_profile``, or the
implicit blah.dev profile when none is set, if it is of the ``platform`` asked for; else the
only profile of that platform; else (none) an implicit profile of that platform, named after
it, on its default origin.

Origin: ``--base-url`` > the profile's ``base_url`` > (implicit profiles only) the top-level
``base_url`` / ``BLAH_BASE_URL`` for blah.dev, ``BLOBFISH_BASE_URL`` for Blobfish,
``ERRORBAR_BASE_URL`` for errorbar > the
platform's default. Always ``scheme://host[:port]``: a trailing
copy of the platform's own path (``/api/v1``, ``/v1``) is removed; the client adds it.

Key, per platform: ``--api-key`` > the platform's variable (``EVALS_BLAH_API_KEY``,
``BLOBFISH_API_KEY``, ``ERRORBAR_API_KEY``) > the key stored for this profile by
``blah-tui login --profile NAME``. A key carrying another platform's prefix is refused
(:class:`ProfileError`, one line naming the prefix class and the source, never the key).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, Unpack

from pydantic import SecretStr

from application.session.base_url import base_url_problem, explain_bad_base_url
from application.session.credentials.stored_key import StoredKey, load_stored, stored_where
from application.session.platforms import (
    PLATFORMS,
    PlatformSpec,
    foreign_key_problem,
    origin_of_base_url,
    platform_spec,
)
from application.session.settings.profile_table import IMPLICIT_PROFILE, Profile

if TYPE_CHECKING:
    from application.session.settings.config import Config

__all__ = [
    "IMPLICIT_PROFILE",
    "KEY_SOURCE_NAMES",
    "ProfileError",
    "ResolvedProfile",
    "describe_key_source",
    "inspect_profile",
    "known_profiles",
    "resolve_profile",
]

KEY_SOURCE_NAMES = {
    "flag": "the --api-key flag",
    "config": "the file written by `blah-tui login`",
    "keyring": "the system keyring (blah-tui login)",
    "demo": "the demo simulator",
    "none": "none",
}


class ProfileError(ValueError):
    """A profile that cannot be used, in one line for the person (never holding a key)."""


@dataclass(frozen=True)
class ResolvedProfile:
    """A profile ready to use. ``repr`` never shows the key (Textual prints the locals of a
    crashed app's frames); read it with :attr:`api_key` right where a client is built."""

    name: str
    spec: PlatformSpec
    origin: str  # scheme://host[:port]; the client adds spec.api_path
    origin_source: str  # "flag" | "profile" | "config" (top-level base_url or BLAH_BASE_URL) | "env" | "default"
    default_model: str | None
    implicit: bool  # no [profiles.NAME] table: today's behaviour, or a platform's implicit profile
    key_source: str  # "flag" | "env" | "config" | "keyring" | "none": never the key itself
    key_problem: str | None = None  # a stored key that could not be read (keyring silent...)
    key_refusal: str | None = None  # the key carried another platform's prefix: not used
    secret: SecretStr | None = field(default=None, repr=False)

    @property
    def platform(self) -> str:
        return self.spec.name

    @property
    def api_key(self) -> str | None:
        return self.secret.get_secret_value() if self.secret is not None else None

    @property
    def has_key(self) -> bool:
        return self.secret is not None

    @property
    def label(self) -> str:
        """Short, for a header: the profile's name, or nothing for today's implicit profile."""
        return "" if self.implicit and self.name == IMPLICIT_PROFILE else self.name

    @property
    def key_source_text(self) -> str:
        return describe_key_source(self.key_source, self.spec)


def describe_key_source(source: str, spec: PlatformSpec | None = None) -> str:
    """Where a key comes from, in words; never any part of the key."""
    if source == "env":
        return f"${(spec or PLATFORMS['blah']).key_env}"
    return KEY_SOURCE_NAMES.get(source, source)


def known_profiles(config: Config) -> dict[str, Profile]:
    """Every profile the config defines, the implicit ``default`` first when no table
    replaces it (it always exists: today's blah.dev settings)."""
    profiles: dict[str, Profile] = {}
    if IMPLICIT_PROFILE not in config.profiles:
        profiles[IMPLICIT_PROFILE] = Profile(
            platform="blah", base_url=config.base_url, default_model=config.default_model
        )
    profiles.update(config.profiles)
    return profiles


def _loaded_config() -> Config:
    from application.session.settings.config import load_config

    return load_config().config  # a broken file: the defaults; the caller reports the problem


def _choose(name: str | None, platform: str | None, config: Config) -> tuple[str, Profile | None]:
    """(name, table) of the profile to use; table None: an implicit profile of ``platform``."""
    if name is not None:
        if name in config.profiles:
            table = config.profiles[name]
        elif name == IMPLICIT_PROFILE:
            table = None
        else:
            known = ", ".join(known_profiles(config)) or "none"
            raise ProfileError(
                f"no profile {name!r} (known: {known}); add one with `blah-tui profiles add {name} --platform ...`"
            )
        chosen_platform = table.platform if table is not None else "blah"
        if platform is not None and chosen_platform != platform:
            raise ProfileError(
                f"profile {name!r} is a {platform_spec(chosen_platform).title} profile; "
                f"this needs a {platform_spec(platform).title} profile"
            )
        return name, table
    default = config.default_profile or IMPLICIT_PROFILE
    default_table = config.profiles.get(default)
    default_platform = default_table.platform if default_table is not None else "blah"
    if platform is None or default_platform == platform:
        return default, default_table
    same = [n for n, table in config.profiles.items() if table.platform == platform]
    if len(same) == 1:
        return same[0], config.profiles[same[0]]
    if len(same) > 1:
        raise ProfileError(f"several {platform_spec(platform).title} profiles ({', '.join(same)}): pass --profile NAME")
    return (IMPLICIT_PROFILE if platform == "blah" else platform), None


def _origin(
    name: str, table: Profile | None, spec: PlatformSpec, base_url_flag: str | None, config: Config
) -> tuple[str, str]:
    if base_url_flag:
        problem = base_url_problem(base_url_flag)
        if problem:
            raise ProfileError(explain_bad_base_url(base_url_flag, problem))
        return origin_of_base_url(base_url_flag, spec), "flag"
    if table is not None and table.base_url:
        return origin_of_base_url(table.base_url, spec), "profile"
    if table is None and name == IMPLICIT_PROFILE and spec.name == "blah" and config.base_url:
        problem = base_url_problem(config.base_url)
        if problem:  # BLAH_BASE_URL is not validated by the config model
            raise ProfileError(
                explain_bad_base_url(config.base_url, problem, option="base_url (config file or BLAH_BASE_URL)")
            )
        return origin_of_base_url(config.base_url, spec), "config"
    env_origin = os.environ.get(spec.base_url_env, "").strip() if spec.base_url_env and table is None else ""
    if env_origin:  # the implicit profile of a platform: its conventional variable names a self-hosted one
        problem = base_url_problem(env_origin)
        if problem:
            raise ProfileError(explain_bad_base_url(env_origin, problem, option=f"${spec.base_url_env}"))
        return origin_of_base_url(env_origin, spec), "env"
    if spec.default_origin is None:
        raise ProfileError(
            f"no address for {spec.title}: pass --base-url, or add a profile with one "
            f"(blah-tui profiles add NAME --platform {spec.name} --base-url URL)"
        )
    return spec.default_origin, "default"


def _key(name: str, spec: PlatformSpec, key_flag: str | None, read_stored: bool, credentials: Path | None) -> StoredKey:
    if key_flag:
        return StoredKey(key_flag.strip(), "flag")
    env = os.environ.get(spec.key_env, "").strip()
    if env:
        return StoredKey(env, "env")
    if not read_stored:
        where = stored_where(credentials, name)
        return StoredKey(None, where)  # the source only: the key is not read
    return load_stored(credentials, name)


def inspect_profile(
    name: str | None = None,
    *,
    platform: str | None = None,
    base_url_flag: str | None = None,
    key_flag: str | None = None,
    config: Config | None = None,
    credentials: Path | None = None,
    read_stored: bool = True,
) -> ResolvedProfile:
    """As :func:`resolve_profile`, but a key with another platform's prefix is left out and
    said in ``key_refusal`` instead of raised (``status`` lists every profile).
    ``read_stored=False``: name where the stored key is without reading it (no keyring wait)."""
    config = config if config is not None else _loaded_config()
    if platform is not None:
        platform_spec(platform)  # a typo in a caller is a KeyError at once
    chosen, table = _choose(name, platform, config)
    spec = platform_spec(table.platform if table is not None else (platform or "blah"))
    origin, origin_source = _origin(chosen, table, spec, base_url_flag, config)
    if table is not None:
        default_model = table.default_model
    else:
        default_model = config.default_model if spec.name == "blah" and chosen == IMPLICIT_PROFILE else None
    found = _key(chosen, spec, key_flag, read_stored, credentials)
    refusal = None
    if found.key:
        source = "--api-key" if found.source == "flag" else describe_key_source(found.source, spec)
        refusal = foreign_key_problem(found.key, spec, source=source)
    return ResolvedProfile(
        name=chosen,
        spec=spec,
        origin=origin,
        origin_source=origin_source,
        default_model=default_model,
        implicit=table is None,
        key_source=found.source,
        key_problem=found.problem,
        key_refusal=refusal,
        secret=SecretStr(found.key) if found.key and refusal is None else None,
    )


class ProfileChoice(TypedDict, total=False):
    """What besides its name picks a profile: :func:`resolve_profile`'s options (see there)."""

    platform: str | None
    base_url_flag: str | None
    key_flag: str | None
    config: Config | None
    credentials: Path | None


def resolve_profile(name: str | None = None, **choice: Unpack[ProfileChoice]) -> ResolvedProfile:
    """The profile to talk to (see the module's docstring for the order of every choice).

    ``name``: ``--profile`` or None. ``platform``: "blah" | "blobfish" | "errorbar" when the
    command works on one platform only (None: the app, any platform). ``base_url_flag`` /
    ``key_flag``: ``--base-url`` / ``--api-key``. ``config``: the loaded settings (read from
    the file when None). Raises :class:`ProfileError` (one line, safe to print) for an
    unknown profile, a profile of another platform, a bad ``--base-url``, a platform with no
    address, or a key carrying another platform's prefix. A stored key that cannot be read is
    not an error: ``key_problem`` says why and the profile has no key."""
    resolved = inspect_profile(name, **choice)
    if resolved.key_refusal:
        raise ProfileError(resolved.key_refusal)
    return resolved
