"""Where `blah-tui bakeoff` sends its requests, and with which key.

The usual path is ``application.session.profiles.resolve.resolve_profile`` (``--profile``, else the one
errorbar profile; ``--base-url`` wins; key from ``$ERRORBAR_API_KEY``, else the profile's
stored key). A CI job gives ``--base-url`` and ``$ERRORBAR_API_KEY`` and no ``--profile``:
then neither the config nor the key store is read (the answer would be the same: the flag
and the variable win), which keeps the gate's start-up light.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from application.session.base_url import base_url_problem
from application.session.platforms import foreign_key_problem, origin_of_base_url, platform_spec


class ConnectionError_(ValueError):
    """No usable address or key; one line, safe to print (never the key)."""


@dataclass(frozen=True)
class Connection:
    base_url: str
    api_key: str | None = field(repr=False)
    key_source: str

    @property
    def key_description(self) -> str:
        """Where the key came from, in words (never the key)."""
        from application.session.profiles.resolve import describe_key_source

        return describe_key_source(self.key_source, platform_spec("errorbar"))


def resolve(base_url: str | None, profile: str | None, env: dict[str, str]) -> Connection:
    spec = platform_spec("errorbar")
    key = env.get(spec.key_env, "").strip()
    if base_url and not profile and key:
        origin = origin_of_base_url(base_url, spec)
        problem = base_url_problem(origin)
        if problem:
            raise ConnectionError_(f"{origin!r} is not an address: {problem}")
        refusal = foreign_key_problem(key, spec, source=f"${spec.key_env}")
        if refusal:
            raise ConnectionError_(refusal)
        return Connection(origin, key, "env")
    from application.session.profiles.resolve import ProfileError, resolve_profile

    try:
        resolved = resolve_profile(profile, platform="errorbar", base_url_flag=base_url)
    except ProfileError as error:
        raise ConnectionError_(str(error)) from None
    return Connection(resolved.origin, resolved.api_key, resolved.key_source)
