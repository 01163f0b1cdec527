"""What the screens, the palette and the webhook listener use of the app, as a Protocol.

``BlahApp`` (tui/app.py) imports the screens and the palette to build its modes; they see the
app only through :class:`BlahAppApi`, so nothing imports ``tui.app`` back and the tui package
has no import circle (import-linter's ``acyclic_siblings`` contract ignores no import).
``BlahApp`` satisfies it structurally: no registration, no base class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.signal import Signal

if TYPE_CHECKING:
    from application.session.context import AppContext
    from application.webhooks.receiver import WebhookDelivery
    from tui.messages import ModelEvent


class BlahAppApi(Protocol):
    """The app as its screens know it: the session, what it tracks for every screen, the
    places any screen can open, and the few Textual ``App`` methods called through this type."""

    MODES: ClassVar[dict[str, str | Callable[[], Screen[Any]]]]  # as Textual's App declares it
    ctx: AppContext
    chatroom_enabled: dict[str, bool]
    """Per model id, as the platform last said."""
    model_signal: Signal[ModelEvent]

    def note_connection(self, error: BaseException | None) -> None:
        """After each request: None for success, else the error."""

    def switch_model(self, model_id: str) -> None:
        """Make the app about another model (every header and screen follows)."""

    def note_chatroom_enabled(self, model_id: str, enabled: bool | None) -> None:
        """Record what the platform said about a model's chatroom state."""

    def handle_webhook_event(self, delivery: WebhookDelivery) -> None:
        """A verified webhook reached the local receiver."""

    def open_log(self, log_id: str) -> None:
        """Open one call in the Inspector."""

    def open_bakeoff(self, run_id: str) -> None:
        """Open Compare's Bake-offs view on one errorbar run."""

    def open_bench_publish(self, slug: str, run_id: str) -> None:
        """Open Leaderboard's publish dialog for one completed suite run."""

    # Textual's App, as far as it is used through this type.
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    def push_screen(
        self,
        screen: Screen[Any] | str,
        callback: Callable[[Any], Any] | None = None,
        wait_for_dismiss: bool = False,
        *,
        mode: str | None = None,
    ) -> Any: ...

    def get_screen_stack(self, mode: str | None = None) -> list[Screen[Any]]: ...

    async def run_action(self, action: str, default_namespace: Any = None, namespaces: Any = None) -> bool: ...

    def get_key_display(self, binding: Binding) -> str: ...
