"""The blah-tui application: one top-level screen per area, switched by number keys and the
command palette (Textual modes). Built by ``create_app`` for the CLI and the tests alike."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import Provider
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.signal import Signal

from api_client.errors import AuthError, BlahError, NotFoundError, UnreachableError
from application.session.context import AppContext
from common.gc_tuning import CHECK_SECONDS, IdleCollector, startup_done
from tui.messages import MISSING_MODEL_STATE, ConnectionState, ModelEvent
from tui.registry import MODE_SPECS, PLATFORM_AREA_NEEDS, PLATFORM_AREAS, WORKFLOWS, WorkflowSpec
from tui.text_focus import leave_text_box, typing_in

if TYPE_CHECKING:
    from application.webhooks.receiver import WebhookDelivery

THEMES_DIR = Path(__file__).resolve().parent.parent / "themes"
AREAS = Binding.Group("Areas", compact=True)

#: vim movement -> the first action the focused widget has (DataTable, OptionList, ListView, scrollables)
VIM_ACTIONS: dict[str, tuple[str, ...]] = {
    "down": ("cursor_down", "scroll_down"),
    "up": ("cursor_up", "scroll_up"),
    "top": ("scroll_top", "first", "scroll_home"),
    "bottom": ("scroll_bottom", "last", "scroll_end"),
}


PALETTE_PROVIDER_NAMES = ("KeysProvider", "ModelsProvider", "RunsProvider", "ChatroomProvider", "LogIdProvider")
"""``tui.palette.PALETTE_PROVIDERS`` by name: Textual loads a provider given as a callable when the
palette first opens, so the palette's module is not on the way to the first frame."""


def palette_provider(name: str) -> type[Provider]:
    """The command palette's provider class ``name`` (``tui.palette``), imported when asked."""
    from tui import palette

    provider: type[Provider] = getattr(palette, name)
    return provider


class BlahApp(App[None]):
    """blah-tui. Screens read the session from ``self.ctx``; nothing here does IO itself."""

    TITLE = "blah-tui"
    CSS_PATH = THEMES_DIR / "app.tcss"
    ENABLE_COMMAND_PALETTE = True

    BINDINGS = [
        # Esc, right after the screen's own keys and only while it does something (check_action):
        # leave the text box being typed in, else close the screen pushed on top of an area.
        Binding("escape", "leave_input", "Leave the text box", id="app.leave_input"),
        Binding("escape", "go_back", "Back", id="app.back"),
        # Then help, then the areas as one compact group ("1234567890 Areas"), so small
        # terminals still show what matters.
        Binding("question_mark", "help", "Help", id="app.help"),
        *(
            Binding(spec.key, f"area('{spec.name}')", spec.title, id=f"mode.{spec.name}", group=AREAS)
            for spec in MODE_SPECS
            if spec.key  # areas without a number key are reached through the palette
        ),
        *(  # another platform's areas: offered only when its client is configured (check_action)
            Binding(spec.key, f"area('{spec.name}')", spec.title, id=f"mode.{spec.name}", group=AREAS)
            for spec in PLATFORM_AREAS
        ),
        # ctrl+p as well as ":" (Textual binds ctrl+p itself only when no key opens the palette).
        Binding("colon,ctrl+p", "command_palette", "Palette", id="app.palette"),  # pinned right by KeyFooter
        Binding("q", "quit", "Quit", id="app.quit"),
        # Conventions of terminal apps, for screens that do not define these keys themselves
        # (a screen's own binding always wins): search, vim movement in lists.
        Binding("slash", "search", "Search", show=False, id="app.search"),
        Binding("j", "vim('down')", "Down", show=False, id="app.down"),
        Binding("k", "vim('up')", "Up", show=False, id="app.up"),
        Binding("g", "vim('top')", "First", show=False, id="app.first"),
        Binding("G", "vim('bottom')", "Last", show=False, id="app.last"),
    ]

    COMMANDS = App.COMMANDS | {partial(palette_provider, name) for name in PALETTE_PROVIDER_NAMES}

    MODES = {spec.name: spec.factory for spec in (*MODE_SPECS, *PLATFORM_AREAS)}

    connection: reactive[ConnectionState] = reactive(ConnectionState("connecting"))

    def __init__(self, ctx: AppContext) -> None:
        # The first screen is the start area's own, mounted at once. Switching to it from
        # Textual's blank default screen built that screen too, and held the first frames back
        # for 50 ms to hide a transition from a screen nobody saw (``App.delay_update``).
        start = ctx.settings.start_mode  # e.g. "chatroom": open there instead of Logs
        # Textual declares DEFAULT_MODE a ClassVar, yet reads it from the app: set per run
        self.DEFAULT_MODE = start if start in self.MODES else MODE_SPECS[0].name  # type: ignore[misc]
        super().__init__()
        self.ctx = ctx
        self.chatroom_enabled: dict[str, bool] = {}  # per model id, as the platform last said
        self._missing_model: str | None = None  # the platform said 404 for this --model
        self.model_signal: Signal[ModelEvent] = Signal(self, "model")
        self._idle_collector: IdleCollector | None = None
        self._theme_applied = False  # the configured theme (or its fallback) is set: later changes are the person's
        if not ctx.online:
            self.set_reactive(BlahApp.connection, ConnectionState("offline", "no network: browsing a file"))

    def run(self, **kwargs: Any) -> None:
        """Run the app in this process (the CLI and ``serve``; tests use ``run_test``).

        First ``gc.freeze()``: the ~50,000 objects the imports left for the collector to track
        (classes, functions, module data) live as long as the process, yet every full collection
        walked them again, one of them while the first screen was being built. Frozen, the
        collector skips them: the Logs screen's first frame over a million calls came ~45 ms
        sooner (CPU, loaded machine), and later pauses are shorter too.
        """
        startup_done()  # the CLI turned the collector off for the start's imports (common/gc_tuning.py)
        self.enable_idle_collection()
        return super().run(**kwargs)

    def enable_idle_collection(self) -> None:
        """Full garbage collections only while the person is idle
        (``common.gc_tuning``): the person's app does this in ``run``;
        call it before ``run_test`` to measure the same."""
        if self._idle_collector is None:
            self._idle_collector = IdleCollector()
            self._idle_collector.install()

    async def on_event(self, event: events.Event) -> None:
        if self._idle_collector is not None and isinstance(event, events.InputEvent):
            self._idle_collector.input_seen()
        await super().on_event(event)

    def _install_themes(self) -> None:
        """Register our themes and the person's, then apply the configured one (falling back,
        with a message, when it is unknown or broken)."""
        from application.session.paths import data_dir
        from themes.builtin import BUILTIN_THEMES, load_user_themes

        for theme in BUILTIN_THEMES:
            self.register_theme(theme)
        for loaded in load_user_themes(data_dir() / "themes"):
            if loaded.theme is None:
                self.notify(f"Theme not loaded: {loaded.problem}", severity="warning", markup=False)
            else:
                self.register_theme(loaded.theme)
        wanted = self.ctx.settings.theme
        if wanted not in self.available_themes:
            self.notify(f"Unknown theme {wanted!r}; using blah-dark", severity="warning", markup=False)
            wanted = "blah-dark"
        self.theme = wanted
        self._theme_applied = True

    def watch_theme(self, theme: str) -> None:
        """Remember the person's choice (made in the palette) in the config file; not the
        start-up's fallback from an unknown or broken theme (that is for this run only)."""
        if self._theme_applied and theme != self.ctx.settings.theme and self.ctx.settings.persist_theme:
            self.ctx.settings.theme = theme
            try:
                from application.session.settings.config import save_setting

                save_setting("theme", theme)
            except Exception:
                pass

    def on_load(self) -> None:
        self._install_themes()

    def on_mount(self) -> None:
        if self._idle_collector is not None:
            self.set_interval(CHECK_SECONDS, self._idle_collector.tick, name="idle garbage collection")
        keymap = self.ctx.settings.keymap
        if keymap:
            self.set_keymap(dict(keymap))
            self._report_keymap(dict(keymap))
        self.sub_title = f"{self.ctx.platform_label} · {self.ctx.model_id}"
        problem = self.ctx.config_problem
        if problem:
            self.notify(problem, title="Config file problem", severity="warning", markup=False, timeout=15)
        if self.ctx.blobfish_problem:
            self.notify(self.ctx.blobfish_problem, title="Blobfish", severity="warning", markup=False, timeout=15)
        key_problem = self.ctx.key_problem
        if key_problem:
            self.notify(
                f"{key_problem}. Reading works; writes will be refused until a key is given "
                "(--api-key or EVALS_BLAH_API_KEY).",
                title="No API key",
                severity="warning",
                markup=False,
                timeout=20,
            )
        if self.ctx.open_log_id:
            self.open_log(self.ctx.open_log_id)
        if self.ctx.open_bundle is not None:
            from tui.screens.bakeoffs.bundle_view import BundleScreen

            self.push_screen(BundleScreen(self.ctx.open_bundle))
        if self.ctx.client is not None:
            self._check_model_exists()

    @work(exclusive=True, group="app.model-check", exit_on_error=False)
    async def _check_model_exists(self) -> None:
        """`--model nope`: say once, plainly, that the platform has no such model and how to go
        on (every screen would otherwise only show its own 404). Other errors are left to the
        screens, which report connection trouble themselves."""
        client, model_id = self.ctx.client, self.ctx.model_id
        if client is None:
            return
        try:
            await client.get_model(model_id)
        except NotFoundError:
            if model_id == self.ctx.model_id:
                self._missing_model = model_id
                self.connection = ConnectionState(MISSING_MODEL_STATE)
                self.notify(
                    missing_model_message(model_id, self.ctx.platform, self.ctx.base_url),
                    title="Unknown model",
                    severity="error",
                    markup=False,
                    timeout=30,
                )
        except BlahError:
            pass

    # ----------------------------------------------------------------- connection state

    def note_connection(self, error: BaseException | None) -> None:
        """Screens call this after each request: None for success, else the error."""
        if not self.ctx.online:
            return
        missing = self._missing_model is not None and self._missing_model == self.ctx.model_id
        if missing and (error is None or isinstance(error, NotFoundError)):
            # The platform answers, but not about this model: "connected" beside the Logs
            # screen's "stopped" would read as a contradiction.
            self.connection = ConnectionState(MISSING_MODEL_STATE)
            return
        if error is None:
            self.connection = ConnectionState("connected")
        elif isinstance(error, UnreachableError):
            self.connection = ConnectionState("error", "unreachable")
        elif isinstance(error, AuthError):
            self.connection = ConnectionState("connected", "key refused")
        elif isinstance(error, NotFoundError):
            self.connection = ConnectionState("connected")
        elif isinstance(error, BlahError):
            self.connection = ConnectionState("error", type(error).__name__)

    # ----------------------------------------------------------------- the model the app is about

    def switch_model(self, model_id: str) -> None:
        """Make the app about another model: the session, every header, and the screens
        (which subscribe to ``model_signal`` to reload) all follow."""
        if not model_id or model_id == self.ctx.model_id:
            return
        from widgets.safe_text import one_line

        self.ctx.model_id = model_id
        self.ctx.trained_template = self.ctx.settings.templates.get(model_id)
        self.sub_title = f"{self.ctx.platform_label} · {model_id}"
        self.model_signal.publish(ModelEvent("switched", model_id))
        self.notify(f"Now about model {one_line(model_id, max_len=80)}", title="Model switched", markup=False)

    def note_chatroom_enabled(self, model_id: str, enabled: bool | None) -> None:
        """Record what the platform said about a model's chatroom state (None: it did not say)."""
        if enabled is None or self.chatroom_enabled.get(model_id) == enabled:
            return
        self.chatroom_enabled[model_id] = enabled
        self.model_signal.publish(ModelEvent("chatroom", model_id))

    # ----------------------------------------------------------------- webhooks

    def handle_webhook_event(self, delivery: WebhookDelivery) -> None:
        """A verified webhook reached the local receiver: notify, and refresh what shows it."""
        from tui.screens.webhooks.events import dispatch_webhook_event

        dispatch_webhook_event(self, delivery)

    def on_unmount(self) -> None:
        if self._idle_collector is not None:
            self._idle_collector.uninstall()  # the process's collector as it was
        # The local webhook receiver, if one was started: only that module starts one, so
        # when it was never imported there is nothing to close (and no reason to import it,
        # with its HTTP server, on the way out).
        listen = sys.modules.get("tui.screens.webhooks.listen")
        if listen is not None:
            listen.close_listener(self)

    # ----------------------------------------------------------------- navigation

    def open_log(self, log_id: str) -> None:
        """Open one call in the inspector (from any screen)."""
        from tui.screens.inspector.screen import InspectorScreen

        self.push_screen(InspectorScreen(log_id))

    def open_bakeoff(self, run_id: str) -> None:
        """Open Compare's Bake-offs view on one errorbar run (the run watch's ``v``)."""
        from tui.screens.bakeoffs.screen import BakeoffScreen

        self.push_screen(BakeoffScreen(select_id=run_id))

    def open_bench_publish(self, slug: str, run_id: str) -> None:
        """Open Leaderboard's publish dialog for one completed suite run (the suite watch's ``P``);
        through the app, so the runs area does not import the leaderboard area."""
        from tui.screens.leaderboard.publish import PublishBenchRunScreen

        self.push_screen(PublishBenchRunScreen(slug, run_id))

    async def open_workflow(self, workflow: WorkflowSpec) -> None:
        """A palette workflow: its area's own screen, then the area's action that starts it."""
        await self.action_area(workflow.area)
        await self.run_action(workflow.action, self.screen)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for spec in (*MODE_SPECS, *PLATFORM_AREAS):
            if self.area_available(spec.name):
                yield SystemCommand(
                    f"Go to {spec.title}", spec.description, lambda name=spec.name: self.action_area(name)
                )
        for workflow in WORKFLOWS:
            if workflow.needs is None or getattr(self.ctx, workflow.needs, None) is not None:
                yield SystemCommand(workflow.title, workflow.description, partial(self.open_workflow, workflow))
        from tui import palette_settings

        yield SystemCommand(
            "Help: keys and badges", "The keys of this screen and what the badges mean (?)", self.action_help
        )
        yield SystemCommand("API key: where it comes from", "Its source (never the key itself)", self.show_key_source)
        yield SystemCommand(
            "Set poll interval…",
            "How often screens ask the platform (saved to the config file)",
            lambda: palette_settings.prompt_poll_interval(self),
        )
        yield SystemCommand(
            "Toggle bell on run end",
            "Ring the terminal bell when a watched run finishes (saved)",
            lambda: palette_settings.toggle_bell(self),
        )
        yield SystemCommand(
            "Set trained chat template for this model…",
            "The template the model was trained with (saved)",
            lambda: palette_settings.prompt_trained_template(self),
        )

    # ----------------------------------------------------------------- keys

    def _report_keymap(self, keymap: dict[str, str]) -> None:
        """Say which keymap entries name no key or clash with another key (never fatal)."""
        from tui.help import keymap_problems

        problems = keymap_problems(keymap)
        if problems:
            self.notify("\n".join(problems), title="Keymap", severity="warning", markup=False, timeout=15)

    KEY_SOURCES = {
        "flag": "the --api-key flag",
        "env": "$EVALS_BLAH_API_KEY",
        "config": "the file written by `blah-tui login`",
        "keyring": "the system keyring (blah-tui login)",
        "demo": "the demo simulator",
        "none": "none",
    }

    def show_key_source(self) -> None:
        """Name where the key comes from; never show any part of it."""
        source = self.KEY_SOURCES.get(self.ctx.key_source, self.ctx.key_source)
        state = "no API key" if self.ctx.key_source == "none" else "API key set"
        extra = self.ctx.key_problem
        self.notify(f"{state}; source: {source}" + (f"\n{extra}" if extra else ""), title="API key", markup=False)

    def action_help(self) -> None:
        """`?`: the keys of the current screen (with their ids) and the badge legend."""
        from tui.screens.help.screen import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def action_search(self) -> None:
        """`/` on a screen without a search of its own: search everything in the palette."""
        self.action_command_palette()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc's two meanings are offered (and shown in the footer) only where they apply;
        otherwise the key goes on to the next binding."""
        if action == "leave_input":
            return typing_in(self.screen)
        if action == "go_back":
            return self._pushed_screen_on_top()
        if action == "area" and parameters:
            return self.area_available(str(parameters[0]))
        return True

    def area_available(self, name: str) -> bool:
        """An area of another platform needs that platform's client in the session."""
        need = PLATFORM_AREA_NEEDS.get(name)
        return need is None or getattr(self.ctx, need, None) is not None

    def _pushed_screen_on_top(self) -> bool:
        """A screen pushed over an area (not a dialog, which handles Esc itself)."""
        return len(self.screen_stack) > 1 and not isinstance(self.screen, ModalScreen)

    def action_leave_input(self) -> None:
        """Esc in a text box: give the keys back to the screen (its own choice of widget)."""
        screen = self.screen
        leave = getattr(screen, "leave_text_input", None)
        if callable(leave):
            leave()
        else:
            leave_text_box(screen)

    def action_go_back(self) -> None:
        """Esc: close the screen pushed on top of an area (dialogs handle Esc themselves)."""
        if self._pushed_screen_on_top():
            self.pop_screen()

    async def action_area(self, name: str) -> None:
        """An area key (or "Go to …"): show that area's own screen. Screens pushed on top of
        the area being left, or of the one arrived at, are closed: the key means the area, not
        whatever was last opened over it (dialogs keep their keys: they never get here)."""
        await self._close_pushed_screens()
        if self.current_mode != name:
            await self.switch_mode(name)
            await self._close_pushed_screens()

    async def _close_pushed_screens(self) -> None:
        while self._pushed_screen_on_top():
            await self.pop_screen()

    async def action_vim(self, direction: str) -> None:
        """j/k/g/G on a focused list or scrollable that has no such key of its own."""
        focused = self.screen.focused
        if focused is None:
            return
        for action in VIM_ACTIONS.get(direction, ()):
            if hasattr(focused, f"action_{action}"):
                await self.run_action(action, focused)
                return


def missing_model_message(model_id: str, platform: str, base_url: str | None) -> str:
    """``model 'nope' not found on blah.dev (https://…); press 6 to pick a model``."""
    from widgets.safe_text import one_line

    where = f"{platform} ({base_url})" if base_url else platform
    key = next((spec.key for spec in MODE_SPECS if spec.name == "models" and spec.key), None)
    way_on = f"press {key} to pick a model" if key else "open Models to pick a model"
    return f"model {one_line(model_id, max_len=80)!r} not found on {one_line(where, max_len=120)}; {way_on}"


def create_app(ctx: AppContext) -> BlahApp:
    """The one factory shared by the CLI and the tests: the client is injected via ``ctx``."""
    return BlahApp(ctx)
