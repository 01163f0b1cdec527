"""The Inspector: one call, whole.

The exact prompt and reply verbatim (``TextViewer``: sanitized, special template tokens
highlighted, ``w`` shows whitespace and line ends); completion tokens against ``max_tokens``
with the finish reason; every field of the entry; where the call came from (eval, run,
judged result with the judge's reasoning, chatroom message), each opened by a key; the
findings of ``diagnosis`` with their evidence, the repeating span and the cut-off point marked
in the reply; the prompt's template beside the trained one.

A call from another platform (a Blobfish rollout step) comes through a ``CallSource``
(``application.inspector.foreign``): the same panels, its own origin and extra findings.

Keys: ``n``/``p`` newer/older call, ``c``/``C`` copy prompt/reply, ``o`` page the call
(sanitized) in $PAGER, ``O`` open the raw call in $EDITOR, ``t`` export as a training
example, ``e``/``u``/``g``/``m`` open the eval/run/result/chatroom message, Esc back.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.worker import Worker, WorkerState

from api_client.blahdev.shapes import Result
from api_client.errors import BlahError, NotFoundError
from application.chat_template import resolve_template
from application.inspector.call_reader import CallReader
from application.inspector.findings import Analysis, analyse
from application.inspector.foreign import CallSource, ForeignCall
from application.session.settings.timezone import screen_tz
from common.records import Call
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.screens.inspector.call_actions import copy_text, export_training_example
from tui.screens.inspector.call_view import CallPanes
from tui.screens.inspector.external import hand_over
from tui.screens.inspector.links import DetailsModal, link_target, load_link
from tui.screens.inspector.panels import CallTitle
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader
from widgets.text_viewer import TextViewer

__all__ = ["InspectorScreen", "Neighbours"]

Neighbours = Callable[[str], tuple[str | None, str | None]] | Sequence[str]
"""How n/p find the next call: a function ``id -> (older id, newer id)``, or the ids in
order, oldest first."""

LINKS = (("eval", "e", "Eval"), ("run", "u", "Run"), ("result", "g", "Judge"), ("message", "m", "Message"))
"""What the call links to: the kind, the key that opens it, the footer's word for it."""
LINK_KEYS = {which: key for which, key, _ in LINKS}


class InspectorScreen(BlahScreen):
    """One call, whole. ``lookup`` finds an entry locally (the Logs screen passes its rows);
    otherwise the session's archive, then ``client.get_log``."""

    SCREEN_TITLE = "Inspector"

    DEFAULT_CSS = """
    InspectorScreen #insp-title { height: 1; padding: 0 1; background: $panel; }
    InspectorScreen #insp-message { height: auto; padding: 1 2; }
    InspectorScreen #insp-message.hidden { display: none; }
    InspectorScreen #insp-body.hidden { display: none; }
    InspectorScreen #insp-texts { width: 3fr; }
    InspectorScreen #insp-side { width: 2fr; border-left: vkey $panel-lighten-1; padding: 0 1; }
    InspectorScreen .insp-label { height: 1; padding: 0 1; color: $foreground-muted; text-style: bold; }
    InspectorScreen TextViewer { height: 1fr; }
    InspectorScreen TokenBar { padding: 0 1; }
    InspectorScreen .insp-section { text-style: bold; color: $primary; margin-top: 1; }
    InspectorScreen .insp-panel { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.back("inspector", "back"),
        Binding("n", "newer", "Newer", id="inspector.newer"),
        Binding("p", "older", "Older", id="inspector.older"),
        Binding("w", "toggle_whitespace", "Whitespace", priority=True, id="inspector.whitespace"),
        Binding("c", "copy('prompt')", "Copy prompt", id="inspector.copy_prompt"),
        Binding("C", "copy('reply')", "Copy reply", show=False, id="inspector.copy_reply"),
        Binding("o", "external('pager')", "Pager", id="inspector.pager"),
        Binding("O", "external('editor')", "Editor", show=False, id="inspector.editor"),
        Binding("t", "export_example", "Training example", id="inspector.export"),
        *(Binding(key, f"open_link('{which}')", word, id=f"inspector.{which}") for which, key, word in LINKS),
        Binding("l", "lens", "Lens", id="inspector.lens"),
    ]

    def __init__(
        self,
        log_id: str,
        neighbours: Neighbours | None = None,
        *,
        lookup: Callable[[str], Call | None] | None = None,
        source: CallSource | None = None,
    ) -> None:
        """``source``: the calls come from another platform (e.g. a rollout's steps); then
        ``n``/``p`` walk the source and nothing is asked of the blah.dev client."""
        super().__init__()
        self._source = source
        self.foreign: ForeignCall | None = None
        self.log_id = log_id
        self.entry: Call | None = None
        self.analysis: Analysis | None = None
        self.result: Result | None = None
        self._neighbours = neighbours
        self._lookup = lookup
        self._call_reader: CallReader | None = None
        self._links_shown: tuple[bool, ...] | None = None

    _PLATFORM_NAMES = {"blobfish": "Blobfish", "errorbar": "errorbar"}

    def sync_status_header(self) -> None:
        """A call from another platform (a rollout step, a bake-off sample) names that platform
        and the call's own model, not the blah.dev session the Inspector sits in."""
        super().sync_status_header()
        if self._source is None:
            return
        platform = str(getattr(self._source, "platform", "") or "")
        model = self.entry.model_id if self.entry is not None else None
        for header in self.query(StatusHeader):
            header.platform = self._PLATFORM_NAMES.get(platform, platform or "another platform")
            header.model_id = model or "—"
            header.muted_model = False
            header.connection = "connected"
            header.detail = ""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield CallTitle(Text(f"call {one_line(self.log_id, max_len=80)}"), id="insp-title", markup=False)
        yield Caption(Text("loading…", style="italic"), id="insp-message")
        yield CallPanes(id="insp-body", classes="hidden")
        yield KeyFooter()

    @property
    def panes(self) -> CallPanes:
        return self.query_one("#insp-body", CallPanes)

    def on_mount(self) -> None:
        self._load(self.log_id)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # The loaders report the connection themselves (a caught error ends in SUCCESS too).
        if event.state is WorkerState.SUCCESS and event.worker.group.startswith("inspector-"):
            event.prevent_default()

    # ------------------------------------------------------------------ loading

    @work(exclusive=True, group="inspector-load")
    async def _load(self, log_id: str) -> None:
        self.log_id = log_id
        self._show_message(Text("loading…", style="italic"))
        try:
            entry = await self._fetch(log_id)
        except NotFoundError:
            self._show_message(
                Text(f"No call with id “{one_line(log_id, max_len=80)}” on the platform. Esc goes back."), error=True
            )
            return
        except BlahError as error:
            self.blah_app.note_connection(error)
            self._show_message(Text(f"couldn't load: {describe_error(error)}  (Esc goes back)"), error=True)
            return
        if entry is None:
            where = "in this file" if self.ctx.client is None else "here"
            self._show_message(
                Text(f"No call with id “{one_line(log_id, max_len=80)}” {where}. Esc goes back."), error=True
            )
            return
        self.entry, self.result, self.analysis = entry, None, None
        self.sync_status_header()  # another platform's call: its platform and model in the header
        self._show_entry(entry)
        trained, source = await self._trained_template(entry)
        analysis = await asyncio.to_thread(analyse, entry, trained_template=trained, trained_source=source)
        if self.entry is not entry:
            return
        foreign = self.foreign
        if foreign is not None and analysis.available:
            # A step that only called tools has no reply to classify ("no reply" is not an error there).
            found = analysis.findings if foreign.classify else []
            analysis = dataclasses.replace(analysis, findings=[*found, *foreign.findings])
        self.analysis = analysis
        self._show_analysis()
        await self._load_result(entry, trained, source)

    @property
    def _reader(self) -> CallReader:
        if self._call_reader is None:
            self._call_reader = CallReader(self.ctx, self._lookup)
        return self._call_reader

    async def _fetch(self, log_id: str) -> Call | None:
        if self._source is not None:
            self.foreign = self._source.call(log_id)
            return None if self.foreign is None else self.foreign.entry
        found = await self._reader.find(log_id)
        if found.platform_answered:
            self.blah_app.note_connection(None)
        return found.entry

    async def _trained_template(self, entry: Call) -> tuple[str | None, str]:
        if self._source is not None:  # another platform's model: its template is not known here
            return resolve_template(None, None)
        return await self._reader.trained_template(entry)

    async def _load_result(self, entry: Call, trained: str | None, source: str) -> None:
        panel = self.panes.result_panel
        client = self.ctx.client
        if entry.result_id is None or self._source is not None:  # another platform's result is not blah.dev's
            panel.show(None)
            return
        if client is None:
            panel.update(Text("the judged result is on the platform (offline: not available)", style="italic"))
            return
        panel.update(Text("loading the judge's reasoning…", style="italic"))
        try:
            result = await client.get_result(entry.result_id)
        except BlahError as error:
            self.blah_app.note_connection(error)
            panel.show(None, problem=describe_error(error))
            return
        if self.entry is not entry:
            return
        self.result = result
        panel.show(result)
        analysis = await asyncio.to_thread(
            analyse, entry, trained_template=trained, trained_source=source, result=result
        )
        if self.entry is entry:
            self.analysis = analysis
            self._show_analysis()

    # ------------------------------------------------------------------ showing

    def _show_message(self, text: Text, *, error: bool = False) -> None:
        message = self.query_one("#insp-message", Caption)
        message.say(text, error=error)
        message.remove_class("hidden")
        self.query_one("#insp-body").add_class("hidden")

    def _show_entry(self, entry: Call) -> None:
        tz = screen_tz(self.ctx.settings)
        self.query_one("#insp-message").add_class("hidden")
        self.panes.remove_class("hidden")
        self.query_one("#insp-title", CallTitle).show(entry, tz)
        self.panes.show_entry(entry, tz, foreign=self.foreign, noun=self._noun, link_keys=LINK_KEYS)
        links = (
            entry.eval_id is not None,
            entry.run_id is not None,
            entry.result_id is not None,
            entry.message_id is not None,
        )
        if links != self._links_shown:  # the footer is rebuilt only when what it offers changes
            self._links_shown = links
            self.refresh_bindings()

    def _show_analysis(self) -> None:
        if self.entry is not None:
            self.panes.show_analysis(self.analysis, self.entry)

    # ------------------------------------------------------------------ navigation

    @property
    def _noun(self) -> str:
        return "call" if self._source is None else self._source.noun

    def _neighbour_ids(self) -> tuple[str | None, str | None]:
        if self._source is not None:
            return self._source.neighbours(self.log_id)
        source = self._neighbours
        if callable(source):
            return source(self.log_id)
        if source is not None:
            ids = list(source)
            if self.log_id not in ids:
                return (None, None)
            i = ids.index(self.log_id)
            return (ids[i - 1] if i > 0 else None, ids[i + 1] if i + 1 < len(ids) else None)
        if self.ctx.archive is not None:
            return self.ctx.archive.neighbours(self.log_id)
        return (None, None)

    def _go(self, newer: bool) -> None:
        older_id, newer_id = self._neighbour_ids()
        target = newer_id if newer else older_id
        if target is None:
            if self._source is not None:
                noun = self._source.noun
                self.notify(f"this is the last {noun}" if newer else f"this is the first {noun}", markup=False)
                return
            self.notify("this is the newest call here" if newer else "this is the oldest call here", markup=False)
            return
        self._load(target)

    def action_newer(self) -> None:
        self._go(newer=True)

    def action_older(self) -> None:
        self._go(newer=False)

    def action_back(self) -> None:
        """Close, returning the id of the call last viewed (``n``/``p`` change it): the list
        that opened the inspector puts its cursor there."""
        # BlahScreen is a Screen[None]; the inspector alone answers with a value
        self.dismiss(self.log_id)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ actions on the call

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open_link" and parameters:
            entry = self.entry
            if entry is None or self._source is not None or link_target(entry, str(parameters[0])) is None:
                return False  # (another platform's eval, run or result is not blah.dev's to open)
        if action in ("lens", "export_example") and self._source is not None:
            return False  # blah.dev features: not for another platform's call
        return not (action in ("copy", "external", "export_example", "toggle_whitespace") and self.entry is None)

    def action_toggle_whitespace(self) -> None:
        for viewer in self.query(TextViewer):
            viewer.show_whitespace = not viewer.show_whitespace

    def action_copy(self, which: str) -> None:
        if self.entry is not None:
            copy_text(self.app, self.entry, which)

    def action_external(self, kind: str) -> None:
        if self.entry is not None:
            hand_over(self.app, self.entry, kind)

    def action_export_example(self) -> None:
        if self.entry is not None:
            export_training_example(self.app, self.entry, self.entry.model_id or self.ctx.model_id)

    def action_lens(self) -> None:
        """Analyse this call's exact prompt with the model's BLAH Lens."""
        if self.entry is not None:
            from tui.screens.lens.screen import LensScreen

            model_id = self.entry.model_id or self.ctx.model_id
            self.app.push_screen(LensScreen(model_id, prompt=self.entry.prompt or "", autostart=True))

    def action_open_link(self, which: str) -> None:
        if self.entry is not None:
            self._open_link(which, self.entry)

    @work(exclusive=True, group="inspector-link")
    async def _open_link(self, which: str, entry: Call) -> None:
        client = self.ctx.client
        target = link_target(entry, which)
        if target is None:
            return
        if client is None:
            self.notify(f"offline: the {which} {target} is on the platform", markup=False)
            return
        title = Text(f"{which} {one_line(target, max_len=60)}", style="bold")
        try:
            body = await load_link(client, which, target, known_result=self.result)
        except BlahError as error:
            self.blah_app.note_connection(error)
            self.notify(f"couldn't load the {which}: {describe_error(error)}", severity="error", markup=False)
            return
        self.app.push_screen(DetailsModal(title, body))
