"""The base of every blah.dev wire model (see ``api_client.blahdev.shapes`` for the rules they follow)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

Millis = int


class BlahModel(BaseModel):
    """Base for every wire model: ignore unknown fields, keep instances immutable.

    ``defer_build``: a model's validator is built on its first use, not at import (start-up).
    """

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True, defer_build=True)
