"""``Secret``: an API key held so that no repr, str or traceback shows it.

The same promise as pydantic's ``SecretStr`` for the one thing the transport needs (hold the
key, hand it to the auth flow), without importing pydantic's model machinery: that import
alone is about a fifth of a second, which a CI gate (`blah-tui bakeoff gate`) pays at every
start-up.
"""

from __future__ import annotations


class Secret:
    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get_secret_value(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError("a Secret is not pickled (it would write the key)")
