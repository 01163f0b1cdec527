"""Uploading a built training set: confirm, send once, settle a lost answer by the list.

The confirmation says plainly what it sends (and what empty replies would teach the model);
``application.training.upload.send_training_set`` asks for a ticket, checks the size against
the ticket's ``max_bytes`` before any byte is sent, uploads with progress and reads the set
back from the platform's list. A lost answer is settled by looking for the set
(``find_set``), never by sending again. The editing of the set is ``TrainingBuildScreen``'s.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widgets import ProgressBar

from api_client.blahdev.shapes import UploadTicket
from api_client.errors import BlahError, OutcomeUnknownError
from application.error_text import write_problem
from application.training.upload import BuiltSet, TooLargeError, find_set, send_training_set
from common.format import format_count as _count
from common.format import format_size
from tui.base_screen import BlahScreen
from tui.send_once import SendOnce
from widgets.safe_text import one_line

__all__ = ["TrainingUpload"]


class TrainingUpload(SendOnce):
    """The build screen's ``ctrl+s``: one upload at a time, sent once."""

    def __init__(self, screen: BlahScreen, *, say: Callable[..., None]) -> None:
        """``say(text, kind)``: the result line (kind ``"error"``, ``"ok"`` or ``""``)."""
        super().__init__(screen, group="training-upload")
        self.screen = screen
        self._say = say
        self.uploaded_id: str | None = None
        """The set's id once the platform lists it."""
        self.ticket: UploadTicket | None = None

    async def run(self, name: str, built: BuiltSet) -> None:
        """Ask, then send (from the flow ``start`` runs)."""
        if await self._confirm(name, built):
            await self._send(name, built)

    async def _confirm(self, name: str, built: BuiltSet) -> bool:
        body = Text(end="")
        body.append(f"Upload “{one_line(name, max_len=100)}”: {built.examples} examples, ")
        body.append(f"{built.size_bytes:,} bytes, as a new training set on the platform.")
        if built.left_out:
            body.append(f"\n{built.left_out} prompts without a reply are left out.")
        if built.empty_replies:
            body.append(
                f"\n\n{built.empty_replies} of {built.examples} examples have an EMPTY reply. Trained on as they "
                "are, they teach the model to answer with nothing. Write the replies first, or tick "
                "“Leave out prompts without a reply”.",
                style="bold",
            )
            return await self.confirm("Upload with empty replies?", body, label="Upload anyway", danger=True)
        return await self.confirm("Upload training set?", body, label="Upload")

    async def _send(self, name: str, built: BuiltSet) -> None:
        client = self.screen.ctx.client
        assert client is not None
        bar = self.screen.query_one("#tb-progress", ProgressBar)
        bar.update(total=built.size_bytes, progress=0)
        bar.remove_class("hidden")
        self.ticket = None
        self._say(Text("asking the platform where to upload…"))

        def on_ticket(ticket: UploadTicket) -> None:
            self.ticket = ticket
            self._say(Text(f"uploading {built.size_bytes:,} bytes…"))

        try:
            outcome = await self.send(
                lambda: send_training_set(
                    client,
                    name,
                    built.data,
                    progress=lambda sent, _total: bar.update(progress=sent),
                    on_ticket=on_ticket,
                )
            )
        except TooLargeError as error:
            bar.add_class("hidden")
            self._say(f"Refused before sending: {error}.", "error")
            return
        except OutcomeUnknownError as error:
            await self._outcome_unknown(name, error)
            return
        except BlahError as error:
            bar.add_class("hidden")
            sent = " (the file was not accepted)" if self.ticket is not None else " (nothing was sent)"
            self._say(write_problem(error, "the upload") + sent, "error")
            return
        listed = outcome.training_set
        if listed is None:
            self._say("Uploaded, but the platform does not list the set yet: refresh the list later.", "error")
            return
        self.uploaded_id = listed.id
        examples = _count(listed.example_count)
        text = Text(f"Uploaded “{one_line(name, max_len=80)}”: listed on the platform as ", end="")
        text.append(one_line(listed.id, max_len=40), style="bold")
        text.append(f", {one_line(listed.status, max_len=20) or 'status not given'}, {examples} examples, ")
        text.append(f"{format_size(listed.size_bytes)}. Esc goes back to the list.")
        self._say(text, "ok")
        self.screen.notify(f"Training set {one_line(listed.id, max_len=40)} uploaded", markup=False)

    async def _outcome_unknown(self, name: str, error: OutcomeUnknownError) -> None:
        """A write timed out: look at the platform before saying anything."""
        client = self.screen.ctx.client
        assert client is not None
        self._say(write_problem(error, "the upload") + " Checking the platform…", "error")
        if self.ticket is None:
            self._say("The request for an upload address timed out: outcome unknown. Nothing was uploaded.", "error")
            return
        listed = await find_set(client, self.ticket, name)
        if listed is not None and listed.status == "ready":
            self.uploaded_id = listed.id
            self._say(f"The upload timed out but the set arrived: {one_line(listed.id, max_len=40)} is ready.", "ok")
        else:
            status = one_line(listed.status, max_len=20) if listed is not None and listed.status else "not listed"
            self._say(f"The upload timed out and the set did not arrive (status: {status}). Try again.", "error")
