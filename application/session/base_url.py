"""Check a platform address typed by a person before anything is built from it.

The client refuses a bad address with a ``ValueError`` (or httpx's ``InvalidURL``, which is
not one); the CLI turns that into one plain sentence that says what a valid address looks
like, instead of a traceback or a bare exception name. No Textual import.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from application.session.credentials.key_redaction import hide_keys, shown_address
from common.constants import DEFAULT_BASE_URL

__all__ = ["DEFAULT_BASE_URL", "EXAMPLES", "base_url_problem", "explain_bad_base_url"]

EXAMPLES = "https://evals.blah.dev, or http://127.0.0.1:8000 for a local simulator"

#: A host name: letters, digits, dots and hyphens (an IP literal is checked separately).
_HOST_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?\.?$")


def base_url_problem(raw: str) -> str | None:
    """Why ``raw`` cannot be a platform address, or None when it can."""
    text = raw.strip()
    if not text:
        return "it is empty"
    try:
        parts = urlsplit(text)
        port = parts.port  # raises ValueError for a port that is not a number in 0..65535
    except ValueError as error:
        if "port" in str(error).lower():
            return "the port (after the colon) must be a number from 1 to 65535"
        return f"it cannot be read as an address ({error})"
    if parts.scheme.lower() not in ("http", "https"):
        return "it must start with https:// (or http:// for a local address)"
    if "@" in parts.netloc:  # httpx logs the URL with it, and sends it as Basic auth when no key is set
        return "it must not carry a user name or password (…@): a key goes in its variable or `blah-tui login`"
    host = parts.hostname or ""
    if not host:
        return "it names no host"
    if not _valid_host(host):
        return f"{host!r} is not a host name"
    if port == 0:
        return "the port (after the colon) must be a number from 1 to 65535"
    if parts.query or parts.fragment:
        return "it must not carry a query (?…) or a fragment (#…)"
    return None


def _valid_host(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return bool(_HOST_NAME.match(host))


def explain_bad_base_url(raw: str, problem: str, *, option: str = "--base-url") -> str:
    """One sentence for the person: what is wrong and what a valid address looks like. The
    address is repeated without what may hold a key (``application.session.credentials.key_redaction``)."""
    return (
        f"{option} {shown_address(raw)!r} is not a platform address: {hide_keys(problem)}. "
        f"A valid one looks like {EXAMPLES}"
    )
