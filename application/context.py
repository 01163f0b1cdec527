"""What every screen needs to know about the session: the platform, the model, the client.

Built once by the CLI (or a test) and handed to ``create_app``; screens read it through
``BlahScreen.ctx``. No Textual import, so CLI subcommands can build one too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from api_client.archive import Archive
    from api_client.client import BlahClient


@dataclass
class AppContext:
    """The session: which platform and model, and how to reach them.

    ``client`` is None in offline mode (``blah-tui open FILE.jsonl``): screens that need
    the network say so instead of failing.
    """

    model_id: str
    client: BlahClient | None = None
    platform: str = "blah.dev"
    base_url: str | None = None
    archive: Archive | None = None
    offline_source: Path | None = None
    demo: bool = False
    key_source: str = "none"  # "flag" | "env" | "config" | "keyring" | "demo" | "none": never the key itself
    trained_template: str | None = None  # from the person's config for this model, if set
    settings: dict[str, Any] = field(default_factory=dict)
    open_log_id: str | None = None  # `blah-tui --log LOG_ID`: open the inspector on start
    blobfish: Any = None
    """Blobfish SDK evaluations (the Evaluations area) when a Blobfish client is configured: an
    ``application.blobfish.source.EvaluationSource`` (not imported here: every layer imports
    the context, and the source's package would close a cycle)."""

    @property
    def online(self) -> bool:
        return self.client is not None

    @property
    def has_key(self) -> bool:
        return self.client is not None and self.client.has_key
