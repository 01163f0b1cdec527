"""The header of the Evaluations screens names Blobfish, not the blah.dev session they sit in:
a row says where it came from, and blah.dev's model and connection state are not Blobfish's."""

from __future__ import annotations

from typing import Literal

from textual.reactive import var

from tui.base_screen import BlahScreen
from widgets.status_header import StatusHeader

BlobfishState = Literal["connecting", "connected", "error"]


class BlobfishHeaderScreen(BlahScreen):
    """A screen about Blobfish SDK evaluations: its header shows Blobfish (with the profile's
    name when one was chosen), every model, and whether Blobfish answered."""

    blobfish_state: var[BlobfishState] = var("connected", init=False, always_update=True)
    """Whether Blobfish answered; setting it redraws the header (even to the same state)."""

    def watch_blobfish_state(self) -> None:
        self.sync_status_header()

    def sync_status_header(self) -> None:
        super().sync_status_header()
        profile = self.ctx.profile if self.ctx.platform == "Blobfish" else ""
        for header in self.query(StatusHeader):
            header.platform = f"{profile} · Blobfish" if profile else "Blobfish"
            header.model_id = "every model"
            header.muted_model = False
            header.connection = self.blobfish_state
            header.detail = ""
