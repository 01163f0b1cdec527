"""Where a command sends its requests and with which key: one record for every platform
(blah.dev verbs, Blobfish, bench, the bake-off queue). Each platform's commands resolve it
their own way (a profile, a flag, a variable); the key is never printed (``repr=False``)."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Connection"]


@dataclass(frozen=True)
class Connection:
    base_url: str
    api_key: str | None = field(repr=False)
    key_source: str = ""
    """Where the key came from ("env", "keyring", "file", ...; never the key)."""
    profile: str = ""
    """The profile's name (whose archive the calls go to); "" for the implicit one."""
    platform: str = "blah"

    @property
    def key_description(self) -> str:
        """Where the key came from, in words (never the key)."""
        from application.session.platforms import platform_spec
        from application.session.profiles.resolve import describe_key_source

        return describe_key_source(self.key_source, platform_spec(self.platform))
