"""The calls behind one number of the Diagnosis screen; Enter opens one in the Inspector.

``CallSet`` is what a tab of the Diagnosis screen hands up when Enter is pressed on a number
(the calls behind it, with a title saying what they are); ``DiagnosisCallsScreen`` lists them.

Calls that were not among those read for the diagnosis (a platform example or a cluster
member outside our window) are fetched one by one from the platform; what cannot be fetched
is said, never left out silently.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.widgets import Static

from api_client.errors import BlahError
from application.logs.rows import row_from_entry
from application.session.settings.timezone import screen_tz
from common.records import Call
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.log_list import LogList
from widgets.safe_text import one_line, safe_text
from widgets.status_header import StatusHeader

__all__ = ["MAX_FETCH", "CallSet", "DiagnosisCallsScreen"]

MAX_FETCH = 100
"""At most this many calls missing locally are fetched from the platform for one list."""


@dataclass(frozen=True)
class CallSet:
    """The calls behind one number: a title saying what they are, and their ids (oldest first)."""

    title: str
    ids: tuple[str, ...]
    note: str = ""


class DiagnosisCallsScreen(BlahScreen):
    """A list of calls (oldest at the top, like the Logs screen); Enter opens the Inspector."""

    SCREEN_TITLE = "Diagnosis · calls"

    DEFAULT_CSS = """
    DiagnosisCallsScreen #calls-title { height: auto; padding: 0 1; text-style: bold; background: $panel; }
    DiagnosisCallsScreen #calls-note { height: auto; padding: 0 1; color: $foreground-muted; }
    DiagnosisCallsScreen #calls-note.hidden { display: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.back("diagnosis_calls", "back"),
    ]

    def __init__(
        self,
        title: str,
        ids: tuple[str, ...],
        entries: Mapping[str, Call],
        *,
        badges: Callable[[str], tuple[str, ...]] | None = None,
        note: str = "",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.ids = tuple(dict.fromkeys(ids))
        self._entries = dict(entries)
        self._badges = badges or (lambda _id: ())
        self._note = note
        self.missing: list[str] = []  # ids that could not be found anywhere
        self.loaded = False

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(safe_text(self.title_text), id="calls-title", markup=False)
        yield Caption(safe_text(self._note), id="calls-note", classes="" if self._note else "hidden")
        yield LogList(id="calls-list", tz=screen_tz(self.ctx.settings))
        yield KeyFooter()

    @property
    def log_list(self) -> LogList:
        return self.query_one("#calls-list", LogList)

    def on_mount(self) -> None:
        self.log_list.has_older = False
        self.log_list.focus()
        self._show()
        if any(i not in self._entries for i in self.ids):
            self._fetch_missing()
        else:
            self.loaded = True

    @property
    def shown_ids(self) -> list[str]:
        """The ids listed, in list order (oldest first)."""
        found = [self._entries[i] for i in self.ids if i in self._entries]
        return [e.id for e in sorted(found, key=lambda e: (e.created_at, e.id))]

    def _show(self) -> None:
        rows = [row_from_entry(self._entries[i], self._badges(i)) for i in self.shown_ids]
        self.log_list.set_rows(rows, follow=True)
        if not self.ids:
            self._set_note("no calls behind this number")

    def _set_note(self, text: str, *, error: bool = False) -> None:
        note = self.query_one("#calls-note", Caption)
        parts = [p for p in (self._note, text) if p]
        note.say(safe_text("\n".join(parts)), error=error)
        note.set_class(not parts, "hidden")

    @work(exclusive=True, group="diagnosis-calls-fetch", exit_on_error=False)
    async def _fetch_missing(self) -> None:
        wanted = [i for i in self.ids if i not in self._entries]
        archive = self.ctx.archive
        if archive is not None:
            for log_id in list(wanted):
                found = await asyncio.to_thread(archive.find, log_id)
                if found is not None:
                    self._entries[log_id] = found
                    wanted.remove(log_id)
        client = self.ctx.client
        problems: list[str] = []
        if wanted and client is None:
            problems.append(f"{len(wanted)} of these calls are not in this file (offline)")
            self.missing = wanted
        elif wanted and client is not None:
            self._set_note(f"fetching {min(len(wanted), MAX_FETCH)} calls from the platform…")
            skipped = wanted[MAX_FETCH:]
            for log_id in wanted[:MAX_FETCH]:
                try:
                    self._entries[log_id] = await client.get_log(log_id)
                except BlahError as error:
                    self.missing.append(log_id)
                    if len(problems) < 3:
                        problems.append(f"couldn't load {one_line(log_id, max_len=40)}: {describe_error(error)}")
            if skipped:
                self.missing.extend(skipped)
                problems.append(f"{len(skipped)} more calls not fetched (limit {MAX_FETCH})")
        self._show()
        self._set_note("; ".join(problems), error=bool(problems))
        self.loaded = True

    # ------------------------------------------------------------------ actions

    @on(LogList.Selected, "#calls-list")
    def _open(self, event: LogList.Selected) -> None:
        event.stop()
        from tui.screens.inspector.screen import InspectorScreen

        self.app.push_screen(InspectorScreen(event.entry_id, self.shown_ids, lookup=self._entries.get))

    def action_back(self) -> None:
        self.dismiss()
