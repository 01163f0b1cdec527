"""The base of the wire shapes read leniently (Blobfish's and errorbar's, largely ASSUMED by
their contracts): unknown members are kept (``--json`` shows them), an absent member stays
absent (``None`` on the model, left out of :meth:`Lenient.to_json`), never made up. The
members themselves are each platform's, in its own shapes modules."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["Lenient"]


class Lenient(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)

    def to_json(self) -> dict[str, Any]:
        """What the platform sent (unknown members too, absent members still absent)."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)
