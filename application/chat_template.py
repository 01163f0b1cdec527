"""Which chat template a model was trained with, and where that came from."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from api_client.blahdev.shapes import LensBundle, Model

__all__ = ["resolve_template"]


def resolve_template(
    config_value: str | None, model: Model | None, lens: LensBundle | None = None
) -> tuple[str | None, str]:
    """The trained template and where it came from (config, platform, lens or unknown)."""
    from diagnosis import resolve_trained_template  # here, not at the top: the start's imports leave diagnosis out

    return resolve_trained_template(config_value, model, lens)
