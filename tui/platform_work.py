"""One way for a screen to load from a platform: ``@platform_work`` (and ``open_list``).

Every loader of a screen did the same four steps: run as a ``@work`` worker whose failure is
not fatal, take the platform's client from the session, do nothing when there is none (offline,
or that platform not configured: the screen says so where it decides to load), and let a
failure go on to ``BlahScreen.on_worker_state_changed`` (the one place a failed worker becomes
a notification and the app's connection state). The decorator does the first three (and,
given ``offline=(caption id, sentence)``, says the sentence in that caption instead of
loading); the method receives the client as its first argument and is called without it::

    @platform_work(exclusive=True, group="games-load")
    async def load(self, client: BlahClient, select: str | None = None) -> None: ...

    self.load(select="g1")
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar, cast

from rich.text import Text
from textual import work
from textual.widgets import Static
from textual.worker import Worker

from tui.base_screen import BlahScreen

P = ParamSpec("P")
S = TypeVar("S", bound=BlahScreen)
R = TypeVar("R")

#: The session's clients a loader may ask for (``AppContext`` attributes).
Platform = Literal["client", "errorbar", "blobfish"]


def platform_work(
    platform: Platform = "client",
    *,
    group: str = "default",
    exclusive: bool = False,
    offline: tuple[str, str] | None = None,
) -> Callable[[Callable[Concatenate[S, Any, P], Awaitable[R]]], Callable[Concatenate[S, P], Worker[R | None]]]:
    """A screen method as a worker (``exit_on_error=False``) given ``ctx.<platform>``; with no
    such client the worker ends at once and returns None, after saying ``offline[1]`` in the
    ``Static`` whose id is ``offline[0]`` when given."""

    def decorate(
        method: Callable[Concatenate[S, Any, P], Awaitable[R]],
    ) -> Callable[Concatenate[S, P], Worker[R | None]]:
        @wraps(method)
        async def with_client(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R | None:
            client = getattr(self.ctx, platform)
            if client is None:
                if offline is not None:
                    caption_id, sentence = offline
                    self.query_one(f"#{caption_id}", Static).update(Text(sentence))
                return None
            return await method(self, client, *args, **kwargs)

        # Textual's ``work`` types the method it wraps as it was written: here, without the client.
        return cast(
            "Callable[Concatenate[S, P], Worker[R | None]]",
            work(exclusive=exclusive, group=group, exit_on_error=False)(with_client),
        )

    return decorate


def open_list(
    screen: BlahScreen,
    table_selector: str,
    load: Callable[[], object],
    say_offline: Callable[[], object],
    platform: Platform = "client",
) -> None:
    """The mount of a screen that lists a platform's things: the list (``table_selector``) takes
    the focus; with no client the screen says why (``say_offline``) instead of loading. A screen
    closed while it opened (an area key pressed at once) has no list any more: nothing to do."""
    tables = screen.query(table_selector)
    if not tables:
        return
    tables.first().focus()
    if getattr(screen.ctx, platform) is None:
        say_offline()
        return
    load()
