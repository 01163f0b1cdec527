"""Validation of a model registration before anything is sent (pure: no IO, no Textual).

The platform accepts ``POST /models {name, inference_uri, description?}`` with:

* ``name``: 1-100 characters;
* ``inference_uri``: one of three forms (see the platform guide):
  a full ``http(s)://`` URL, an OpenRouter path ``org/model`` (e.g.
  ``anthropic/claude-sonnet-4-6``, optionally with a ``:variant`` such as ``:free``), or
  ``openai-compatible:https://host#model-name``;
* ``description``: optional, at most 1000 characters.

Checking here first means a typo costs nothing: the person gets a message naming the field
and what is wrong, and no request reaches the server. Lengths count characters after trimming
surrounding whitespace (what is sent). Control characters are refused in the name and URI
(they cannot be part of either and would be a sign of a paste gone wrong).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import HttpUrl, TypeAdapter, ValidationError

__all__ = [
    "DESCRIPTION_MAX",
    "NAME_MAX",
    "FieldProblem",
    "RegistrationInput",
    "UriKind",
    "classify_inference_uri",
    "validate_registration",
]

NAME_MAX = 100
DESCRIPTION_MAX = 1000
OPENAI_COMPATIBLE_PREFIX = "openai-compatible:"

UriKind = Literal["url", "openrouter", "openai-compatible"]

_HTTP_URL: TypeAdapter[HttpUrl] = TypeAdapter(HttpUrl)
# OpenRouter ids: "org/model" with an optional ":variant"; letters, digits, '.', '_', '-'.
_OPENROUTER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*(?::[A-Za-z0-9._-]+)?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

URI_HELP = (
    "use a full URL (https://host/v1/...), an OpenRouter path like org/model, "
    "or openai-compatible:https://host#model-name"
)


@dataclass(frozen=True)
class FieldProblem:
    """One thing wrong with one field, said so a person can fix it."""

    field: Literal["name", "inference_uri", "description"]
    message: str


@dataclass(frozen=True)
class RegistrationInput:
    """Input that passed every check: exactly what will be sent."""

    name: str
    inference_uri: str
    description: str | None
    uri_kind: UriKind


def _is_http_url(text: str) -> bool:
    if any(ch.isspace() for ch in text):
        return False
    try:
        _HTTP_URL.validate_python(text)
    except ValidationError:
        return False
    return True


def classify_inference_uri(uri: str) -> UriKind | None:
    """Which accepted form ``uri`` is in, or None when it is none of them."""
    if uri.startswith(OPENAI_COMPATIBLE_PREFIX):
        rest = uri[len(OPENAI_COMPATIBLE_PREFIX) :]
        base, sep, model = rest.partition("#")
        if sep and model.strip() and not any(ch.isspace() for ch in model) and _is_http_url(base):
            return "openai-compatible"
        return None
    if uri.lower().startswith(("http://", "https://")):
        return "url" if _is_http_url(uri) else None
    if _OPENROUTER.fullmatch(uri):
        return "openrouter"
    return None


def _uri_problem(uri: str) -> str | None:
    if not uri:
        return "the inference URI is required: " + URI_HELP
    if _CONTROL.search(uri):
        return "the inference URI contains control characters"
    if classify_inference_uri(uri) is not None:
        return None
    if uri.startswith(OPENAI_COMPATIBLE_PREFIX):
        _base, sep, model = uri[len(OPENAI_COMPATIBLE_PREFIX) :].partition("#")
        if not sep or not model.strip():
            return "openai-compatible needs the model name after '#': openai-compatible:https://host#model-name"
        return "openai-compatible needs an http(s) URL before '#': openai-compatible:https://host#model-name"
    if uri.lower().startswith(("http://", "https://")):
        return "that URL is not valid (it needs a host and no spaces)"
    if "://" in uri:
        return "only http:// and https:// URLs are accepted"
    if "/" not in uri:
        return "not a URL and not an OpenRouter path (org/model): " + URI_HELP
    return "not a valid OpenRouter path: it must look like org/model (letters, digits, '.', '_', '-')"


def validate_registration(
    name: str, inference_uri: str, description: str | None = None
) -> tuple[RegistrationInput | None, list[FieldProblem]]:
    """Check a registration. Returns the input to send (None when any check failed) and every
    problem found, so all of them can be shown at once."""
    problems: list[FieldProblem] = []
    clean_name = name.strip()
    if not clean_name:
        problems.append(FieldProblem("name", "the name is required (1-100 characters)"))
    elif len(clean_name) > NAME_MAX:
        problems.append(FieldProblem("name", f"the name is {len(clean_name)} characters; at most {NAME_MAX}"))
    elif _CONTROL.search(clean_name):
        problems.append(FieldProblem("name", "the name contains control characters"))

    clean_uri = inference_uri.strip()
    uri_problem = _uri_problem(clean_uri)
    if uri_problem is not None:
        problems.append(FieldProblem("inference_uri", uri_problem))

    clean_description = (description or "").strip() or None
    if clean_description is not None and len(clean_description) > DESCRIPTION_MAX:
        problems.append(
            FieldProblem(
                "description", f"the description is {len(clean_description)} characters; at most {DESCRIPTION_MAX}"
            )
        )

    kind = classify_inference_uri(clean_uri) if uri_problem is None else None
    if problems or kind is None:
        return None, problems
    return RegistrationInput(clean_name, clean_uri, clean_description, kind), problems
