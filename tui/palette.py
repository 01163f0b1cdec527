"""Command palette providers (``:`` or ctrl+p): the keys of the current screen as commands,
and jumps to a model, a run, a call (typed log id) or a chatroom message.

Platform text (model names, message content) is shown as plain ``Content``: Textual's own
``Matcher.highlight`` and the palette's help line would read it as markup, so neither is used
with it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content
from textual.markup import escape

from widgets.safe_text import one_line

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient
    from api_client.blahdev.shapes import Run
    from tui.app_protocol import BlahAppApi

__all__ = [
    "PALETTE_PROVIDERS",
    "ChatroomProvider",
    "KeysProvider",
    "LogIdProvider",
    "ModelsProvider",
    "RunsProvider",
    "highlighted",
    "looks_like_log_id",
]

_LOG_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:\-]{2,127}$")


def highlighted(matcher: Matcher, candidate: str) -> Content:
    """``candidate`` as literal text with the fuzzy match underlined (never parsed as markup)."""
    content = Content(candidate)
    score, offsets = matcher.fuzzy_search.match(matcher.query, candidate)
    if not score:
        return content
    for offset in offsets:
        if not candidate[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


def safe_help(text: str) -> str:
    """The palette renders help as markup: escape whatever came from the platform."""
    return escape(one_line(text, max_len=120))


def looks_like_log_id(text: str) -> bool:
    """A typed word that could be a call's id (no spaces, id-like characters)."""
    return bool(_LOG_ID.match(text.strip()))


@dataclass(frozen=True)
class _Item:
    text: str  # what is matched and shown (one line, sanitised)
    help: str  # shown under it (markup-escaped)
    command: Callable[[], Any]


class _BlahProvider(Provider):
    @property
    def blah_app(self) -> BlahAppApi:
        return cast("BlahAppApi", self.app)


class KeysProvider(_BlahProvider):
    """Every key the current screen shows in its footer (and its focused widget's) as a
    command: "Runs: Start run (s)". Keys kept out of the footer (cursor and page movement,
    j/k) are not commands a person looks for. The app's own keys are system commands."""

    def _items(self) -> list[_Item]:
        screen = self.screen
        title = str(getattr(screen, "SCREEN_TITLE", "") or type(screen).__name__.removesuffix("Screen"))
        items: list[_Item] = []
        seen: set[str] = set()
        for active in screen.active_bindings.values():
            binding, node = active.binding, active.node
            if binding.system or not binding.show or not binding.description or not active.enabled:
                continue
            if node is self.app:
                continue  # areas, help, quit are system commands; j/k, /, esc are conventions
            text = f"{one_line(title, max_len=40)}: {binding.description} ({self.app.get_key_display(binding)})"
            if text in seen:
                continue
            seen.add(text)
            items.append(_Item(text, escape(binding.id or binding.action), self._runner(binding.action, node)))
        return items

    def _runner(self, action: str, node: Any) -> Callable[[], Awaitable[Any]]:
        async def run() -> None:
            await self.app.run_action(action, node)

        return run

    async def discover(self) -> Hits:
        for item in self._items():
            yield DiscoveryHit(Content(item.text), item.command, text=item.text, help=item.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for item in self._items():
            score = matcher.match(item.text)
            if score > 0:
                yield Hit(score, highlighted(matcher, item.text), item.command, text=item.text, help=item.help)


class _LoadedProvider(_BlahProvider):
    """A provider whose items come from the platform, fetched once when the palette opens."""

    #: what the items are called, e.g. "runs": a failed load is shown when the query matches it
    NOUN = ""
    #: scales the match score: jumps rank below screens and commands that match as well
    WEIGHT = 0.9

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.items: list[_Item] = []
        self.problem: str | None = None

    async def startup(self) -> None:
        client = self.blah_app.ctx.client
        if client is None:
            return  # offline: nothing to fetch
        try:
            self.items = await self.load(client)
        except Exception as error:
            from tui.base_screen import describe_error

            self.problem = describe_error(error)

    async def load(self, client: BlahClient) -> list[_Item]:
        raise NotImplementedError

    def score(self, matcher: Matcher, query: str, item: _Item) -> float:
        """How well ``item`` matches (0: not at all): fuzzy, as the rest of the palette."""
        return matcher.match(item.text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for item in self.items:
            score = self.score(matcher, query, item)
            if score > 0:
                yield Hit(
                    score * self.WEIGHT, highlighted(matcher, item.text), item.command, text=item.text, help=item.help
                )
        if self.problem and matcher.match(self.NOUN) > 0:
            text = f"{self.NOUN.capitalize()}: couldn't load: {self.problem}"
            yield Hit(0.1, Content(text), lambda: None, text=text, help="the palette will try again when reopened")


class ModelsProvider(_LoadedProvider):
    """Hits "Model <name> · <id>": make the app about that model (every screen follows)."""

    NOUN = "models"

    async def load(self, client: BlahClient) -> list[_Item]:
        app = self.blah_app
        items = []
        for model in await client.list_models():
            name = one_line(model.name or "", max_len=60)
            model_id = one_line(model.id, max_len=80)
            text = f"Model {name} · {model_id}" if name and name != model_id else f"Model {model_id}"
            current = model.id == app.ctx.model_id
            help_text = "the model the app is about now" if current else "make the app about this model"
            items.append(_Item(text, help_text, partial(app.switch_model, model.id)))
        return items


class RunsProvider(_LoadedProvider):
    """Hits "Run <id> · <status>": watch that run."""

    NOUN = "runs"

    async def load(self, client: BlahClient) -> list[_Item]:
        items = []
        for run in await client.list_runs():
            status = one_line(run.status or "status unknown", max_len=20)
            models = "—" if run.model_ids is None else str(len(run.model_ids))
            text = f"Run {one_line(run.id, max_len=60)} · {status} · {models} models"
            items.append(_Item(text, "watch this run", partial(self._watch, run)))
        return items

    def _watch(self, run: Run) -> None:
        from tui.screens.runs.watch import RunWatchScreen

        self.blah_app.push_screen(RunWatchScreen(run.id, initial=run))


class ChatroomProvider(_LoadedProvider):
    """Recent chatroom messages: opening one shows the call that wrote it in the inspector.

    A message is found by the words typed (each one somewhere in it), not by scattered
    letters: long messages hold the letters of nearly any word ("training" in "the
    tinystories went to sleep under a big tree"). They rank last of all the palette offers."""

    NOUN = "messages"
    WEIGHT = 0.5

    def score(self, matcher: Matcher, query: str, item: _Item) -> float:
        text = item.text.casefold()
        words = query.casefold().split()
        if not words or not all(word in text for word in words):
            return 0.0
        return max(matcher.match(item.text), 1.0)

    async def load(self, client: BlahClient) -> list[_Item]:
        page = await client.chatroom(limit=50)
        items = []
        for message in page.messages:
            author = one_line(message.author_name or message.model_id or message.author_kind or "someone", max_len=30)
            content = one_line(message.content or "", max_len=70) or "(empty)"
            text = f"Message {author}: {content}"
            help_text = "open the call behind it in the inspector" if message.log_id else "written by a person: no call"
            items.append(_Item(text, help_text, self._opener(message.id, message.log_id)))
        return items

    def _opener(self, message_id: str, log_id: str | None) -> Callable[[], Awaitable[None]]:
        app = self.blah_app

        async def open_message() -> None:
            target = log_id
            if target is None and app.ctx.client is not None:
                try:
                    detail = await app.ctx.client.chatroom_message(message_id)
                except Exception as error:
                    from tui.base_screen import describe_error

                    app.notify(describe_error(error), title="Message not opened", severity="error", markup=False)
                    return
                target = detail.log_id or (detail.log.id if detail.log else None)
            if target is None:
                app.notify("A person wrote this message: there is no call to open.", markup=False)
                return
            app.open_log(target)

        return open_message


class LogIdProvider(_BlahProvider):
    """Type (or paste) a call's id: open it in the inspector."""

    async def search(self, query: str) -> Hits:
        typed = query.strip()
        if not looks_like_log_id(typed):
            return
        shown = one_line(typed, max_len=80)
        text = f"Open call {shown} in the inspector"
        # ids usually carry digits or separators; plain words rank below commands
        score = 0.95 if re.search(r"[\d_\-]", typed) else 0.2
        app = self.blah_app
        yield Hit(score, Content(text), lambda: app.open_log(typed), text=text, help="a log id: open that call")


PALETTE_PROVIDERS: tuple[type[Provider], ...] = (
    KeysProvider,
    ModelsProvider,
    RunsProvider,
    ChatroomProvider,
    LogIdProvider,
)
